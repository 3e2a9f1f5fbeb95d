"""kcref's folder in the user's cache: ``$XDG_CACHE_HOME/kcref``, else ``~/.cache/kcref``; on
Windows ``%LOCALAPPDATA%\\kcref``. It holds what belongs to the user, never to a project: the
secret that signs the verdict cache (:mod:`kcref.files.cache_secret`) and the report's templates
compiled once (:mod:`kcref.apps.report.page`).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping


class NoUserCache(Exception):
    """There is no folder for the user's cache (no home folder); the message says why."""


def user_cache_folder(environ: Mapping[str, str]) -> str:
    """kcref's folder in the user's cache (it may not exist yet). Raises :class:`NoUserCache`
    when there is no home folder."""
    if os.name == "nt":
        base = environ.get("LOCALAPPDATA", "")
    else:
        base = environ.get("XDG_CACHE_HOME", "")
        if not os.path.isabs(base):  # a relative XDG_CACHE_HOME is invalid and ignored (the XDG spec)
            base = os.path.join(os.path.expanduser("~"), ".cache")
    if not os.path.isabs(base):
        raise NoUserCache("no home folder")
    return os.path.join(base, "kcref")


def private_folder(environ: Mapping[str, str], name: str) -> str | None:
    """The folder ``name`` in kcref's user cache, made if need be, that only the user may read or
    write; None when it cannot be made, or is not such a folder (a link, another owner's, open to
    others): what is kept there is then not kept."""
    try:
        folder = os.path.join(user_cache_folder(environ), name)
        os.makedirs(folder, mode=0o700, exist_ok=True)
        found = os.lstat(folder)
    except (NoUserCache, OSError):
        return None
    if not stat.S_ISDIR(found.st_mode):
        return None
    if hasattr(os, "geteuid") and (found.st_uid != os.geteuid() or found.st_mode & 0o077):
        return None
    return folder
