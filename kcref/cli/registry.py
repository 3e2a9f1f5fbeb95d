"""Command-line choices made from the library's registries: the values an option accepts, the
words its help says about each, and its shell completion, all read from one list.

A registry is read when it is first needed (parsing, help, completion), never when the command
line is built, so ``kcref --version`` imports none of the libraries behind the choices; and it
is read anew each time, so an entry registered at run time is a choice at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

import click

if TYPE_CHECKING:
    from click.shell_completion import CompletionItem


class Described(Protocol):
    """A registry entry as the command line sees it: its name, and what it is in a few words."""

    @property
    def name(self) -> str: ...

    @property
    def help(self) -> str: ...


class Entry(NamedTuple):
    """A name and its help, for a registry whose entries carry no help of their own."""

    name: str
    help: str


Load = Callable[[], Iterable[Described]]
"""Reads a registry: its entries, in the order the help lists them."""


def first_clause(doc: str | None) -> str:
    """What a docstring says first, up to its first ``.``, ``:`` or ``;``, as a phrase: on one
    line, its first letter lower-case."""
    text = " ".join((doc or "").split())
    ends = [i for i in (text.find(mark) for mark in ".:;") if i >= 0]
    text = text[:min(ends)] if ends else text
    return text[:1].lower() + text[1:]


def describe(entries: Iterable[Described]) -> str:
    """``a (what a is); b, c (what b and c are)``: the names that share a help are named together,
    in the order they first come."""
    groups: dict[str, list[str]] = {}
    for entry in entries:
        groups.setdefault(entry.help, []).append(entry.name)
    return "; ".join(f"{', '.join(names)} ({help})" for help, names in groups.items())


class RegistryChoice(click.Choice[str]):
    """A choice among the names of a registry's entries; completion shows each entry's help."""

    def __init__(self, load: Load, case_sensitive: bool = True) -> None:
        # Not Choice.__init__: it would read the registry now, as the command line is built.
        self.load = load
        self.case_sensitive = case_sensitive

    @property
    def choices(self) -> tuple[str, ...]:
        return tuple(entry.name for entry in self.load())

    @choices.setter
    def choices(self, value: Sequence[Any]) -> None:
        raise AttributeError("the choices are the registry's names")

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
        from click.shell_completion import CompletionItem  # only when completing: click.shell_completion is dear

        return [CompletionItem(entry.name, help=entry.help) for entry in self.load()
                if entry.name.startswith(incomplete)]


class RegistryOption(click.Option):
    """An option whose help may say ``{choices}``: the names of its registry's entries, each with
    its help (see :func:`describe`), filled in when the help is shown."""

    @property
    def help(self) -> str | None:
        if self._help is None or not isinstance(self.type, RegistryChoice):
            return self._help
        return self._help.format(choices=describe(self.type.load()))

    @help.setter
    def help(self, value: str | None) -> None:
        self._help = value


class TagValue(click.ParamType[tuple[str, str]]):
    """``TAG=VALUE``: a rule option as its log tag would set it (judged where the tag is read).
    Completion offers the option tags, then the values of the one typed."""

    name = "TAG=VALUE"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> tuple[str, str]:
        if isinstance(value, tuple):
            return value
        tag, sep, text = str(value).partition("=")
        if not sep or not tag.strip():
            self.fail(f"'{value}' is not TAG=VALUE", param, ctx)
        return tag.strip(), text.strip()

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
        from click.shell_completion import CompletionItem

        from ..model.options import OPTION_TAGS, OPTION_TAGS_BY_NAME

        tag, sep, text = incomplete.partition("=")
        if not sep:
            return [CompletionItem(f"{t.tag}=", help=t.description) for t in OPTION_TAGS
                    if t.tag.lower().startswith(tag.lower())]
        spec = OPTION_TAGS_BY_NAME.get(tag.strip().lower())
        if spec is None:
            return []
        return [CompletionItem(f"{tag}={value}", help=spec.description) for value in spec.choices
                if value.startswith(text.lower())]


class PresetName(click.ParamType[str]):
    """The name of a rules preset, judged where it is used (with a did-you-mean); completion
    offers the presets, each with its summary."""

    name = "PRESET"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        return str(value)

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
        from click.shell_completion import CompletionItem

        from ..model.options import PRESETS

        return [CompletionItem(p.name, help=p.summary) for p in PRESETS if p.name.startswith(incomplete.lower())]
