"""A log file being recorded: locked against a second recorder, appended to line by line,
each line on disk (``os.fsync``) before the call returns, and cut back for an undo.

The lock is ``flock`` on the log file itself (exclusive, not waiting): it is released when the
process ends, however it ends (``kill -9`` included), so no stale lock file is ever left behind.
"""

from __future__ import annotations

import errno
import fcntl
import os


class Locked(OSError):
    """Another process holds the log's lock: another ``kcref record`` is writing it."""


class LogFile:
    """The log at ``path``, opened (created if need be) for recording and locked.

    Raises :class:`Locked` when another process holds its lock, ``OSError`` when it cannot be
    opened. Use it as a context manager, or call :meth:`close`.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        existed = os.path.exists(path)
        self._fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(self._fd)
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise Locked(exc.errno, "another kcref record is writing this log", path) from None
            raise
        self.created = not existed
        """The file did not exist before: it was made for this recording."""
        if self.created:
            _sync_folder(path)

    def __enter__(self) -> LogFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def read(self) -> bytes:
        """The whole file as it is now."""
        os.lseek(self._fd, 0, os.SEEK_SET)
        chunks = []
        while chunk := os.read(self._fd, 1 << 16):
            chunks.append(chunk)
        return b"".join(chunks)

    def size(self) -> int:
        return os.fstat(self._fd).st_size

    def append(self, text: str) -> None:
        """Add ``text`` at the end of the file, and wait until it is on disk."""
        data = text.encode("utf-8")
        os.lseek(self._fd, 0, os.SEEK_END)
        view = memoryview(data)
        while view:
            view = view[os.write(self._fd, view):]
        os.fsync(self._fd)

    def cut(self, text: str) -> None:
        """Take ``text`` (the last text appended) off the end of the file, and wait until that is on disk."""
        size = len(text.encode("utf-8"))
        if size:
            os.ftruncate(self._fd, max(0, self.size() - size))
            os.fsync(self._fd)

    def close(self) -> None:
        """Release the lock and close the file (an empty file made for this recording is removed)."""
        if self._fd < 0:
            return
        try:
            if self.created and self.size() == 0:
                os.unlink(self.path)
        except OSError:
            pass
        os.close(self._fd)
        self._fd = -1


def _sync_folder(path: str) -> None:
    """Put the new file's name on disk too (its folder's entry), where the system allows it."""
    try:
        folder = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(folder)
    except OSError:
        pass
    finally:
        os.close(folder)
