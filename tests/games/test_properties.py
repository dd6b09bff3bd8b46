"""Property tests: arbitrary input either works or raises GameError, never anything else."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from gamelib.game import GameError
from gamelib.games import ConnectFour, Nim, TicTacToe, TicTacToeBitboard

GAMES: list[Any] = [TicTacToe(), TicTacToeBitboard(), ConnectFour(), ConnectFour(4, 5), Nim()]


@settings(max_examples=300, deadline=None)
@given(moves=st.text(alphabet="0123456789x ", max_size=60))
def test_from_moves_builds_a_state_or_raises_game_error(moves: str) -> None:
    try:
        state = ConnectFour.from_moves(moves)
    except GameError as error:
        assert len(str(error)) <= 120
        return
    # Built: it is the position that playing the columns one by one gives.
    game = ConnectFour()
    expected = game.start
    for char in moves:
        expected = game.play(expected, int(char) - 1)
    assert state == expected
    assert game.from_text(game.render(state)) == state


@settings(max_examples=200, deadline=None)
@given(columns=st.lists(st.integers(min_value=0, max_value=6), max_size=42))
def test_from_moves_agrees_with_play_on_column_lists(columns: list[int]) -> None:
    """Digits that name columns: from_moves fails exactly where play would refuse."""
    game = ConnectFour()
    text = "".join(str(c + 1) for c in columns)
    state, failed_at = game.start, None
    for index, col in enumerate(columns, start=1):
        if col not in game.moves(state):
            failed_at = index
            break
        state = game.play(state, col)
    try:
        result = ConnectFour.from_moves(text)
    except GameError as error:
        assert failed_at is not None and str(error).startswith(f"move {failed_at} (")
    else:
        assert failed_at is None and result == state


@settings(max_examples=200, deadline=None)
@given(text=st.one_of(st.text(max_size=50), st.none(), st.integers(), st.binary(max_size=5)))
def test_parse_move_returns_a_move_or_raises_game_error(text: Any) -> None:
    for game in GAMES:
        try:
            move = game.parse_move(text)
        except GameError as error:
            assert len(str(error)) <= 160
            continue
        # Whatever parses prints back in the canonical notation and parses the same.
        assert game.parse_move(game.format_move(move)) == move


@settings(max_examples=200, deadline=None)
@given(
    moves=st.lists(
        st.one_of(
            st.integers(min_value=-3, max_value=12),
            st.tuples(st.integers(-1, 4), st.integers(-1, 6)),
            st.none(),
            st.booleans(),
            st.text(max_size=3),
        ),
        max_size=12,
    )
)
def test_play_returns_a_state_or_raises_game_error(moves: list[Any]) -> None:
    for game in GAMES:
        state = game.start
        for move in moves:
            try:
                child = game.play(state, move)
            except GameError:
                continue
            assert move in game.moves(state)
            state = child
