"""The applications built on the library: one package per long-running program (``kcref lsp``)."""
