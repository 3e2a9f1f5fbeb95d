"""kcref's configuration: a ``kcref.toml`` (top-level keys) or a ``[tool.kcref]`` table in
``pyproject.toml``, found upwards from each checked file's folder as ruff finds its own, but
never above the file's repository (the first folder upwards holding ``.git``, a folder or a
file) or, outside any repository, above the working folder: a file left in the temporary
folder or the home folder must not decide what a check inside a repository reports.

The closest file wins, ``kcref.toml`` before ``pyproject.toml`` in the same folder, and a
``pyproject.toml`` without a ``[tool.kcref]`` table does not count. Each folder is searched
once per run (the answers are cached), and the TOML parser is imported only when a file that
may hold a configuration is found: a check without one costs a few ``stat`` calls per folder.

Every key is read through :data:`KEYS`, one row per key: its field, how its value is read, and
what it takes. An unknown key, or a value of the wrong type, is a :class:`ConfigError` that
names the key and the file.
"""

import os
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple

from ..model.codes import CODES, UNREADABLE
from ..model.diagnostics import printable
from ..model.options import OPTION_TAGS_BY_NAME, PRESETS_BY_NAME
from ..model.words import did_you_mean
from .excludes import Exclusions, matches_pattern, pattern_problem

KCREF_TOML = "kcref.toml"
PYPROJECT = "pyproject.toml"
CONFIG_NAMES = (KCREF_TOML, PYPROJECT)
"""The files that may hold a configuration, in the order each folder is asked."""
REPOSITORY_MARK = ".git"
"""What makes a folder the root of a repository (a folder, or a file in a git worktree): the
search for a configuration goes no higher."""

_MAY_HOLD_TABLE = (r'(?m)^[ \t]*(\[[ \t]*"?tool"?[ \t]*(\]|\.[ \t]*"?kcref"?)'
                   r'|"?tool"?[ \t]*(\.[ \t]*"?kcref"?|=))')
"""A ``pyproject.toml`` that matches none of ``[tool]``, ``[tool.kcref...``, ``tool.kcref...`` or
``tool = ...`` holds no ``[tool.kcref]`` table: it need not be parsed (a match only may)."""


class ConfigError(ValueError):
    """A configuration file cannot be used; the message names the file and the key (printable)."""


