"""``kcref record``: the session's loop, its view and its prompt."""
