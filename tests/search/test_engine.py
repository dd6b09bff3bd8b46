"""The engine behind the boards: legal, never blind to a win or a threat, safe arguments."""

from __future__ import annotations

import random
import threading
from collections.abc import Hashable
from typing import Any

import pytest
from helpers import reachable

from gamelib.game import GameError, replay
from gamelib.games import Nim, TicTacToe, TicTacToeBitboard
from gamelib.search import choose_move, engine, memo_minimax, move_values

GAME = TicTacToeBitboard()
RUNNING = [s for s in reachable(GAME) if not GAME.finished(s)]


def wins_at_once(game: Any, state: Hashable) -> list[Hashable]:
    return [m for m in game.moves(state) if game.finished(game.play(state, m))
            and game.utility(game.play(state, m), game.to_move(state)) == 1]


def threats(game: Any, state: Hashable) -> list[Hashable]:
    """The cells where the opponent would win at once if it were their turn."""
    player = game.to_move(state)
    threatened = []
    for m in game.moves(state):
        board = TicTacToeBitboard.to_board(state) if isinstance(state, int) else state
        other = "O" if player == "X" else "X"
        rows = [list(r) for r in board]
        rows[m[0]][m[1]] = other
        after = TicTacToe().winning_line(tuple(tuple(r) for r in rows))   # type: ignore[arg-type]
        if after is not None:
            threatened.append(m)
    return threatened


# -- play ---------------------------------------------------------------------------------

@pytest.mark.parametrize("depth", [None, 1, 2, 4])
def test_never_misses_a_win_in_one(depth: int | None) -> None:
    rng, checked = random.Random(1), 0
    for state in RUNNING:
        wins = wins_at_once(GAME, state)
        if wins:
            checked += 1
            assert choose_move(GAME, state, depth=depth, rng=rng).move in wins
    assert checked == 2_358


def test_how_many_states_have_a_win_in_one() -> None:
    assert len(RUNNING) == 4_520
    assert sum(1 for s in RUNNING if wins_at_once(GAME, s)) == 2_358


@pytest.mark.parametrize("depth", [None, 2, 3])
def test_blocks_a_single_threat(depth: int | None) -> None:
    rng, checked = random.Random(2), 0
    for state in RUNNING:
        blocks = threats(GAME, state)
        if len(blocks) == 1 and not wins_at_once(GAME, state):
            checked += 1
            assert choose_move(GAME, state, depth=depth, rng=rng).move == blocks[0]
    assert checked == 976


def test_exact_decisions_and_their_summaries() -> None:
    game = TicTacToe()
    start = choose_move(game, game.start, rng=random.Random(0))
    assert (start.value, start.exact, start.summary) == (0.0, True, "draw with best play")
    assert start.move_values == dict.fromkeys(game.moves(game.start), 0.0)
    x_wins = replay(game, [(0, 0), (1, 1), (0, 1), (2, 2)])
    decision = choose_move(game, x_wins)
    assert (decision.move, decision.value) == ((0, 2), 1.0)
    assert decision.summary == "X wins with best play"
    o_lost = replay(game, [(0, 0), (1, 0), (1, 1), (2, 2), (0, 2)])   # X forks two lines
    decision = choose_move(game, o_lost)
    assert (decision.value, decision.summary) == (-1.0, "X wins with best play")
    assert set(decision.move_values.values()) == {-1.0}


def test_depth_and_seconds_give_estimates() -> None:
    game = TicTacToe()
    decision = choose_move(game, game.start, depth=2, rng=random.Random(0))
    assert not decision.exact and decision.stats.depth == 2
    assert decision.summary == f"estimate {decision.value:+.2f} (depth 2)"
    timed = choose_move(game, game.start, seconds=1e-9)
    assert timed.move in game.moves(game.start) and timed.stats.depth >= 1


def test_move_values_are_the_values_of_choose_move() -> None:
    game = TicTacToe()
    state = replay(game, [(0, 0)])
    values = move_values(game, state)
    assert values == {m: float(-memo_minimax(game, game.play(state, m)))
                      for m in game.moves(state)}
    assert [m for m, v in values.items() if v == 0.0] == [(1, 1)]
    estimates = move_values(game, state, depth=1)
    assert list(estimates) == game.moves(state)
    assert all(-1 < v < 1 for v in estimates.values())


def test_nim_is_played_exactly() -> None:
    game = Nim()
    decision = choose_move(game, game.start, rng=random.Random(3))
    heaps, _ = game.play(game.start, decision.move)
    assert decision.summary == "A wins with best play"
    assert heaps[0] ^ heaps[1] ^ heaps[2] == 0


# -- arguments ----------------------------------------------------------------------------

@pytest.mark.parametrize(("kwargs", "message"), [
    ({"depth": 0}, "depth must be a whole number of plies, at least 1"),
    ({"depth": -3}, "depth must be"),
    ({"depth": True}, "depth must be"),
    ({"depth": "4"}, "depth must be"),
    ({"seconds": -1}, "seconds must be a positive number"),
    ({"seconds": 0}, "seconds must be a positive number"),
    ({"seconds": float("nan")}, "seconds must be a positive number"),
    ({"seconds": float("inf")}, "seconds must be a positive number of seconds, at most 30 s, "
                                "or None; got inf"),
    ({"rng": 7}, "rng must be a random.Random"),
])
def test_bad_arguments_are_refused(kwargs: dict[str, Any], message: str) -> None:
    game = TicTacToe()
    with pytest.raises(GameError, match=message):
        choose_move(game, game.start, **kwargs)


def test_a_finished_state_is_refused() -> None:
    game = TicTacToe()
    won = replay(game, [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)])
    for call in (choose_move, move_values):
        with pytest.raises(GameError, match="the game is over"):
            call(game, won)


# -- the shared caches ----------------------------------------------------------------------

def test_the_exact_caches_are_few_and_reused() -> None:
    engine.clear_caches()
    game = TicTacToe()
    first = choose_move(game, game.start, rng=random.Random(0))
    again = choose_move(game, game.start, rng=random.Random(0))
    assert again.stats.calls == 9 == again.stats.cache_hits < first.stats.calls
    for heaps in [(1,), (2,), (3,), (4,), (5,)]:
        choose_move(Nim(heaps), Nim(heaps).start)
    assert len(engine._caches) == engine.MAX_GAMES
    engine.clear_caches()
    assert len(engine._caches) == 0


def test_a_full_cache_is_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    engine.clear_caches()
    monkeypatch.setattr(engine, "MAX_ENTRIES", 100)
    game = TicTacToe()
    first = choose_move(game, game.start, rng=random.Random(0))
    assert len(engine._caches[game]) > 100
    again = choose_move(game, game.start, rng=random.Random(0))
    assert again.stats.calls == first.stats.calls          # nothing was reused
    engine.clear_caches()


def test_two_threads_get_correct_answers() -> None:
    engine.clear_caches()
    states = random.Random(5).sample(RUNNING, 300)
    truth = {s: memo_minimax(GAME, s) for s in states}
    errors: list[Hashable] = []

    def work(order: list[Hashable]) -> None:
        for s in order:
            if choose_move(GAME, s, rng=random.Random(0)).value != truth[s]:
                errors.append(s)

    threads = [threading.Thread(target=work, args=(states,)),
               threading.Thread(target=work, args=(states[::-1],))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
