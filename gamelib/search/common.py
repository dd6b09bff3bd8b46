"""What every search shares: its types, the seeded random source, the argument checks
and the time budget (a deadline that can also be cancelled).

The argument checks (``check_*``) are the public doors' business: a public search
function calls them once on what the user passed and then trusts its arguments all the
way down. Internal helpers never check again.

A :class:`Budget` is made once, at the public door (the play session, ``choose_move``,
the Connect Four player), and handed down; a search asks :meth:`Budget.expired` every so
many nodes and, when it says yes, raises :class:`SearchTimeout`, which the iterative
deepening driver catches to return the best move of the last finished iteration.

Another thread (the play session, when the user presses Undo or New game, or closes the
board) calls :meth:`Budget.cancel`; the search then ends at its next look at the clock, as
if its time had run out.
"""

from __future__ import annotations

import math
import numbers
import random
import threading
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, Final, TypeVar

from gamelib.game import SEARCH_MEMBERS, Game, GameError, Player, check_player, describe_text

__all__ = [
    "MAX_SECONDS",
    "AnyGame",
    "Budget",
    "Heuristic",
    "MoveOrder",
    "Observer",
    "SearchTimeout",
    "ValueFunction",
    "check_budget",
    "check_cache",
    "check_depth",
    "check_game",
    "check_heuristic",
    "check_number",
    "check_observer",
    "check_order",
    "check_rng",
    "check_root_moves",
    "check_running",
    "check_seconds",
    "check_window",
    "default_window",
    "is_number",
    "best_options",
    "pick",
    "pick_best",
    "player_to_move",
    "rng_or_shared",
    "wins_at_once",
]

AnyGame = Game[Any, Any]
"""A game with any kind of states and moves."""

ValueFunction = Callable[[AnyGame, Hashable, Player], int]
"""``value(game, state, player) -> int``: the exact value of ``state`` for ``player``."""

MoveOrder = Callable[[AnyGame, Hashable, list[Hashable]], Sequence[Hashable]]
"""``order(game, state, moves) -> moves``: the legal moves of ``state``, rearranged."""

Heuristic = Callable[[Hashable, Player], float]
"""``h(state, player) -> float``: an estimate of the value of ``state`` for ``player``,
strictly between -1 and +1. Only called on states that are not finished."""

Observer = Callable[[Callable[..., Any]], Callable[..., Any]]
"""``observer(step) -> step``: given a search's recursive function, the function the
search should call instead (it calls ``step`` and watches its arguments and result).

The searches take one as ``observer=`` (default None: nothing is watched, and the search
runs exactly as without it, at no cost: the recursive function is swapped once, before
the search starts). :func:`gamelib.search.trace.trace_search` uses it to record a
search step by step while the very same code runs."""

T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")

MAX_SECONDS: Final = 30.0
"""The hard cap on any computer move or hint, whatever depth was asked for."""


class SearchTimeout(Exception):
    """Raised inside a search when its budget has run out or was cancelled."""


