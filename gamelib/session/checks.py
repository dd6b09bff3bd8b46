"""The session's checks at the door: the game, the mode, the strength and the delay."""

from __future__ import annotations

import numbers
from typing import Final

from gamelib.game import PLAY_MEMBERS, GameError, describe_text
from gamelib.search import common
from gamelib.search.puct import check_guide as check_guide_function

__all__ = [
    "MODES", "MAX_DELAY", "MAX_ITERATIONS", "check_game", "check_mode", "check_strength",
    "check_delay", "check_iterations", "check_labels", "check_guide",
]

MODES: Final = ("human-computer", "computer-human", "human-human", "computer-computer")
"""Who plays which side, first mover first: ``"computer-human"`` lets the computer start."""

MAX_DELAY: Final = 5.0
"""The longest pause (seconds) between the moves of a computer-versus-computer game."""


def check_game(game: object) -> None:
    """Raise GameError, naming the mistake and the fix, unless ``game`` is a playable game."""
    common.check_game(
        game,
        members=PLAY_MEMBERS,
        class_text=(
            "{name} is a class, not a game: create one with its brackets, e.g. play({name}())"
        ),
        missing_text=(
            "{type} is not a game: it lacks {missing}; pass a game "
            "such as TicTacToe(), ConnectFour() or Nim() from gamelib.games"
        ),
    )


def check_mode(mode: object) -> None:
    """Raise GameError unless ``mode`` is one of :data:`MODES`."""
    if mode not in MODES:
        raise GameError(f"mode must be one of {', '.join(map(repr, MODES))}; "
                        f"got {describe_text(mode)}")


def check_strength(depth: object, seconds: object) -> None:
    """Raise GameError unless ``depth`` (plies, 1 or more) and ``seconds`` (more than 0,
    at most :data:`~gamelib.search.common.MAX_SECONDS`, as everywhere) are usable."""
    common.check_depth(depth, least=1, optional=True)
    common.check_seconds(seconds)


def check_iterations(iterations: object) -> None:
    """Raise GameError unless ``iterations`` (the MCTS player's budget) is None or a whole
    number from 1 to :data:`MAX_ITERATIONS`."""
    if iterations is not None and (not isinstance(iterations, numbers.Integral)
                                   or isinstance(iterations, bool)
                                   or not 1 <= int(iterations) <= MAX_ITERATIONS):
        raise GameError(f"mcts must be a number of iterations from 1 to {MAX_ITERATIONS:,} "
                        f"or None; got {describe_text(iterations)}")


def check_guide(guide: object, iterations: object) -> None:
    """Raise GameError unless ``guide`` is None, or a function given with ``mcts``
    iterations (a guide guides the Monte-Carlo player; see
    :data:`gamelib.search.puct.Guide`)."""
    check_guide_function(guide)
    if guide is not None and iterations is None:
        raise GameError("a guide guides the Monte-Carlo player: give mcts=<iterations> too, "
                        "e.g. play(TicTacToe(), mcts=200, guide=load_guide())")


MAX_ITERATIONS: Final = 1_000_000
"""The most MCTS iterations the computer may be given per move (its time budget still holds)."""


def check_delay(delay: object) -> None:
    """Raise GameError unless ``delay`` is a number of seconds from 0 to :data:`MAX_DELAY`."""
    if not common.is_number(delay) or not 0 <= delay <= MAX_DELAY:  # type: ignore[operator]
        raise GameError(f"delay must be a number of seconds from 0 to {MAX_DELAY:g}, "
                        f"got {describe_text(delay)}")


def check_labels(labels: object) -> None:
    """Raise GameError unless ``labels`` is None or names the players like a board does: a
    ``player_label(player)`` method and a ``click_help`` text (see
    :class:`~gamelib.session.words.Labels`; the boards of :func:`gamelib.ui.board_for` have
    both)."""
    if labels is None:
        return
    if not callable(getattr(labels, "player_label", None)) or not isinstance(
            getattr(labels, "click_help", None), str):
        raise GameError(
            f"labels must be a board (gamelib.ui.board_for(game)) or None, got "
            f"{describe_text(labels)} ({type(labels).__name__}): it needs a method "
            "player_label(player) and a text click_help"
        )
