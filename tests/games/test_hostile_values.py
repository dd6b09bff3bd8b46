"""Hostile values at the doors of the game layer: a GameError whose message stays short.

``replay`` given a number instead of a list of moves, and every GameError built around a
huge number (``10**400`` typed as a move, a delay, a step): the message names the value
shortened, never its 400 digits, and ``describe_text`` survives ints too long for ``repr``.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamelib.game import GameError, IllegalMoveError, describe_text, replay
from gamelib.games import ConnectFour, Nim, TicTacToe

HUGE = [10**40, 10**400, -(10**400), 10**5000]
HUGE_IDS = ["e40", "e400", "-e400", "e5000"]


@pytest.mark.parametrize("moves", [5, None, 3.5, "4,4", b"44", object(), 10**400],
                         ids=["5", "none", "float", "text", "bytes", "object", "e400"])
def test_replay_refuses_what_is_not_a_list_of_moves(moves: object) -> None:
    with pytest.raises(GameError, match="moves must be a list of moves") as caught:
        replay(TicTacToe(), moves)  # type: ignore[arg-type]
    assert len(str(caught.value)) < 200


def test_replay_still_takes_lists_tuples_and_ranges() -> None:
    assert replay(Nim(), [(1, 1)]) == replay(Nim(), ((1, 1),))
    assert replay(ConnectFour(), range(3)) == replay(ConnectFour(), [0, 1, 2])


@settings(max_examples=40, deadline=None)
@given(digits=st.integers(41, 6000), prefix=st.text(max_size=20))
def test_a_game_error_never_echoes_a_long_number(digits: int, prefix: str) -> None:
    message = str(GameError(f"{prefix} got {'7' * digits}, allowed: 0 to 5"))
    assert len(message) < 120 + len(prefix)
    assert f"({digits} digits)" in message and message.endswith("allowed: 0 to 5")


@pytest.mark.parametrize("value", HUGE, ids=HUGE_IDS)
def test_describe_text_shortens_any_int(value: int) -> None:
    assert len(describe_text(value)) <= 40


@pytest.mark.parametrize("value", HUGE, ids=HUGE_IDS)
@pytest.mark.parametrize("game", [TicTacToe(), ConnectFour(), Nim()], ids=["ttt", "c4", "nim"])
def test_a_huge_move_is_refused_briefly(game: object, value: int) -> None:
    with pytest.raises(IllegalMoveError) as caught:
        game.play(game.start, value)  # type: ignore[attr-defined]
    assert len(str(caught.value)) < 200