class Budget:
    """A deadline on :func:`time.perf_counter` plus a cancel flag, shared across threads.

    ``seconds`` is the time allowed from now (None: :data:`MAX_SECONDS`); it is capped at
    :data:`MAX_SECONDS`. ``within``, if given, is a larger budget this one is part of:
    this one then ends no later than it, and cancelling it cancels this one too.
    Callers check ``seconds`` at their door; this class trusts it.
    """

    __slots__ = ("deadline", "seconds", "within", "_cancelled")

    def __init__(self, seconds: float | None = None, *, within: Budget | None = None) -> None:
        # Compared before float(): an int too large for a float (10**400) is just "too long".
        limit = MAX_SECONDS if seconds is None or seconds >= MAX_SECONDS else float(seconds)
        self.seconds = limit
        self.deadline = time.perf_counter() + limit
        self.within = within
        if within is not None:
            self.deadline = min(self.deadline, within.deadline)
        self._cancelled = threading.Event()

    def cancel(self) -> None:
        """Ask the search to stop at its next look at the clock (thread-safe)."""
        self._cancelled.set()

    @property
    def cancelled(self) -> bool:
        """True once :meth:`cancel` was called (on this budget or the one it is within)."""
        return self._cancelled.is_set() or (self.within is not None and self.within.cancelled)

    def expired(self) -> bool:
        """True when the deadline has passed or the budget was cancelled."""
        return self.cancelled or time.perf_counter() > self.deadline

    def remaining(self) -> float:
        """Seconds left before the deadline (0.0 once expired or cancelled)."""
        if self.cancelled:
            return 0.0
        return max(0.0, self.deadline - time.perf_counter())

    def check(self) -> None:
        """Raise :class:`SearchTimeout` if :meth:`expired`."""
        if self.expired():
            raise SearchTimeout("the search's time budget ran out")

    def __repr__(self) -> str:
        state = "cancelled" if self.cancelled else f"{self.remaining():.3f} s left"
        return f"Budget({self.seconds:g} s, {state})"




# -- the seeded random source ------------------------------------------------------------

_shared_rng = random.Random(20240917)
"""The random source of the searches when the caller gives none (seeded, see :func:`pick`)."""


def pick(options: list[T], rng: random.Random | None = None) -> T:
    """One of ``options``, chosen uniformly at random with ``rng``.

    Pass a seeded ``random.Random`` for a reproducible choice. If ``rng`` is None, one
    module-level ``random.Random`` with a fixed seed is used: a program that makes the
    same calls in the same order then gets the same choices, but every choice made
    anywhere in the process advances it. Raises :class:`GameError` if ``options`` is
    empty or ``rng`` is not a ``random.Random``.
    """
    if not options:
        raise GameError("there is nothing to choose from")
    check_rng(rng)
    return rng_or_shared(rng).choice(options)


def rng_or_shared(rng: random.Random | None) -> random.Random:
    """``rng``, or when it is None the one seeded random source of gamelib's searches and
    players (see :func:`pick`)."""
    return _shared_rng if rng is None else rng


def best_options(values: Mapping[K, V], key: Callable[[V], Any] | None = None) -> list[K]:
    """The keys of ``values`` whose value is the greatest (by ``key(value)`` if given), in
    the order of ``values``; ``values`` must not be empty.

    >>> best_options({"a": 0, "b": 1, "c": 1})
    ['b', 'c']
    """
    rank: Callable[[V], Any] = (lambda v: v) if key is None else key
    best = max(rank(v) for v in values.values())
    return [k for k, v in values.items() if rank(v) == best]


def pick_best(values: Mapping[K, V], rng: random.Random | None = None) -> K:
    """A key of ``values`` with the greatest value, chosen at random among all such keys
    (:func:`pick` of :func:`best_options`): the one tie-break of gamelib's players.

    >>> pick_best({"a": 0, "b": 1, "c": 1}, random.Random(0)) in ("b", "c")
    True
    """
    return pick(best_options(values), rng)


def wins_at_once(game: AnyGame, state: Hashable) -> bool:
    """Whether the player to move in ``state`` has a move that wins the game at once
    (False in a finished state). The engine and MCTS's playouts use it to stay clear of
    a move that hands the opponent a win."""
    if game.finished(state):
        return False
    player = game.to_move(state)
    return any(game.finished(n) and game.utility(n, player) == 1
               for n in game.next_states(state, player))


# -- numbers -----------------------------------------------------------------------------


