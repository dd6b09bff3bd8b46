"""Every game obeys the Game protocol, checked along seeded random playouts.

For each state met on the way: states are immutable and hashable and ``play`` leaves
them alone; ``moves`` are all legal; ``next_states`` is ``play`` over ``moves`` in
order; a state is finished iff it has no moves; ``utility`` is -1, 0 or +1 on finished
states, zero-sum, and refused on unfinished ones; the turn alternates; the notation
and the text picture read back what they wrote.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Hashable
from typing import Any

import pytest

from gamelib.game import Game, GameError, IllegalMoveError, other, replay
from gamelib.games import ConnectFour, Nim, TicTacToe, TicTacToeBitboard, TreeGame

GAMES: dict[str, Any] = {
    "tictactoe": TicTacToe(),
    "tictactoe_bitboard": TicTacToeBitboard(),
    "connect4_6x7": ConnectFour(),
    "connect4_4x4": ConnectFour(4, 4),
    "connect4_4x5": ConnectFour(4, 5),
    "connect4_5x4": ConnectFour(5, 4),
    "connect4_10x10": ConnectFour(10, 10),
    "nim_1_2_3": Nim((1, 2, 3)),
    "nim_default": Nim(),
    # A ragged tree valued -1, 0, +1 like the games, and the textbooks' tree of any numbers.
    "tree_ragged": TreeGame([[1, [0, -1]], [[-1, 1], 0, [1, [0, -1]]], -1]),
    "tree_classic": TreeGame([[3, 12, 8], [2, 4, 6], [14, 5, 2]]),
}

PLAYOUTS = 60


def immutable(value: object) -> bool:
    """True iff ``value`` is built from ints, strs and tuples only (so it cannot change)."""
    if isinstance(value, (int, str)):
        return True
    return isinstance(value, tuple) and all(immutable(item) for item in value)


def playout_states(game: Any, seed: int) -> list[Any]:
    """The states of one random game from the start, the finished one last."""
    rng = random.Random(seed)
    states = [game.start]
    while moves := game.moves(states[-1]):
        states.append(game.play(states[-1], rng.choice(moves)))
    return states


def check_state(game: Any, state: Any) -> None:
    """Assert every protocol fact about one ``state`` of ``game``."""
    assert immutable(state) and isinstance(state, Hashable)
    shown, hashed = repr(state), hash(state)
    player = game.to_move(state)
    assert player in game.players
    moves = game.moves(state)
    assert game.finished(state) == (not moves)
    assert len(set(moves)) == len(moves)

    children = [game.play(state, move) for move in moves]
    assert game.next_states(state, player) == children
    for move, child in zip(moves, children, strict=True):
        assert game.parse_move(game.format_move(move)) == move
        assert child != state
        assert game.to_move(child) == other(game, player)
    assert repr(state) == shown and hash(state) == hashed

    if game.finished(state):
        results = [game.utility(state, p) for p in game.players]
        if hasattr(game, "value_range"):   # a TreeGame: any numbers within its range
            low, high = game.value_range
            assert all(low <= r <= high for r in results)
        else:
            assert set(results) <= {-1, 0, 1}
        assert sum(results) == 0
        assert game.next_states(state, player) == []
    else:
        for p in game.players:
            with pytest.raises(GameError, match="only for finished states"):
                game.utility(state, p)

    if game.text_round_trips:
        assert game.from_text(game.render(state)) == state


@pytest.mark.parametrize("key", GAMES)
def test_game_satisfies_the_protocol_at_runtime(key: str) -> None:
    game = GAMES[key]
    assert isinstance(game, Game)
    first, second = game.players
    assert first != second
    assert game.to_move(game.start) == first
    assert not game.finished(game.start)
    assert isinstance(game.name, str) and game.name
    names = {"TicTacToe": TicTacToe, "TicTacToeBitboard": TicTacToeBitboard}
    names |= {"ConnectFour": ConnectFour, "Nim": Nim, "TreeGame": TreeGame}
    assert repr(eval(repr(game), names)) == repr(game)


@pytest.mark.parametrize("key", GAMES)
def test_random_playouts_obey_the_rules(key: str) -> None:
    game = GAMES[key]
    finished_results = set()
    for seed in range(PLAYOUTS):
        states = playout_states(game, seed)
        for state in states:
            check_state(game, state)
        final = states[-1]
        finished_results.add(game.utility(final, game.players[0]))
        # Moves after the end are refused, and the refusal leaves the state alone.
        shown = repr(final)
        with pytest.raises(IllegalMoveError, match="game is over"):
            game.play(final, game.moves(states[-2])[0])
        assert repr(final) == shown
    # Sixty random games of each of these end in more than one way.
    assert len(finished_results) >= 2


@pytest.mark.parametrize("key", GAMES)
def test_replay_reaches_the_playout_states(key: str) -> None:
    game = GAMES[key]
    rng = random.Random(7)
    state, moves = game.start, []
    while legal := game.moves(state):
        move = rng.choice(legal)
        moves.append(move)
        state = game.play(state, move)
        assert replay(game, moves) == state


@pytest.mark.parametrize("key", GAMES)
def test_unknown_player_is_refused(key: str) -> None:
    game = GAMES[key]
    final = playout_states(game, 0)[-1]
    with pytest.raises(GameError, match="unknown player 'Z'"):
        game.utility(final, "Z")
    with pytest.raises(GameError, match="unknown player 'Z'"):
        game.next_states(game.start, "Z")
    with pytest.raises(GameError, match="unknown player"):
        other(game, None)


def test_games_import_no_user_interface_library() -> None:
    code = (
        "import sys, gamelib.game, gamelib.games; "
        "print(sorted(m for m in ('ipycanvas', 'ipywidgets', 'matplotlib', 'IPython') "
        "if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"
