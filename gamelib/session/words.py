"""How the session words things: players and moves, values, strength, failures."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, Final, Protocol

from gamelib.connect4.book import book_installed, covers
from gamelib.game import Game, GameError, Player, State
from gamelib.games import ConnectFour
from gamelib.search.stats import Priors
from gamelib.session.history import GameFailed, describe_exception

__all__ = [
    "MESSAGE_LIMIT", "CLOSED", "NO_MOVES", "Labels", "TypedMoves", "format_value", "winner",
    "strength_label", "short", "join_moves", "name_of", "game_failure", "drawing_failure",
    "search_failure", "describe_hints",
]

MESSAGE_LIMIT: Final = 160
"""Messages longer than this many characters are cut short."""

CLOSED: Final = "This board is closed: run play() again to play."
"""The message for any input after :meth:`PlaySession.close`."""

NO_MOVES: Final = "the game's moves() gave no move, yet its finished() says the game goes on"
"""Why neither a computer move nor a hint can be found for a game that offers no move."""


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
    """The computer's strength in words, e.g. ``'perfect'`` or ``'depth 4, 2 s'``.

    Connect Four's default player proves its moves in the opening on the 7 x 6 board when
    the opening book is installed (:mod:`gamelib.connect4.book`): "perfect opening"."""
    if depth is None and seconds is None:
        if not isinstance(game, ConnectFour):
            return "perfect"
        book = book_installed() and covers(game.rows, game.cols, 0)
        return "strong (1 s), perfect opening" if book else "strong (1 s)"
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


def name_of(game: object) -> str:
    """The game's ``name``, else its class name."""
    return str(getattr(game, "name", type(game).__name__))


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
    named = game_failure(error, game)
    if named is not None:
        return named
    if not isinstance(error, Exception):  # KeyboardInterrupt, SystemExit, a check's refusal
        return f"its search was stopped by {describe_exception(error)}"
    return f"its search stopped with an internal error ({type(error).__name__})"


def describe_hints(mover: Player | None, values: Mapping[Hashable, float],
                   text: Callable[[Hashable], str], cut_after: float | None) -> str:
    """The message of a hint: the best of ``values`` for ``mover`` (at most six shown, each
    as ``text(move)``) and their value; ``cut_after``, if not None, is the budget in seconds
    that cut the search short: then the value is an estimate (never a "value 0" a game
    without draws cannot have)."""
    if not values:
        return "No hint: there is no legal move."
    if isinstance(values, Priors):
        ranked = sorted(values, key=lambda m: -values[m])[:3]
        listed = ", ".join(f"{text(m)} {values[m]:.0%}" for m in ranked)
        return (f"The guide's priors for {mover}: {listed}. They say where the search "
                "looks first, not who wins.")
    best = max(values.values())
    best_moves = [text(move) for move, value in values.items() if value == best]
    shown = join_moves(best_moves[:6]) + (" …" if len(best_moves) > 6 else "")
    if cut_after is not None:
        return (f"Best so far for {mover}: {shown} (estimate {format_value(best)}). "
                f"The search was cut short: its {cut_after:g} s ran out.")
    return f"Best for {mover}: {shown} (value {format_value(best)})."
