"""The play session with a guided Monte-Carlo player (PUCT, ``guide=``): its moves, its
hints (the guide's priors), and input while it thinks or after the end."""

from __future__ import annotations

import re
import threading
from collections.abc import Hashable
from typing import Any

import pytest

from gamelib.game import GameError
from gamelib.games import TicTacToe
from gamelib.learn.guide import load_guide
from gamelib.search.stats import Priors
from gamelib.session import PlaySession
from gamelib.ui import play
from gamelib.ui.drawing import Palette, hint_label

GAME = TicTacToe()


def uniform(game: Any, state: Hashable) -> tuple[dict[Hashable, float], float]:
    moves = game.moves(state)
    return {m: 1 / len(moves) for m in moves}, 0.0


def test_the_guided_player_moves_and_says_puct() -> None:
    s = PlaySession(GAME, mode="computer-human", mcts=100, guide=load_guide(), seed=1,
                    background=False)
    decision = s.decision
    assert decision is not None and decision.summary.startswith("PUCT")
    assert decision.summary.endswith("(100 iterations)") and len(s.history) == 1


def test_a_hint_shows_the_guides_priors() -> None:
    s = PlaySession(GAME, mcts=50, guide=uniform, seed=1, background=False)
    hints = s.hint()
    assert isinstance(hints, Priors) and list(hints) == GAME.moves(GAME.start)
    assert set(hints.values()) == {1 / 9}
    assert s.message == ("The guide's priors for X: 1,1 11%, 1,2 11%, 1,3 11%. They say "
                         "where the search looks first, not who wins.")
    assert s.status[-1] == "Hints: the guide's prior of each move for X"
    assert hint_label(hints, hints[(0, 0)]) == ("11%", Palette.NEUTRAL)
    assert hint_label({(0, 0): 0.5}, 0.5)[1] == Palette.GOOD     # a value, not a prior
    assert isinstance(s.hints, Priors)
    assert s.submit("2,2") and s.hints is None      # a move clears the hints


def test_the_board_picture_writes_the_priors_as_shares() -> None:
    board = play(GAME, mcts=50, guide=uniform, seed=1, background=False, display=False)
    assert board.hint() is not None
    texts = re.findall(r"<text[^>]*>([^<]+)</text>", board.picture().svg)
    assert texts.count("11%") == 9 and not any(t.startswith("+0.") for t in texts)


def test_a_click_while_the_guided_player_thinks_is_refused_and_changes_nothing() -> None:
    release = threading.Event()
    asked = threading.Event()

    def slow(game: Any, state: Hashable) -> tuple[dict[Hashable, float], float]:
        asked.set()
        release.wait(10)
        return uniform(game, state)

    s = PlaySession(GAME, mcts=5, guide=slow, seed=1)
    assert s.submit("2,2") and asked.wait(10) and s.thinking
    assert not s.submit("1,1") and s.message == "Please wait: the computer is thinking."
    assert s.history == [(1, 1)]
    release.set()
    assert s.wait(10) and len(s.history) == 2 and not s.thinking


def test_a_move_after_the_end_is_refused() -> None:
    s = PlaySession(GAME, mode="computer-computer", mcts=30, guide=uniform, seed=2,
                    background=False, delay=0)
    assert s.wait(30) and s.finished
    before = list(s.history)
    assert not s.submit("1,1") and s.error and s.history == before


def test_a_guide_without_mcts_or_not_a_function_is_refused() -> None:
    with pytest.raises(GameError, match="give mcts=<iterations> too"):
        PlaySession(GAME, guide=uniform, background=False)
    with pytest.raises(GameError, match="guide must be a function"):
        PlaySession(GAME, mcts=10, guide="learned", background=False)  # type: ignore[arg-type]


def test_a_bad_guide_costs_a_message_not_the_game() -> None:
    s = PlaySession(GAME, mcts=10, guide=lambda g, st: ({}, 0.0), seed=1, background=False)
    assert s.hint() is None and s.message.startswith("No hint: ")
    assert "the priors must name exactly the legal moves" in s.message
    assert s.submit("2,2") and s.history == [(1, 1)]
    assert "could not move" in " ".join(s.status)
