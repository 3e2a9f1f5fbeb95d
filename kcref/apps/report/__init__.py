"""``kcref report``: what the page shows, the page, where it goes (and ``--watch``)."""
