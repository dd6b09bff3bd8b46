"""Exercise 12: expectiminimax, the value of a game in which a coin decides who moves.

The student writes ``expected_value(game, state, cache)``: the value of ``state`` for the
game's first player, ``game.players[0]``: max where the first player moves, min where the
second does, and at a chance state the sum of each outcome's probability times its value
(:func:`~gamelib.game.chance_outcomes`), memoized in ``cache`` (state -> value).
:func:`check_expected_value` compares the answers and the caches with
:func:`~gamelib.search.expectiminimax.expectiminimax` on random-turn tic-tac-toe with a
fair coin and with a coin that favours one player (an average that ignores the
probabilities shows there), and on plain tic-tac-toe (no chance state at all).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from fractions import Fraction
from typing import Any, Final

from gamelib.exercises.answers import number_problem, same
from gamelib.exercises.failures import returned_none_line
from gamelib.exercises.guard import Forbidden
from gamelib.exercises.positions import show_state
from gamelib.exercises.report import FAIL, PASS, CheckResult, Line, show
from gamelib.exercises.run import ask, checker, expected
from gamelib.game import CHANCE, Probability, replay
from gamelib.games import RandomTurnTicTacToe, TicTacToe
from gamelib.search.common import AnyGame
from gamelib.search.expectiminimax import ExpectedValue, expectiminimax

__all__ = ["BiasedCoinTicTacToe", "POSITIONS", "check_expected_value"]


class BiasedCoinTicTacToe(RandomTurnTicTacToe):
    """Random-turn tic-tac-toe with a coin that gives X the move with probability 2/3."""

    name: Final = "Random-turn tic-tac-toe, coin 2/3 for X"  # type: ignore[misc]

    def outcome_probabilities(self, state: Any) -> list[Probability]:
        """``[2/3, 1/3]``: X moves with probability 2/3 (precondition: a chance state)."""
        return [Fraction(2, 3), Fraction(1, 3)]

    def __repr__(self) -> str:
        return "BiasedCoinTicTacToe()"


_FAIR: Final[AnyGame] = RandomTurnTicTacToe()
_BIASED: Final[AnyGame] = BiasedCoinTicTacToe()
_CENTRE_CORNER: Final[list[Hashable]] = ["X", (1, 1), "O", (0, 0)]
POSITIONS: Final[tuple[tuple[str, AnyGame, Hashable], ...]] = (
    ("X in the centre, O in a corner, the coin in the air", _FAIR,
     replay(_FAIR, _CENTRE_CORNER)),
    ("the same board, O won the toss", _FAIR, replay(_FAIR, [*_CENTRE_CORNER, "O"])),
    ("the same board, the coin favouring X 2 to 1", _BIASED, replay(_BIASED, _CENTRE_CORNER)),
    ("O twice in a row, then X: O can win, the coin in the air", _FAIR,
     replay(_FAIR, ["O", (0, 0), "O", (0, 1), "X", (2, 2)])),
    ("plain tic-tac-toe, X and O have two marks each", TicTacToe(),
     replay(TicTacToe(), [(1, 1), (0, 0), (2, 2), (0, 2)])),
)
"""The positions checked: a description, the game and the state."""

_FORBIDDEN: Final = Forbidden(modules=("gamelib.search", "gamelib.connect4"))
"""Every search out of reach of the student's code; the game and chance_outcomes are handed."""


def _hint(game: AnyGame, state: Hashable, got: object) -> str:
    """What the wrong answer ``got`` suggests."""
    first = game.players[0]
    if game.to_move(state) != first and game.to_move(state) != CHANCE and same(
            got, -expectiminimax(game, state)):
        return ("the value is for the first player, whoever moves: no sign flips (negamax) "
                "here; take the min where the second player moves")
    if isinstance(game, BiasedCoinTicTacToe) and same(got, expectiminimax(_FAIR, state)):
        return ("this is the value with a fair coin: weight each outcome by its probability "
                "from chance_outcomes(game, state), not all alike")
    return ("max where the first player moves, min where the second does, the sum of "
            "probability times value where chance moves; a finished state: utility(state, "
            f"{first!r})")


@expected
def _reference(index: int) -> tuple[ExpectedValue, Mapping[Hashable, ExpectedValue]]:
    """gamelib's value of ``POSITIONS[index]`` and its cache (every state solved, with its
    value): computed once per copy of this module (a check afresh computes its own), out of
    reach of the student's code (:func:`~gamelib.exercises.run.expected`)."""
    _, game, state = POSITIONS[index]
    reference: dict[Hashable, ExpectedValue] = {}
    return expectiminimax(game, state, cache=reference), reference


@checker(forbid=_FORBIDDEN)
def check_expected_value(
        expected_value: Callable[[AnyGame, Hashable, dict[Hashable, Any]], Any]) -> CheckResult:
    """Check the student's ``expected_value(game, state, cache)``.

    For each of :data:`POSITIONS`: the answer must equal gamelib's
    :func:`~gamelib.search.expectiminimax.expectiminimax` (exactly: Fractions compare
    exactly), and the cache, a new dict handed in, must afterwards hold every state the
    search solved with its value for the first player. A failure names the position, the
    expected and the returned value and a hint. ``facts``: ``values`` (by description) and
    ``cache_sizes``. Raises :class:`GameError` if the argument is not callable.
    """
    title = "expected_value: expectiminimax for the first player, memoized"
    values: dict[str, ExpectedValue] = {}
    sizes: dict[str, int] = {}
    for index, (name, game, state) in enumerate(POSITIONS):
        want, reference = _reference(index)
        cache: dict[Hashable, Any] = {}
        call = f"expected_value({game!r}, <{name}>, {{}})"
        got = ask(title, "expected_value", call, expected_value, game, state, cache,
                  first=index == 0)
        position = ("position", f"{name}\n{show_state(game, state)}")
        forgot = returned_none_line(call, got, "expected_value")
        if forgot is not None:
            return CheckResult(title, (forgot,))
        problem = number_problem(got)
        if problem:
            return CheckResult(title, (Line(FAIL, call, (
                position, ("expected", str(want)), ("returned", show(got)),
                ("hint", f"return the value as a number: {problem}"))),))
        if not same(got, want):
            return CheckResult(title, (Line(FAIL, call, (
                position, ("expected", f"{want} for {game.players[0]}"),
                ("returned", show(got)), ("hint", _hint(game, state, got)))),))
        wrong = [s for s, v in reference.items() if s not in cache or not same(cache[s], v)]
        if wrong:
            missing = wrong[0] not in cache
            return CheckResult(title, (Line(FAIL, f"{call}: the cache", (
                position,
                ("state", show_state(game, wrong[0])),
                ("expected", f"{reference[wrong[0]]} in the cache"),
                ("returned", "no entry" if missing else show(cache[wrong[0]])),
                ("hint", "store every state's value in cache[state] before returning it, "
                         "and look it up first" if missing else
                         "the cache holds each state's value for the first player")),
            ),))
        values[name], sizes[name] = want, len(reference)
    lines = tuple(Line(PASS, f"{name}: {values[name]}, {sizes[name]:,} states in the cache")
                  for name in values)
    return CheckResult(title, lines, facts={"values": values, "cache_sizes": sizes})
