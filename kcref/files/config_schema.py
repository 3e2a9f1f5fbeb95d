"""The JSON Schema of kcref's configuration (``docs/kcref.schema.json``), made from the keys the
reader knows (:data:`kcref.files.config.KEYS`), so that editors complete and check a
``kcref.toml`` or a ``[tool.kcref]`` table. It never takes more than the reader does; the reader
is kinder in places (a code prefix in lower case, an option tag in any case).

``python -m kcref.files.config_schema > docs/kcref.schema.json`` writes it anew.
"""

from __future__ import annotations

import json

from .config import KEYS

SCHEMA_ID = "https://kcref.invalid/kcref.schema.json"
"""The schema's own name (an ``$id`` is a name, not a place it must be fetched from)."""


def schema() -> dict[str, object]:
    """The configuration's JSON Schema (draft 2020-12): one property per key, nothing else."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "kcref configuration",
        "description": "The keys of a kcref.toml, or of the [tool.kcref] table of a pyproject.toml.",
        "type": "object",
        "additionalProperties": False,
        "properties": {name: {"description": key.help, **key.schema()} for name, key in KEYS.items()},
    }


def schema_text() -> str:
    """:func:`schema` as the file ``docs/kcref.schema.json`` holds it."""
    return json.dumps(schema(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    print(schema_text(), end="")
