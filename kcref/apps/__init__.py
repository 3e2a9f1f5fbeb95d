"""The applications: one module or package per command that runs things (reads files, starts
workers, loops, polls), each calling the layers below; the click commands of ``kcref.cli`` call them."""
