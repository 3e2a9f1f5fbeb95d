"""Unreadable and odd input files: a clear diagnostic and exit 2, never a traceback."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from kcref.cli import main
from kcref.model.events import Turn
from kcref.notation.reader import read_text
from kcref.referee.pipeline import check_file, check_text

LOG = '[Players "Ann, Bob"]\nhand 1\nlayout N:5D E:JS S:KH W:2C\nAnn: 4S->N # ok\n'


def codes(report) -> list[str]:
    return [d.code for d in report.diagnostics]


def test_bom_and_crlf_read_the_same(tmp_path: Path) -> None:
    plain = tmp_path / "plain.log"
    plain.write_text(LOG, encoding="utf-8")
    odd = tmp_path / "odd.log"
    odd.write_bytes(b"\xef\xbb\xbf" + LOG.replace("\n", "\r\n").encode())
    assert list(read_text(LOG)) == list(read_text("\ufeff" + LOG.replace("\n", "\r\n")))
    assert codes(check_file(str(plain))) == codes(check_file(str(odd)))
    turn = next(e for e in read_text("\ufeff" + LOG.replace("\n", "\r\n")) if isinstance(e, Turn))
    assert turn.comment == "# ok" and turn.cols == (6,)


def test_not_utf8(tmp_path: Path) -> None:
    f = tmp_path / "latin1.log"
    f.write_bytes(LOG.replace("Ann", "Ånn").encode("latin-1"))
    report = check_file(str(f))
    assert codes(report) == ["KC002"]
    d = report.diagnostics[0]
    assert (d.line, d.column) == (1, 11)
    result = CliRunner().invoke(main, ["check", str(f)])
    assert result.exit_code == 2 and "KC002" in result.output


def test_binary(tmp_path: Path) -> None:
    f = tmp_path / "game.bin"
    f.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    assert codes(check_file(str(f))) == ["KC003"]
    assert CliRunner().invoke(main, ["check", str(f)]).exit_code == 2


def test_directory_and_missing(tmp_path: Path) -> None:
    assert codes(check_file(str(tmp_path))) == ["KC001"]
    assert codes(check_file(str(tmp_path / "nope.log"))) == ["KC001"]
    result = CliRunner().invoke(main, ["check", str(tmp_path / "nope.log")])
    assert result.exit_code == 2 and "no such file" in result.output


def test_empty_text_has_no_hand() -> None:
    assert codes(check_text("")) == ["KC004"]
    assert codes(check_text("# just a comment\n\n")) == ["KC004"]


def test_tag_value_hash_is_not_a_comment() -> None:
    (tag,) = list(read_text('[Site "Pub #3"] # real comment'))
    assert tag.value == "Pub #3" and tag.comment == "# real comment"


def test_unknown_player_is_pointed_at_exactly() -> None:
    text = '[Players "Ann, Bob"]\nhand 1\ndeal   Dan: 3H 7C QS 2D 9H 4S 5C\nlayout N:5D E:JS S:KH W:2C\nreveal\tZed: 3C\n'
    found = [(d.code, d.line, d.column) for d in check_text(text).diagnostics]
    assert found == [("KC205", 3, 8), ("KC504", 3, 8), ("KC205", 5, 8)]


def test_dates_must_be_real() -> None:
    for value, ok in (("2026-11-27", True), ("2024-02-29", True), ("2025-02-29", False),
                      ("2026-13-45", False), ("0000-00-00", False), ("2026-2-3", False)):
        codes_found = [d.code for d in check_text(f'[Date "{value}"]\n[Players "Ann, Bob"]\n').diagnostics]
        assert ("KC206" not in codes_found) is ok, value


def test_set_up_messages_clip_what_they_quote() -> None:
    long = "x" * 60_000
    text = (f'[Players "Ann, Bob, {long}!"]\n[Players "Ann, Bob"]\n[Rules "{long}"]\n[Date "{long}"]\n'
            f'[Draw "{long}"]\nhand 1\nlayout N:9D E:JS S:3C W:5H\n{long[:200]}: pass\n')
    messages = [d.message for d in check_text(text).diagnostics if d.code in ("KC204", "KC205", "KC206")]
    assert len(messages) == 5 and all(len(m) < 300 and "x…" in m for m in messages), messages
