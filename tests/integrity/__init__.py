"""Tests that strangers' bots cannot cheat, escape or learn what they may not see."""
