"""``@frozen``: frozen dataclasses whose methods are shared, not generated for each class.

``@dataclass(frozen=True)`` execs generated source for six methods of each class it makes; for
the event classes and the referee's records, that was a fifth of ``kcref check``'s start-up.
:func:`frozen` makes the same classes without generated code: dataclass itself only records
the fields (and adds the slots), so ``dataclasses.fields``, ``replace``, ``asdict`` and
``is_dataclass`` work as on any dataclass, and the methods are those of :class:`Frozen`,
written once, which read the field names off the class.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import MISSING, FrozenInstanceError, dataclass, field, fields
from typing import ClassVar, TypeVar

_T = TypeVar("_T")
_set = object.__setattr__

if sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:  # it only tells type checkers that a class made by ``frozen`` is a frozen dataclass
    def dataclass_transform(**_: object) -> Callable[[_T], _T]:
        return lambda decorated: decorated


class Fields:
    """What :class:`Frozen`'s methods need to know of the fields of one class."""

    __slots__ = ("compared", "defaults", "init", "names", "shown")

    def __init__(self, cls: type) -> None:
        found = fields(cls)
        if any(f.default_factory is not MISSING for f in found):
            raise TypeError("the defaults of a frozen class are values: default_factory is not supported")
        self.names = tuple(f.name for f in found)
        self.init = tuple(f.name for f in found if f.init)
        self.defaults = {f.name: f.default for f in found if f.default is not MISSING}
        self.compared = tuple(f.name for f in found if f.compare)
        self.shown = tuple(f.name for f in found if f.repr)


class Frozen:
    """The base of a class made by :func:`frozen`: the methods that dataclass would generate,
    behaving as the generated ones. ``__setattr__`` and ``__delattr__``, which raise
    ``FrozenInstanceError``, are set on each class by :func:`frozen`, not here: a class of the
    same slots derived from this one (the reader's event drafts) stays writable."""

    __slots__ = ()
    _fields: ClassVar[Fields]

    def __init__(self, *args: object, **kwargs: object) -> None:
        names = self._fields.init
        if len(args) > len(names):
            raise TypeError(f"{type(self).__name__}() takes {len(names)} arguments but {len(args)} were given")
        for name, value in zip(names, args):
            if name in kwargs:
                raise TypeError(f"{type(self).__name__}() got multiple values for argument {name!r}")
            _set(self, name, value)
        defaults = self._fields.defaults
        for name in names[len(args):]:
            value = kwargs.pop(name, defaults.get(name, MISSING))
            if value is MISSING:
                raise TypeError(f"{type(self).__name__}() missing argument {name!r}")
            _set(self, name, value)
        if kwargs:
            raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument {next(iter(kwargs))!r}")
        self.__post_init__()

    def __post_init__(self) -> None:
        """What ``__init__`` does last: nothing, unless a class says otherwise."""

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields.shown)
        return f"{type(self).__qualname__}({shown})"

    def _compared(self) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in self._fields.compared])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._compared() == other._compared()

    def __hash__(self) -> int:
        return hash(self._compared())


def _frozen_setattr(self: Frozen, name: str, value: object) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _frozen_delattr(self: Frozen, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")


def _getstate(self: Frozen) -> list[object]:
    return [getattr(self, name) for name in self._fields.names]


def _setstate(self: Frozen, state: list[object]) -> None:
    for name, value in zip(self._fields.names, state):
        _set(self, name, value)


_C = TypeVar("_C", bound=Frozen)


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def frozen(*, slots: bool = False) -> Callable[[type[_C]], type[_C]]:
    """``@dataclass(frozen=True, slots=slots)`` for a subclass of :class:`Frozen` (and so type
    checkers see it), its methods those of :class:`Frozen`."""

    def make(cls: type[_C]) -> type[_C]:
        made = dataclass(cls, init=False, repr=False, eq=False, slots=slots)
        made._fields = Fields(made)
        methods: dict[str, Callable[..., object]] = {"__setattr__": _frozen_setattr, "__delattr__": _frozen_delattr}
        if slots:  # as dataclass does: the default pickling would set the slots through __setattr__
            methods.update(__getstate__=_getstate, __setstate__=_setstate)
        for name, method in methods.items():
            setattr(made, name, method)
        return made

    return make
