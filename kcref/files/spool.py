"""A list that lives on disk: records written in order, read back in order as often as needed.

``kcref score`` lists every hand (``--by hand``, JSON) without holding a row per hand: the rows
go to an anonymous temporary file, a batch at a time, and are read back a batch at a time while
the output is written. Small spools never touch the disk (the last batch stays in memory).
"""

from __future__ import annotations

import marshal
import tempfile
from array import array
from collections.abc import Iterator
from typing import IO

BATCH = 1024
"""Records per batch written to the file (and held in memory while it fills)."""

Record = tuple[object, ...]
"""A record: a tuple of values ``marshal`` can write (None, bool, int, str, tuples of them)."""


class Spool:
    """Records (``Record``) appended in order and read back in order, any number of times.

    Each reader seeks before it reads a batch, so several readers may be interleaved (not run
    in threads); records are not to be appended while a reader runs. The file is anonymous: it
    is gone when the spool is closed or collected.
    """

    def __init__(self, batch: int | None = None) -> None:
        self._batch_size = batch or BATCH
        self._pending: list[Record] = []
        self._file: IO[bytes] | None = None
        self._sizes = array("q")
        """Bytes of each batch written, in order."""
        self._count = 0

    def append(self, record: Record) -> None:
        """Add a record at the end."""
        self._pending.append(record)
        self._count += 1
        if len(self._pending) >= self._batch_size:
            self._flush()

    def _flush(self) -> None:
        if self._file is None:
            self._file = tempfile.TemporaryFile()  # noqa: SIM115 - open as long as the spool lives
        data = marshal.dumps(self._pending)
        self._file.seek(0, 2)
        self._file.write(data)
        self._sizes.append(len(data))
        self._pending = []

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[Record]:
        offset = 0
        for i in range(len(self._sizes)):
            assert self._file is not None
            size = self._sizes[i]
            self._file.seek(offset)
            data = self._file.read(size)
            offset += size
            yield from marshal.loads(data)
        yield from self._pending

    @property
    def on_disk(self) -> bool:
        """Some records were written to the file."""
        return self._file is not None

    @property
    def in_memory(self) -> int:
        """How many records are held in memory (the batch being filled)."""
        return len(self._pending)

    def close(self) -> None:
        """Drop every record (the file is deleted)."""
        if self._file is not None:
            self._file.close()
            self._file = None
        self._sizes = array("q")
        self._pending = []
        self._count = 0
