"""Built-in strategies, registered through the ``arena.bots`` entry-point group."""
