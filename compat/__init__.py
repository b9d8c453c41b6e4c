"""compat: the differential conformance harness (torch vs shadowgrad)."""
