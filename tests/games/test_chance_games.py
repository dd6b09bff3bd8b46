"""The chance vocabulary (gamelib.game: CHANCE, chance_outcomes) and the two chance games.

The door checks a chance state's probabilities; random-turn tic-tac-toe and Pig follow
the protocol along seeded random playouts (the coin and the die included), their rules
are pinned on hand-made positions, and bad input gets a message with the state unchanged.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from gamelib.game import (
    CHANCE,
    GameError,
    IllegalMoveError,
    MoveFormatError,
    chance_outcomes,
    is_chance,
)
from gamelib.games import Pig, RandomTurnTicTacToe, TicTacToe


class Dice:
    """A one-roll game whose chance state gives the probabilities it was made with."""

    name = "Dice"
    players = ("A", "B")
    start = "roll"

    def __init__(self, probabilities: Any, outcomes: int = 2) -> None:
        self.probabilities, self.outcomes = probabilities, outcomes

    def to_move(self, state: str) -> str:
        return CHANCE if state == "roll" else "A"

    def next_states(self, state: str, player: str) -> list[str]:
        return [f"face{i}" for i in range(self.outcomes)] if state == "roll" else []

    def outcome_probabilities(self, state: str) -> Any:
        return self.probabilities

    def finished(self, state: str) -> bool:
        return state != "roll"

    def utility(self, state: str, player: str) -> int:
        return 1 if (state == "face0") == (player == "A") else -1


def test_a_chance_state_gives_each_outcome_with_its_probability() -> None:
    half = Fraction(1, 2)
    assert chance_outcomes(Dice([half, half]), "roll") == [(half, "face0"), (half, "face1")]
    assert chance_outcomes(Dice([0.25, 0.75]), "roll") == [(0.25, "face0"), (0.75, "face1")]
    assert chance_outcomes(Dice([1], outcomes=1), "roll") == [(1, "face0")]


@pytest.mark.parametrize(("probabilities", "outcomes", "words"), [
    ([Fraction(1, 2), Fraction(1, 3)], 2, "sum to 5/6, not 1"),
    ([0.5, 0.4], 2, "sum to 0.9, not 1"),
    ([Fraction(3, 2), Fraction(-1, 2)], 2, "-1/2 of an outcome is negative"),
    ([], 0, "has no outcomes"),
    ([Fraction(1, 2)], 2, "has 2 outcome(s) but outcome_probabilities gave [Fraction(1, 2)]"),
    (None, 2, "has 2 outcome(s) but outcome_probabilities gave None"),
    (["1/2", "1/2"], 2, "'1/2' of an outcome is not a number"),
    ([float("nan"), 1.0], 2, "nan of an outcome is not a number"),
    ([True, False], 2, "True of an outcome is not a number"),
])
def test_the_door_refuses_bad_probabilities(probabilities: Any, outcomes: int,
                                            words: str) -> None:
    with pytest.raises(GameError) as error:
        chance_outcomes(Dice(probabilities, outcomes), "roll")
    assert words in str(error.value)


def test_the_door_refuses_a_state_that_is_not_a_chance_state_or_a_game_without_probabilities(
) -> None:
    with pytest.raises(GameError, match="is not a chance state: it is 'X''s turn"):
        chance_outcomes(TicTacToe(), TicTacToe().start)  # type: ignore[arg-type]

    class NoProbabilities(Dice):
        outcome_probabilities = None  # type: ignore[assignment]

    with pytest.raises(GameError, match="no outcome_probabilities"):
        chance_outcomes(NoProbabilities([1, 0]), "roll")
    assert is_chance(Dice([1, 0]), "roll") and not is_chance(Dice([1, 0]), "face0")


GAMES: dict[str, Any] = {"random_turn": RandomTurnTicTacToe(), "pig_12": Pig(12),
                         "pig_100": Pig()}


def check_state(game: Any, state: Any) -> None:
    """Assert the protocol's facts about one state of a chance game."""
    hash(state)
    mover = game.to_move(state)
    moves = game.moves(state)
    assert len(set(moves)) == len(moves)
    assert game.finished(state) == (not moves)
    if mover == CHANCE:
        assert not game.finished(state)
        outcomes = chance_outcomes(game, state)
        assert sum(p for p, _ in outcomes) == 1
        assert all(isinstance(p, Fraction) for p, _ in outcomes)
    else:
        assert mover in game.players
    children = [game.play(state, move) for move in moves]
    assert game.next_states(state, mover) == children
    for move in moves:
        assert game.parse_move(game.format_move(move)) == move
    assert game.from_text(game.render(state)) == state
    if game.finished(state):
        results = [game.utility(state, p) for p in game.players]
        assert results[0] == -results[1] and results[0] in (-1, 0, 1)
    else:
        with pytest.raises(GameError, match="only for finished states"):
            game.utility(state, game.players[0])


