"""Exercise 2: memoized minimax that also remembers a best move.

Lessons 2 and 3 memoize the value alone; the student writes the next step, which no lesson
shows: ``memo_value(game, state, player, cache)`` fills ``cache`` with ``state -> (value,
move)``, the value for the player to move and a move that reaches it (``None`` for a finished
state), so that the table alone plays perfectly. The checker compares the values with
:func:`~gamelib.search.memo_minimax`'s cache and checks each move against those values.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Hashable
from typing import Any, Final

from gamelib.exercises.answers import MISSING, is_legal_move, number_problem, same
from gamelib.exercises.failures import STUDENT_FAILURES, is_stub, raised_line, returned_none_line
from gamelib.exercises.guard import SEARCH
from gamelib.exercises.positions import show_state
from gamelib.exercises.report import (
    FAIL,
    PASS,
    CheckResult,
    Line,
    not_done,
    show,
)
from gamelib.exercises.run import ask, call_student, checker, expected
from gamelib.game import Player
from gamelib.games import ConnectFour, Nim, TicTacToe, TicTacToeBitboard
from gamelib.search.common import AnyGame
from gamelib.search.memo import memo_minimax

# ---------------------------------------------------------------------------------------------
# Exercise 2: memoized minimax
# ---------------------------------------------------------------------------------------------


class _TooMuchWork(BaseException):
    """Stops a student's search that expands far more states than memoization needs.

    A BaseException, so that a student's ``except Exception`` cannot swallow it.
    """


_WORK_FACTOR: Final = 10
"""A search may expand at most this many times as many states as memoized minimax."""


class _CountingGame:
    """Counts how often each state of ``game`` is expanded (``next_states`` or ``moves``
    called on it with a non-empty answer). :attr:`game` is a copy of ``game`` whose two
    methods count: an instance of the game's own class, so the student's
    ``isinstance(game, TicTacToe)`` holds. ``cache`` is the student's cache: a state
    expanded again after it was stored there is :attr:`repeated` (a cache that did not
    answer); calling ``next_states`` twice while working on a state is no repeat."""

    def __init__(self, game: AnyGame, limit: int | None = None,
                 cache: dict[Hashable, Any] | None = None) -> None:
        self._game = game
        self.cache = cache
        self.expansions = 0
        self._seen: dict[tuple[str, Hashable], int] = {}
        self.repeated: Any = MISSING
        """The first state expanded a second time by the same method, if any."""

        def note(method: str, state: Hashable) -> None:
            self.expansions += 1
            if limit is not None and self.expansions > limit:
                raise _TooMuchWork  # the limit in a closure: out of the student's sight
            key = (method, state)
            self._seen[key] = self._seen.get(key, 0) + 1
            if (self._seen[key] >= 2 and self.repeated is MISSING
                    and (self.cache is None or state in self.cache)):
                self.repeated = state

        def next_states(state: Hashable, player: Player) -> list[Hashable]:
            children = game.next_states(state, player)
            if children:
                note("next_states", state)
            return children

        def moves(state: Hashable) -> list[Hashable]:
            found = game.moves(state)
            if found:
                note("moves", state)
            return found

        self.game: AnyGame = copy.copy(game)
        # Instance attributes shadow the class's methods on this copy only.
        vars(self.game).update(next_states=next_states, moves=moves)


def _memo_positions() -> list[tuple[AnyGame, Hashable]]:
    """Positions for the memo check besides the empty tic-tac-toe board: tic-tac-toe after
    one to six random moves (two of each), the bitboard tic-tac-toe, Nim, Connect Four 4x4."""
    game = TicTacToe()
    rng = random.Random(2024)
    positions: list[tuple[AnyGame, Hashable]] = []
    for plies in (1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6):
        while True:
            state = game.start
            for _ in range(plies):
                state = game.play(state, rng.choice(game.moves(state)))
                if game.finished(state):
                    break
            if not game.finished(state):
                break
        positions.append((game, state))
    bitboard, nim, small = TicTacToeBitboard(), Nim((3, 4, 5)), ConnectFour(4, 4)
    positions += [(bitboard, bitboard.start), (nim, nim.start),
                  (small, ConnectFour.from_moves("2332", rows=4, cols=4))]
    return positions


@expected
def _solved(index: int | None) -> tuple[int, dict[Hashable, int], int]:
    """What the checker's own memo_minimax finds for the empty tic-tac-toe board (``None``)
    or for ``_memo_positions()[index]``: the value, the values of every state searched, and
    how many of those states are running (the work a memoizing search needs). Computed
    once per process and only read: every check asks the same."""
    game: AnyGame = TicTacToe()
    state: Hashable = game.start
    if index is not None:
        game, state = _memo_positions()[index]
    reference: dict[Hashable, int] = {}
    value = memo_minimax(game, state, cache=reference)
    return value, reference, sum(not game.finished(s) for s in reference)


_PAIR_HINT: Final = ("store cache[state] = (v, move): the value for the player to move and a "
                     "move that reaches it, None for a finished state")


def _move_problem(game: AnyGame, state: Hashable, move: object,
                  reference: dict[Hashable, int]) -> str:
    """"" if ``move`` is a best move of ``state`` (None for a finished state), else why not."""
    if game.finished(state):
        return "" if move is None else "a finished state has no move: store None"
    if not is_legal_move(game, state, move):
        return f"{show(move, 40)} is not a legal move there"
    child = game.play(state, move)
    if -reference[child] != reference[state]:
        return (f"{move!r} is not a best move: it gives the player to move "
                f"{-reference[child]:+d}, the state is worth {reference[state]:+d}")
    return ""


def _cache_problem(game: AnyGame, cache: object, reference: dict[Hashable, int],
                   call: str) -> Line | None:
    """None if ``cache`` holds ``state -> (value, best move)`` for exactly the states of
    ``reference`` (values as there), else a line on the first difference."""
    if not isinstance(cache, dict):
        return Line(FAIL, f"after {call} the cache is not a dict",
                    (("cache", show(cache)),))
    size = f"{len(cache):,} entries, expected {len(reference):,}"
    sizes = (("size", size),) if len(cache) != len(reference) else ()
    if not cache:
        return Line(FAIL, f"after {call} the cache is empty; expected {len(reference):,} entries",
                    (("hint", "store every value you compute before returning it, with its "
                              "move: cache[state] = (v, move)"),))
    for key in cache:
        if key in reference:
            continue
        hint = "the keys of the cache are the states themselves"
        if isinstance(key, tuple) and any(part in reference for part in key):
            hint = ("key the cache by the state alone: the player to move follows from the "
                    "state, so (state, player) keys only repeat it")
        return Line(FAIL, f"after {call} the cache holds a key that is not a state of the "
                          "search", (("key", show(key)), *sizes, ("hint", hint)))
    for key, pair in cache.items():
        if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
            return Line(FAIL, f"after {call} the cache holds {show(pair, 60)} for a state, not "
                              "a pair (value, move)",
                        (("state", show_state(game, key)), ("hint", _PAIR_HINT)))
        stored, move = pair
        if not number_problem(stored) and same(stored, reference[key]):
            why = _move_problem(game, key, move, reference)
            if not why:
                continue
            return Line(FAIL, f"after {call} the cache holds a wrong move",
                        (("state", show_state(game, key)),
                         ("player", f"{game.to_move(key)!r} (to move)"),
                         ("stored", show(pair)), ("wrong", why),
                         ("hint", "keep the move whose next state gave the best value "
                                  "(the first such move, or any of them)")))
        expected = reference[key]
        if same(stored, -expected):
            hint = ("the stored value has the wrong sign: store the value for the player "
                    "to move in that state, which is the `player` of the call that "
                    "computed it")
        else:
            hint = "store exactly the value your function returns for that state"
        return Line(FAIL, f"after {call} the cache holds a wrong value",
                    (("state", show_state(game, key)),
                     ("player", f"{game.to_move(key)!r} (to move)"),
                     ("expected", repr(expected)), ("stored", show(stored)), ("hint", hint)))
    missing = next((s for s in reference if s not in cache), None)
    if missing is None:
        return None
    hint = ("store the values of finished states too" if game.finished(missing)
            else "every state your function solves belongs in the cache")
    return Line(FAIL, f"after {call} the cache lacks some states",
                (("size", size), ("missing", show_state(game, missing)), ("hint", hint)))


_MEMO_CALL_HINT: Final = "your function is called as memo_value(game, state, player, cache)"


@checker(forbid=SEARCH)
def check_memo_minimax(memo_value: Callable[[Any, Any, Player, dict[Any, Any]], Any]
                       ) -> CheckResult:
    """Check the student's memoizing value function ``memo_value(game, state, player, cache)``.

    Its contract: the value (-1, 0 or +1) of ``state`` for ``player``, the player to move,
    under perfect play; ``cache`` is a dict from states to pairs ``(value, move)``: the value
    for the player to move and a best move (``None`` for a finished state), which the
    function reads and fills. The checker tries:

    * the empty tic-tac-toe board with an empty cache: value 0, and afterwards the cache
      has the states and values of :func:`~gamelib.search.memo_minimax`'s, 5,478 entries,
      each with a best move (checked against those values);
    * that no state is expanded (``next_states`` or ``moves`` called on it) twice;
    * a second call with the same cache, which must expand nothing;
    * 15 more positions, each with a new cache: tic-tac-toe after one to six moves, the
      bitboard tic-tac-toe, Nim (3, 4, 5) and a 4 x 4 Connect Four position.

    Result: a :class:`CheckResult`. Raises :class:`GameError` if ``memo_value`` is not
    callable.
    """
    title = "memo_value"
    game: AnyGame = TicTacToe()
    _, reference, needed = _solved(None)
    cache: dict[Hashable, Any] = {}
    counting = _CountingGame(game, limit=_WORK_FACTOR * needed, cache=cache)
    call = "memo_value(game, empty board, 'X', cache)"
    try:
        answer, filled = ask(title, "memo_value", call, memo_value, counting.game, game.start,
                             "X", cache, hint=_MEMO_CALL_HINT, read=cache.copy)
    except _TooMuchWork:
        return CheckResult(title, (_too_much_work(call, _WORK_FACTOR * needed, needed,
                                                  counting),))
    if is_stub(answer) and not filled:
        return not_done(title, "memo_value")
    forgot = returned_none_line(call, answer, "memo_value")
    if forgot is not None:
        return CheckResult(title, (forgot,))
    lines: list[Line] = []
    if not number_problem(answer) and answer == 0:
        lines.append(Line(PASS, f"{call} returns 0: tic-tac-toe is a draw"))
    else:
        lines.append(_wrong_value(call, answer, 0, (
            ("hint", "the value for the player to move is the largest of -value(n, opponent) "
                     "over the next states n"),)))
    problem = _cache_problem(game, filled, reference, "that call")
    lines.append(problem or Line(PASS, f"the cache holds {len(reference):,} states, each with "
                                       "its value for the player to move and a best move"))
    facts: dict[str, Any] = {"value": answer, "cache_size": len(filled),
                             "expansions": counting.expansions}
    if counting.repeated is not MISSING:
        lines.append(Line(FAIL, "a state was expanded twice: the cache did not answer the "
                                "second time",
                          (("state", show_state(game, counting.repeated)),
                           ("hint", "look the state up first: if it is in the cache, return "
                                    "the cached value without calling next_states"),)))
    elif counting.expansions:
        lines.append(Line(PASS, f"every state was expanded at most once "
                                f"({counting.expansions:,} expansions)"))
    lines.append(_second_call(memo_value, game, cache, answer, needed))
    lines.append(_memo_other_positions(memo_value))
    return CheckResult(title, tuple(lines), facts=facts)


def _wrong_value(call: str, answer: object, expected: int,
                 details: tuple[tuple[str, str], ...]) -> Line:
    """The line for a value function that returned ``answer`` instead of ``expected``."""
    problem = number_problem(answer)
    if problem:
        return Line(FAIL, f"{call} returned {problem}; expected {expected}",
                    (("hint", "return the number -1, 0 or +1"),))
    return Line(FAIL, f"{call} returns {show(answer)}; expected {expected}", details)


def _second_call(memo_value: Callable[..., Any], game: AnyGame, cache: dict[Hashable, Any],
                 first: object, needed: int) -> Line:
    """The line on calling ``memo_value`` again on the start with the cache of the first call."""
    again = _CountingGame(game, limit=needed, cache=cache)
    call = "a second call with the same cache"
    did_work_again = Line(FAIL, f"{call} did the work again",
                          (("hint", "read the cache that is passed in: the answer for the "
                                    "empty board is already there"),))
    try:
        second = call_student(memo_value, again.game, game.start, game.to_move(game.start), cache)
    except STUDENT_FAILURES as error:
        return raised_line(call, error)
    except _TooMuchWork:
        return did_work_again
    if again.expansions:
        return did_work_again
    if not same(second, first):
        return Line(FAIL, f"{call} returns {show(second)}, the first returned {show(first)}",
                    (("hint", "the cache must hold the value your function returns"),))
    return Line(PASS, f"{call} is answered at once, without expanding any state")



def _too_much_work(call: str, limit: int, needed: int, counting: _CountingGame) -> Line:
    details = [("note", f"memoized minimax expands {needed:,} states here; the check stopped "
                        f"your function after {limit:,} expansions")]
    if counting.repeated is not MISSING:
        details.append(("repeated", show_state(counting._game, counting.repeated)))
    details.append(("hint", "look the state up in the cache first, and store every value "
                            "you compute: then each state is expanded once"))
    return Line(FAIL, f"{call} expands far too many states", tuple(details))


def _memo_other_positions(memo_value: Callable[..., Any]) -> Line:
    positions = _memo_positions()
    for index, (game, state) in enumerate(positions):
        player = game.to_move(state)
        call = f"memo_value({show(game)}, {show(state, 60)}, {player!r}, {{}})"
        cache: dict[Hashable, Any] = {}
        expected, reference, needed = _solved(index)
        counting = _CountingGame(game, limit=_WORK_FACTOR * needed, cache=cache)
        try:
            answer, filled = call_student(memo_value, counting.game, state, player, cache,
                                          read=cache.copy)
        except STUDENT_FAILURES as error:
            return raised_line(call, error, context=(("position", show_state(game, state)),))
        except _TooMuchWork:
            return _too_much_work(call, _WORK_FACTOR * needed, needed, counting)
        forgot = returned_none_line(call, answer, "memo_value")
        if forgot is not None:
            return Line(FAIL, forgot.text, (("position", show_state(game, state)),
                                            *forgot.details))
        if number_problem(answer) or answer != expected:
            return _wrong_value(call, answer, expected, (
                ("position", show_state(game, state)), ("player", repr(player)),
                ("hint", "the value for the player to move: +1 if they can force a win, 0 a "
                         "draw, -1 if the opponent can force a win")))
        problem = _cache_problem(game, filled, reference, "that call")
        if problem is not None:
            return Line(FAIL, f"{call}: {problem.text}",
                        (("position", show_state(game, state)), *problem.details))
    return Line(PASS, f"right values, moves and caches on {len(positions)} more positions: "
                      "tic-tac-toe (both representations), Nim (3, 4, 5), Connect Four 4 x 4")



