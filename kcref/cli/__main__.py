"""``python -m kcref.cli``: the same as the ``kcref`` command."""

from . import main

main(prog_name="kcref")
