"""``python -m kcref``: the same as the ``kcref`` command."""

from .cli import run

run()
