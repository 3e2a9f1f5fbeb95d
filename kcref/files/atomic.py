"""Writing a file whole or not at all: the one writer behind ``fmt --write``, every ``-o`` and the report.

A regular file (or one not there yet) is written to a temp file beside it, named
``.kcref-PID-XXXXXXXX.tmp``, which replaces it only on :meth:`AtomicFile.commit`: an error, a
Ctrl-C or a signal leaves the file as it was and no temp file behind. Anything else is written
straight through, as a shell's ``>`` does, never replaced: a device (``-o /dev/null``), a FIFO,
and the names of open file descriptors (``/dev/stdout``, ``/dev/fd/N``). A folder is refused.

Every failure to open, write or put a file in place is a :class:`CannotWrite`. While a temp file
is open (or :func:`signals_guarded` is held), SIGTERM and SIGHUP remove the temp files and exit
128+N through every ``finally`` on the way; a temp file left by a process that is gone (SIGKILL,
a crash) is removed by the next writer in that folder (:func:`clean_stale`).
"""

from __future__ import annotations

import abc
import io
import os
import re
import stat
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType, TracebackType
from typing import TYPE_CHECKING, BinaryIO, TextIO

from .discover import file_kind

if TYPE_CHECKING:
    from sys import UnraisableHookArgs

    from _typeshed import ReadableBuffer

CHUNK = 1 << 16
"""Bytes held before they go to the file."""


class CannotWrite(OSError):
    """A file is refused, or could not be opened, written or put in place; an atomic target is left as it was."""


def _cannot(exc: OSError) -> CannotWrite:
    if isinstance(exc, CannotWrite):
        return exc
    if exc.errno is not None and exc.strerror:
        return CannotWrite(exc.errno, exc.strerror)
    return CannotWrite(str(exc))


def is_read_only(path: str, st: os.stat_result) -> bool:
    """Whether a file is read-only: no write permission bit at all (which even root, who may
    write anything, takes as the owner's wish), or not writable by this user."""
    return st.st_mode & 0o222 == 0 or not os.access(path, os.W_OK)


# --- the signal guard ----------------------------------------------------------------------------

_CAUGHT = ("SIGTERM", "SIGHUP")
"""The signals that remove our temp files and exit, where the system has them."""
_live: set[str] = set()
"""The temp files of this process not yet committed or removed."""
_previous: dict[int, object] = {}
_holders = 0
_owner = 0
"""The process that took the signals over (a forked child inherits the handler, until
:func:`_forget_after_fork` gives the signals their default action back)."""
_signalled = 0
"""The signal taken, once one is: see :func:`exit_if_signalled`."""


def _on_signal(signum: int, frame: FrameType | None) -> None:
    if os.getpid() != _owner:
        # A child forked a moment ago, its after-fork hook not yet run (the pool's workers are
        # ended by SIGTERM as soon as they start, when the parent is stopped): the temp files
        # are its parent's, and an exception raised in that hook would be ignored, leaving the
        # child alive; so it ends as the default action ends it.
        import signal

        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return
    global _signalled
    _signalled = signum
    for temp in list(_live):
        try:
            os.unlink(temp)
        except OSError:
            pass
    _live.clear()
    raise SystemExit(128 + signum)


def exit_if_signalled() -> None:
    """Raise ``SystemExit(128 + N)`` again if signal N was taken: Python ignores an exception
    raised where it runs a hook (a function registered to run around a fork, a finalizer), so
    the handler's may be lost, and the process would go on with its temp files removed."""
    if _signalled:
        raise SystemExit(128 + _signalled)


def _unraisable(info: UnraisableHookArgs) -> None:
    """Python's word on an exception it could not raise, but for the exit the signal handler
    raised where it is ignored (in a hook): :func:`exit_if_signalled` raises it again, so it is
    no traceback to show."""
    if _signalled and isinstance(info.exc_value, SystemExit):
        return
    _unraisable_before(info)


_unraisable_before: Callable[[UnraisableHookArgs], object] = sys.unraisablehook


