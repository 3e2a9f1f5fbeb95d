"""``kcref lsp``: the language server that judges a log as it is typed (pygls and lsprotocol,
the optional extra ``kcref[lsp]``, imported by this package's server alone).

:mod:`.judging` judges a document as ``kcref check`` does, again only from the edited hand on;
:mod:`.document` holds what the features read; :mod:`.features` answers each request;
:mod:`.server` speaks the protocol."""
