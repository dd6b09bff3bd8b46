"""The play session with the Monte-Carlo player: every game, seeded, without threads."""

from __future__ import annotations

import pytest

from gamelib.game import GameError
from gamelib.games import ConnectFour, Nim, TicTacToe
from gamelib.session import PlaySession


@pytest.mark.parametrize("game", [TicTacToe(), Nim((2, 3)), ConnectFour()],
                         ids=["tictactoe", "nim", "connect_four"])
def test_the_mcts_player_moves_in_every_game_and_replays_with_its_seed(game: object) -> None:
    sessions = [PlaySession(game, mode="computer-human", mcts=200, seed=4,  # type: ignore[arg-type]
                            background=False) for _ in range(2)]
    first, second = sessions
    assert len(first.history) == 1 and first.history == second.history
    decision = first.decision
    assert decision is not None and decision.summary.startswith("MCTS")
    assert decision.stats.iterations == 200 and not decision.cut_short   # type: ignore[attr-defined]
    assert first.mcts == 200 and "(computer) played" in first.message


def test_the_mcts_player_answers_a_human_move_and_blocks() -> None:
    session = PlaySession(TicTacToe(), mcts=2000, seed=1, background=False)
    assert session.submit("1,1") and session.history[-1] != (0, 0)
    assert session.submit("1,2")           # X threatens 1,3
    assert session.history[-1] == (0, 2)


def test_the_mcts_player_needs_no_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("gamelib.session.computer.threads_can_start", lambda: False)
    session = PlaySession(ConnectFour(), mode="computer-human", mcts=100, seed=2)
    assert not session.threaded and len(session.history) == 1


@pytest.mark.parametrize("bad", [0, -5, 2.5, "many", True, 10**7])
def test_a_bad_iteration_count_is_refused(bad: object) -> None:
    with pytest.raises(GameError, match="mcts must be a number of iterations from 1"):
        PlaySession(TicTacToe(), mcts=bad, background=False)  # type: ignore[arg-type]