def _hold() -> None:
    global _holders, _owner, _unraisable_before
    import signal
    import threading

    _holders += 1
    if _previous or threading.current_thread() is not threading.main_thread():
        return
    _owner = os.getpid()
    if sys.unraisablehook is not _unraisable:
        _unraisable_before, sys.unraisablehook = sys.unraisablehook, _unraisable
    for sig in (getattr(signal, name) for name in _CAUGHT if hasattr(signal, name)):
        # Only the default action is taken over: an ignored signal (nohup) stays ignored, and a
        # handler of the program that calls us stays in charge.
        if signal.getsignal(sig) is signal.SIG_DFL:
            _previous[sig] = signal.signal(sig, _on_signal)


def _release() -> None:
    global _holders
    import signal

    _holders = max(0, _holders - 1)
    if _holders or not _previous:
        return
    for sig, handler in _previous.items():
        signal.signal(sig, handler if handler is not None else signal.SIG_DFL)  # type: ignore[arg-type]
    _previous.clear()


@contextmanager
def signals_guarded() -> Iterator[None]:
    """While inside, SIGTERM and SIGHUP (where their action is the default) remove the live temp
    files and raise ``SystemExit(128 + N)``, so that every ``finally`` on the way out runs (worker
    processes are stopped, files closed) instead of the process vanishing. Only in the main thread."""
    _hold()
    try:
        yield
    finally:
        _release()


def _forget_after_fork() -> None:
    """A forked child never removes its parent's temp files, and takes the default action again."""
    global _holders, _signalled
    _live.clear()
    _signalled = 0
    _holders = 0
    if _previous:
        import signal

        for sig, handler in _previous.items():
            try:
                signal.signal(sig, handler if handler is not None else signal.SIG_DFL)  # type: ignore[arg-type]
            except ValueError:
                pass  # forked from a thread other than the main one: signals are not its to set
        _previous.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_after_fork)


# --- temp files left behind ----------------------------------------------------------------------

_TEMP_NAME = re.compile(r"\.kcref-(?:(?P<pid>[0-9]+)-)?[A-Za-z0-9_]+\.tmp")
STALE_AGE = 24 * 3600
"""A temp file of ours this old (seconds) is stale even if its writer's process id is in use."""
_cleaned: set[str] = set()


