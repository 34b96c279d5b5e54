"""Tests of the referee: the match loop, every host, the protocol, faults and limits."""
