"""The solver's transposition table: what was learnt about a position, as a bound.

This is Lesson 5's bound-flagged cache (:mod:`gamelib.search.bounded`) with a size limit.
An entry is the triple ::

    (flag, value, move)

``flag`` is one of Lesson 5's flags: :data:`UPPER` (``'≤'``, the score is at most
``value``: every move failed low) or :data:`LOWER` (``'≥'``, the score is at least
``value``: a move reached beta). The solver's null-window searches never prove an exact
score in one search, so :data:`EXACT` (``'='``) does not occur in its table, though
:func:`counts_by_flag` would count it. ``move`` is 1 + the index, in centre-first order,
of the move that was best when the entry was written (0: none; a ``'≤'`` entry, written
when every move failed low, names no new best move); Lesson 8 tries it first next time.

The solver reads entries as Lesson 5's ``read_bound`` does, with a null window
``(alpha, alpha + 1)``: a ``'≥'`` entry above alpha, or a ``'≤'`` entry at or below
alpha, answers the question at once. It writes the entry ``(LOWER, v, move)`` as
``table.recent[key] = lower_entry[v][move]``: every entry it can write is a tuple made
once in advance, so that a full table shares a few hundred tuples instead of holding a
million of its own. The solver also reads the entries of a position's children before
searching them (an *enhanced transposition cut-off*). Those spots of
:mod:`gamelib.connect4.negamax` are the only places that read or write entries, and they
are written out there (not called) because they run once per node.

Memory stays bounded however long the solver runs: the table is two generations of
entries, ``recent`` and ``older``. New entries go to ``recent``; a look-up tries
``recent``, then ``older``. When ``recent`` holds half the capacity it becomes ``older``
and the previous ``older`` is dropped (:meth:`Table.age`). Recent results, the most
likely to be needed again, are always kept, and dropping a generation costs nothing.

The key of the position ``(cur, mask)`` is ``cur + mask``: it is unique, because in each
column adding the column's discs to the player's discs moves one bit just above the stack
(where the guard bit makes room for it) and leaves the player's discs below it.
"""

from __future__ import annotations

from typing import Final

from gamelib.search.bounded import EXACT, LOWER, UPPER

__all__ = ["Entry", "Table", "counts_by_flag", "key_of"]

Entry = tuple[str, int, int]
"""``(flag, value, move)``: flag ``'≤'`` or ``'≥'``, the bound, the best move + 1 or 0."""

NO_MOVE: Final = 0
"""The ``move`` of an entry that remembers no best move."""


def key_of(cur: int, mask: int) -> int:
    """The table key of the position ``(cur, mask)``: ``cur + mask`` (see above)."""
    return cur + mask


class Table:
    """A bounded table of :data:`Entry` values in two generations (see the module doc).

    ``capacity`` is the most entries it keeps, give or take the entries written between
    two calls of :meth:`age`.
    """

    __slots__ = ("recent", "older", "half")

    def __init__(self, capacity: int) -> None:
        self.recent: dict[int, Entry] = {}
        """The current generation: new entries go here."""
        self.older: dict[int, Entry] = {}
        """The previous generation, read when ``recent`` has no entry."""
        self.half = max(1, capacity // 2)
        """The size at which ``recent`` becomes ``older``."""

    def get(self, key: int) -> Entry | None:
        """The entry for ``key``, recent first; None if there is none."""
        return self.recent.get(key) or self.older.get(key)

    def store(self, key: int, flag: str, value: int, move: int = NO_MOVE) -> None:
        """Write ``(flag, value, move)`` for ``key`` into the current generation."""
        self.recent[key] = (flag, value, move)

    def age(self) -> bool:
        """Start a new generation if the current one is full; True if it did."""
        if len(self.recent) < self.half:
            return False
        self.older = self.recent
        self.recent = {}
        return True

    def clear(self) -> None:
        """Forget every entry."""
        self.recent = {}
        self.older = {}

    def __len__(self) -> int:
        return len(self.recent) + len(self.older)


def counts_by_flag(table: Table) -> dict[str, int]:
    """How many entries ``table`` holds with each flag (keys ``'='``, ``'≤'``, ``'≥'``)."""
    counts = {EXACT: 0, UPPER: 0, LOWER: 0}
    older = {key: entry for key, entry in table.older.items() if key not in table.recent}
    for entries in (table.recent, older):
        for flag, _, _ in entries.values():
            counts[flag] += 1
    return counts
