"""Random-turn tic-tac-toe on the tic-tac-toe board, the coin drawn in its corner."""

from __future__ import annotations

from gamelib.game import replay
from gamelib.games import RandomTurnTicTacToe
from gamelib.ui.boards import RandomTurnBoard, board_for
from gamelib.ui.svg import board_svg


def test_the_board_shows_the_marks_and_the_coin() -> None:
    game = RandomTurnTicTacToe()
    assert isinstance(board_for(game), RandomTurnBoard)
    tossed = replay(game, ["X", (1, 1), "O", (0, 0), "O"])
    picture = board_svg(game, tossed, last_move="O")
    assert picture.text == "Random-turn tic-tac-toe board: O to move."
    assert ">O</text>" in picture.svg and ">?</text>" not in picture.svg
    in_the_air = board_svg(game, replay(game, ["X", (1, 1)]), last_move=(1, 1))
    assert ">?</text>" in in_the_air.svg
    assert board_for(game).marks(tossed) == tossed[0]