class Config(NamedTuple):
    """What a configuration file (and the command line over it) sets; ``None`` or empty: not set."""

    path: str | None = None
    """The file read, or ``None`` (no file: the built-in defaults)."""
    rules: str | None = None
    """The rules preset of logs without a ``Rules`` tag."""
    options: tuple[tuple[str, str], ...] = ()
    """Option tags and their values (tag spelling as in logs), for logs without those tags."""
    select: tuple[str, ...] | None = None
    """Code prefixes to report (``None``: all)."""
    ignore: tuple[str, ...] = ()
    """Code prefixes not to report."""
    extend_ignore: tuple[str, ...] = ()
    """More code prefixes not to report (added to ``ignore``, wherever that comes from)."""
    extend_select: tuple[str, ...] = ()
    """More code prefixes to report (added to ``select``, wherever that comes from)."""
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """(pattern, code prefixes): the codes not reported in the files a pattern matches (a line
    of a ``.gitignore``, relative to the configuration file's folder)."""
    exclude: tuple[str, ...] | None = None
    """Patterns of files and folders a folder search passes over (lines of a ``.gitignore``,
    relative to the configuration file's folder)."""
    extend_exclude: tuple[str, ...] = ()
    """More such patterns (added to ``exclude``, wherever that comes from)."""
    respect_gitignore: bool | None = None
    """Whether a folder search passes over what git ignores (``None``: yes)."""
    strict: bool | None = None
    glob: tuple[str, ...] = ()
    format: str | None = None
    jobs: int | None = None
    cache: bool | None = None
    """Whether ``kcref check`` keeps a cache of unchanged files' results (``None``: yes)."""
    cache_dir: str | None = None
    """Where that cache is kept, relative to the configuration file's folder (``None``: ``.kcref_cache``
    in the working folder)."""

    def ignored(self) -> frozenset[str]:
        """The codes not reported: those outside ``select``, and those ``ignore`` or
        ``extend_ignore`` name. A file that cannot be read (KC001-KC003) is always reported."""
        codes = [c.code for c in CODES]
        dropped: set[str] = set()
        if self.select is not None:
            dropped.update(c for c in codes if not c.startswith(self.select + self.extend_select))
        dropped.update(c for c in codes if c.startswith(self.ignore + self.extend_ignore))
        return frozenset(dropped - UNREADABLE)

    def over(self, base: "Config") -> "Config":
        """This configuration (the command line's) over ``base`` (a file's): each field set here
        wins, except the ``extend_*`` ones, which add to ``base``'s."""
        changes: dict[str, Any] = {name: value for name, value in zip(self._fields, self)
                                   if name != "path" and value not in (None, ())}
        for name in EXTENDING:
            changes[name] = getattr(base, name) + getattr(self, name)
        return base._replace(**changes)

    @property
    def folder(self) -> str:
        """The folder this configuration's patterns are relative to: its file's (the working
        folder's, without a file)."""
        return os.path.dirname(self.path) or "." if self.path is not None else "."

    def exclusions(self) -> Exclusions:
        """What a folder search passes over under this configuration."""
        return Exclusions((*(self.exclude or ()), *self.extend_exclude), self.folder,
                          self.respect_gitignore is not False)

    def for_file(self, path: str) -> "Config":
        """This configuration as it applies to the file at ``path``: with the codes its
        ``per-file-ignores`` name for that file added to ``extend_ignore``."""
        if not self.per_file_ignores or path == "-":
            return self
        codes = [code for pattern, prefixes in self.per_file_ignores for code in prefixes
                 if matches_pattern(pattern, path, self.folder)]
        return self._replace(extend_ignore=self.extend_ignore + tuple(codes)) if codes else self


EXTENDING = ("extend_ignore", "extend_select", "extend_exclude")
"""The fields that add to those of the configuration below instead of replacing them."""


# --- reading values ---------------------------------------------------------------------------


def _string(value: object) -> str:
    if not isinstance(value, str):
        raise ValueError(f"expected a string, not {_toml_type(value)}")
    return value


def _strings(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"expected a list of strings, not {_toml_type(value)}")
    return tuple(value)


def _folder(value: object) -> str:
    name = _string(value)
    if not name or "\0" in name:
        raise ValueError("expected a folder name (not empty, without NUL characters)")
    return name


def _bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, not {_toml_type(value)}")
    return value


def _jobs(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"expected a whole number from 1 up, not {_shown(value)}")
    return value


def _rules(value: object) -> str:
    name = _string(value).strip().lower()
    if name not in PRESETS_BY_NAME:
        raise ValueError(f"unknown rules preset '{value}': expected one of {', '.join(PRESETS_BY_NAME)}"
                         f"{did_you_mean(name, PRESETS_BY_NAME)}")
    return name


def _options(value: object) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, dict):
        raise ValueError(f"expected a table of option tags and values, not {_toml_type(value)}")
    out = []
    for tag, given in value.items():
        spec = OPTION_TAGS_BY_NAME.get(tag.lower())
        if spec is None:
            names = [t.tag for t in OPTION_TAGS_BY_NAME.values()]
            raise ValueError(f"unknown option '{tag}'{did_you_mean(tag, names)}: expected one of {', '.join(names)}")
        if isinstance(given, bool) or not isinstance(given, (str, int)):
            raise ValueError(f"{spec.tag}: expected a string or a whole number, not {_toml_type(given)}")
        try:
            spec.parse(str(given))
        except ValueError as exc:
            raise ValueError(f"{spec.tag} '{given}': {exc}") from None
        out.append((spec.tag, str(given)))
    return tuple(out)


