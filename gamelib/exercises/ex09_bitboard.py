"""Exercise 9: the rules of Connect Four on a bitboard packed by rows, for any board size.

Lesson 7 packs the board by columns: cell ``(row, col)`` is bit ``col * (rows + 1) + row``,
with a guard bit above each column. The student packs it by rows instead, the layout the
lesson does not show: a state is a pair of ints ``(first, second)``, the discs of ``"X"`` and
of ``"O"``, cell ``(row, col)`` is bit ``row * (cols + 1) + col``, and the bit after each
row's last cell is an always-empty guard. Every step between neighbours changes (across is 1,
up is ``cols + 1``) and a disc no longer lands by the carry of one addition. The student
writes three functions on such states:

* ``next_states(rows, cols, state)``: the states after the player to move drops a disc in
  each open column, left to right (``[]`` when the game is over);
* ``finished(rows, cols, state)``: True iff a player has four in a row or the board is full;
* ``utility(rows, cols, state, player)``: for a finished state, +1 if ``player`` has four in
  a row, -1 if the opponent has, 0 for a draw.

:func:`check_connect_four_rules` runs them in lockstep with ``ConnectFour(rows, cols)`` (whose
states the checker repacks by rows: :func:`by_rows`) on seeded random games of seven board
sizes from 4 x 4 to 7 x 7, on a finished position for each direction of four whose line
touches the board's edge, and on positions where a layout without the guard bit (``cols``
bits per row) would see a four that is not there.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any, Final

from gamelib.exercises.answers import number_problem, same, truth
from gamelib.exercises.guard import Forbidden
from gamelib.exercises.report import FAIL, INFO, PASS, TODO, CheckResult, Line, show
from gamelib.exercises.run import CheckEnded, ask, checker, expected
from gamelib.games import ConnectFour
from gamelib.games.connect_four import C4State

__all__ = ["check_connect_four_rules", "by_rows", "BOARD_SIZES", "GAMES_PER_SIZE"]

_FORBIDDEN: Final = Forbidden(modules=("gamelib.games", "gamelib.search", "gamelib.connect4"))
"""gamelib's Connect Four rules (and every other game's and search) are the answer."""

BOARD_SIZES: Final = ((4, 4), (4, 5), (5, 4), (5, 6), (6, 7), (7, 6), (7, 7))
"""(rows, cols) of the boards the checker plays on."""
GAMES_PER_SIZE: Final = 4
"""Random games per board size whose every position is tried."""
_SEARCH_GAMES: Final = 300
"""Random games per size searched for edge fours and guard-bit traps."""

_DIRECTIONS: Final = ("up", "across", "diagonally down-right", "diagonally up-right")
"""In the order of ``ConnectFour.directions`` (steps 1, rows + 1, rows, rows + 2 there); packed
by rows the steps are cols + 1, 1, cols and cols + 2."""


def by_rows(game: ConnectFour, state: C4State) -> tuple[int, int]:
    """``state`` of ``game`` (packed by columns, as gamelib packs it) packed by rows: cell
    ``(row, col)`` at bit ``row * (cols + 1) + col``."""
    width = game.cols + 1

    def repack(discs: int) -> int:
        packed = 0
        for col in range(game.cols):
            for row in range(game.rows):
                if discs >> (col * game.height + row) & 1:
                    packed |= 1 << (row * width + col)
        return packed

    return repack(state[0]), repack(state[1])


def _row_steps(game: ConnectFour) -> tuple[int, int, int, int]:
    """The steps of :data:`_DIRECTIONS` packed by rows."""
    return game.cols + 1, 1, game.cols, game.cols + 2


def _random_game(game: ConnectFour, rng: random.Random) -> list[C4State]:
    state, states = game.start, [game.start]
    while not game.finished(state):
        state = game.play(state, rng.choice(game.moves(state)))
        states.append(state)
    return states


def _fours(game: ConnectFour, discs: int) -> list[tuple[int, int]]:
    """(direction index, lowest bit) of every four in ``discs``."""
    found = []
    for index, d in enumerate(game.directions):
        pairs = discs & (discs >> d)
        fours = pairs & (pairs >> (2 * d))
        bit = 0
        while fours:
            if fours & 1:
                found.append((index, bit))
            fours >>= 1
            bit += 1
    return found


def _touches_edge(game: ConnectFour, direction: int, bit: int) -> bool:
    """True iff the four starting at ``bit`` reaches the top row or the last column, where a
    line that should stop would otherwise run on into the guard bit or off the board."""
    d = game.directions[direction]
    cells = [divmod(bit + k * d, game.height) for k in range(4)]  # (col, row)
    return any(col == game.cols - 1 or row == game.rows - 1 for col, row in cells)


def _no_guard_four(game: ConnectFour, discs: int) -> bool:
    """True iff ``discs`` (packed by columns, as gamelib packs it) would hold four in a row on
    a layout with ``cols`` bits per row (no guard bit), where a row's last cell and the next
    row's first cell touch."""
    packed = 0
    for col in range(game.cols):
        for row in range(game.rows):
            if discs >> (col * game.height + row) & 1:
                packed |= 1 << (row * game.cols + col)
    for d in (1, game.cols, game.cols - 1, game.cols + 1):
        pairs = packed & (packed >> d)
        if pairs & (pairs >> (2 * d)):
            return True
    return False


