"""Where each page that ships inside the package comes from: one file of the source tree each.

The source tree holds one copy of each page, in ``docs/`` or ``grammar/``; building the package
(``setup.py``, which reads this module without importing kcref) copies each into
``kcref/render/pages/`` as a regular file. A checkout reads the source file itself.
"""

FOLDER = "pages"
"""The folder of ``kcref/render/`` that holds the pages in a built package."""

PAGES: dict[str, str] = {
    "rules.md": "docs/rules.md",
    "codes.md": "docs/codes.md",
    "grammar.md": "grammar/README.md",
}
"""Each page's name in the package, and its file in the source tree."""
