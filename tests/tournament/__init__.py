"""Tests of tournament configs, formats, executors, resume and standings."""