def code_prefixes(values: Iterable[str]) -> tuple[str, ...]:
    """Code prefixes as given (``KC2``, ``kc216``), upper-cased. Raises ``ValueError`` for a
    prefix that starts no code."""
    out = []
    for value in values:
        prefix = value.strip().upper()
        if not prefix or not any(c.code.startswith(prefix) for c in CODES):
            raise ValueError(f"'{value}' is not a code or the start of one"
                             f"{did_you_mean(prefix, [c.code for c in CODES])} (kcref explain --list lists them)")
        out.append(prefix)
    return tuple(out)


def _codes(value: object) -> tuple[str, ...]:
    return code_prefixes(_strings(value))


def _patterns(value: object) -> tuple[str, ...]:
    patterns = _strings(value)
    for pattern in patterns:
        if "\0" in pattern or "\n" in pattern:
            raise ValueError(f"{printable(repr(pattern))}: a pattern holds no NUL or line end")
        if pattern_problem(pattern) is not None:
            raise ValueError(f"{printable(repr(pattern))}: not a pattern of a .gitignore")
    return patterns


def _per_file(value: object) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if not isinstance(value, dict):
        raise ValueError(f"expected a table of file patterns and code lists, not {_toml_type(value)}")
    out = []
    for pattern, codes in value.items():
        _patterns(pattern)
        try:
            out.append((pattern, _codes(codes)))
        except ValueError as exc:
            raise ValueError(f"{printable(repr(pattern))}: {exc}") from None
    return tuple(out)


class Key(NamedTuple):
    """One configuration key: the :class:`Config` field it sets, how its value is read (raises
    ``ValueError`` saying what it expected), and what it takes as JSON Schema (for
    :mod:`kcref.files.config_schema`: never more than the reader takes)."""

    field: str
    read: Callable[[object], object]
    help: str
    schema: Callable[[], dict[str, object]]


def _one_or_list(item: dict[str, object]) -> dict[str, object]:
    return {"anyOf": [item, {"type": "array", "items": item}]}


def _string_schema() -> dict[str, object]:
    return {"type": "string"}


def _strings_schema() -> dict[str, object]:
    return _one_or_list({"type": "string"})


def _bool_schema() -> dict[str, object]:
    return {"type": "boolean"}


def _code_schema() -> dict[str, object]:
    prefixes = sorted({c.code[:n] for c in CODES for n in range(2, len(c.code) + 1)})
    return _one_or_list({"type": "string", "enum": prefixes})


PATTERN_SCHEMA = r"^(?:[^!\\\u0000\n][^\\\u0000\n]*|![^\\\u0000\n]*[^\s\\\u0000\n][^\\\u0000\n]*)?$"
"""A line of a ``.gitignore`` as the schema takes it: stricter than the reader, as a schema may be
(no backslash at all, since some escapes are no pattern, such as a trailing one; no ``!`` with
nothing but white space after it), and never more lenient."""


def _pattern_schema() -> dict[str, object]:
    return _one_or_list({"type": "string", "pattern": PATTERN_SCHEMA})


def _rules_schema() -> dict[str, object]:
    return {"type": "string", "enum": list(PRESETS_BY_NAME)}


def _options_schema() -> dict[str, object]:
    return {"type": "object", "additionalProperties": False,
            "properties": {t.tag: {"type": ["string", "integer"], "description": f"{t.description} ({t.values})"}
                           for t in OPTION_TAGS_BY_NAME.values()}}


def _per_file_schema() -> dict[str, object]:
    return {"type": "object", "propertyNames": {"pattern": PATTERN_SCHEMA},
            "additionalProperties": _code_schema()}


def _folder_schema() -> dict[str, object]:
    return {"type": "string", "minLength": 1, "pattern": "^[^\\u0000]*$"}


def _jobs_schema() -> dict[str, object]:
    return {"type": "integer", "minimum": 1}


