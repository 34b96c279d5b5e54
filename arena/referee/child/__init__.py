"""The referee's room of child processes and what they say: a bot in a process of its own.

``_process`` starts a child under its limits (in the sandbox, see :mod:`..sandbox`),
``_channel`` carries its lines, ``_protocol`` is the JSON-lines codec of docs/protocol.md,
``_wire`` the views on the wire (full and delta), ``_talk`` the start handshake, and
``__main__`` the child itself (``python -m arena.referee.child --bot REF ...``).
Private: the face is :mod:`arena.referee.lowlevel`.
"""
