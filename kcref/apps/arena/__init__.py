"""``kcref arena``: bots against bots on duplicate deals, in local processes or on a Dask
cluster, with the statistics that say which is better (docs/arena.md).

``entrants`` loads the bots a command line names, ``protocol`` speaks the JSON-lines protocol
with a bot's program (docs/bot-protocol.md), ``games`` plays one game, ``run`` plays them all,
``results`` prints what they show.
"""
