"""A log file being recorded: locked against a second writer, appended to line by line, each
line on disk (``os.fsync``) before the call returns, and cut back for an undo.

The lock is :class:`~kcref.files.lock.WriterLock`, held on the file itself: it goes with the
process, however it ends (``kill -9`` included). A lock does not stop a program that ignores it,
so before each write and each cut the file is checked to be the one written so far: the same
file at the path (not replaced, as ``kcref fmt --write`` replaces a file), of the size written,
ending with the bytes written last. When it is not, :class:`Changed` is raised and nothing is
written. A write that fails (a full disk, a file size limit) is cut back to the line before, so
that the file always ends with a whole line, and :class:`WriteFailed` says so.
"""

from __future__ import annotations

import os

from .lock import Locked, WriterLock

__all__ = ["TAIL", "Changed", "Locked", "LogFile", "WriteFailed"]

TAIL = 4096
"""How many of the last bytes written are kept, to be compared with the file's before a write."""


class Changed(OSError):
    """The log is no longer what this recording wrote: another program wrote, cut or replaced it."""


class WriteFailed(OSError):
    """A write to the log failed; ``restored`` says whether the file was cut back to what it held
    before (its last whole line)."""

    def __init__(self, cause: OSError, path: str, restored: bool) -> None:
        super().__init__(cause.errno, cause.strerror or str(cause), path)
        self.restored = restored


class LogFile:
    """The log at ``path``, opened (created if need be) for recording and locked.

    Raises :class:`Locked` when another process holds its lock, ``OSError`` when it cannot be
    opened. Use it as a context manager, or call :meth:`close`.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        existed = os.path.exists(path)
        self._fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0),
                           0o644)
        try:
            self._lock = WriterLock(self._fd, path)
        except OSError:
            os.close(self._fd)
            raise
        self.created = not existed
        """The file did not exist before: it was made for this recording."""
        if self.created:
            _sync_folder(path)
        info = os.fstat(self._fd)
        self._identity = (info.st_dev, info.st_ino)
        self._size = info.st_size
        self._tail = self._read_at(max(0, self._size - TAIL), TAIL)

    def __enter__(self) -> LogFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def read(self) -> bytes:
        """The whole file as it is now (what later writes are checked against)."""
        os.lseek(self._fd, 0, os.SEEK_SET)
        chunks = []
        while chunk := os.read(self._fd, 1 << 16):
            chunks.append(chunk)
        data = b"".join(chunks)
        self._size, self._tail = len(data), data[-TAIL:]
        return data

    def size(self) -> int:
        return os.fstat(self._fd).st_size

    def check(self) -> None:
        """Raise :class:`Changed` unless the file is still the one written: the same file at the
        path, of the size written, ending with the bytes written last."""
        info = os.fstat(self._fd)
        try:
            now = os.stat(self.path)
        except FileNotFoundError:
            raise Changed(0, "it was removed or renamed", self.path) from None
        if (now.st_dev, now.st_ino) != self._identity:
            raise Changed(0, "another file was put in its place", self.path)
        if info.st_size != self._size:
            grown = info.st_size > self._size
            raise Changed(0, f"{abs(info.st_size - self._size)} bytes were {'added' if grown else 'cut'}", self.path)
        if self._read_at(max(0, self._size - len(self._tail)), len(self._tail)) != self._tail:
            raise Changed(0, "its last lines were rewritten", self.path)

    def append(self, text: str) -> None:
        """Add ``text`` at the end of the file, and wait until it is on disk.

        Raises :class:`Changed` (nothing written) when the file is not the one written so far,
        :class:`WriteFailed` when the write fails (the file cut back to what it held)."""
        self.check()
        data = text.encode("utf-8")
        before = self._size
        try:
            os.lseek(self._fd, before, os.SEEK_SET)
            view = memoryview(data)
            while view:
                view = view[os.write(self._fd, view):]
            os.fsync(self._fd)
        except OSError as exc:
            raise WriteFailed(exc, self.path, self._restore(before)) from None
        except BaseException:
            self._complete(before, data)  # interrupted (Ctrl-C): the line is written whole first
            raise
        self._written(before, data)

    @property
    def last_line(self) -> str:
        """The last line written (without its line end; '' when the file is empty)."""
        lines = self._tail.decode("utf-8", "replace").rstrip("\n").rsplit("\n", 1)
        return lines[-1]

    def _written(self, before: int, data: bytes) -> None:
        self._size = before + len(data)
        self._tail = (self._tail + data)[-TAIL:]

    def _complete(self, before: int, data: bytes) -> None:
        """Finish writing ``data`` at ``before`` after an interruption (or cut it back, failing that)."""
        try:
            done = os.fstat(self._fd).st_size - before
            if 0 <= done < len(data):
                os.lseek(self._fd, before + done, os.SEEK_SET)
                view = memoryview(data)[done:]
                while view:
                    view = view[os.write(self._fd, view):]
            os.fsync(self._fd)
        except OSError:
            self._restore(before)
            return
        self._written(before, data)

    def cut(self, text: str) -> None:
        """Take ``text`` (the last text appended) off the end of the file, and wait until that is on disk.

        Raises :class:`Changed` (nothing cut) when the file is not the one written so far or
        does not end with ``text``."""
        data = text.encode("utf-8")
        if not data:
            return
        self.check()
        start = self._size - len(data)
        if start < 0 or self._read_at(start, len(data)) != data:
            raise Changed(0, "it does not end with the line to take back", self.path)
        os.ftruncate(self._fd, start)
        os.fsync(self._fd)
        self._size = start
        self._tail = self._read_at(max(0, start - TAIL), TAIL)

    def recorded(self) -> bytes:
        """The whole of the file this recording holds open, whatever is at its path now."""
        return self._read_at(0, self.size())

    def close(self) -> None:
        """Release the lock and close the file (an empty file made for this recording is removed)."""
        if self._fd < 0:
            return
        try:
            info = os.stat(self.path)
            if self.created and self.size() == 0 and (info.st_dev, info.st_ino) == self._identity:
                os.unlink(self.path)
        except OSError:
            pass
        try:
            self._lock.release()
        except OSError:
            pass
        os.close(self._fd)
        self._fd = -1

    def _read_at(self, offset: int, size: int) -> bytes:
        os.lseek(self._fd, offset, os.SEEK_SET)
        chunks = []
        while size > 0 and (chunk := os.read(self._fd, size)):
            chunks.append(chunk)
            size -= len(chunk)
        return b"".join(chunks)

    def _restore(self, size: int) -> bool:
        """Cut the file back to ``size`` bytes after a failed write; whether that worked."""
        try:
            os.ftruncate(self._fd, size)
            os.fsync(self._fd)
        except OSError:
            return False
        return True


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