def _alive_posix(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except (OSError, OverflowError):
        return False
    return True


def _alive_unknown(pid: int) -> bool:
    return True


def liveness() -> Callable[[int], bool]:
    """How to tell whether a process id is in use: signal 0 on POSIX; on Windows, where
    ``os.kill`` with any number terminates the process, it cannot be asked, and a temp file
    is stale only by its age."""
    return _alive_unknown if os.name == "nt" else _alive_posix


def _writer_alive(pid: int, alive: Callable[[int], bool]) -> bool:
    if pid <= 0 or pid == os.getpid():
        return False  # our own live temp files are in _live; one with our id is an older process's
    return alive(pid)


def clean_stale(directory: str, now: float | None = None, *, names: re.Pattern[str] = _TEMP_NAME,
                age: float = STALE_AGE, folder: int | None = None, own_only: bool = False) -> list[str]:
    """Remove the temp files of ours left in ``directory`` by a process that is gone, or older
    than ``age`` seconds: only regular files whose names ``names`` matches (by default
    ``.kcref-PID-XXXXXXXX.tmp``, or the older ``.kcref-XXXXXXXX.tmp``; its ``pid`` group, when
    there, names the writer) that this user owns (root: any, unless ``own_only``). ``folder``:
    the folder opened, its names reached from it and never through a link. Returns the paths
    removed."""
    now = time.time() if now is None else now
    removed: list[str] = []
    euid = os.geteuid() if hasattr(os, "geteuid") else -1
    anyone = () if own_only else (0,)
    alive = liveness()
    try:
        with os.scandir(directory if folder is None else folder) as it:
            found = [e.name for e in it if names.fullmatch(e.name)]
    except OSError:
        return removed
    for name in found:
        path = os.path.join(directory, name)
        at = path if folder is None else name
        if path in _live:
            continue
        try:
            st = os.stat(at, dir_fd=folder, follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISREG(st.st_mode) or (euid not in (*anyone, -1) and st.st_uid != euid):
            continue
        pid = names.fullmatch(name)["pid"]  # type: ignore[index]
        if now - st.st_mtime > age or (pid and not _writer_alive(int(pid), alive)):
            try:
                os.unlink(at, dir_fd=folder)
            except OSError:
                continue
            removed.append(path)
    return removed


# --- the writers ---------------------------------------------------------------------------------


class _Sink(io.RawIOBase):
    """A file descriptor to write to: each failure a :class:`CannotWrite`; once ``dropped``,
    what is still buffered above it goes nowhere (it is being discarded)."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self.fd = fd
        self.dropped = False

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def write(self, data: ReadableBuffer) -> int:
        if self.dropped:
            return memoryview(data).nbytes
        try:
            return os.write(self.fd, data)
        except OSError as exc:
            raise _cannot(exc) from None

    def close(self) -> None:
        if not self.closed:
            try:
                os.close(self.fd)
            finally:
                super().close()


class _Writer(abc.ABC):
    """What every writer shares: bytes (or text, see :meth:`text`) buffered into a :class:`_Sink`,
    closed as the ``with`` ends; what :meth:`commit` does is each writer's own."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._sink: _Sink | None = None
        self._buffer: io.BufferedWriter | None = None
        self._text: io.TextIOWrapper | None = None

    def _open(self, fd: int) -> None:
        self._sink = _Sink(fd)
        self._buffer = io.BufferedWriter(self._sink, CHUNK)

    @property
    def stream(self) -> BinaryIO:
        """The file, as a buffered binary stream."""
        assert self._buffer is not None, "not open"
        return self._buffer

    def text(self, encoding: str = "utf-8", newline: str | None = None) -> TextIO:
        """The file, as a text stream (the first call's, at every call): ``encoding`` and
        ``newline`` as for :func:`open`."""
        assert self._buffer is not None, "not open"
        if self._text is None:
            self._text = io.TextIOWrapper(self._buffer, encoding=encoding, newline=newline)
        return self._text

    def write(self, data: bytes) -> None:
        """Write bytes to the file."""
        if self._text is not None:
            self._text.flush()
        self.stream.write(data)

    def _flush(self) -> None:
        if self._text is not None:
            self._text.flush()
        if self._buffer is not None:
            self._buffer.flush()

    def _close(self, drop: bool) -> None:
        """Close every layer; with ``drop``, what is still buffered is thrown away."""
        if self._sink is None:
            return
        sink = self._sink
        if drop:
            sink.dropped = True
        try:
            for layer in (self._text, self._buffer, sink):
                if layer is not None:
                    try:
                        layer.close()
                    except (OSError, ValueError):
                        if not drop:
                            raise
        finally:
            self._sink = self._buffer = self._text = None
            if not sink.closed:
                sink.dropped = True
                sink.close()

    @abc.abstractmethod
    def commit(self) -> None:
        """Put everything written in its place: until then, the writing can be taken back."""

    def _discard(self) -> None:
        self._close(drop=True)

    def __enter__(self) -> _Writer:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._discard()


class StreamFile(_Writer):
    """A file written straight through, in place: a device, a FIFO, an open file descriptor.
    What was written is there even if the writing stops half-way (as with a pipe)."""

    def __init__(self, path: str, fd: int) -> None:
        super().__init__(path)
        self._open(fd)

    def __enter__(self) -> StreamFile:
        return self

    def commit(self) -> None:
        """Flush what is buffered; the file is then closed."""
        try:
            self._flush()
            self._close(drop=False)
        except OSError as exc:
            raise _cannot(exc) from None


class _TempWriter(_Writer):
    """A writer into a temp file that :meth:`commit` renames over its target: the temp file's
    name is registered before the file exists and signals are held while it is open (see
    :func:`signals_guarded`), so that nothing is left behind at any moment; left uncommitted, it
    is removed."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.temp = ""
        self._held = False

    @abc.abstractmethod
    def _registered(self) -> str:
        """The temp file's path, as the signal handler knows it."""

    @abc.abstractmethod
    def _remove_temp(self) -> None:
        """Remove the temp file (raises ``OSError`` as :func:`os.unlink` does)."""

    def _create(self, make: Callable[[], int]) -> None:
        """Open the temp file that ``make`` creates (naming ``self.temp`` first), signals held;
        a failure leaves nothing behind and is a :class:`CannotWrite`."""
        self._held = True
        _hold()
        try:
            self._open(make())
        except BaseException as exc:
            self._discard()
            if isinstance(exc, OSError):
                raise _cannot(exc) from None
            raise

    def _placed(self) -> None:
        """The temp file is the target now: nothing to remove, signals no longer held."""
        _live.discard(self._registered())
        self.temp = ""
        self._let_go()

    def _discard(self) -> None:
        try:
            self._close(drop=True)
        finally:
            if self.temp:
                try:
                    self._remove_temp()
                except OSError:
                    pass
                _live.discard(self._registered())
                self.temp = ""
            self._let_go()

    def _let_go(self) -> None:
        if self._held:
            self._held = False
            _release()


class AtomicFile(_TempWriter):
    """A temp file beside ``path`` that replaces it on :meth:`commit`, keeping its mode (and
    owner, where allowed); left uncommitted, it is removed. A symbolic link is written through.

    Use it as a context manager. Raises ``CannotWrite`` for a target that is not a regular
    file, or is read-only (see :func:`is_read_only`) unless ``read_only_ok``.
    """

    def __init__(self, path: str, read_only_ok: bool = False) -> None:
        super().__init__(path)
        self.target = os.path.realpath(path)
        self.directory = os.path.dirname(self.target)
        try:
            self.st: os.stat_result | None = os.stat(self.target)
        except FileNotFoundError:
            self.st = None
        except OSError as exc:
            raise _cannot(exc) from None
        if self.st is not None and not stat.S_ISREG(self.st.st_mode):
            raise CannotWrite(_not_regular(self.st.st_mode))
        if self.st is not None and not read_only_ok and is_read_only(self.target, self.st):
            raise CannotWrite(f"it is read-only (mode {stat.filemode(self.st.st_mode)})")

    def _registered(self) -> str:
        return self.temp

    def _remove_temp(self) -> None:
        os.unlink(self.temp)

    def __enter__(self) -> AtomicFile:
        if self.directory not in _cleaned:
            _cleaned.add(self.directory)
            clean_stale(self.directory)
        self._create(self._new_temp)
        return self

    def _new_temp(self) -> int:
        import secrets

        # The name is registered before the file exists, so that a signal at any moment finds it.
        while True:
            self.temp = os.path.join(self.directory, f".kcref-{os.getpid()}-{secrets.token_hex(4)}.tmp")
            _live.add(self.temp)
            try:
                return os.open(self.temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
                               | getattr(os, "O_BINARY", 0), 0o600)
            except FileExistsError:
                _live.discard(self.temp)

    def commit(self) -> None:
        """Flush the temp file to disk and rename it over the file."""
        assert self._sink is not None and self.temp, "not open"
        exit_if_signalled()
        try:
            self._flush()
            os.fsync(self._sink.fd)
            self._close(drop=False)
            if self.st is not None:
                made = os.stat(self.temp)
                if (self.st.st_uid, self.st.st_gid) != (made.st_uid, made.st_gid):
                    try:
                        os.chown(self.temp, self.st.st_uid, self.st.st_gid)
                    except OSError:
                        pass  # not allowed: the file becomes ours, as with any editor
                mode = self.st.st_mode & 0o7777
            else:
                umask = os.umask(0)
                os.umask(umask)
                mode = 0o666 & ~umask
            os.chmod(self.temp, mode)
            os.replace(self.temp, self.target)
        except OSError as exc:
            raise _cannot(exc) from None
        self._placed()


_NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0)


class FolderFile(_TempWriter):
    """The file ``name`` of a folder that is trusted no further than it was opened (the verdict
    cache), written whole or not at all, and never through a link: a temp file
    ``.tmp-PID-XXXXXXXX`` created anew in the folder (never through a link, readable by its
    owner only), renamed over ``name`` on :meth:`commit`; left uncommitted, it is removed, as a
    signal removes it (see :func:`signals_guarded`). ``folder`` is the folder opened, every
    name reached from it, so that a folder swapped for a link meanwhile cannot redirect a
    write; ``None`` (where names cannot be reached from a folder) joins names to ``directory``.
    Nothing is synced to disk: what the folder holds can be made again.
    """

    TEMP_NAME = re.compile(r"\.tmp-(?P<pid>[0-9]{1,10})-[0-9a-f]{8}|tmp[a-z0-9_]{8}\.tmp")
    """Its temp files' names (and the older ``tmpXXXXXXXX.tmp``, without a process id), for
    :func:`clean_stale`."""

    def __init__(self, directory: str, folder: int | None, name: str) -> None:
        super().__init__(os.path.join(directory, name))
        self.directory = directory
        self.folder = folder
        self.name = name

    def _at(self, name: str) -> str:
        return name if self.folder is not None else os.path.join(self.directory, name)

    def _registered(self) -> str:
        return os.path.join(self.directory, self.temp)

    def _remove_temp(self) -> None:
        os.unlink(self._at(self.temp), dir_fd=self.folder)

    def __enter__(self) -> FolderFile:
        self._create(self._new_temp)
        return self

    def _new_temp(self) -> int:
        import secrets

        self.temp = f".tmp-{os.getpid()}-{secrets.token_hex(4)}"
        _live.add(self._registered())
        return os.open(self._at(self.temp), os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NO_FOLLOW
                       | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0), 0o600, dir_fd=self.folder)

    def commit(self) -> None:
        """Rename the temp file over the file."""
        assert self._sink is not None and self.temp, "not open"
        try:
            self._flush()
            self._close(drop=False)
            os.replace(self._at(self.temp), self._at(self.name), src_dir_fd=self.folder, dst_dir_fd=self.folder)
        except OSError as exc:
            raise _cannot(exc) from None
        self._placed()


