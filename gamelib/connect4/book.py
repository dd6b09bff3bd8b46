"""Connect Four's opening book: the exact score of every 7 x 6 position with 12 discs.

An *opening database* answers by lookup what a search would take long to prove. The
databases here come from the PyPI package ``bitbully-databases`` (Markus Thill, MIT
licence; see References.md), a default dependency of gamelib everywhere but in
JupyterLite, where an 18 MB download is too much for a first cell. Where it is not
installed, :func:`opening_book` answers None and everything works as without it, only
slower in the opening (see :data:`MISSING`).

What the package's files hold
-----------------------------
The format was read from the package's own reader (``BitBullyDatabases``); the facts of
the file this module loads are checked against that reader and gamelib's exact solver
(tests/connect4/test_book.py; a larger sample in benchmarks/connect_four_book.py), the
counts of all three were read from the files. They are for the standard board, 7 columns
of 6 rows, and hold records sorted by their key, so a lookup is a bisection.

The key of a position is a string of bits read column by column, left to right, each
column from the bottom up: ``10`` for a disc of the first player (X), ``11`` for one of
the second (O), ``0`` at the top of the column's discs (a full column too), and one ``0``
at the end. With 12 discs that is 12 x 2 + 7 + 1 = 32 bits, read as a signed 32-bit
number (the 8-disc file's keys are 24 bits, unsigned). Of a position and its mirror
image (columns in the reverse order) exactly one is stored, not always the one with the
smaller key, so a lookup tries both.

``book_12ply_distances.dat`` (the one this module loads)
    4,200,899 records of 5 bytes: the key (4 bytes, big-endian) and a signed byte ``v``,
    from the first player's point of view, who is also the player to move at 12 discs.
    ``v = 0`` is a draw; ``v > 0`` the first player wins, ``v < 0`` it loses, and the game
    ends ``100 - |v|`` plies from now (odd ``v``: 2,464,954 wins; even: 270,947 draws and
    1,464,998 losses). A game that ends with ``M = 112 - |v|`` discs scores
    :func:`~gamelib.connect4.score.winner_score` for the winner, so the solver's score is
    ``(v - 68) // 2`` for a win, ``(v + 68) // 2`` for a loss, 0 for a draw.
    The positions it leaves out are those where the game is over (a four on the board)
    and those where the player to move can win with its next disc; every other 12-disc
    position, also one where the opponent threatens to win, is there.
``book_12ply.dat``
    The same positions without distances: only the 1,735,945 draws and losses, in 4-byte
    records whose last two bits say which (``00`` a draw, ``01`` a loss); a position it
    leaves out is a win for the first player or one of the positions above.
``book_8ply.dat``
    Positions with 8 discs, 3-byte records with the same two last bits: 34,515 records,
    8,208 draws and 26,307 losses for the first player; the wins are left out. (So it is
    not Tromp's data set of 67,557 positions of Lesson 8, whose counts differ.)

Memory and time
---------------
:class:`Book` keeps the keys in one ``array('i')`` (16.8 MB) and the values in one
``array('b')`` (4.2 MB): two objects, not millions. Loading reads the 21 MB file and
copies it into them with a few slicing operations in C (a fraction of a second); a lookup
encodes the position with a table of the 127 possible columns and bisects, a few
microseconds. The book is loaded once per process, on first use, and shared by every
solver (:func:`opening_book`).
"""

from __future__ import annotations

import importlib.util
import sys
import threading
import time
from array import array
from bisect import bisect_left
from typing import Final

from gamelib.connect4.score import winner_score

__all__ = [
    "BOOK_COLS", "BOOK_DISCS", "BOOK_ROWS", "MISSING", "NOT_LOADED", "Book", "book_available",
    "book_installed",
    "covers", "opening_book",
]

BOOK_ROWS: Final = 6
BOOK_COLS: Final = 7
BOOK_DISCS: Final = 12
"""The number of discs of every position in the book (the solver's leaves on 7 x 6)."""

MISSING: Final = (
    "the opening book is not loaded (the package bitbully-databases is not installed, as "
    "in JupyterLite): the solver searches the opening itself, which can take minutes or "
    "more, so in the opening the player guesses with its heuristic and is not perfect"
)
"""What the lesson says when :func:`opening_book` is None."""

NOT_LOADED: Final = "opening book not loaded: a guess, not a proven move"
"""What the player's summary adds in the opening when :func:`opening_book` is None."""

_CELLS: Final = BOOK_ROWS * BOOK_COLS
_HEIGHT: Final = BOOK_ROWS + 1
_SHIFTS: Final = tuple(range(0, BOOK_COLS * _HEIGHT, _HEIGHT))
_MIRRORED: Final = _SHIFTS[::-1]


