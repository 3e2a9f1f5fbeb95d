"""The applications: one module or subpackage per command that runs things (bots, servers)."""