def is_number(value: object) -> bool:
    """True for a real number that is not a bool: int, float, ``fractions.Fraction``, and
    numpy's integers and floats alike (they register as :class:`numbers.Real`)."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def check_number(value: object, what: str) -> float:
    """``value`` as a float, after checking that it is a number and not NaN.

    ``what`` names the value in the message, e.g. ``"the heuristic's value for this
    state"``. Raises :class:`GameError` otherwise.
    """
    if not is_number(value):
        raise GameError(
            f"{what} must be a number, got {describe_text(value)} ({type(value).__name__})"
        )
    number = float(value)  # type: ignore[arg-type]
    if number != number:
        raise GameError(f"{what} must be a number, got NaN (not a number)")
    return number


# -- the argument checks of the public doors ---------------------------------------------

def check_game(
    game: object,
    *,
    members: Sequence[str] = SEARCH_MEMBERS,
    class_text: str = "got the class {name} instead of a game: pass {name}() (with parentheses)",
    missing_text: str = (
        "{described} is not a game (it has no {missing}): pass a game "
        "object such as TicTacToe(), Nim() or ConnectFour()"
    ),
) -> None:
    """Raise :class:`GameError` unless ``game`` is a game object (an instance, not a class).

    A game object has every name in ``members``. The two refusals are ``class_text``
    (for a class; ``{name}`` is its name) and ``missing_text`` (``{described}`` is the
    object shown briefly, ``{type}`` its type's name, ``{missing}`` the absent members).

    >>> from gamelib.games import TicTacToe
    >>> try:
    ...     check_game(TicTacToe)
    ... except GameError as error:
    ...     print(error)
    got the class TicTacToe instead of a game: pass TicTacToe() (with parentheses)
    """
    if isinstance(game, type):
        raise GameError(class_text.format(name=game.__name__))
    missing = [name for name in members if not hasattr(game, name)]
    if missing:
        raise GameError(
            missing_text.format(
                described=describe_text(game), type=type(game).__name__, missing=", ".join(missing)
            )
        )


def check_rng(rng: object) -> None:
    """Raise :class:`GameError` unless ``rng`` is a ``random.Random`` or None."""
    if rng is not None and not isinstance(rng, random.Random):
        raise GameError(f"rng must be a random.Random or None, got {type(rng).__name__}")


def check_window(alpha: object, beta: object) -> None:
    """Raise :class:`GameError` unless ``alpha < beta`` are numbers (a non-empty window)."""
    for name, bound in (("alpha", alpha), ("beta", beta)):
        if not is_number(bound) or bound != bound:
            raise GameError(f"{name} must be a number, got {describe_text(bound)}")
    if not alpha < beta:  # type: ignore[operator]
        raise GameError(f"the window needs alpha < beta, got alpha={alpha} and beta={beta}")


def default_window(game: AnyGame, alpha: float | None,
                   beta: float | None) -> tuple[float, float]:
    """The window a search starts from: ``alpha`` and ``beta``, each defaulting to its end
    of the game's ``value_range`` if the game has one (a :class:`~gamelib.games.TreeGame`
    with leaves beyond +-1), else of ``[-1, 1]``, which holds every value of the other
    games. The caller checks the result with :func:`check_window`.

    >>> from gamelib.games import TicTacToe, TreeGame
    >>> default_window(TicTacToe(), None, None), default_window(TreeGame([[3, -5]]), 0, None)
    ((-1, 1), (0, 5))
    """
    low, high = getattr(game, "value_range", (-1, 1))
    return (low if alpha is None else alpha), (high if beta is None else beta)


def check_depth(depth: object, name: str = "depth", least: int = 0, *,
                optional: bool = False) -> None:
    """Raise :class:`GameError` unless ``depth`` is a whole number of plies, at least
    ``least`` (or None, if ``optional``); the message calls it ``name``. numpy
    integers count as whole numbers."""
    if optional and depth is None:
        return
    if not isinstance(depth, numbers.Integral) or isinstance(depth, bool) or depth < least:
        allowed = f"a whole number of plies, at least {least}" + (", or None" if optional else "")
        raise GameError(f"{name} must be {allowed}; got {describe_text(depth)}")


def check_seconds(seconds: object) -> None:
    """Raise :class:`GameError` unless ``seconds``, a time budget, is None or a positive,
    finite number (longer budgets are capped at :data:`MAX_SECONDS` by :class:`Budget`)."""
    if seconds is not None and (not is_number(seconds) or not 0 < seconds < math.inf):  # type: ignore[operator]
        raise GameError(
            f"seconds must be a positive number of seconds or None, got {describe_text(seconds)}"
        )


def check_budget(budget: object) -> None:
    """Raise :class:`GameError` unless ``budget`` is a :class:`Budget` or None."""
    if budget is not None and not isinstance(budget, Budget):
        raise GameError(
            f"budget must be a gamelib.search.Budget or None, got {type(budget).__name__}"
        )


def check_cache(cache: object, what: str = "a dict from states to values") -> None:
    """Raise :class:`GameError` unless ``cache`` is a dict (or None); ``what`` says what
    the dict holds, for the message."""
    if cache is not None and not isinstance(cache, dict):
        raise GameError(f"cache must be {what} or None, got {type(cache).__name__}")


def check_order(order: object) -> None:
    """Raise :class:`GameError` unless ``order`` is a function or None."""
    if order is not None and not callable(order):
        raise GameError(
            f"order must be a function order(game, state, moves) -> moves or None, "
            f"got {type(order).__name__}"
        )


def check_observer(observer: object) -> None:
    """Raise :class:`GameError` unless ``observer`` is a function (see :data:`Observer`)
    or None."""
    if observer is not None and not callable(observer):
        raise GameError(
            f"observer must be a function observer(step) -> step or None, "
            f"got {type(observer).__name__}"
        )


def check_heuristic(heuristic: object) -> None:
    """Raise :class:`GameError` unless ``heuristic`` can be called."""
    if not callable(heuristic):
        raise GameError(
            f"heuristic must be a function heuristic(state, player) -> float, "
            f"got {describe_text(heuristic)}"
        )


def check_root_moves(game: AnyGame, state: Hashable, root_moves: object) -> None:
    """Raise GameError unless ``root_moves`` is a non-empty list of distinct legal moves."""
    legal = game.moves(state)
    if isinstance(root_moves, (str, bytes)) or not isinstance(root_moves, Sequence):
        raise GameError(f"root_moves must be a list of legal moves, got {root_moves!r}")
    if not root_moves:
        raise GameError(f"root_moves must hold at least one of the legal moves {legal!r}")
    for move in root_moves:
        if move not in legal:
            raise GameError(f"root_moves holds {move!r}, which is not one of the legal "
                            f"moves {legal!r}")
    if len(set(root_moves)) != len(root_moves):
        raise GameError(f"root_moves repeats a move: {root_moves!r}")


def check_running(game: AnyGame, state: Hashable) -> None:
    """Raise :class:`GameError` unless ``state`` is a valid state of ``game`` that is not
    finished: a move can be chosen in it.

    A game with a ``validate(state)`` method (tic-tac-toe, Connect Four) is asked first,
    so that a state no game can reach is called invalid rather than "over".
    """
    validate = getattr(game, "validate", None)
    if callable(validate):
        try:
            validate(state)
        except GameError as error:
            raise GameError(f"this state is not valid: {error}") from None
    if game.finished(state):
        raise GameError("the game is over in this state: there is no move to choose")


def player_to_move(game: AnyGame, state: Hashable, player: Player | None) -> Player:
    """The player a search of ``state`` is for: ``player``, or whose turn it is if None.

    A search may only ask for the value of a running game for the player whose turn it
    is, because ``next_states(state, player)`` is defined only for that player. For a
    finished state any player of the game is allowed. Raises :class:`GameError` for
    something that is not a game (see :func:`check_game`), a state the game cannot read,
    an unknown player or the wrong player in a running game.
    """
    check_game(game)
    turn = game.to_move(state)
    if player is None:
        return turn
    check_player(game, player)
    if player != turn and not game.finished(state):
        raise GameError(
            f"it is {turn}'s turn in this state, not {player}'s: a search of a running "
            "game is for the player to move (pass player=None to use them)"
        )
    return player
