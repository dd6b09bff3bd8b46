#!/usr/bin/env python3
"""Write gamelib/learn/data/connect4_values.txt: Connect Four positions with exact values.

Usage (from the project root, with the project's virtual environment, where the package
``bitbully-databases`` is installed)::

    .venv/bin/python tools/make_connect4_values.py           # write the file
    .venv/bin/python tools/make_connect4_values.py --check   # exit 1 if it differs

Seeded, so the file is the same on every run. Two kinds of lines (columns 1-based, the
format of :meth:`gamelib.games.ConnectFour.from_moves`):

``11 <moves> v1 ... v7``
    a position with 11 discs (O to move) and the exact value for O of playing each
    column (``.`` for a full one): the held-apart positions of
    :func:`gamelib.learn.value.connect_four_choices`. From games of random columns drawn
    with ``random.Random(11)``; kept when some move loses the exact value, one per mirror
    class, until there are :data:`CHOICES`.
``12 <moves> v``
    a position with 12 discs (X to move) and its exact value for X: the data of
    :func:`gamelib.learn.value.connect_four_dataset`. From games with ``random.Random(12)``;
    kept when no game ended, its mirror class is new, and it is not (up to mirror image)
    a position reached by a move from an ``11`` line, until there are :data:`POSITIONS`.

A value comes from the opening book (:mod:`gamelib.connect4.book`), which leaves out the
positions where the player to move can win with its next disc: those are wins for it, and
the script checks that it can.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from gamelib.connect4.book import Book, opening_book
from gamelib.games import ConnectFour
from gamelib.games.connect_four import C4State
from gamelib.learn.value import DATA_FILE, mirror_image

CHOICES = 300
POSITIONS = 4000
OUT = Path(__file__).resolve().parents[1] / "gamelib" / "learn" / "data" / DATA_FILE
GAME = ConnectFour()


def value_for_mover(book: Book, state: C4State) -> int:
    """The exact value of an unfinished 12-disc ``state`` for X, the player to move."""
    first, second = state
    score = book.score(first + (first | second))
    if score is None:   # left out: X wins with its next disc
        assert any(GAME.finished(GAME.play(state, m)) for m in GAME.moves(state))
        return 1
    return (score > 0) - (score < 0)


def random_game(rng: random.Random, discs: int) -> tuple[str, C4State] | None:
    """``discs`` random columns from the start, or None if the game ends before."""
    state, moves = GAME.start, ""
    for _ in range(discs):
        if GAME.finished(state):
            return None
        col = rng.choice(GAME.moves(state))
        state, moves = GAME.play(state, col), moves + str(col + 1)
    return None if GAME.finished(state) else (moves, state)


def mirror_class(state: C4State) -> C4State:
    return min(state, mirror_image(GAME, state))


def lines(book: Book) -> list[str]:
    out = ["# Connect Four positions with exact values; made by tools/make_connect4_values.py"]
    rng, seen, reached = random.Random(11), set(), set()
    while len(seen) < CHOICES:
        game = random_game(rng, 11)
        if game is None or mirror_class(game[1]) in seen:
            continue
        moves, state = game
        values = {}
        for col in GAME.moves(state):
            child = GAME.play(state, col)
            values[col] = 1 if GAME.finished(child) else -value_for_mover(book, child)
        if len(set(values.values())) == 1:
            continue
        seen.add(mirror_class(state))
        reached |= {mirror_class(GAME.play(state, col)) for col in values
                    if not GAME.finished(GAME.play(state, col))}
        shown = [str(values[c]) if c in values else "." for c in range(GAME.cols)]
        out.append(f"11 {moves} {' '.join(shown)}")
    rng, kept = random.Random(12), set()
    while len(kept) < POSITIONS:
        game = random_game(rng, 12)
        if game is None or mirror_class(game[1]) in kept or mirror_class(game[1]) in reached:
            continue
        moves, state = game
        kept.add(mirror_class(state))
        out.append(f"12 {moves} {value_for_mover(book, state)}")
    return out


def main(argv: list[str]) -> int:
    book = opening_book()
    if book is None:
        print("the opening book is needed: pip install bitbully-databases", file=sys.stderr)
        return 2
    text = "\n".join(lines(book)) + "\n"
    if "--check" in argv:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print(f"{OUT.name}: {'up to date' if same else 'out of date'}")
        return 0 if same else 1
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT} ({len(text):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
