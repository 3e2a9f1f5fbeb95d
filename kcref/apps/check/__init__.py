"""``kcref check``: the run, its settings and its verdict cache."""
