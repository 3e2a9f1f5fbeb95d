"""Every diagnostic code kcref can emit, with its severity and a one-line description.

This table is the single source of truth: ``docs/codes.md`` is generated from it and a test
checks that every code here is documented and exercised by a test case. Codes are stable: a
code is never reused for another meaning once released.

Ranges: KC0xx input files, KC1xx syntax, KC2xx set-up (checks that need no replay),
KC3xx rules of play, KC4xx penalties, KC5xx notes and warnings about the hand, KC6xx assertions.
"""

import enum
from typing import NamedTuple


class Severity(enum.Enum):
    """How serious a diagnostic is; only errors make ``kcref check`` exit 1."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class CodeInfo(NamedTuple):
    code: str
    severity: Severity
    summary: str
    rulings: tuple[int, ...] = ()
    """The numbered rulings of ``docs/rules.md`` that settle what the code judges."""
    options: tuple[str, ...] = ()
    """The option tags whose values decide whether it applies (their seeds and each preset's
    value are in :data:`kcref.model.options.OPTION_TAGS`)."""


E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO  # noqa: E741 - short, for the table below

CODES: tuple[CodeInfo, ...] = (
    # --- input files
    CodeInfo("KC001", E, "the file cannot be read (missing, a directory, or no permission)"),
    CodeInfo("KC002", E, "the file is not UTF-8 text"),
    CodeInfo("KC003", E, "the file is binary (it holds NUL bytes)"),
    CodeInfo("KC004", W, "the file holds no hand"),
    CodeInfo("KC005", E, "a line longer than 64 KiB (65,536 characters): it is skipped unread"),
    CodeInfo("KC006", E, "the file could not be read to its end (a read error, or it shrank while being read)"),
    CodeInfo("KC007", W, "a suppression comment (# kcref: ignore[CODE]) silences nothing on its line"),
    # --- syntax
    CodeInfo("KC100", E, "the line does not follow the grammar (the message says what was expected)"),
    CodeInfo("KC101", E, "the line starts with an unknown word"),
    CodeInfo("KC102", E, "not a card (rank A 2-10 T J Q K, suit S H D C or a suit symbol)"),
    CodeInfo("KC103", E, "not a pile (N, E, S, W, NE, NW, SE, SW)"),
    CodeInfo("KC104", E, "not an action (CARD->PILE, PILE->PILE, draw, draw CARD, pass)"),
    CodeInfo("KC105", E, "a tag line is malformed (expected [Name \"value\"])"),
    CodeInfo("KC106", E, "a character that looks blank (form feed, no-break space...) where only spaces and tabs "
                         "may separate words"),
    # --- set-up
    CodeInfo("KC201", E, "no Players tag before the first hand"),
    CodeInfo("KC202", E, "the Players tag does not list 2 to 6 players"),
    CodeInfo("KC203", E, "a player name is listed twice in Players"),
    CodeInfo("KC204", E, "a player name is not usable (empty, a seat tag, or a keyword)"),
    CodeInfo("KC205", E, "a player is referred to who is not in Players"),
    CodeInfo("KC206", E, "a known tag is misspelt (its case, or a letter or two) or has a value it does not accept",
             rulings=(9,)),
    CodeInfo("KC207", E, "a line that belongs to a hand stands before the first hand"),
    CodeInfo("KC208", E, "a deal does not hold exactly 7 cards"),
    CodeInfo("KC209", E, "a player's deal is recorded twice in one hand"),
    CodeInfo("KC210", E, "a card appears twice in one hand's deals, layout, draws and reveals (a card played "
                         "that is seen elsewhere is KC308 or KC309)"),
    CodeInfo("KC211", E, "the layout does not name N, E, S and W once each"),
    CodeInfo("KC212", E, "the hand has no layout before its first turn (or blocked or reveal line), or two layouts"),
    CodeInfo("KC213", E, "a deal or layout line comes after the hand's first turn"),
    CodeInfo("KC214", W, "a hand number is out of sequence"),
    CodeInfo("KC215", E, "a hand has no layout at all"),
    CodeInfo("KC216", W, "the dealer written is not the player the deal passes to (the next seat to the left)",
             rulings=(30,)),
    # --- rules of play (the referee)
    CodeInfo("KC301", E, "a card does not fit on the pile's top card (one rank lower, opposite colour)"),
    CodeInfo("KC302", E, "nothing can be played on an Ace"),
    CodeInfo("KC303", E, "only a King (or a pile with a King at the bottom) may start an empty corner"),
    CodeInfo("KC304", E, "corner piles never move"),
    CodeInfo("KC305", E, "a pile may move only when its bottom card fits on the other pile's top card"),
    CodeInfo("KC306", E, "no pile may move onto an empty foundation",
             rulings=(1,)),
    CodeInfo("KC307", E, "a pile move needs a pile to move and another pile to move it to"),
    CodeInfo("KC308", E, "the player does not hold the card played"),
    CodeInfo("KC309", E, "a card is seen twice: it is already somewhere else"),
    CodeInfo("KC310", E, "it is another player's turn"),
    CodeInfo("KC311", E, "nothing may follow the draw at the end of a turn",
             rulings=(3, 17), options=("Draw",)),
    CodeInfo("KC312", E, "the stock is empty: there is nothing to draw"),
    CodeInfo("KC313", E, "the turn ends without the draw while the stock has cards",
             rulings=(3, 11), options=("Draw",)),
    CodeInfo("KC314", E, "drawing at the start of the turn: the draw must be the turn's first action",
             rulings=(4,), options=("Draw",)),
    CodeInfo("KC315", E, "only one draw per turn",
             rulings=(11,), options=("Draw",)),
    CodeInfo("KC316", E, "drawing only when stuck: the player could still play",
             rulings=(11,), options=("Draw",)),
    CodeInfo("KC317", E, "a drawn King must be placed at once in an empty corner",
             rulings=(6, 15), options=("ForcedKings", "DrawnKing")),
    CodeInfo("KC318", E, "a King is held past its first chance (forced Kings without chips)",
             rulings=(5, 14, 18), options=("ForcedKings",)),
    CodeInfo("KC319", E, "an action after the player went out: the hand is over"),
    CodeInfo("KC320", E, "a turn or blocked line after the end of the hand",
             rulings=(2, 19)),
    CodeInfo("KC321", E, "a blocked line while the hand is not blocked",
             rulings=(2,)),
    CodeInfo("KC322", E, "pass must be the only action of its turn",
             rulings=(13,)),
    CodeInfo("KC323", E, "a layout King stays on a foundation where layout Kings go to a corner at once",
             rulings=(8,), options=("LayoutKings",)),
    CodeInfo("KC324", E, "a layout corner entry where layout Kings stay, or a corner named twice",
             rulings=(8,), options=("LayoutKings",)),
    CodeInfo("KC325", E, "a reveal does not show as many cards as the player has left",
             rulings=(19,)),
    CodeInfo("KC326", E, "a reveal contradicts the play: a card seen elsewhere, or a card known to be held is missing",
             rulings=(19,)),
    CodeInfo("KC327", E, "the turn ended when the drawn King was placed",
             rulings=(16,), options=("DrawnKing",)),
    # --- penalties (chips)
    CodeInfo("KC401", I, "a turn with no play: the player pays chips",
             rulings=(7, 24), options=("Scoring", "NoPlayChips")),
    CodeInfo("KC402", I, "no draw while the stock had cards: the player pays chips",
             rulings=(3, 7, 11), options=("Scoring", "MissedDrawChips")),
    CodeInfo("KC403", I, "a King held past its first chance: the player pays chips",
             rulings=(5, 7, 18), options=("ForcedKings", "KingHeldChips")),
    CodeInfo("KC404", I, "cards left in hand when a player went out: the player pays chips",
             rulings=(7, 20), options=("Scoring", "CardChips", "KingChips")),
    # --- notes about a hand
    CodeInfo("KC501", W, "the hand stops before anyone goes out and it is not blocked (unfinished)",
             rulings=(19, 22)),
    CodeInfo("KC502", I, "some checks could not be made because some cards are unknown",
             rulings=(11, 17, 20, 25)),
    CodeInfo("KC503", W, "a player's chip stack went below zero: the debt is reported, never clipped",
             rulings=(7,), options=("Scoring",)),
    CodeInfo("KC504", I, "the hand is not refereed past a line that cannot be judged (fix that line first)",
             rulings=(22,)),
    CodeInfo("KC505", W, "the hand is too long to referee: it is not refereed past the line named",
             rulings=(22,)),
    # --- assertions in the log (score, chips, paid, pot lines)
    CodeInfo("KC601", E, "an assertion does not match what kcref counts (the message gives both numbers)"),
    CodeInfo("KC602", E, "an assertion about chips (chips, paid, pot) in a hand where no chips are played",
             options=("Scoring",)),
    CodeInfo("KC603", E, "an assertion stands before the end of its hand's play (a turn or blocked line follows)"),
    CodeInfo("KC604", W, "an assertion cannot be checked: the hand is unfinished, or its figure depends on "
                         "cards nobody recorded",
             rulings=(28,)),
)

BY_CODE: dict[str, CodeInfo] = {c.code: c for c in CODES}

UNREADABLE = frozenset({"KC001", "KC002", "KC003"})
"""The codes that say a file could not be read as text at all."""
STOPS_READING = frozenset({"KC002", "KC003", "KC006"})
"""The codes after which nothing more of a file is read (what follows is not known)."""



def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def codes_markdown() -> str:
    """The code table as Markdown (``docs/codes.md`` is exactly this; a test keeps them equal)."""
    lines = [
        "# kcref diagnostic codes",
        "",
        "Generated from `kcref/model/codes.py` by `python -m kcref.model.codes > docs/codes.md`; do not edit by hand.",
        "Every diagnostic is printed as `path:line:col: severity CODE message`. Only errors make",
        "`kcref check` exit 1; warnings and notes (info) never do. `kcref explain CODE` explains a code:",
        "where its rule comes from (its rulings and options) and a wrong and a right example log.",
        "",
        "| code | severity | meaning |",
        "|---|---|---|",
    ]
    lines += [f"| {c.code} | {c.severity.value} | {_cell(c.summary)} |" for c in CODES]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(codes_markdown(), end="")
