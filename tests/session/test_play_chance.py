"""Playing a game with chance: the computer rolls the die (tosses the coin) and plays by
expectiminimax; humans move as usual, undo goes back to their last move, and a coin's
outcome typed by a human is refused with the position unchanged."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from gamelib.exercises.ex12_expectiminimax import BiasedCoinTicTacToe
from gamelib.game import CHANCE, GameError, replay
from gamelib.games import Pig, RandomTurnTicTacToe
from gamelib.search.expectiminimax import (
    expectiminimax_move,
    expectiminimax_move_values,
    expectiminimax_values,
)
from gamelib.session.play import PlaySession


def test_the_coin_is_drawn_by_its_probabilities() -> None:
    game, rng = BiasedCoinTicTacToe(), random.Random(5)
    drawn = Counter(expectiminimax_move(game, game.start, rng=rng).move for _ in range(600))
    assert drawn == {"X": 411, "O": 189}   # 2/3 of 600 is 400


def test_the_move_is_exact_when_the_search_reaches_every_end() -> None:
    game = RandomTurnTicTacToe()
    state = replay(game, ["X", (1, 1), "O", (0, 0), "X", (2, 2), "O"])   # O to move
    decision = expectiminimax_move(game, state, rng=random.Random(1))
    assert decision.exact and not decision.cut_short
    exact = expectiminimax_values(game, state)   # for O, the player to move
    assert decision.move_values == {m: float(v) for m, v in exact.items()}
    assert decision.value == max(exact.values()) == Fraction(1, 4)
    assert exact[decision.move] == Fraction(1, 4) and exact[(1, 2)] == 0
    assert expectiminimax_move_values(game, state) == decision.move_values
    with pytest.raises(GameError, match="no player chooses"):
        expectiminimax_move_values(game, game.start)


def test_a_human_plays_random_turn_tictactoe_against_expectiminimax() -> None:
    game = RandomTurnTicTacToe()
    session = PlaySession(game, seed=1, background=False, depth=2)
    session.wait(30)
    assert session.message.endswith("Chance: X.")       # the coin was tossed: X, the human
    assert game.to_move(session.state) == "X"
    before = session.state
    assert not session.submit("O") and session.state == before   # not the human's to toss
    assert session.play_move((1, 1))
    session.wait(30)
    texts = session.notation
    assert texts[:3] == ["X", "2,2", "O"] and texts[-1] in ("X", "O")
    assert game.to_move(session.state) in ("X", CHANCE) or game.finished(session.state)
    assert session.undo() and session.notation == ["X"]


def test_two_computers_play_pig_to_the_end() -> None:
    game = Pig(10)
    session = PlaySession(game, seed=3, background=False, mode="computer-computer", depth=2,
                          delay=0)
    session.wait(60)
    assert game.finished(session.state)
    assert "Game over" in session.message
