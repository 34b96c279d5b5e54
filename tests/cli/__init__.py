"""The command-line interface: every `arena` command, as a user and a script meet it."""