KEYS: dict[str, Key] = {
    "rules": Key("rules", _rules, "the rules preset of logs without a Rules tag", _rules_schema),
    "options": Key("options", _options, "option tags and values for logs without those tags", _options_schema),
    "select": Key("select", _codes, "code prefixes to report (default: all)", _code_schema),
    "extend-select": Key("extend_select", _codes, "more code prefixes to report, on top of select", _code_schema),
    "ignore": Key("ignore", _codes, "code prefixes not to report", _code_schema),
    "extend-ignore": Key("extend_ignore", _codes, "more code prefixes not to report", _code_schema),
    "per-file-ignores": Key("per_file_ignores", _per_file,
                            "code prefixes not to report in the files a pattern (a .gitignore line) matches",
                            _per_file_schema),
    "exclude": Key("exclude", _patterns, "files and folders a folder search passes over (.gitignore lines)",
                   _pattern_schema),
    "extend-exclude": Key("extend_exclude", _patterns, "more of them, on top of exclude", _pattern_schema),
    "respect-gitignore": Key("respect_gitignore", _bool,
                             "pass over what git ignores in a folder search (default: true)", _bool_schema),
    "strict": Key("strict", _bool, "treat warnings as errors", _bool_schema),
    "glob": Key("glob", _strings, "file names to check inside directories", _strings_schema),
    "format": Key("format", _string, "the output format of kcref check", _string_schema),
    "jobs": Key("jobs", _jobs, "parallel processes for kcref check", _jobs_schema),
    "cache": Key("cache", _bool, "keep a cache of unchanged files' results (default: true)", _bool_schema),
    "cache-dir": Key("cache_dir", _folder, "the folder of that cache (default: .kcref_cache)", _folder_schema),
}
"""Every key a configuration may hold, as written in the file."""


def _toml_type(value: object) -> str:
    names = {bool: "a boolean", int: "an integer", float: "a float", str: "a string", list: "an array",
             dict: "a table"}
    return names.get(type(value), type(value).__name__)


def _shown(value: object) -> str:
    return repr(value) if isinstance(value, (int, float, str)) else _toml_type(value)


def config_from(table: Mapping[str, object], path: str) -> Config:
    """The configuration a TOML table (already parsed) sets; ``path`` names it in errors."""
    changes: dict[str, object] = {}
    for name, value in table.items():
        key = KEYS.get(name)
        if key is None:
            raise ConfigError(printable(f"{path}: unknown key '{name}'{did_you_mean(name, KEYS)}"
                                        f" (the keys: {', '.join(KEYS)})"))
        try:
            changes[key.field] = key.read(value)
        except ValueError as exc:
            raise ConfigError(printable(f"{path}: {name}: {exc}")) from None
    return Config(path=path, **changes)  # type: ignore[arg-type]


def _parse(path: str) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # Python 3.10
        import tomli as tomllib

    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except OSError as exc:
        raise ConfigError(printable(f"{path}: cannot read: {exc.strerror or exc}")) from None
    except RecursionError:
        raise ConfigError(printable(f"{path}: not valid TOML: arrays or tables nested too deeply")) from None
    except ValueError as exc:
        # Beside the parser's own errors: an integer of more digits than Python reads from text.
        reason = str(exc) if isinstance(exc, (tomllib.TOMLDecodeError, UnicodeDecodeError)) else (
            "a number too long to read")
        raise ConfigError(printable(f"{path}: not valid TOML: {reason}")) from None


def load(path: str) -> Config | None:
    """The configuration in the file at ``path``: a ``pyproject.toml``'s ``[tool.kcref]`` table
    (``None`` when it has none), else the whole file's top-level keys."""
    if os.path.basename(path) != PYPROJECT:
        return config_from(_parse(path), path)
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError as exc:
        raise ConfigError(printable(f"{path}: cannot read: {exc.strerror or exc}")) from None
    if not re.search(_MAY_HOLD_TABLE, text):  # compiled on first use: most runs find no pyproject.toml
        return None
    tool = _parse(path).get("tool")
    table = tool.get("kcref") if isinstance(tool, dict) else None
    if table is None:
        return None
    if not isinstance(table, dict):
        raise ConfigError(printable(f"{path}: tool.kcref: expected a table"))
    return config_from(table, path)


NO_CONFIG = Config()


