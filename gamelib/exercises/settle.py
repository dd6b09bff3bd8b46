"""Reading the student's answer under the time limit: :func:`_settle` turns it into plain
values (containers rebuilt, iterables read with a bound, the student's own objects as
stand-ins), so that the checker compares, hashes and shows it afterwards without running the
student's code again."""

from __future__ import annotations

import functools
import itertools
import sys
from collections.abc import Iterator
from typing import Any, Final, cast

from gamelib.exercises.failures import _is_library, _message

MAX_ANSWER_ITEMS: Final = 100_000
"""The most items an answer of the student's code may have (a list, or what an iterator
gives): a larger one is refused, so that an endless generator cannot fill the memory."""


_SAFE_TYPES: Final = (int, float, complex, str, bytes, bool, type(None), type(Ellipsis))
_CONTAINERS: Final = (list, tuple, set, frozenset, dict)
_BUILT_IN: Final = frozenset(_CONTAINERS)
"""The containers themselves, not their subclasses (whose ``len`` or iteration may be the
student's code)."""
_FLAT: Final = _BUILT_IN - {dict}
"""The built-in containers whose items :func:`_plain` may take as they are when every item is
of :data:`_SAFE_TYPES`."""
MAX_ANSWER_DEPTH: Final = 50
"""The deepest nesting of containers in an answer that a checker reads."""
_PLAIN_LEVELS: Final = 3
"""How deep :func:`_is_plain_item` looks into built-in tuples: a state is often a tuple of
tuples (a board's rows), a cache's entry a pair holding a move ``(row, col)``."""


class _TooBig(Exception):
    """The student's answer is larger than a checker reads, or unusable."""


class _Opaque:
    """Stands in for an object of the student's own class in an answer: its ``repr`` as it
    was taken under the limit, ``==`` and ``hash`` by identity, so that the checker can
    compare, hash and show it without running the student's code again. Its class bears
    the name of the student's class, for messages that name the type."""

    __slots__ = ("_shown",)

    def __init__(self, shown: str) -> None:
        self._shown = shown

    def __repr__(self) -> str:
        return self._shown


@functools.lru_cache(maxsize=256)
def _opaque_class(name: str, hashable: bool) -> type[_Opaque]:
    """A subclass of :class:`_Opaque` named ``name``, unhashable as its original was."""
    return type(name, (_Opaque,), {"__slots__": ()} if hashable else
                {"__slots__": (), "__hash__": None})


def _is_library_type(kind: type) -> bool:
    """True for a type of Python, numpy, gamelib or another installed package."""
    module = sys.modules.get(kind.__module__)
    return kind.__module__ == "builtins" or _is_library(
        getattr(module, "__file__", None) or "<unknown>")


def _settle(answer: Any) -> Any:
    """The student's ``answer`` made of plain values, run under the call's time limit, so
    that the checker can compare, hash and show it afterwards without running the
    student's code: lists, tuples, sets, frozensets and dicts (their subclasses too) are
    rebuilt of plain items; an iterator, or any other iterable that is not a string or a
    numpy array (a generator, ``itertools.count()``, an object with ``__iter__``), is read
    into a list; each of them may hold at most :data:`MAX_ANSWER_ITEMS` items, at most
    :data:`MAX_ANSWER_DEPTH` levels deep, or the answer is refused (the time limit bounds
    the rest). Numbers, strings,
    numpy's values and functions stay as they are; any other object of the student's own
    class becomes an :class:`_Opaque` stand-in after its ``repr``, ``hash`` and ``==`` are
    tried once (one that raises is refused with a message, one that loops meets the
    limit)."""
    return _plain(answer, 0) if type(answer) not in _SAFE_TYPES else answer


