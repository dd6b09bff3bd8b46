"""The table of computer players: each kind of game to its player, chosen above search."""

from __future__ import annotations

import random

import pytest

from gamelib.connect4 import player as c4player
from gamelib.game import GameError
from gamelib.games import ConnectFour, Nim, TicTacToe, TicTacToeBitboard
from gamelib.search import engine, tictactoe_open_lines, zero
from gamelib.session import players
from gamelib.session.players import (
    CONNECT_FOUR,
    ENGINE,
    choose_move,
    heuristic_for,
    move_values,
    player,
    player_for,
)


def test_connect_four_goes_to_its_own_player_and_every_other_game_to_the_engine() -> None:
    assert player_for(ConnectFour()) is CONNECT_FOUR
    assert player_for(ConnectFour(4, 5)) is CONNECT_FOUR
    for game in (TicTacToe(), TicTacToeBitboard(), Nim()):
        assert player_for(game) is ENGINE
    assert ENGINE.choose is engine.choose_move and ENGINE.values is engine.move_values


def test_connect_four_moves_and_hints_are_its_players() -> None:
    game = ConnectFour()
    state = ConnectFour.from_moves("445566")          # X has 4, 5, 6 on the bottom row
    decision = choose_move(game, state, depth=2, rng=random.Random(4))
    assert decision.move in (2, 6)                     # columns 3 and 7 both win
    mine = c4player.connect_four_move(game, state, depth=2, rng=random.Random(4))
    assert (decision.move, decision.move_values) == (mine.move, mine.move_values)
    values = move_values(game, state, depth=2)
    assert values == c4player.connect_four_move_values(game, state, depth=2)
    assert player(game, state, depth=2, rng=random.Random(4)) == decision.move


def test_other_games_are_played_by_the_engine() -> None:
    game = TicTacToe()
    decision = choose_move(game, game.start, rng=random.Random(0))
    assert decision.exact and decision.value == 0
    assert move_values(game, game.start) == engine.move_values(game, game.start)


def test_the_heuristic_of_each_game() -> None:
    assert heuristic_for(TicTacToe()) is tictactoe_open_lines
    assert heuristic_for(TicTacToeBitboard()) is tictactoe_open_lines
    assert heuristic_for(Nim()) is zero
    h = heuristic_for(ConnectFour(4, 5))
    assert h(ConnectFour.from_moves("112", 4, 5), "X") > 0


def test_a_table_entry_decides_for_a_subclass_too() -> None:
    class Small(ConnectFour):
        pass

    assert player_for(Small(4, 4)) is CONNECT_FOUR
    assert players.PLAYERS[0][0] is ConnectFour


@pytest.mark.parametrize("call", [player_for, heuristic_for])
def test_a_non_game_is_refused_with_a_message(call: object) -> None:
    with pytest.raises(GameError, match="game"):
        call("chess")  # type: ignore[operator]


def test_bad_arguments_are_refused_by_the_chosen_player() -> None:
    game = ConnectFour()
    with pytest.raises(GameError, match="depth"):
        choose_move(game, game.start, depth=0)
    with pytest.raises(GameError, match="depth"):
        choose_move(TicTacToe(), TicTacToe().start, depth=0)


def corner_first(state: object, player: str) -> float:
    """A heuristic no game of gamelib has: -0.5 for O once X holds the top-left corner."""
    board = state if isinstance(state, tuple) else ()
    return -0.5 if player == "O" and board and board[0][0] == "X" else 0.0


def test_a_new_kind_of_game_joins_the_table_with_its_heuristic(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    """engine_player: the engine, searching with the game's own heuristic (docs/extending.md).
    At depth 1 a move's value is minus the heuristic of its child for the opponent."""

    class Corners(TicTacToe):   # stands for a new game, with a heuristic of its own
        pass

    entry = players.engine_player(lambda game: corner_first)
    monkeypatch.setattr(players, "PLAYERS", ((Corners, entry), *players.PLAYERS))
    game = Corners()
    assert player_for(game) is entry and heuristic_for(game) is corner_first
    values = move_values(game, game.start, depth=1)
    assert values == {move: (0.5 if move == (0, 0) else 0.0) for move in game.moves(game.start)}
    decision = choose_move(game, game.start, depth=1, rng=random.Random(0))
    assert (decision.move, decision.value) == ((0, 0), 0.5)
    # Control: the engine's own heuristic for tic-tac-toe (open lines) takes the centre.
    assert choose_move(TicTacToe(), game.start, depth=1, rng=random.Random(0)).move == (1, 1)


def test_the_engine_refuses_a_heuristic_that_is_not_a_function() -> None:
    game = TicTacToe()
    with pytest.raises(GameError, match=r"heuristic must be a function heuristic\(state, player"):
        engine.choose_move(game, game.start, depth=1, heuristic=0.5)  # type: ignore[arg-type]
    with pytest.raises(GameError, match="heuristic must be a function"):
        engine.move_values(game, game.start, depth=1, heuristic="open lines")  # type: ignore[arg-type]