def _column_codes() -> list[tuple[int, int]]:
    """``codes[x + m]``: (bits, length) of a column whose discs are ``m`` and whose
    first player's discs are ``x`` (``m`` and ``x`` shifted to the column's bottom).

    ``x + m`` is unique and below 128: the column's discs ``m`` are ``2**h - 1`` and ``x``
    is a subset of them (the table key of :mod:`gamelib.connect4.table`, per column).
    """
    codes = [(0, 0)] * 128
    for height in range(BOOK_ROWS + 1):
        mask = (1 << height) - 1
        for first in range(1 << height):
            if first & ~mask:
                continue
            bits = 0
            for row in range(height):
                bits = (bits << 2) | (0b10 if first >> row & 1 else 0b11)
            codes[first + mask] = (bits << 1, 2 * height + 1)  # then the column's 0
    return codes


_CODES: Final = _column_codes()


def book_key(key: int, shifts: tuple[int, ...] = _SHIFTS) -> int:
    """The book's key of the 7 x 6 position whose table key is ``key`` (first player's
    discs + all discs), with 12 discs; ``shifts=_MIRRORED`` gives its mirror image's."""
    code = 0
    codes = _CODES
    for shift in shifts:
        bits, length = codes[(key >> shift) & 127]
        code = (code << length) | bits
    code <<= 1  # the pad bit
    return code - (1 << 32) if code >> 31 else code  # a signed 32-bit number


class Book:
    """The 12-disc book with distances, held as two arrays and searched by bisection.

    ``Book(data)`` takes the contents of ``book_12ply_distances.dat``; :func:`opening_book`
    makes the one shared instance. :meth:`score` is the lookup.
    """

    __slots__ = ("keys", "values", "load_seconds")

    def __init__(self, data: bytes) -> None:
        started = time.perf_counter()
        count = len(data) // 5
        self.keys = array("i", [0]) * count
        """The keys, sorted, as signed 32-bit numbers."""
        # The 5-byte records, split by slicing: bytes 0-3 of each into the keys' words.
        words = memoryview(self.keys).cast("B")
        for i in range(4):
            words[i::4] = data[i::5]
        words.release()
        if sys.byteorder == "little":
            self.keys.byteswap()  # the file is big-endian
        self.values = array("b")
        """The signed value byte of each key."""
        self.values.frombytes(data[4::5])
        self.load_seconds = time.perf_counter() - started
        """How long the arrays took to make (reading the file not included)."""

    def __len__(self) -> int:
        return len(self.keys)

    @property
    def nbytes(self) -> int:
        """The memory the two arrays hold."""
        return len(self.keys) * self.keys.itemsize + len(self.values)

    def value(self, key: int) -> int | None:
        """The stored value ``v`` of the 12-disc position with table key ``key`` (first
        player's discs + all discs) or of its mirror image; None when it is left out."""
        keys = self.keys
        for shifts in (_SHIFTS, _MIRRORED):
            code = book_key(key, shifts)
            i = bisect_left(keys, code)
            if i < len(keys) and keys[i] == code:
                return self.values[i]
        return None

    def score(self, key: int) -> int | None:
        """The solver's exact score (for the first player, who moves at 12 discs) of the
        position with table key ``key``, or None when the book leaves it out (see the
        module docstring). No check: the caller passes a 7 x 6 position with 12 discs."""
        v = self.value(key)
        if v is None or v == 0:
            return v
        won = winner_score(_CELLS, BOOK_DISCS + 100 - abs(v))
        return won if v > 0 else -won


def covers(rows: int, cols: int, discs: int) -> bool:
    """Whether the book reaches a position with ``discs`` discs on a ``rows`` x ``cols``
    board: the 7 x 6 board and at most :data:`BOOK_DISCS` discs (whether it is loaded
    is :func:`opening_book`'s to say)."""
    return (rows, cols) == (BOOK_ROWS, BOOK_COLS) and discs <= BOOK_DISCS


def book_installed() -> bool:
    """Whether the package ``bitbully-databases`` is installed (the book not loaded)."""
    return importlib.util.find_spec("bitbully_databases") is not None


_lock = threading.Lock()
_loaded = False
_book: Book | None = None


def book_available() -> bool:
    """Whether the book can be read, without loading it: loaded already, or not yet loaded
    and its package installed."""
    return _book is not None if _loaded else book_installed()


def opening_book() -> Book | None:
    """The shared :class:`Book`, loaded on the first call; None when the package
    ``bitbully-databases`` is not installed (then :data:`MISSING` says what that changes).

    The file is found through the package's own ``get_database_path``. Thread-safe: two
    first calls at once load it once.
    """
    global _loaded, _book
    if _loaded:
        return _book
    with _lock:
        if not _loaded:
            _book = _load()
            _loaded = True
    return _book


def _load() -> Book | None:
    try:
        from bitbully_databases import BitBullyDatabases  # type: ignore[import-untyped]
    except ImportError:
        return None
    path = BitBullyDatabases.get_database_path("12-ply-dist")
    with open(path, "rb") as file:
        return Book(file.read())