Case = tuple[ConnectFour, C4State, str]
"""(game, state, why the state was chosen)."""


@expected
def _positions() -> tuple[Case, ...]:
    """Every position of :data:`GAMES_PER_SIZE` random games per size, then an edge four for
    each size and direction found, then up to three guard-bit traps per size. Seeded, so
    made once per copy of this module (a check afresh makes its own), out of reach of the
    student's code (:func:`~gamelib.exercises.run.expected`)."""
    cases: list[Case] = []
    rng = random.Random(9)
    for rows, cols in BOARD_SIZES:
        game = ConnectFour(rows, cols)
        for _ in range(GAMES_PER_SIZE):
            cases += [(game, s, "a random game") for s in _random_game(game, rng)]
        edges: dict[int, C4State] = {}
        traps: list[C4State] = []
        for _ in range(_SEARCH_GAMES):
            states = _random_game(game, rng)
            final = states[-1]
            for discs in final:
                for direction, bit in _fours(game, discs):
                    if direction not in edges and _touches_edge(game, direction, bit):
                        edges[direction] = final
            if len(traps) < 3:
                traps += [s for s in states[-4:-1]
                          if not game.finished(s) and any(_no_guard_four(game, b) for b in s)
                          and s not in traps][: 3 - len(traps)]
            if len(edges) == 4 and len(traps) == 3:
                break
        for direction, state in sorted(edges.items()):
            cases.append((game, state, f"a four {_DIRECTIONS[direction]} at the board's edge"))
        cases += [(game, s, "no four, but one would wrap without the guard bit") for s in traps]
    return tuple(cases)


@expected
def _packed(game: ConnectFour, state: C4State) -> tuple[int, int]:
    """:func:`by_rows`, remembered (as :func:`_positions`): the checker repacks the same
    positions and their next states, the expected answers, at every check (about 15,000)."""
    return by_rows(game, state)


def _why(game: ConnectFour, state: C4State) -> str:
    """Which fours the state holds, in words (for a report)."""
    names = [f"{player} {_DIRECTIONS[d]}" for player, discs in zip(game.players, state,
                                                                     strict=True)
             for d, _ in _fours(game, discs)]
    if names:
        return "four in a row: " + ", ".join(dict.fromkeys(names))
    if (state[0] | state[1]) == game.full:
        return "the board is full and nobody has four: a draw"
    return "nobody has four in a row and the board is not full"


def _position(game: ConnectFour, state: C4State, why: str) -> tuple[tuple[str, str], ...]:
    return (("board", f"{game.rows} rows x {game.cols} columns"),
            ("position", f"{show(by_rows(game, state))} ({why})\n{game.render(state)}"))


def _next_states_line(game: ConnectFour, state: C4State, answer: object) -> str | None:
    """None if right, else a hint."""
    expected = [_packed(game, s) for s in game.next_states(state, game.to_move(state))]
    if same(answer, expected):
        return None
    if answer is None:
        return "your function returned None: is a `return` missing?"
    if not isinstance(answer, list) or not all(isinstance(s, tuple) and len(s) == 2
                                               for s in answer):
        return "return a list of states, each a pair of ints (first, second)"
    if game.finished(state):
        return "the game is over: a finished state has no next states, return []"
    if not answer:
        return ("the game goes on here, so there are moves: if your next_states asks your "
                "finished, see finished's line below")
    if len(answer) > len(expected):
        return ("a full column is no move: a column is full when its top cell (bit "
                "(rows - 1) * (cols + 1) + col) is taken")
    if len(answer) < len(expected):
        return "every column whose top cell is empty is a move, from left to right"
    mover = 0 if game.to_move(state) == game.players[0] else 1
    packed = _packed(game, state)
    for got, want in zip(answer, expected, strict=True):
        if got == want:
            continue
        if got[1 - mover] != packed[1 - mover]:
            return (f"the disc belongs to the player to move, here {game.to_move(state)!r}: "
                    "X when the number of discs on the board is even")
        return ("the new disc lands on the lowest empty cell of its column, just above the "
                "discs already there: packed by rows, a column's cells are cols + 1 bits "
                "apart, so one addition no longer carries the disc there")
    return "list the next states in column order, from left to right"


def _finished_hint(game: ConnectFour, state: C4State, answer: object) -> str | None:
    expected = game.finished(state)
    if truth(answer) is expected:
        return None
    if truth(answer) is None:
        return "return True or False"
    if expected:
        fours = [d for discs in state for d, _ in _fours(game, discs)]
        if not fours:
            return "a full board ends the game too: a draw"
        d = _row_steps(game)[fours[0]]
        return (f"there is a four {_DIRECTIONS[fours[0]]} here, a step of {d} bits "
                "between neighbours on this board: check every direction's step "
                "(across 1, up cols + 1, and the two diagonals cols and cols + 2)")
    if any(_no_guard_four(game, b) for b in state):
        return ("the four you see wraps from the end of one row to the start of the next: "
                "with cols + 1 bits per row, the guard bit stops every line at the edge")
    return "nobody has four and the board is not full: the game goes on"


