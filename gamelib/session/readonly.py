"""Read-only attributes declared in one line each: :class:`ReadOnly`.

A class that shows many values it keeps privately (the play session, the play
controller, the search viewer) would otherwise spell out one ``@property`` of four or
five lines per value. A :class:`ReadOnly` says the same in one line, with its docstring
and its type (checked by mypy from ``read``):

>>> class Counter:
...     def __init__(self) -> None:
...         self._count = 0
...     count = ReadOnly(lambda c: c._count, "How many so far.")
>>> c = Counter()
>>> c.count, Counter.count.__doc__
(0, 'How many so far.')
>>> c.count = 5
Traceback (most recent call last):
...
AttributeError: property 'count' of 'Counter' object has no setter
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

__all__ = ["ReadOnly"]

Owner = TypeVar("Owner")
"""The class the attribute belongs to."""
T = TypeVar("T")
"""The attribute's type."""


class ReadOnly(Generic[Owner, T]):
    """A read-only attribute: reading it on an object ``obj`` returns ``read(obj)``.

    ``doc`` is its docstring (``help`` shows it). Assigning to it raises AttributeError,
    as for a property without a setter; read on the class, it is the descriptor itself.
    """

    def __init__(self, read: Callable[[Owner], T], doc: str) -> None:
        """An attribute whose value is ``read(obj)``, documented by ``doc``."""
        self._read = read
        self.__doc__ = doc
        self.name = ""
        """The attribute's name in its class (set when the class is made)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> ReadOnly[Owner, T]: ...
    @overload
    def __get__(self, obj: Owner, owner: type | None = None) -> T: ...
    def __get__(self, obj: Owner | None, owner: type | None = None) -> T | ReadOnly[Owner, T]:
        if obj is None:
            return self
        return self._read(obj)

    def __set__(self, obj: Any, value: object) -> None:
        raise AttributeError(
            f"property {self.name!r} of {type(obj).__name__!r} object has no setter"
        )
