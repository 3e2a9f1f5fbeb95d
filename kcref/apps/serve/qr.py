"""A URL as a QR code drawn in the terminal, so that a phone joins by pointing its camera at the screen."""

from __future__ import annotations

import io


def qr_text(url: str) -> str:
    """The QR code of ``url`` in half-block characters, two rows of modules a line."""
    import segno

    out = io.StringIO()
    segno.make(url, error="l").terminal(out=out, compact=True, border=2)
    return out.getvalue()
