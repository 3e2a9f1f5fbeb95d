"""A long table drawn in chunks (``kcref.render.table_chunks``) is byte for byte the table tabulate
draws whole, in every tabulate format; the spool gives back what was written, in order."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tabulate import tabulate, tabulate_formats

from kcref.files.spool import Spool
from kcref.render.table_chunks import table_pieces

SETTINGS = settings(max_examples=25, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])

WORDS = ["", " ", "Ann", "Bob ", " Cy", "x" * 30, "名前", "Zoë", "e\u0301", "\u200b", "True", "False", "12", "-3",
         "007", "1e5", "nan", "inf", "1.5", "a|b", "<b>", "&", "\\", "%", "..", "::x", "  padded  "]

Cell = str | int | None


def table(numbers: st.SearchStrategy[int]) -> st.SearchStrategy[tuple[list[str], list[list[Cell]], list[int]]]:
    """Headers, rows and text columns: text, numbers (and gaps) and columns mixing them."""
    @st.composite
    def build(draw: st.DrawFn) -> tuple[list[str], list[list[Cell]], list[int]]:
        width = draw(st.integers(1, 5))
        kinds = draw(st.lists(st.sampled_from(["text", "number", "mixed"]), min_size=width, max_size=width))
        cells = {"text": st.sampled_from(WORDS), "number": st.one_of(st.none(), numbers),
                 "mixed": st.one_of(st.none(), numbers, st.sampled_from(WORDS))}
        rows = draw(st.lists(st.tuples(*(cells[k] for k in kinds)).map(list), min_size=0, max_size=12))
        headers = draw(st.lists(st.sampled_from(["h", "hand", "a long header", "名", ""]), min_size=width,
                                max_size=width))
        text_columns = [i for i, k in enumerate(kinds) if k == "text" and draw(st.booleans())]
        return headers, rows, text_columns
    return build()


def whole(headers: list[str], rows: list[list[Cell]], fmt: str, text_columns: list[int]) -> str:
    return str(tabulate(rows, headers, tablefmt=fmt, missingval="", disable_numparse=text_columns if rows else False))


@pytest.mark.parametrize("fmt", tabulate_formats)
@SETTINGS
@given(data=table(st.integers(-10**6, 10**6)), chunk=st.integers(1, 4))
def test_chunks_draw_the_whole_table(fmt: str, data: tuple[list[str], list[list[Cell]], list[int]],
                                     chunk: int) -> None:
    headers, rows, text_columns = data
    drawn = "".join(table_pieces(rows, headers, fmt, text_columns, chunk))
    assert drawn == whole(headers, rows, fmt, text_columns)


@pytest.mark.parametrize("fmt", ["simple", "grid", "html", "latex", "rst"])
def test_rows_are_read_twice_and_a_chunk_at_a_time(fmt: str) -> None:
    """Measured in a first pass, drawn in a second, never all held: the rows are pieces of a
    generator made anew on each pass."""
    passes = []

    class Rows:
        def __len__(self) -> int:
            return 50

        def __contains__(self, item: object) -> bool:
            return False

        def __iter__(self):  # type: ignore[no-untyped-def]
            passes.append(0)
            for i in range(50):
                yield [f"night{i % 7}.log", i, None if i % 3 else i * 1000, "x" * (i % 11)]

    headers = ["night", "hand", "game", "note"]
    pieces = list(table_pieces(Rows(), headers, fmt, [0, 3], 8))
    assert len(passes) == 2 and len(pieces) == 1 + 7
    assert "".join(pieces) == whole(headers, [list(r) for r in Rows()], fmt, [0, 3])


def test_a_table_of_floats_or_lines_is_drawn_whole() -> None:
    """What the chunks cannot decide (decimal points, cells of several lines) is drawn whole."""
    for rows in ([[1.5, "a"], [22.25, "b"], [3, "c"]], [[1, "a\nb"], [2, "c"], [3, "d"]]):
        pieces = list(table_pieces(rows, ["n", "t"], "grid", [], 1))  # type: ignore[arg-type]
        assert pieces == [whole(["n", "t"], rows, "grid", [])]  # type: ignore[arg-type]


@given(records=st.lists(st.tuples(st.integers(), st.none() | st.text(), st.booleans(),
                                  st.tuples(st.integers(), st.integers())), max_size=40),
       batch=st.integers(1, 5))
@settings(max_examples=60, deadline=None, database=None)
def test_the_spool_gives_back_what_was_written(records: list[tuple[object, ...]], batch: int) -> None:
    spool = Spool(batch)
    for r in records:
        spool.append(r)
    assert len(spool) == len(records)
    assert spool.in_memory < batch and spool.on_disk == (len(records) >= batch)
    assert list(spool) == records and list(spool) == records  # read as often as needed
    readers = iter(spool), iter(spool)
    assert list(zip(*readers)) == [(r, r) for r in records]  # interleaved readers
    spool.close()
    assert list(spool) == [] and not spool.on_disk


@pytest.mark.parametrize("fmt", ["simple", "grid", "rst"])
def test_an_empty_string_is_not_a_gap(fmt: str) -> None:
    """tabulate types '' as it types a missing cell, yet draws a column holding '' otherwise (rst
    shows it as ``..``, and the column turns to text): the chunks must draw it the same."""
    rows: list[list[Cell]] = [[None, None], [0, None], ["", None]]
    assert "".join(table_pieces(rows, ["h", "h"], fmt, [], 1)) == whole(["h", "h"], rows, fmt, [])
