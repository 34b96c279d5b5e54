"""The referee's room of hosts: where a seat's bot code runs, behind one interface.

``_host`` holds :class:`~arena.referee.hosts._host.Host` and the inline host, ``_process``
the ``process`` and ``command`` hosts (a child process per seat, see :mod:`..child`),
``_scoped`` the base for hosts written with cancel scopes, ``_memory`` the scripted host
for tests. The ``uecda`` host is in its own room, a person's seat in :mod:`arena.web`.
Private: the faces are :mod:`arena.referee`, :mod:`arena.referee.lowlevel` and
:mod:`arena.referee.testing`.
"""
