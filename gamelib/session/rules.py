"""The session's rules and helpers: checks at the door, value labels, the engine's calls.

Everything here is shared by :mod:`gamelib.session.turns` and :mod:`gamelib.session.play`;
``from gamelib.session import ...`` re-exports the public names.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Hashable, Sequence
from typing import Any, Final, NamedTuple, Protocol

from gamelib.game import Game, GameError, Player, State
from gamelib.games import ConnectFour
from gamelib.search import common
from gamelib.search.common import Budget
from gamelib.search.stats import Decision

__all__ = [
    "MODES", "MESSAGE_LIMIT", "MAX_DELAY", "GAME_MEMBERS", "Labels", "TypedMoves", "Facts",
    "GameFailed", "check_game", "check_mode", "check_strength", "check_delay", "format_value",
    "winner", "strength_label", "short", "join_moves", "threads_can_start", "choose_move",
    "move_values", "game_failure", "drawing_failure", "search_failure", "CLOSED", "NO_MOVES",
    "name_of", "budget_for",
]

MODES: Final = ("human-computer", "computer-human", "human-human", "computer-computer")
"""Who plays which side, first mover first: ``"computer-human"`` lets the computer start."""

MESSAGE_LIMIT: Final = 160
"""Messages longer than this many characters are cut short."""

MAX_DELAY: Final = 5.0
"""The longest pause (seconds) between the moves of a computer-versus-computer game."""

CLOSED: Final = "This board is closed: run play() again to play."
"""The message for any input after :meth:`PlaySession.close`."""

NO_MOVES: Final = "the game's moves() gave no move, yet its finished() says the game goes on"
"""Why neither a computer move nor a hint can be found for a game that offers no move."""

GAME_MEMBERS: Final = (
    "players", "start", "next_states", "finished", "utility",
    "to_move", "moves", "play", "parse_move", "format_move", "render",
)
"""What a game needs to be played: the six-tuple plus the members that play and input need."""


class Labels(Protocol):
    """How a board names the players and how one moves on it (every board has these)."""

    @property
    def click_help(self) -> str:
        """How to move by clicking, e.g. ``'click an empty cell'``."""
        ...

    def player_label(self, player: Player) -> str:
        """``player``'s name, with its colour where marks are coloured."""
        ...


class TypedMoves:
    """The labels of a session without a board: plain names, moves typed."""

    click_help: Final = ""

    def player_label(self, player: Player) -> str:
        return str(player)


class Facts(NamedTuple):
    """What the session needs to know about a position, asked of the game once."""

    finished: bool
    mover: Player | None   # the player to move; None once finished
    winner: Player | None  # once finished: the winner, None for a draw


class GameFailed(Exception):
    """A method of the game raised: ``method`` names it, ``error`` is what it raised."""

    def __init__(self, method: str, error: BaseException) -> None:
        super().__init__(method, error)
        self.method, self.error = method, error

    def __str__(self) -> str:
        return f"the game's {self.method}() raised {describe_exception(self.error)}"


def describe_exception(error: BaseException) -> str:
    text = str(error)
    return type(error).__name__ + (f": {text}" if text else "")


# -- checks at the door and small helpers ------------------------------------------------


