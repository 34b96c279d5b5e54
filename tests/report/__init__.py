"""Tests of the HTML report, replays, saved standings and the match watchers."""
