"""``python -m kcref``: the same as the ``kcref`` command."""

from .cli import main

main(prog_name="kcref")
