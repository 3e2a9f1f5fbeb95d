"""A wrong and a right example for each code of :data:`kcref.model.codes.CODES`, as small logs
(``kcref explain CODE`` prints them; ``tests/test_explain.py`` runs each through the referee:
the wrong log raises the code, the right one does not).

The examples are kept beside the code table, keyed by its codes, rather than in it, so that the
table stays one line a code. A code about the file itself rather than its text (it cannot be
read, it is binary, a line is too long...) has no log to show: :data:`NO_EXAMPLE` says why.
"""

from __future__ import annotations

from typing import NamedTuple


class Example(NamedTuple):
    """Two small logs: one that raises the code, one close to it that does not."""

    wrong: str
    right: str
    also: tuple[str, ...] = ()
    """Other codes (errors or warnings) that the wrong log raises by its nature, besides
    ``KC501`` (a hand cut short, as most examples are)."""


PLAYERS = '[Players "Ann, Bob"]\n'
HAND = PLAYERS + "hand 1\nlayout N:9D E:JS S:3C W:KC\n"
OUT = "Ann: 8S->N; 7H->N; 6S->N; 5H->N; 4S->N; 3H->N; 2S->N\n"
"""Ann plays out her seven cards on N (9D): the hand ends."""
DEALS = "deal Ann: 8S 7H 6S 5H 4S 3H 2S\ndeal Bob: 2D 3D 4D 5D 6D 7D 8D\n"
PLACE = PLAYERS + '[DrawnKing "place"]\nhand 1\nlayout N:9D E:JS S:3C W:QC\n'
COMMERCIAL = '[Players "Ann, Bob"]\n[Rules "commercial"]\nhand 1\n' + DEALS + "layout N:9D E:JS S:3C W:QC\n"