def check_game(game: object) -> None:
    """Raise GameError, naming the mistake and the fix, unless ``game`` is a playable game."""
    common.check_game(
        game,
        members=GAME_MEMBERS,
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
        raise GameError(f"mode must be one of {', '.join(map(repr, MODES))}; got {mode!r}")


def is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def check_strength(depth: object, seconds: object) -> None:
    """Raise GameError unless ``depth`` (plies, 1 or more) and ``seconds`` (more than 0,
    at most :data:`~gamelib.search.common.MAX_SECONDS`, as everywhere) are usable."""
    if depth is not None and (not isinstance(depth, int) or isinstance(depth, bool) or depth < 1):
        raise GameError(f"depth must be a whole number of plies, 1 or more, or None; got {depth!r}")
    common.check_seconds(seconds)


def check_delay(delay: object) -> None:
    """Raise GameError unless ``delay`` is a number of seconds from 0 to :data:`MAX_DELAY`."""
    if not is_number(delay) or not 0 <= delay <= MAX_DELAY:  # type: ignore[operator]
        raise GameError(f"delay must be a number of seconds from 0 to {MAX_DELAY:g}, got {delay!r}")


def format_value(value: float) -> str:
    """A value as a short label: ``'+1'``, ``'0'``, ``'-1'`` or two decimals like ``'+0.35'``.

    Values at or beyond +-1 (proven results of a depth-limited search) show as
    ``'+1'`` / ``'-1'``.
    """
    if value >= 1:
        return "+1"
    if value <= -1:
        return "-1"
    if value == 0:
        return "0"
    return f"{value:+.2f}"


def winner(game: Game[Any, Any], state: State) -> Player | None:
    """The player who won the finished ``state``; None for a draw."""
    first, second = game.players
    score = game.utility(state, first)
    if score == 0:
        return None
    return first if score > 0 else second


def strength_label(game: object, depth: int | None, seconds: float | None) -> str:
    """The computer's strength in words, e.g. ``'perfect'`` or ``'depth 4, 2 s'``."""
    if depth is None and seconds is None:
        return "strong (1 s)" if isinstance(game, ConnectFour) else "perfect"
    parts = [] if depth is None else [f"depth {depth}"]
    if seconds is not None:
        parts.append(f"{seconds:g} s")
    return ", ".join(parts)


def short(text: str) -> str:
    """``text`` on one line, cut to :data:`MESSAGE_LIMIT` characters."""
    text = " ".join(str(text).split())
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 1] + "…"


def join_moves(moves: Sequence[str]) -> str:
    """Moves as a list in words: separated by ``; `` when a move itself holds a comma."""
    return ("; " if any("," in m for m in moves) else ", ").join(moves)


def threads_can_start() -> bool:
    """False where Python cannot start threads (Pyodide, JupyterLite); checked once more
    whenever a start fails."""
    return sys.platform != "emscripten"


# The engine is imported when first needed, so that importing the session stays quick.
def budget_for(game: Game[Any, Any], depth: int | None, seconds: float | None) -> Budget:
    """The budget the session sets for one computer move or hint: ``seconds``, or the
    engine's own default for this game and depth
    (:func:`~gamelib.search.engine.default_seconds`), so that the session can say how
    long the search had when it was cut short. Its arguments were checked already."""
    from gamelib.search.engine import default_seconds

    return Budget(default_seconds(game, depth) if seconds is None else seconds)


def choose_move(game: Game[Any, Any], state: State, depth: int | None,
                seconds: float | None, rng: random.Random, budget: Budget) -> Decision:
    """The engine's :func:`~gamelib.search.engine.choose_move` within ``budget``."""
    from gamelib.search.engine import choose_move

    return choose_move(game, state, depth=depth, seconds=seconds, rng=rng, budget=budget)


def move_values(game: Game[Any, Any], state: State, depth: int | None,
                seconds: float | None, budget: Budget) -> dict[Hashable, float]:
    """The engine's :func:`~gamelib.search.engine.move_values` within ``budget``."""
    from gamelib.search.engine import move_values

    return move_values(game, state, depth=depth, seconds=seconds, budget=budget)


def game_failure(error: BaseException, game: object) -> str | None:
    """``"the game's play() raised ValueError: ..."`` if a method of ``game`` raised
    ``error`` (the innermost such method in its traceback), else None."""
    frame_tb, method = error.__traceback__, None
    while frame_tb is not None:
        if frame_tb.tb_frame.f_locals.get("self") is game:
            method = frame_tb.tb_frame.f_code.co_name
        frame_tb = frame_tb.tb_next
    return None if method is None else str(GameFailed(method, error))


def drawing_failure(error: BaseException, game: object) -> str:
    """The sentence added under a board that could not draw the position."""
    reason = game_failure(error, game) or f"an error ({type(error).__name__})"
    return f"The board cannot show this position: {reason}."


def search_failure(error: BaseException, game: object) -> str:
    """What went wrong in a search, in words, naming the game's method if one raised."""
    if isinstance(error, GameError):
        return str(error)
    return game_failure(error, game) or (
        f"its search stopped with an internal error ({type(error).__name__})"
    )



def name_of(game: object) -> str:
    """The game's ``name``, else its class name."""
    return str(getattr(game, "name", type(game).__name__))
