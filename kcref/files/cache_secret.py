"""The user's own secret that signs the entries of the verdict cache: 32 random bytes, kept
outside every project, readable by its owner only, made on first use.

An entry is trusted only when its HMAC under this secret checks (:mod:`kcref.files.cache`): a
cache folder committed to a repository, or left by anyone who cannot read the user's files,
cannot make ``kcref check`` print what a check of the file would not print.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping

from .user_cache import NoUserCache, user_cache_folder

SECRET_BYTES = 32
"""The secret's length."""

SECRET_NAME = "secret"
"""The secret's file name, in :func:`secret_folder`."""

_NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0)
_FLAGS = getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


class NoSecret(Exception):
    """The secret cannot be had (the cache is then not used); the message says why."""


def secret_folder(environ: Mapping[str, str]) -> str:
    """Where the secret is kept: kcref's folder in the user's cache
    (:func:`~kcref.files.user_cache.user_cache_folder`). Raises :class:`NoSecret` when there is no
    home folder."""
    try:
        return user_cache_folder(environ)
    except NoUserCache:
        raise NoSecret("has no folder to be kept in (no home folder)") from None


def user_secret(environ: Mapping[str, str]) -> bytes:
    """The secret, made first if there is none yet. Raises :class:`NoSecret` when it cannot be
    made or read, or when it is not a regular file of :data:`SECRET_BYTES` bytes that the user
    owns and no one else may read or write."""
    folder = secret_folder(environ)
    path = os.path.join(folder, SECRET_NAME)
    try:
        return _read(path)
    except FileNotFoundError:
        pass
    _make(folder, path)
    try:
        return _read(path)
    except FileNotFoundError:
        raise NoSecret(f"{path} vanished as it was made") from None


def _read(path: str) -> bytes:
    try:
        fd = os.open(path, os.O_RDONLY | _NO_FOLLOW | getattr(os, "O_NONBLOCK", 0) | _FLAGS)
    except FileNotFoundError:
        raise
    except OSError as exc:
        if os.path.islink(path):
            raise NoSecret(f"{path} is a symbolic link") from None
        raise NoSecret(f"{path} cannot be read ({exc.strerror})") from None
    try:
        found = os.fstat(fd)
        if not stat.S_ISREG(found.st_mode):
            raise NoSecret(f"{path} is not a regular file")
        if hasattr(os, "geteuid"):
            if found.st_uid != os.geteuid():
                raise NoSecret(f"{path} is not owned by this user")
            if found.st_mode & 0o077:
                raise NoSecret(f"{path} may be read or written by others (mode {stat.S_IMODE(found.st_mode):o}, "
                               "not 600)")
        data = os.read(fd, SECRET_BYTES + 1)
    except OSError as exc:
        raise NoSecret(f"{path} cannot be read ({exc.strerror})") from None
    finally:
        os.close(fd)
    if len(data) != SECRET_BYTES:
        raise NoSecret(f"{path} does not hold {SECRET_BYTES} bytes")
    return data


def _make(folder: str, path: str) -> None:
    """Write a new secret to ``path``: whole, under a temporary name, then linked in place, so
    that a run that reads it meanwhile finds either none or all of it; of two runs that make
    one at once, the first to link it wins."""
    import secrets

    temp = os.path.join(folder, f".{SECRET_NAME}-{os.getpid()}-{secrets.token_hex(4)}")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NO_FOLLOW | _FLAGS, 0o600)
    except OSError as exc:
        raise NoSecret(f"cannot be made in {folder} ({exc.strerror})") from None
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(secrets.token_bytes(SECRET_BYTES))
            file.flush()
            os.fsync(file.fileno())
        try:
            os.link(temp, path)
        except FileExistsError:
            pass
        except OSError:
            os.rename(temp, path)  # no hard links here: Windows refuses to rename onto a file
    except FileExistsError:
        pass
    except OSError as exc:
        raise NoSecret(f"cannot be made in {folder} ({exc.strerror})") from None
    finally:
        try:
            os.unlink(temp)
        except OSError:
            pass
