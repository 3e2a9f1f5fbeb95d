"""The verdict cache of ``kcref check``: what checking an unchanged file gave, kept on disk.

As ruff does, a folder (``.kcref_cache/`` in the working folder by default) holds one entry
per checked file, named by a hash of the file's absolute path. An entry holds its key (a hash
of the file's bytes, the kcref version and the settings that change what the check finds) and
plain JSON data, which the caller writes and reads back.

Anyone may write into a cache folder (a repository may commit one), so nothing in it is
trusted: an entry is its HMAC-SHA256 under the user's own secret (:mod:`.cache_secret`) on a
first line, then its JSON body; an entry whose HMAC does not check, whose key differs, or that
cannot be read is not used (and is written anew). Neither the folder nor an entry is read
through a symbolic link, nor anything written through one; a folder that holds files but no
``CACHEDIR.TAG`` of kcref's is not used; an entry that is not a regular file or is larger than
:data:`MAX_ENTRY_BYTES` is not opened; each such find is told once on standard error.
Writes are atomic (a temporary file put in place), and the temporary files of a run that was
killed are removed by the next. A folder that cannot be written is not used, and the check goes
on without it.
"""

from __future__ import annotations

import functools
import os
import stat
import sys
from collections.abc import Callable, Mapping
from typing import Any

from ..model.diagnostics import printable

CACHE_DIR = ".kcref_cache"
"""The cache folder's default name, in the working folder."""

NO_CACHE_ENV = "KCREF_NO_CACHE"
"""Set to ``1`` (or any non-empty value but ``0``), this environment variable turns the cache off."""

LAYOUT = "2"
"""The layout of an entry: a change makes every older entry foreign."""

MAX_BYTES = 2 * 1024 * 1024
"""A larger file is not cached: its entry is held whole in memory while the file is checked (some
eight times the file's size), where an uncached check streams in flat memory. A night's log is a
few kilobytes; 2 MiB holds some 3,500 hands."""

MAX_ENTRY_BYTES = 16 * MAX_BYTES
"""A larger entry is neither read nor written: room for the entry of any file that is cached."""

STALE_AGE = 300.0
"""A temporary file of the cache this many seconds old is a killed run's, whatever its process id."""

CACHEDIR_TAG = ("Signature: 8a477f597d28d172789f06886806bc55\n"
                "# This file is a cache directory tag created by kcref.\n"
                "# For information about cache directory tags see https://bford.info/cachedir/\n")

ENTRY_SUFFIX = ".entry"
"""The end of an entry's file name."""

Entry = dict[str, Any]
"""An entry's data: plain JSON types."""

Warn = Callable[[str], None]
"""Where a warning about the cache goes (a line of text, printable already)."""

_HEADER = f"kcref-cache {LAYOUT} ".encode("ascii")
"""What an entry's first line holds before its HMAC (in hexadecimal)."""

_NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0)
_FLAGS = getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
_AT = (hasattr(os, "O_DIRECTORY") and bool(_NO_FOLLOW) and os.open in os.supports_dir_fd
       and os.stat in os.supports_dir_fd and os.scandir in os.supports_fd)
"""Whether the folder is opened once and every name in it reached from that (where a folder
swapped for a link meanwhile cannot redirect a write); elsewhere (Windows) names are joined."""


def cache_off(environ: dict[str, str] | os._Environ[str]) -> bool:
    """Whether the environment turns the cache off (:data:`NO_CACHE_ENV`)."""
    return environ.get(NO_CACHE_ENV, "") not in ("", "0")


PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
"""The folder of the kcref package that runs."""


@functools.cache
def code_identity(package: str = PACKAGE) -> str:
    """What tells the code of this kcref from another's with the same version number (a checkout
    that moved on, a fix installed over a release): the name, size and modification time of
    every file of the ``package`` folder but Python's own byte-code caches. A cache entry made by
    other code is not used, so a change to kcref never leaves its old verdicts standing; a
    reinstall of the same code only costs one fresh check of each file."""
    import hashlib

    found = []
    for folder, subfolders, files in os.walk(package):
        subfolders[:] = [name for name in subfolders if name != "__pycache__"]
        for name in files:
            path = os.path.join(folder, name)
            try:
                st = os.stat(path)
            except OSError:
                continue
            found.append(f"{os.path.relpath(path, package)}\0{st.st_size}\0{st.st_mtime_ns}")
    return hashlib.sha256("\n".join(sorted(found)).encode("utf-8", "surrogateescape")).hexdigest()


def _to_stderr(text: str) -> None:
    try:
        print(text, file=sys.stderr, flush=True)
    except (OSError, ValueError, AttributeError):
        pass  # no standard error to tell: the cache goes on as it would


