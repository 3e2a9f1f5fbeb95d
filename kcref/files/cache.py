"""The verdict cache of ``kcref check``: what checking an unchanged file gave, kept on disk.

As ruff does, a folder (``.kcref_cache/`` in the working folder by default) holds one JSON file
per checked file, named by a hash of the file's absolute path. An entry holds its key (a hash
of the file's bytes, the kcref version and the settings that change what the check finds) and
plain JSON data, which the caller writes and reads back: an entry whose key differs, or that
cannot be read, is not used. Writes are atomic (a temporary file put in place); a folder that
cannot be written is not used, and the check goes on without it.
"""

from __future__ import annotations

import os
import stat
from typing import Any

CACHE_DIR = ".kcref_cache"
"""The cache folder's default name, in the working folder."""

NO_CACHE_ENV = "KCREF_NO_CACHE"
"""Set to ``1`` (or any non-empty value but ``0``), this environment variable turns the cache off."""

LAYOUT = "1"
"""The layout of an entry: a change makes every older entry foreign."""

MAX_BYTES = 2 * 1024 * 1024
"""A larger file is not cached: its entry is held whole in memory while the file is checked (some
eight times the file's size), where an uncached check streams in flat memory. A night's log is a
few kilobytes; 2 MiB holds some 3,500 hands."""

CACHEDIR_TAG = ("Signature: 8a477f597d28d172789f06886806bc55\n"
                "# This file is a cache directory tag created by kcref.\n"
                "# For information about cache directory tags see https://bford.info/cachedir/\n")

Entry = dict[str, Any]
"""An entry's data: plain JSON types."""


def cache_off(environ: dict[str, str] | os._Environ[str]) -> bool:
    """Whether the environment turns the cache off (:data:`NO_CACHE_ENV`)."""
    return environ.get(NO_CACHE_ENV, "") not in ("", "0")


class Cache:
    """The cache folder at ``folder`` (created when the first entry is written)."""

    def __init__(self, folder: str = CACHE_DIR) -> None:
        self.folder = folder
        self.usable: bool | None = None
        """Whether the folder can be written (``None``: not tried yet)."""

    @staticmethod
    def read(path: str) -> bytes | None:
        """The bytes of the file at ``path`` when it may be cached, else ``None`` (standard input,
        not a regular file, too large, unreadable). The caller checks these very bytes, keyed by
        :meth:`key`: a file that changes meanwhile cannot pair its old key with new results."""
        if path == "-":
            return None
        try:
            # A FIFO or a device is read once, by the check: only a regular file is opened here.
            found = os.stat(path)
            if not stat.S_ISREG(found.st_mode) or found.st_size > MAX_BYTES:
                return None
            with open(path, "rb") as file:
                data = file.read(MAX_BYTES + 1)
        except OSError:
            return None
        return data if len(data) <= MAX_BYTES else None

    @staticmethod
    def key(data: bytes, fingerprint: str) -> str:
        """The key of a file's bytes ``data`` checked under ``fingerprint`` (what else changes the
        result): with the kcref version and the entry layout."""
        import hashlib

        from ..model.version import VERSION

        digest = hashlib.sha256(data)
        digest.update(f"\0{LAYOUT}\0{VERSION}\0{fingerprint}".encode("utf-8", "surrogateescape"))
        return digest.hexdigest()

    def _file(self, path: str) -> str:
        import hashlib

        name = hashlib.sha256(os.path.abspath(path).encode("utf-8", "surrogateescape")).hexdigest()[:32]
        return os.path.join(self.folder, name + ".json")

    def load(self, path: str, key: str) -> Entry | None:
        """The entry of ``path`` if its key is ``key``; ``None`` if there is none, or it is
        foreign, or it cannot be read."""
        import json

        try:
            with open(self._file(path), encoding="utf-8") as file:
                entry = json.load(file)
        except (OSError, ValueError):
            return None
        if not isinstance(entry, dict) or entry.get("key") != key:
            return None
        return entry

    def store(self, path: str, key: str, entry: Entry) -> None:
        """Keep ``entry`` for ``path`` under ``key`` (silently not, if the folder cannot be written)."""
        if not self._ready():
            return
        import json
        import tempfile

        data = json.dumps({**entry, "key": key}, ensure_ascii=False, separators=(",", ":"))
        try:
            fd, temp = tempfile.mkstemp(dir=self.folder, suffix=".tmp")
        except OSError:
            self.usable = False
            return
        try:
            with os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape") as file:
                file.write(data)
            os.replace(temp, self._file(path))
        except OSError:
            try:
                os.unlink(temp)
            except OSError:
                pass

    def _ready(self) -> bool:
        """Make the folder, with a ``CACHEDIR.TAG`` and a ``.gitignore`` of ``*``, as ruff does."""
        if self.usable is None:
            try:
                os.makedirs(self.folder, exist_ok=True)
                for name, text in (("CACHEDIR.TAG", CACHEDIR_TAG), (".gitignore", "# Created by kcref.\n*\n")):
                    target = os.path.join(self.folder, name)
                    if not os.path.exists(target):
                        with open(target, "w", encoding="utf-8") as file:
                            file.write(text)
                self.usable = True
            except OSError:
                self.usable = False
        return self.usable