def _shown_path(path: str) -> str:
    """``path`` relative to the working folder when it is below it (as messages name it), else as it is."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        return path
    return path if relative.startswith(os.pardir) else relative


def scoring_config(config: Config) -> Config:
    """What ``kcref score`` takes of a configuration: the rules and options of logs without
    those tags. Never the codes it ignores: a hand with errors is not scored, whatever is shown."""
    return Config(path=config.path, rules=config.rules, options=config.options)


class Finder:
    """The configuration of each checked file: the closest file upwards from its folder (each
    folder asked once) up to the top of its search (see :meth:`top`), or the one file given
    (``--config``), or none (``isolated``); with the command line's settings (``overrides``) over it."""

    def __init__(self, overrides: Config = NO_CONFIG, *, config_file: str | None = None,
                 isolated: bool = False) -> None:
        self.overrides = overrides
        self.fixed: Config | None = None
        if isolated:
            self.fixed = overrides.over(NO_CONFIG)
        elif config_file is not None:
            found = load(config_file)
            if found is None:
                raise ConfigError(printable(f"{config_file}: holds no [tool.kcref] table"))
            self.fixed = overrides.over(found)
        self.here = os.path.abspath(os.curdir)
        self._by_folder: dict[str, Config] = {}
        self._roots: dict[str, str | None] = {}

    def for_folder(self, folder: str) -> Config:
        """The configuration of the files in ``folder`` (the command line's over the closest file's)."""
        if self.fixed is not None:
            return self.fixed
        folder = os.path.abspath(folder)
        top = self.top(folder)
        asked: list[str] = []
        found: Config | None = None
        # A folder met on the way up shares the top of this search (the same repository, or
        # the same working folder), so its answer, once known, is this one's too.
        while True:
            known = self._by_folder.get(folder)
            if known is not None:
                found = known
                break
            asked.append(folder)
            file = self._file_in(folder)
            if file is not None:
                found = self.overrides.over(file)
                break
            parent = os.path.dirname(folder)
            if folder == top or parent == folder:
                found = self.overrides.over(NO_CONFIG)
                break
            folder = parent
        for each in asked:
            self._by_folder[each] = found
        return found

    def for_path(self, path: str) -> Config:
        """The configuration of the file at ``path`` (``-``, standard input: the working folder's),
        with its ``per-file-ignores`` applied."""
        return self.for_folder(os.path.dirname(path) or "." if path != "-" else ".").for_file(path)

    def top(self, folder: str) -> str:
        """The highest folder searched for the configuration of the files in ``folder`` (an
        absolute path): the root of its repository; outside any repository, the working folder
        when ``folder`` lies within it, else ``folder`` itself."""
        root = self.repository(folder)
        if root is not None:
            return root
        return self.here if _within(folder, self.here) else folder

    def repository(self, folder: str) -> str | None:
        """The root of the repository ``folder`` (an absolute path) lies in: the first folder
        upwards holding :data:`REPOSITORY_MARK`; ``None`` outside any repository."""
        asked: list[str] = []
        root: str | None = None
        while True:
            if folder in self._roots:
                root = self._roots[folder]
                break
            asked.append(folder)
            if os.path.lexists(os.path.join(folder, REPOSITORY_MARK)):
                root = folder
                break
            parent = os.path.dirname(folder)
            if parent == folder:
                break
            folder = parent
        for each in asked:
            self._roots[each] = root
        return root

    @staticmethod
    def _file_in(folder: str) -> Config | None:
        for name in CONFIG_NAMES:
            path = os.path.join(folder, name)
            if os.path.isfile(path):
                found = load(_shown_path(path))
                if found is not None:
                    return found
        return None


def _within(folder: str, above: str) -> bool:
    """Whether the absolute path ``folder`` is ``above`` or lies below it."""
    folder, above = os.path.normcase(folder), os.path.normcase(above)
    return folder == above or folder.startswith(above.rstrip(os.sep) + os.sep)


def in_force(configs: Iterable[Config]) -> list[str]:
    """The configuration files read among ``configs``, each once, in the order met (a
    configuration without a file, the built-in defaults, names none)."""
    return list(dict.fromkeys(c.path for c in configs if c.path is not None))
