"""keeping_moves and running_states (gamelib.search.choice): the judge of the value-keeping
measurements of Lessons 9 and 13, checked on hand-worked positions and exact counts."""

from __future__ import annotations

from gamelib.game import replay
from gamelib.games import Nim, TicTacToe
from gamelib.search.choice import keeping_moves, running_states


def test_tictactoe_has_4520_running_states() -> None:
    """(Lesson 13 counts the 3,191 where a move loses the value, under nbval.)"""
    game = TicTacToe()
    states = running_states(game)
    assert len(states) == 4520 and states == sorted(states, key=repr)
    assert game.start in states and not any(game.finished(s) for s in states)


def test_only_the_block_keeps_the_value_and_every_first_move_draws() -> None:
    game = TicTacToe()
    small = replay(game, [(1, 2), (0, 2), (2, 0), (1, 0), (2, 2)])   # O must block 3,2
    assert keeping_moves(game, small) == {(2, 1)}
    assert keeping_moves(game, game.start) == set(game.moves(game.start))


def test_in_nim_the_keeping_moves_leave_a_nim_sum_of_zero() -> None:
    game = Nim((1, 2, 3, 4))      # nim-sum 4: a win; the moves to nim-sum 0 keep it
    keep = keeping_moves(game, game.start)
    after = [game.play(game.start, m) for m in keep]
    assert keep and all(h[0] ^ h[1] ^ h[2] ^ h[3] == 0 for h, _ in after)
