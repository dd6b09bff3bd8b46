"""trace_search's "expectiminimax": chance nodes, their outcomes' probabilities, the memo.

The small position (two empty squares, the coin in the air) is worked out by hand in
SMALL's comment; the tests compare the trace with that and with expectiminimax itself.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from gamelib.game import CHANCE, GameError
from gamelib.games import RandomTurnTicTacToe, TicTacToe
from gamelib.search.expectiminimax import expectiminimax
from gamelib.search.stats import Stats
from gamelib.search.trace import (
    MAX_EVENTS,
    RANDOM_TURN_FITS,
    CacheRead,
    Enter,
    Leaf,
    Return,
    trace_search,
)

GAME = RandomTurnTicTacToe()


def position(rows: str, mover: str = CHANCE) -> tuple[tuple[tuple[str, ...], ...], str]:
    """A state from three rows like ``"XOX"`` (``.`` for an empty square) and its mover."""
    board = tuple(tuple(" " if c == "." else c for c in row) for row in rows.split())
    return board, mover  # type: ignore[return-value]


# X O X
# O O X     The coin decides who takes one of 3,1 and 3,3.
# . X .
# X to move: 3,3 completes X's column (+1); 3,1 leaves a coin for 3,3: X wins (+1) or O
#   draws (0), worth 1/2. X takes +1.
# O to move: 3,1 leaves a coin for 3,3: +1 or 0, worth 1/2; 3,3 leaves a coin for 3,1,
#   a draw either way (0). O takes 0.
# The start: 1/2 x (+1) + 1/2 x (0) = +1/2.
# The tree, in the order searched (19 nodes): the root (chance) 0; outcome X 1: X 3,1 2
# (chance): outcome X 3 -> X 3,3 4 (+1), outcome O 5 -> O 3,3 6 (0); X 3,3 7 (+1);
# outcome O 8: O 3,1 9 (chance): outcome X 10 -> X 3,3 11 (+1), outcome O 12 -> O 3,3 13
# (0); O 3,3 14 (chance): outcome X 15 -> X 3,1 16 (0), outcome O 17 -> O 3,1 18, whose
# state (O on 3,1 and 3,3, O moved last) is node 13's: the memo answers it.
SMALL = position("XOX OOX .X.")
TRACE = trace_search(GAME, SMALL, "expectiminimax")


def test_the_small_position_step_by_step() -> None:
    assert TRACE.value == Fraction(1, 2) == expectiminimax(GAME, SMALL)
    assert len(TRACE.nodes) == 19
    kinds = Counter(type(e).__name__ for e in TRACE.events)
    assert kinds == {"Enter": 19, "Return": 19, "Leaf": 6, "CacheRead": 1}
    assert len(TRACE) == 45
    chance = [n.id for n in TRACE.nodes if n.player == CHANCE]
    assert chance == [0, 2, 9, 14]
    assert [e.node for e in TRACE.events if isinstance(e, Leaf)] == [4, 6, 7, 11, 13, 16]
    assert [e for e in TRACE.events if isinstance(e, CacheRead)] == [
        CacheRead(18, ("=", 0), 0, True, (-float("inf"), float("inf")))]
    returned = {e.node: e.value for e in TRACE.events if isinstance(e, Return)}
    assert [returned[k] for k in chance] == [Fraction(1, 2), Fraction(1, 2), Fraction(1, 2), 0]
    assert (returned[1], returned[8]) == (1, 0)   # X takes +1, O takes 0
    assert isinstance(TRACE.events[0], Enter) and TRACE.events[-1] == Return(0, Fraction(1, 2))


def test_every_outcome_carries_its_probability_and_only_outcomes_do() -> None:
    for node in TRACE.nodes:
        parent = None if node.parent is None else TRACE.nodes[node.parent]
        if parent is not None and parent.player == CHANCE:
            assert (node.move, node.probability) in (("X", Fraction(1, 2)),
                                                    ("O", Fraction(1, 2)))
            assert node.player == node.move
        else:
            assert node.probability is None


def test_the_trace_runs_expectiminimax_itself() -> None:
    """Value and calls as a plain call's, on positions with 1 to 4 empty squares, the
    coin in the air or a player to move."""
    games = [("XOX OOX .X.", "X"), ("XOX OX. ...", CHANCE), ("XO. .X. ..O", CHANCE),
             ("XO. .X. ..O", "O"), ("XOX OXO .XO", CHANCE)]
    for rows, mover in games:
        state = position(rows, mover)
        stats = Stats()
        value = expectiminimax(GAME, state, stats=stats)
        trace = trace_search(GAME, state, "expectiminimax")
        assert (trace.value, trace.calls) == (value, stats.calls)
        assert sum(isinstance(e, Enter) for e in trace.events) == stats.calls


def test_a_game_without_chance_is_traced_as_minimax_for_the_first_player() -> None:
    game = TicTacToe()
    state = ((("X", "O", "X"), ("O", "X", " "), (" ", " ", "O")))
    trace = trace_search(game, state, "expectiminimax")
    assert trace.value == expectiminimax(game, state) == 1
    assert all(n.probability is None and n.player != CHANCE for n in trace.nodes)


def test_too_many_empty_squares_are_refused_up_front() -> None:
    """RANDOM_TURN_FITS empty squares fit: the worst such position, found by tracing all
    5,472 running positions with 5 empty squares, takes 2,469 events. One more is refused
    before the search starts (some of them, like the one below, pass MAX_EVENTS)."""
    assert RANDOM_TURN_FITS == 5
    worst = position("OX. ... .OX")
    assert len(trace_search(GAME, worst, "expectiminimax")) == 2_469 <= MAX_EVENTS
    with pytest.raises(GameError, match="with at most 5 empty squares"):
        trace_search(GAME, position("... ... OOX", "O"), "expectiminimax")
    with pytest.raises(GameError, match="'expectiminimax' takes no option depth"):
        trace_search(GAME, SMALL, "expectiminimax", depth=2)
