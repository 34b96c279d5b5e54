"""Tests of the bot API, the plugin registry, the built-in bots and their commands."""