@pytest.mark.parametrize("name", GAMES)
def test_chance_games_follow_the_protocol_along_random_playouts(name: str) -> None:
    game = GAMES[name]
    for seed in range(3 if name == "pig_100" else 20):
        rng, state, plies = random.Random(seed), game.start, 0
        while True:
            check_state(game, state)
            if game.finished(state):
                break
            moves = game.moves(state)
            if game.to_move(state) == CHANCE:
                weights = game.outcome_probabilities(state)
                state = game.play(state, rng.choices(moves, weights=weights)[0])
            else:   # Pig: roll mostly, so that a game ends
                state = game.play(state, moves[0] if rng.random() < 0.8 else rng.choice(moves))
            plies += 1
        assert plies < 2000


def test_random_turn_tictactoe_lets_the_coin_choose_who_moves() -> None:
    game = RandomTurnTicTacToe()
    board = game.play(game.play(game.start, "X"), (1, 1))
    assert board == (((" ",) * 3, (" ", "X", " "), (" ",) * 3), CHANCE)
    again = game.play(game.play(board, "X"), (0, 0))   # the coin chose X twice
    assert game.to_move(game.play(again, "X")) == "X"
    assert game.render(again).endswith("coin: in the air")
    won = game.play(game.play(again, "X"), (2, 2))
    assert game.finished(won) and game.utility(won, "X") == 1 and game.utility(won, "O") == -1
    assert game.render(won).endswith("coin: X moved last")


def test_random_turn_tictactoe_refuses_bad_moves_with_the_state_unchanged() -> None:
    game = RandomTurnTicTacToe()
    start = game.start
    with pytest.raises(IllegalMoveError, match="is not an outcome of the coin"):
        game.play(start, (0, 0))
    x_moves = game.play(start, "X")
    with pytest.raises(IllegalMoveError, match="is not a cell"):
        game.play(x_moves, "O")
    state = game.play(game.play(x_moves, (0, 0)), "O")
    with pytest.raises(IllegalMoveError, match="cell 1,1 is taken by X; free cells: 1,2"):
        game.play(state, (0, 0))
    with pytest.raises(MoveFormatError, match="the coin's outcome is 'X' or 'O'"):
        game.parse_move("heads")
    with pytest.raises(GameError, match="is not a state of Random-turn tic-tac-toe"):
        game.render("nonsense")  # type: ignore[arg-type]
    assert start == (((" ",) * 3,) * 3, CHANCE)


def test_pig_rolls_holds_and_loses_the_turn_total_on_a_1() -> None:
    game = Pig(20)
    state = game.play(game.play(game.start, "roll"), 6)
    state = game.play(game.play(state, "roll"), 5)
    assert state == ((0, 0), 11, 0, False)
    assert game.render(state) == "A 0 | B 0 | turn total 11 | A to move"
    held = game.play(state, "hold")
    assert held == ((11, 0), 0, 1, False) and game.to_move(held) == "B"
    lost = game.play(game.play(game.play(game.play(held, "roll"), 4), "roll"), 1)
    assert lost == ((11, 0), 0, 0, False)
    assert game.play(lost, "hold") == ((11, 0), 0, 1, False)   # holding 0 passes the turn
    won = game.play(game.play(lost, "roll"), 6)
    assert game.play(game.play(won, "roll"), 3) == ((20, 0), 0, 0, False)
    assert game.finished(((20, 0), 0, 0, False)) and game.utility(((20, 0), 0, 0, False), "A") == 1


def test_pig_refuses_bad_input_with_a_message() -> None:
    with pytest.raises(GameError, match="target must be a whole number of points from 1 to 100"):
        Pig(0)
    with pytest.raises(GameError, match="from 1 to 100; got 101"):
        Pig(101)
    game = Pig(10)
    with pytest.raises(IllegalMoveError, match="'jump' is not a move: a move is 'roll' or 'hold'"):
        game.play(game.start, "jump")
    with pytest.raises(IllegalMoveError, match="7 is not a face of the die"):
        game.play(game.play(game.start, "roll"), 7)
    with pytest.raises(IllegalMoveError, match="the game is over"):
        game.play(((10, 3), 0, 0, False), "roll")
    with pytest.raises(MoveFormatError, match="is not a move"):
        game.parse_move("7")
    with pytest.raises(GameError, match="cannot arise"):
        game.from_text("A 5 | B 0 | turn total 5 | A to move")
    assert game.parse_move(" Roll ") == "roll" and game.parse_move("3") == 3
