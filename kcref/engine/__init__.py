"""The rules engine: the table, legal moves, turns, rule faults, dealing and bots."""
