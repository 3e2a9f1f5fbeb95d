"""One writer per log: an exclusive lock on a log file, taken without waiting, on any system.

``kcref record`` takes it on the log it writes (and so will any other command that writes a log
line by line): a second writer of the same log is refused at once with :class:`Locked`. The lock
is held on the open file itself and goes with the process, however it ends:

- with ``fcntl`` (Linux, macOS, the BSDs): ``flock`` on the file;
- with ``msvcrt`` (Windows): ``msvcrt.locking`` of one byte far past the end of the file, so that
  readers of the log (``kcref check``) are never kept from its text;
- with neither: a lock file beside the log (``LOG.lock``, created exclusively, holding the
  writer's process id), removed on release; one left behind by a writer that was killed names
  a process that is gone, and is taken over.
"""

from __future__ import annotations

import errno
import importlib
import os
from types import ModuleType
from typing import Protocol

FAR = 1 << 62
"""Where ``msvcrt`` locks its byte: beyond any file's end."""
SUFFIX = ".lock"
"""Added to the log's name for the lock file, where there is no other way."""


class Locked(OSError):
    """Another process holds the log's lock: another writer is writing it."""


def _module(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


class _Lock(Protocol):
    def release(self) -> None: ...


class WriterLock:
    """The exclusive lock on the log open as ``fd`` at ``path``, taken at once.

    Raises :class:`Locked` when another process holds it, ``OSError`` when it cannot be taken.
    """

    def __init__(self, fd: int, path: str) -> None:
        fcntl, msvcrt = _module("fcntl"), _module("msvcrt")
        self._lock: _Lock
        if fcntl is not None:
            self._lock = _Flock(fcntl, fd, path)
        elif msvcrt is not None:
            self._lock = _Msvcrt(msvcrt, fd, path)
        else:
            self._lock = _LockFile(path)

    def release(self) -> None:
        """Let the lock go (closing the file lets it go too, except a lock file)."""
        self._lock.release()


def _locked(exc: OSError, path: str) -> Locked | OSError:
    if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES, errno.EDEADLK):
        return Locked(exc.errno, "another kcref command is writing this log", path)
    return exc


class _Flock:
    def __init__(self, fcntl: ModuleType, fd: int, path: str) -> None:
        self.fcntl, self.fd = fcntl, fd
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            raise _locked(exc, path) from None

    def release(self) -> None:
        self.fcntl.flock(self.fd, self.fcntl.LOCK_UN)


class _Msvcrt:
    def __init__(self, msvcrt: ModuleType, fd: int, path: str) -> None:
        self.msvcrt, self.fd = msvcrt, fd
        at = os.lseek(fd, 0, os.SEEK_CUR)
        try:
            os.lseek(fd, FAR, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError as exc:
            raise _locked(exc, path) from None
        finally:
            os.lseek(fd, at, os.SEEK_SET)

    def release(self) -> None:
        at = os.lseek(self.fd, 0, os.SEEK_CUR)
        try:
            os.lseek(self.fd, FAR, os.SEEK_SET)
            self.msvcrt.locking(self.fd, self.msvcrt.LK_UNLCK, 1)
        finally:
            os.lseek(self.fd, at, os.SEEK_SET)


class _LockFile:
    def __init__(self, path: str) -> None:
        self.name = path + SUFFIX
        for _ in range(2):
            try:
                fd = os.open(self.name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                if not self._stale():
                    raise Locked(errno.EEXIST, "another kcref command is writing this log", path) from None
                try:
                    os.unlink(self.name)
                except FileNotFoundError:
                    pass
                continue
            try:
                os.write(fd, f"{os.getpid()}\n".encode())
            finally:
                os.close(fd)
            return
        raise Locked(errno.EEXIST, "another kcref command is writing this log", path)

    def _stale(self) -> bool:
        """The lock file names a process that is gone (a writer killed before it could remove it)."""
        try:
            with open(self.name, encoding="ascii") as f:
                pid = int(f.read().strip())
        except (OSError, ValueError):
            return False  # being written, or not ours to judge: held
        if pid == os.getpid():
            return False
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        except OSError:
            return False  # alive, another user's
        return False

    def release(self) -> None:
        try:
            os.unlink(self.name)
        except FileNotFoundError:
            pass