EXAMPLES: dict[str, Example] = {
    "KC004": Example(PLAYERS, HAND + OUT),
    "KC007": Example(HAND + "Ann: 8S->N; draw  # kcref: ignore[KC301]\n",
                     HAND + "Ann: 8D->N; draw  # kcref: ignore[KC301]\n"),
    "KC100": Example(HAND + "Ann: 8S->N 7H->N\n", HAND + "Ann: 8S->N; 7H->N; draw\n"),
    "KC101": Example(HAND + "Ann: 8S->N; draw\nblokced\n", HAND + "Ann: 8S->N; draw\nBob: draw\n"),
    "KC102": Example(HAND + "Ann: 8X->N; draw\n", HAND + "Ann: 8S->N; draw\n"),
    "KC103": Example(HAND + "Ann: 8S->X; draw\n", HAND + "Ann: 8S->N; draw\n"),
    "KC104": Example(HAND + "Ann: 8S->N; flip\n", HAND + "Ann: 8S->N; draw\n"),
    "KC105": Example("[Players Ann, Bob]\nhand 1\nlayout N:9D E:JS S:3C W:KC\n" + OUT, HAND + OUT,
                     also=("KC201",)),
    "KC106": Example(HAND + "Ann: 8S->N;\u00a0draw\n", HAND + "Ann: 8S->N; draw\n"),
    "KC201": Example("hand 1\nlayout N:9D E:JS S:3C W:KC\n" + OUT, HAND + OUT),
    "KC202": Example('[Players "Ann"]\nhand 1\nlayout N:9D E:JS S:3C W:KC\n', HAND + OUT),
    "KC203": Example('[Players "Ann, Ann"]\nhand 1\nlayout N:9D E:JS S:3C W:KC\n', HAND + OUT),
    "KC204": Example('[Players "Ann, draw"]\nhand 1\nlayout N:9D E:JS S:3C W:KC\n', HAND + OUT),
    "KC205": Example(HAND + "Cy: 8S->N; draw\n", HAND + "Ann: 8S->N; draw\n"),
    "KC206": Example(PLAYERS + '[Draw "never"]\nhand 1\nlayout N:9D E:JS S:3C W:KC\n' + OUT,
                     PLAYERS + '[Draw "end"]\nhand 1\nlayout N:9D E:JS S:3C W:KC\n' + OUT),
    "KC207": Example(PLAYERS + "layout N:9D E:JS S:3C W:KC\nhand 1\nlayout N:9D E:JS S:3C W:KC\n" + OUT,
                     HAND + OUT),
    "KC208": Example(PLAYERS + "hand 1\ndeal Ann: 8S 7H\nlayout N:9D E:JS S:3C W:KC\n" + OUT,
                     PLAYERS + "hand 1\ndeal Ann: 8S 7H 6S 5H 4S 3H 2S\nlayout N:9D E:JS S:3C W:KC\n" + OUT),
    "KC209": Example(PLAYERS + "hand 1\n" + DEALS + "deal Ann: QS QH QD JH JD 10H 10D\n"
                     "layout N:9D E:JS S:3C W:KC\n" + OUT,
                     PLAYERS + "hand 1\n" + DEALS + "layout N:9D E:JS S:3C W:KC\n" + OUT),
    "KC210": Example(PLAYERS + "hand 1\nlayout N:9D E:9D S:3C W:KC\n" + OUT, HAND + OUT),
    "KC211": Example(PLAYERS + "hand 1\nlayout N:9D E:JS S:3C\n" + OUT, HAND + OUT),
    "KC212": Example(HAND + "layout N:QS E:QH S:QD W:JH\n" + OUT, HAND + OUT),
    "KC213": Example(HAND + "Ann: 8S->N; draw\ndeal Bob: 2D 3D 4D 5D 6D 7D 8D\n",
                     PLAYERS + "hand 1\ndeal Bob: 2D 3D 4D 5D 6D 7D 8D\nlayout N:9D E:JS S:3C W:KC\n"
                     "Ann: 8S->N; draw\n"),
    "KC214": Example(HAND + OUT + "hand 3\nlayout N:9D E:JS S:3C W:KC\n" + OUT.replace("Ann:", "Bob:"),
                     HAND + OUT + "hand 2\nlayout N:9D E:JS S:3C W:KC\n" + OUT.replace("Ann:", "Bob:")),
    "KC215": Example(PLAYERS + "hand 1\n", HAND + OUT),
    "KC216": Example(HAND + OUT + "hand 2 dealer Bob\nlayout N:9D E:JS S:3C W:KC\n" + OUT,
                     HAND + OUT + "hand 2 dealer Ann\nlayout N:9D E:JS S:3C W:KC\n" + OUT.replace("Ann:", "Bob:")),
    "KC301": Example(HAND + "Ann: 8D->N; draw\n", HAND + "Ann: 8S->N; draw\n"),
    "KC302": Example(PLAYERS + "hand 1\nlayout N:AH E:JS S:3C W:KC\nAnn: 2S->N; draw\n",
                     PLAYERS + "hand 1\nlayout N:AH E:JS S:3C W:KC\nAnn: 2H->S; draw\n"),
    "KC303": Example(HAND + "Ann: QH->NE; draw\n", HAND + "Ann: KH->NE; draw\n"),
    "KC304": Example(HAND + "Ann: KH->NE; NE->N; draw\n", HAND + "Ann: KH->NE; QS->NE; draw\n"),
    "KC305": Example(HAND + "Ann: N->E; draw\n",
                     PLAYERS + "hand 1\nlayout N:9D E:10S S:3C W:KC\nAnn: N->E; draw\n"),
    "KC306": Example(PLAYERS + "hand 1\nlayout N:9D E:10S S:3C W:KC\nAnn: N->E; E->N; draw\n",
                     PLAYERS + "hand 1\nlayout N:9D E:10S S:3C W:KC\nAnn: N->E; 5H->N; draw\n"),
    "KC307": Example(HAND + "Ann: N->N; draw\n", HAND + "Ann: 8S->N; draw\n"),
    "KC308": Example(COMMERCIAL + "Ann: 8C->N; draw\n", COMMERCIAL + "Ann: 8S->N; draw\n"),
    "KC309": Example(HAND + "Ann: JS->NE; draw\n", HAND + "Ann: 8S->N; draw\n"),
    "KC310": Example(HAND + "Bob: 8S->N; draw\n", HAND + "Ann: 8S->N; draw\n"),
    "KC311": Example(HAND + "Ann: draw; 8S->N\n", HAND + "Ann: 8S->N; draw\n"),
    "KC313": Example(HAND + "Ann: 8S->N\nBob: draw\n", HAND + "Ann: 8S->N; draw\nBob: draw\n"),
    "KC314": Example(PLAYERS + '[Draw "start"]\nhand 1\nlayout N:9D E:JS S:3C W:KC\nAnn: 8S->N; draw\n',
                     PLAYERS + '[Draw "start"]\nhand 1\nlayout N:9D E:JS S:3C W:KC\nAnn: draw; 8S->N\n'),
    "KC315": Example(PLAYERS + '[Draw "start"]\nhand 1\nlayout N:9D E:JS S:3C W:KC\nAnn: draw; draw\n',
                     PLAYERS + '[Draw "start"]\nhand 1\nlayout N:9D E:JS S:3C W:KC\nAnn: draw; 8S->N\n'),
    "KC316": Example(PLAYERS + '[Draw "stuck"]\nhand 1\n' + DEALS + "layout N:9D E:JS S:3C W:KC\nAnn: draw\n",
                     PLAYERS + '[Draw "stuck"]\nhand 1\n' + DEALS + "layout N:9D E:JS S:3C W:KC\nAnn: 8S->N\n"),
    "KC317": Example(COMMERCIAL + "Ann: 8S->N; draw KH; 7H->N\n", COMMERCIAL + "Ann: 8S->N; draw KH; KH->NE\n"),
    "KC318": Example(PLAYERS + '[ForcedKings "error"]\nhand 1\ndeal Ann: KH 8S 6S 5H 4S 3H 2S\n'
                     "layout N:9D E:JS S:3C W:QC\nAnn: 8S->N; draw\n",
                     PLAYERS + '[ForcedKings "error"]\nhand 1\ndeal Ann: KH 8S 6S 5H 4S 3H 2S\n'
                     "layout N:9D E:JS S:3C W:QC\nAnn: KH->NE; draw\n"),
    "KC319": Example(HAND + OUT.replace("\n", "; draw\n"), HAND + OUT),
    "KC320": Example(HAND + OUT + "Bob: draw\n", HAND + OUT),
    "KC321": Example(HAND + "Ann: 8S->N; draw\nblocked\n", HAND + "Ann: 8S->N; draw\n"),
    "KC322": Example(HAND + "Ann: 8S->N; pass\n", HAND + "Ann: 8S->N; draw\n"),
    "KC323": Example(PLAYERS + '[LayoutKings "corner"]\nhand 1\nlayout N:9D E:JS S:3C W:KC\n' + OUT,
                     PLAYERS + '[LayoutKings "corner"]\nhand 1\nlayout N:9D E:JS S:3C W:2C NE:KC\n' + OUT),
    "KC324": Example(PLAYERS + "hand 1\nlayout N:9D E:JS S:3C W:2C NE:KC\n" + OUT, HAND + OUT),
    "KC325": Example(HAND + OUT + "reveal Bob: 2D 3D\n", HAND + OUT + "reveal Bob: 2D 3D 4D 5D 6D 7D 8D\n"),
    "KC326": Example(PLAYERS + "hand 1\n" + DEALS + "layout N:9D E:JS S:3C W:KC\n" + OUT
                     + "reveal Bob: 2D 3D 4D 5D 6D 7D 9H\n",
                     PLAYERS + "hand 1\n" + DEALS + "layout N:9D E:JS S:3C W:KC\n" + OUT
                     + "reveal Bob: 2D 3D 4D 5D 6D 7D 8D\n"),
    "KC327": Example(PLACE + "Ann: draw KH; KH->NE; 8S->N\n", PLACE + "Ann: 8S->N; draw KH; KH->NE\n"),
    "KC401": Example(COMMERCIAL + "Ann: draw\n", COMMERCIAL + "Ann: 8S->N; draw\n"),
    "KC402": Example(COMMERCIAL + "Ann: 8S->N\n", COMMERCIAL + "Ann: 8S->N; draw\n"),
    "KC403": Example(COMMERCIAL.replace("3H 2S", "3H KS") + "Ann: 8S->N; draw\n",
                     COMMERCIAL.replace("3H 2S", "3H KS") + "Ann: KS->NE; draw\n"),
    "KC404": Example(COMMERCIAL + OUT, COMMERCIAL + "Ann: 8S->N; draw\n"),
    "KC501": Example(HAND + "Ann: 8S->N; draw\n", HAND + OUT),
    "KC502": Example(HAND + OUT, PLAYERS + "hand 1\n" + DEALS + "layout N:9D E:JS S:3C W:KC\n" + OUT),
    "KC503": Example(PLAYERS + '[Scoring "stacks"]\n[Stack "1"]\nhand 1\n' + DEALS + "layout N:9D E:JS S:3C W:KC\n"
                     + OUT, PLAYERS + '[Scoring "stacks"]\nhand 1\n' + DEALS + "layout N:9D E:JS S:3C W:KC\n" + OUT),
    "KC504": Example(HAND + "Ann: 8X->N; draw\n", HAND + "Ann: 8S->N; draw\n", also=("KC102",)),
    "KC601": Example(HAND + OUT + "score Ann 2\n", HAND + OUT + "score Ann 1\n"),
    "KC602": Example(HAND + OUT + "pot 12\n", COMMERCIAL + OUT + "pot 9\n"),
    "KC603": Example(HAND + "score Ann 1\n" + OUT, HAND + OUT + "score Ann 1\n"),
    "KC604": Example(HAND + "Ann: 8S->N; draw\nscore Ann 1\n", HAND + OUT + "score Ann 1\n"),
}
"""The examples by code."""

NO_EXAMPLE: dict[str, str] = {
    "KC001": "it is about a file that cannot be read at all (missing, a directory, no permission)",
    "KC002": "it is about the bytes of the file (not UTF-8), not about a log's text",
    "KC003": "it is about the bytes of the file (a NUL byte), not about a log's text",
    "KC005": "it needs a line of more than 65,536 characters",
    "KC006": "it is about a read that fails, or a file that shrinks while it is read",
    "KC312": "it needs a whole stock drawn first (34 draws with two players)",
    "KC505": "it needs a hand of more than 20,000 lines and actions",
}
"""The codes that no short log shows, and why."""