class Cache:
    """The cache folder at ``folder`` (created when the first entry is written), its entries
    signed with the secret found through ``environ`` (by default the process's), its warnings
    told to ``warn`` (by default standard error)."""

    def __init__(self, folder: str = CACHE_DIR, environ: Mapping[str, str] | None = None,
                 warn: Warn | None = None) -> None:
        self.folder = folder
        self.usable: bool | None = None
        """Whether the folder can be used (``None``: not tried yet, or not there yet)."""
        self._environ = os.environ if environ is None else environ
        self._warn = warn or _to_stderr
        self._warned: set[str] = set()
        self._fd: int | None = None
        """The folder, opened without following a link (with :data:`_AT`)."""
        self._secret = b""
        self._tagged = False

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
        result): with the kcref version, the code that judged it (:func:`code_identity`) and the
        entry layout."""
        import hashlib

        from ..model.version import VERSION

        digest = hashlib.sha256(data)
        digest.update(f"\0{LAYOUT}\0{VERSION}\0{code_identity()}\0{fingerprint}".encode("utf-8", "surrogateescape"))
        return digest.hexdigest()

    def load(self, path: str, key: str) -> Entry | None:
        """The entry of ``path`` if it is signed with the user's secret and its key is ``key``;
        ``None`` if there is none, or it is foreign, forged or cannot be read."""
        import json

        if not self._open(create=False):
            return None
        name = self._entry_name(path)
        data = self._read_entry(name)
        if data is None:
            return None
        head, newline, body = data.partition(b"\n")
        if not newline or not head.startswith(_HEADER) or not self._signed(head[len(_HEADER):], name, body):
            return None
        try:
            entry = json.loads(body)
        except (ValueError, RecursionError):
            return None
        if not isinstance(entry, dict) or entry.get("key") != key:
            return None
        return entry

    def store(self, path: str, key: str, entry: Entry) -> None:
        """Keep ``entry`` for ``path`` under ``key``, signed (silently not, if the folder cannot
        be written, or the entry would be too large to read back)."""
        import json

        from .atomic import FolderFile

        if not self._open(create=True) or not self._tag():
            return
        name = self._entry_name(path)
        body = json.dumps({**entry, "key": key}, separators=(",", ":")).encode("ascii")
        data = b"".join((_HEADER, self._mac(name, body).encode("ascii"), b"\n", body))
        if len(data) > MAX_ENTRY_BYTES:
            return
        opened = False
        try:
            with FolderFile(self.folder, self._fd, name) as entry_file:
                opened = True
                entry_file.write(data)
                entry_file.commit()
        except OSError:
            if not opened:
                self.usable = False  # no file can be made there

    def close(self) -> None:
        """Let go of the folder (it is opened again when next used)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        if self.usable:
            self.usable = None
        self._tagged = False

    # --- the folder --------------------------------------------------------------------------

    def _open(self, create: bool) -> bool:
        """Open the folder, never through a link; read the secret; make the folder if it is not
        there (with ``create``); make sure that it is kcref's; remove the temporary files of
        killed runs. Whether the cache can be used."""
        if self.usable is not None:
            return self.usable
        try:
            self._fd = self._open_folder()
            missing = False
        except FileNotFoundError:
            missing = True
        except OSError:
            return self._refuse()
        if missing and not create:
            return False
        if not self._secret:
            from .cache_secret import NoSecret, user_secret

            try:
                self._secret = user_secret(self._environ)
            except NoSecret as exc:
                self._tell("secret", f"kcref check: the cache's secret {exc}: the cache is not used")
                self.close()
                self.usable = False
                return False
        if missing:
            try:
                os.makedirs(self.folder, exist_ok=True)
                self._fd = self._open_folder()
            except OSError:
                return self._refuse()
        if not self._ours():
            self._tell("folder", f"kcref check: cache folder {self.folder} is not kcref's (it holds files, "
                                 "but no CACHEDIR.TAG of kcref's): not used")
            self.close()
            self.usable = False
            return False
        self.usable = True
        self._remove_stale()
        return True

    def _ours(self) -> bool:
        """Whether the folder is a cache of kcref's, or empty: a configuration file may name
        any folder as the cache's, and kcref writes into, and tidies, only its own."""
        try:
            found = os.stat(self._at("CACHEDIR.TAG"), dir_fd=self._fd, follow_symlinks=False)
        except FileNotFoundError:
            try:
                with os.scandir(self._fd if self._fd is not None else self.folder) as names:
                    return next(names, None) is None
            except OSError:
                return False
        except OSError:
            return False
        if not stat.S_ISREG(found.st_mode) or found.st_size != len(CACHEDIR_TAG):
            return False
        try:
            fd = os.open(self._at("CACHEDIR.TAG"), os.O_RDONLY | _NO_FOLLOW | getattr(os, "O_NONBLOCK", 0) | _FLAGS,
                         dir_fd=self._fd)
            with os.fdopen(fd, "rb") as file:
                return file.read(len(CACHEDIR_TAG) + 1) == CACHEDIR_TAG.encode("ascii")
        except OSError:
            return False

    def _open_folder(self) -> int | None:
        """The folder opened (with :data:`_AT`; else ``None``, once it is known to be a folder)."""
        if _AT:
            return os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY | _NO_FOLLOW | _FLAGS)
        found = os.lstat(self.folder)
        if not stat.S_ISDIR(found.st_mode) or stat.S_ISLNK(found.st_mode):
            raise NotADirectoryError(self.folder)
        return None

    def _refuse(self) -> bool:
        """The folder cannot be used: said on standard error when it is a link or not a folder
        (someone put it there); one that cannot be written is left alone."""
        self.usable = False
        try:
            found = os.lstat(self.folder)
        except OSError:
            return False
        if stat.S_ISLNK(found.st_mode):
            self._tell("folder", f"kcref check: cache folder {self.folder} is a symbolic link: not used")
        elif not stat.S_ISDIR(found.st_mode):
            self._tell("folder", f"kcref check: cache folder {self.folder} is not a folder: not used")
        return False

    def _tag(self) -> bool:
        """Give the folder a ``CACHEDIR.TAG`` and a ``.gitignore`` of ``*``, as ruff does (each
        made only if missing, never through a link)."""
        if self._tagged:
            return True
        for name, text in (("CACHEDIR.TAG", CACHEDIR_TAG), (".gitignore", "# Created by kcref.\n*\n")):
            try:
                fd = os.open(self._at(name), os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NO_FOLLOW | _FLAGS, 0o644,
                             dir_fd=self._fd)
            except FileExistsError:
                continue
            except OSError:
                self.usable = False
                return False
            with os.fdopen(fd, "w", encoding="utf-8") as file:
                file.write(text)
        self._tagged = True
        return True

    def _remove_stale(self) -> None:
        """Remove the temporary files that killed runs left: ours by name, regular files that
        this user owns, whose process is gone or that are older than :data:`STALE_AGE`."""
        from .atomic import FolderFile, clean_stale

        clean_stale(self.folder, names=FolderFile.TEMP_NAME, age=STALE_AGE, folder=self._fd, own_only=True)

    # --- entries -----------------------------------------------------------------------------

    def _entry_name(self, path: str) -> str:
        import hashlib

        digest = hashlib.sha256(os.path.abspath(path).encode("utf-8", "surrogateescape")).hexdigest()
        return digest[:32] + ENTRY_SUFFIX

    def _at(self, name: str) -> str:
        """A name in the folder, as the ``os`` functions take it with ``dir_fd=self._fd``."""
        return name if self._fd is not None else os.path.join(self.folder, name)

    def _read_entry(self, name: str) -> bytes | None:
        """The bytes of the entry ``name``, if it is a regular file of at most
        :data:`MAX_ENTRY_BYTES` (else ``None``, and a warning, once a run)."""
        where = self._at(name)
        try:
            found = os.stat(where, dir_fd=self._fd, follow_symlinks=False)
        except OSError:
            return None
        if not self._plain(name, found):
            return None
        try:
            # Not blocking: a FIFO put in place of the file since is not waited on.
            fd = os.open(where, os.O_RDONLY | _NO_FOLLOW | getattr(os, "O_NONBLOCK", 0) | _FLAGS, dir_fd=self._fd)
        except OSError:
            return None
        try:
            with os.fdopen(fd, "rb") as file:
                if not self._plain(name, os.fstat(file.fileno())):
                    return None
                data = file.read(MAX_ENTRY_BYTES + 1)
        except OSError:
            return None
        return data if len(data) <= MAX_ENTRY_BYTES else None

    def _plain(self, name: str, found: os.stat_result) -> bool:
        """Whether an entry's file is one to read: a regular file, not too large."""
        shown = os.path.join(self.folder, name)
        if stat.S_ISLNK(found.st_mode):
            self._tell("entry", f"kcref check: cache entry {shown} is a symbolic link: ignored")
        elif not stat.S_ISREG(found.st_mode):
            self._tell("entry", f"kcref check: cache entry {shown} is not a regular file: ignored")
        elif found.st_size > MAX_ENTRY_BYTES:
            self._tell("entry", f"kcref check: cache entry {shown} is larger than "
                                f"{MAX_ENTRY_BYTES // 2 ** 20} MiB: ignored")
        else:
            return True
        return False

    def _mac(self, name: str, body: bytes) -> str:
        """The HMAC of an entry's body, bound to its file name (so to the path it is the entry
        of) and to the layout, in hexadecimal."""
        import hashlib
        import hmac

        mac = hmac.new(self._secret, b"kcref-cache\0%s\0%s\0" % (LAYOUT.encode(), name.encode()), hashlib.sha256)
        mac.update(body)
        return mac.hexdigest()

    def _signed(self, mac: bytes, name: str, body: bytes) -> bool:
        import hmac

        return hmac.compare_digest(mac, self._mac(name, body).encode("ascii"))

    def _tell(self, kind: str, text: str) -> None:
        """Warn once a run of each ``kind`` of find (the path in ``text`` made printable)."""
        if kind not in self._warned:
            self._warned.add(kind)
            self._warn(printable(text))