def _utility_hint(game: ConnectFour, state: C4State, player: str, answer: object) -> str | None:
    expected = game.utility(state, player)
    if answer is None:
        return "your function returned None: is a `return` missing?"
    problem = number_problem(answer)
    if problem:
        return f"return -1, 0 or +1: {problem}"
    if answer == expected:
        return None
    if answer == -expected:
        return (f"the utility is for `player`, here {player!r}: +1 if {player!r} has four in "
                "a row (X's discs are state[0], O's state[1])")
    return "+1 if `player` has four in a row, -1 if the opponent has, 0 for a full board"


def _run(function: Callable[..., Any], name: str, cases: tuple[Case, ...],
         make_args: Callable[[Case], list[tuple[Any, ...]]],
         judge: Callable[[Case, tuple[Any, ...], object], str | None]) -> Line:
    """One line: the student's ``function`` on every case (several calls per case). The
    line of a wrong answer, the board drawn, is written for the first one only: the others
    are counted."""
    first: Line | None = None
    wrong = calls = 0
    for case in cases:
        game, state, why = case
        for args in make_args(case):
            call = f"{name}({', '.join(show(a) for a in args)})"
            try:
                answer = ask("", name, call, function, *args,
                             context=partial(_position, game, state, why))
            except CheckEnded as ended:  # not done, or it raised: this function's one line
                return ended.result.lines[0]
            calls += 1
            hint = judge(case, args, answer)
            if hint is not None:
                wrong += 1
                if first is None:
                    first = Line(FAIL, call, (*_position(game, state, why),
                                              ("truth", _why(game, state)),
                                              ("expected", _expected(name, game, state, args)),
                                              ("returned", show(answer, 300)),
                                              ("hint", hint)))
    if first is not None:
        return Line(FAIL, f"{name}: wrong in {wrong:,} of {calls:,} calls; the first: "
                          f"{first.text}", first.details)
    return Line(PASS, f"{name}: right in all {calls:,} calls")


def _expected(name: str, game: ConnectFour, state: C4State, args: tuple[Any, ...]) -> str:
    if name == "next_states":
        return show([by_rows(game, s) for s in game.next_states(state, game.to_move(state))],
                    300)
    if name == "finished":
        return repr(game.finished(state))
    return repr(game.utility(state, args[3]))


@checker(forbid=_FORBIDDEN)
def check_connect_four_rules(next_states: Callable[[int, int, Any], Any],
                             finished: Callable[[int, int, Any], Any],
                             utility: Callable[[int, int, Any, str], Any]) -> CheckResult:
    """Check the student's bitboard rules of Connect Four, packed by rows (cell ``(row, col)``
    at bit ``row * (cols + 1) + col``, a guard bit after each row), against
    :class:`ConnectFour`, whose states the checker repacks with :func:`by_rows`.

    Positions: every position of :data:`GAMES_PER_SIZE` seeded random games on each board of
    :data:`BOARD_SIZES`; for each size and each of the four directions, a finished position
    whose four reaches the top row or the last column; and positions without a four in
    which a layout without guard bits would see one. ``next_states`` and ``finished`` are
    asked about every position, ``utility`` about the finished ones for both players. The
    report has one line per function; a failure names the board, the position (drawn), what
    it holds, the expected and the returned answer and a hint. ``facts``: ``positions``.
    Raises :class:`GameError` if an argument is not callable.
    """
    title = "Connect Four on a bitboard"
    cases = _positions()

    def sized(case: Case) -> tuple[int, int]:
        return case[0].rows, case[0].cols

    def packed(case: Case) -> tuple[int, int]:
        return _packed(case[0], case[1])

    lines = [
        _run(next_states, "next_states", cases, lambda c: [(*sized(c), packed(c))],
             lambda c, a, r: _next_states_line(c[0], c[1], r)),
        _run(finished, "finished", cases, lambda c: [(*sized(c), packed(c))],
             lambda c, a, r: _finished_hint(c[0], c[1], r)),
        _run(utility, "utility", tuple(c for c in cases if c[0].finished(c[1])),
             lambda c: [(*sized(c), packed(c), p) for p in c[0].players],
             lambda c, a, r: _utility_hint(c[0], c[1], a[3], r)),
    ]
    done = all(line.status != TODO for line in lines)
    sizes = ", ".join(f"{r}x{c}" for r, c in BOARD_SIZES)
    edge = sum("edge" in why for _, _, why in cases)
    traps = sum("wrap" in why for _, _, why in cases)
    lines.append(Line(INFO, f"{len(cases):,} positions on the boards {sizes}: random games, "
                            f"{edge} fours at the edge, {traps} lines that wrap without a "
                            "guard bit"))
    return CheckResult(title, tuple(lines), done=done, facts={"positions": len(cases)})