def _plain(value: Any, depth: int) -> Any:
    kind = type(value)
    if kind in _SAFE_TYPES:
        return value
    if depth > MAX_ANSWER_DEPTH:
        raise _TooBig(f"containers nested more than {MAX_ANSWER_DEPTH} levels deep (does "
                      "a list hold itself?)")
    if (kind in _FLAT and len(value) <= MAX_ANSWER_ITEMS
            and depth + 1 + _PLAIN_LEVELS <= MAX_ANSWER_DEPTH
            and all(type(item) in _SAFE_TYPES or _is_plain_item(item) for item in value)):
        # A built-in list, tuple or set of plain values or tuples of them, by far the most
        # common answer (a state, a list of moves or states): what the general path below
        # gives, without its calls.
        return value if kind is tuple or kind is frozenset else kind(value)
    if (kind is dict and len(value) <= MAX_ANSWER_ITEMS
            and depth + 2 + _PLAIN_LEVELS <= MAX_ANSWER_DEPTH):
        pairs = list(dict.items(value))
        if all(_is_plain_item(k) and _is_plain_item(v) for k, v in pairs):
            return dict(pairs)  # a cache of states and (value, move) pairs, as a rule
    if isinstance(value, _CONTAINERS):
        if kind in _BUILT_IN and len(value) <= MAX_ANSWER_ITEMS:  # the len of a built-in
            base = kind                                           # is the truth: no _read
            items = (value if kind is tuple or kind is frozenset
                     else list(dict.items(cast(dict[Any, Any], value)) if kind is dict else value))
        else:
            base = next(b for b in _CONTAINERS if isinstance(value, b))
            items = _read(dict.items(cast(dict[Any, Any], value)) if base is dict else value,
                          kind)
        plain = [item if type(item) in _SAFE_TYPES else _plain(item, depth + 1)
                 for item in items]
        if base is dict:
            return {_plain_key(k): v for k, v in plain}
        return base(plain) if base in (set, frozenset) else (
            tuple(plain) if base is tuple else plain)
    library = _is_library_type(kind)
    if library and kind.__module__ == "numpy":
        if getattr(getattr(value, "dtype", None), "kind", "") == "O":  # objects inside
            return _plain(value.tolist(), depth)
        return value
    if callable(value) or isinstance(value, type):
        return value
    if (isinstance(value, Iterator) or (not library and hasattr(kind, "__iter__"))
            or kind in (range, map, filter, zip, enumerate, reversed)
            or kind.__name__ in ("dict_keys", "dict_values", "dict_items")):
        return [_plain(item, depth + 1) for item in _read(value, kind)]
    if library:
        return value
    if isinstance(value, (int, float, str, bytes, complex)):  # a subclass of the student's
        base_type: Any = next(b for b in (int, float, complex, str, bytes)
                              if isinstance(value, b))
        return _plain(base_type(value), depth)
    return _stand_in(value, kind)


def _is_plain_item(item: Any, levels: int = _PLAIN_LEVELS) -> bool:
    """True for a value of :data:`_SAFE_TYPES` or a built-in tuple of such items, tuples
    nested at most ``levels`` deep: what :func:`_plain` gives back as it is."""
    kind = type(item)
    return kind in _SAFE_TYPES or (kind is tuple and levels > 0 and all(
        type(x) in _SAFE_TYPES or _is_plain_item(x, levels - 1) for x in item))


def _plain_key(key: Any) -> Any:
    try:
        hash(key)
    except TypeError:
        raise _TooBig(f"a dict with a key {type(key).__name__} that cannot be a key "
                      "once read") from None
    return key


def _read(items: Any, kind: type) -> list[Any]:
    """The items of ``items``, if there are at most :data:`MAX_ANSWER_ITEMS`."""
    left = MAX_ANSWER_ITEMS
    try:
        size = len(items) if isinstance(items, _CONTAINERS) else None
    except Exception:
        size = None
    if size is not None and size > left:
        raise _TooBig(f"a {kind.__name__} of {size:,} items (at most {MAX_ANSWER_ITEMS:,} "
                      "are read)")
    read = list(itertools.islice(items, left + 1))
    if len(read) > left:
        what = "an iterator" if isinstance(items, Iterator) else "an iterable"
        raise _TooBig(f"{what} of {kind.__name__} that gave more than "
                      f"{MAX_ANSWER_ITEMS:,} items (does it ever end? a generator without "
                      "a way out, itertools.count()?)")
    return read


def _stand_in(value: Any, kind: type) -> _Opaque:
    """An :class:`_Opaque` for the student's ``value``, after its dunders were tried."""
    try:
        shown = repr(value)
    except Exception:
        shown = f"<{kind.__name__} object>"
    hashable = getattr(kind, "__hash__", None) is not None
    for name, probe in (("__hash__", hash), ("__eq__", lambda v: v == v)):
        if name == "__hash__" and not hashable:
            continue  # unhashable: so is the stand-in; each checker says so where it must
        try:
            probe(value)
        except Exception as error:
            raise _TooBig(f"an object of type {kind.__name__} whose {name} raised "
                          f"{type(error).__name__}: {_message(error)}") from None
    return _opaque_class(kind.__name__, hashable)(shown[:1000])
