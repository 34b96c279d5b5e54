"""Tests of ratings, intervals, head to head, SPRT and arena ab, from records alone."""
