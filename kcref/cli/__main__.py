"""``python -m kcref.cli``: the same as the ``kcref`` command."""

from . import run

run()