def _not_regular(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "it is a directory"
    return f"it is {file_kind(mode)}, not a regular file"


_DESCRIPTOR = re.compile(r"/dev/(?:std(?P<std>in|out|err)|fd/(?P<fd>[0-9]+))|/proc/self/fd/(?P<proc>[0-9]+)")
_STANDARD = {"in": 0, "out": 1, "err": 2}


def _descriptor(path: str) -> int | None:
    """The open file descriptor a path names, as a shell reads ``> /dev/stdout``, else None."""
    if os.name == "nt":
        return None
    named = _DESCRIPTOR.fullmatch(path)
    if named is None:
        return None
    if named["std"]:
        return _STANDARD[named["std"]]
    return int(named["fd"] or named["proc"])


def open_output(path: str) -> AtomicFile | StreamFile:
    """The writer for a file a command writes (``-o``), to use as a context manager and
    :meth:`~_Writer.commit` once all is written.

    A regular file, or a new one, is written atomically (:class:`AtomicFile`: whole or not at
    all; a read-only one is refused). ``/dev/stdout``, ``/dev/stderr``, ``/dev/fd/N`` write to
    that open descriptor, as a shell does; a device or a FIFO (a symbolic link followed) is
    written in place, never replaced (:class:`StreamFile`; a FIFO waits for its reader). A
    folder, or a name ending in a separator, is refused. Raises :class:`CannotWrite`.
    """
    fd = _descriptor(path)
    if fd is not None:
        try:
            return StreamFile(path, os.dup(fd))
        except OSError as exc:
            raise _cannot(exc) from None
    try:
        st: os.stat_result | None = os.stat(path)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise _cannot(exc) from None
    if st is None:
        if path.endswith(tuple(sep for sep in (os.sep, os.altsep) if sep)):
            raise CannotWrite("it is a directory")
        return AtomicFile(path)
    if stat.S_ISREG(st.st_mode):
        return AtomicFile(path)
    if stat.S_ISDIR(st.st_mode):
        raise CannotWrite(_not_regular(st.st_mode))
    try:
        fd = os.open(path, os.O_WRONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise _cannot(exc) from None
    if stat.S_ISREG(os.fstat(fd).st_mode):  # replaced by a regular file since it was looked at
        os.close(fd)
        return AtomicFile(path)
    return StreamFile(path, fd)


def write_atomically(path: str, text: str) -> None:
    """Replace the file at ``path`` with ``text`` (see :func:`open_output`): whole or not at all.

    If anything fails on the way, the file is left as it was (``CannotWrite``).
    """
    with open_output(path) as f:
        f.write(text.encode("utf-8"))
        f.commit()
