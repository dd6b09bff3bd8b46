"""What every search shares: its types, the seeded random source, the argument checks
and the time budget (a deadline that can also be cancelled).

The argument checks (``check_*``) are the public doors' business: a public search
function calls them once on what the user passed and then trusts its arguments all the
way down. Internal helpers never check again.

A :class:`Budget` is the one limit of a search (its seconds, depth, nodes and a cancel
flag). It is made and checked once, at the public door (the play session,
``choose_move``, the Connect Four player, ``iterative_deepening``), and handed down whole;
a sub-search gets a slice of it (:meth:`Budget.part`, :meth:`Budget.share`). A search
looks at it every few milliseconds (:meth:`Budget.look`, which adapts to the game's
speed) and, when it has run out, raises :class:`SearchTimeout`, which the iterative
deepening driver catches to return the best move of the last finished iteration. Another
thread may cancel it (:meth:`Budget.cancel`).
"""

from __future__ import annotations

import numbers
import random
import sys
import threading
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, Final, TypeVar

from gamelib.game import SEARCH_MEMBERS, Game, GameError, Player, check_player, describe_text

__all__ = [
    "LOOK_SECONDS",
    "MAX_LOOK_NODES",
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
    "check_heuristic_callable",
    "check_number",
    "check_observer",
    "check_order",
    "check_rng",
    "check_moves",
    "check_whole",
    "is_same_move",
    "legal_form",
    "nodes_to_look",
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
"""The longest any computer move or hint may think: ``seconds`` lies in (0, MAX_SECONDS]
everywhere, and a longer time is refused with a message (never cut in silence)."""

LOOK_SECONDS: Final = 0.01
"""A search looks at its budget about every this many seconds (:meth:`Budget.look`)."""

MAX_LOOK_NODES: Final = 1024
"""A search looks at its budget at least once every this many nodes."""


class SearchTimeout(Exception):
    """Raised inside a search when its budget has run out or was cancelled."""


class Budget:
    """The limit of one search: its time, depth and node count, and a cancel flag.

    This one object answers "how long may I think?" everywhere. A public door builds it
    once from what the user asked for, which is checked here (:class:`GameError` with a
    message otherwise); everything below the door trusts it and passes it on whole, and
    a sub-search gets a slice of it from :meth:`part` or :meth:`share`.

    * ``seconds``: the time allowed from now, more than 0 and at most :data:`MAX_SECONDS`
      (None: :data:`MAX_SECONDS`). Any real number counts (int, float, ``Fraction``,
      numpy numbers); NaN, infinities, bools and numbers above the cap are refused.
    * ``depth``: the deepest search asked for, in plies (1 or more), or None: no limit.
    * ``nodes``: the most nodes (calls of the search function) a search may visit, or
      None: no limit. The searches count them as they look at the budget.
    * ``within``: a larger budget this one is part of (usually made by :meth:`part`):
      this one then ends no later than it, its nodes count against it too, and
      cancelling it cancels this one.

    Another thread (the play session, when the user presses Undo or New game, or closes
    the board) calls :meth:`cancel`; the search ends at its next look, as if its time had
    run out.

    >>> try:
    ...     Budget(60)
    ... except GameError as error:
    ...     print(error)
    seconds must be a positive number of seconds, at most 30 s, or None; got 60
    """

    __slots__ = ("seconds", "depth", "nodes", "deadline", "within", "clipped", "used",
                 "_cancelled", "_looked_at")

    seconds: float
    depth: int | None
    nodes: int | None
    deadline: float
    within: Budget | None
    clipped: bool
    used: int

    def __init__(self, seconds: float | None = None, *, depth: int | None = None,
                 nodes: int | None = None, within: Budget | None = None) -> None:
        check_seconds(seconds)
        check_depth(depth, least=1, optional=True)
        check_depth(nodes, "nodes", least=1, optional=True)
        check_budget(within, "within")
        self._start(MAX_SECONDS if seconds is None else float(seconds),
                    None if depth is None else int(depth),
                    None if nodes is None else int(nodes), within)

    def _start(self, seconds: float, depth: int | None, nodes: int | None,
               within: Budget | None) -> None:
        """Set the fields from checked values (the constructor and the slices)."""
        now = time.perf_counter()
        self.depth, self.nodes, self.within = depth, nodes, within
        self.used = 0
        # Shorter than asked: the budget this one is part of was set for less time.
        self.clipped = within is not None and seconds > within.seconds
        if within is not None:
            seconds = min(seconds, within.remaining())
        self.seconds = seconds
        self.deadline = now + seconds
        self._cancelled = threading.Event()
        self._looked_at = now

    def part(self, seconds: float | None = None, *, depth: int | None = None) -> Budget:
        """A budget for a sub-search: ``seconds`` from now (None: the rest of this one) and
        ``depth`` (None: this one's), within this one.

        It ends no later than this one (``clipped`` is True if this one was set for less
        than ``seconds``), its nodes count against this one's, and cancelling this one cancels
        it. The caller passes a number it computed (a share of a checked time): it is
        trusted, and a negative one gives an expired budget.
        """
        sub = Budget.__new__(Budget)
        sub._start(self.remaining() if seconds is None else max(0.0, float(seconds)),
                   self.depth if depth is None else depth, None, self)
        return sub

    def share(self, fraction: float) -> Budget:
        """:meth:`part` with ``fraction`` (between 0 and 1) of the time left now."""
        return self.part(fraction * self.remaining())

    def cancel(self) -> None:
        """Ask the search to stop at its next look at the budget (thread-safe)."""
        self._cancelled.set()

    @property
    def cancelled(self) -> bool:
        """True once :meth:`cancel` was called (on this budget or one it is within)."""
        return self._cancelled.is_set() or (self.within is not None and self.within.cancelled)

    def out_of_nodes(self) -> bool:
        """True once a search has counted ``nodes`` nodes (here or in a budget this one is
        within)."""
        return ((self.nodes is not None and self.used >= self.nodes)
                or (self.within is not None and self.within.out_of_nodes()))

    def expired(self) -> bool:
        """True when the deadline has passed, the nodes are spent or it was cancelled."""
        return self.cancelled or time.perf_counter() > self.deadline or self.out_of_nodes()

    def remaining(self) -> float:
        """Seconds left before the deadline (0.0 once expired or cancelled)."""
        if self.cancelled or self.out_of_nodes():
            return 0.0
        return max(0.0, self.deadline - time.perf_counter())

    def check(self) -> None:
        """Raise :class:`SearchTimeout` if :meth:`expired`."""
        if self.expired():
            raise SearchTimeout("the search's time budget ran out")

    def count(self, nodes: int) -> None:
        """Count ``nodes`` more nodes searched, here and in every budget this one is within."""
        budget: Budget | None = self
        while budget is not None:
            budget.used += nodes
            budget = budget.within

    def settle(self, step: int, left: int) -> None:
        """Count the ``step - left`` nodes a search made after its last look, when it ends
        without raising: the next search on this budget (the next depth) starts from the
        true count, the same on a fast machine as on a slow one."""
        self.count(step - left)

    def look(self, nodes: int) -> int:
        """A search's look at its budget after ``nodes`` nodes since its last look.

        Counts them (:meth:`count`), raises :class:`SearchTimeout` if the budget has
        :meth:`expired`, and else returns how many nodes to search before the next look:
        as many as take about :data:`LOOK_SECONDS` at the pace measured since the last
        look (at most :data:`MAX_LOOK_NODES`, at least 1), and never more than the nodes
        left. So a slow game is looked at every few milliseconds, not every thousand
        nodes, and a node limit is met exactly.
        """
        self.count(nodes)
        now = time.perf_counter()
        if self.cancelled or now > self.deadline or self.out_of_nodes():
            raise SearchTimeout("the search's budget ran out")
        elapsed, self._looked_at = now - self._looked_at, now
        step = MAX_LOOK_NODES if elapsed <= 0 else int(nodes * LOOK_SECONDS / elapsed)
        step = max(1, min(step, MAX_LOOK_NODES))
        budget: Budget | None = self
        while budget is not None:
            if budget.nodes is not None:
                step = min(step, budget.nodes - budget.used)
            budget = budget.within
        return step

    def __repr__(self) -> str:
        state = "cancelled" if self.cancelled else f"{self.remaining():.3f} s left"
        extra = "".join(f", {name}={value}" for name, value in
                        (("depth", self.depth), ("nodes", self.nodes)) if value is not None)
        return f"Budget({self.seconds:g} s{extra}, {state})"


def nodes_to_look(budget: Budget | None, nodes: int) -> int:
    """How many nodes a search makes before its next look at ``budget``: with a budget,
    :meth:`Budget.look` after ``nodes`` nodes (which raises :class:`SearchTimeout` once it
    has run out); with none, more than any search makes, so that the look never comes."""
    return sys.maxsize if budget is None else budget.look(nodes)


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


def check_whole(value: object, name: str, least: int | None = 0, *, optional: bool = False,
                unit: str = "") -> int | None:
    """``value`` as an int, after checking that it is a whole number of ``unit`` (e.g.
    ``" of plies"``), at least ``least`` unless that is None (or None, if ``optional``); else
    :class:`GameError`, whose message calls it ``name``. The one rule of every count at
    gamelib's doors: any integer counts, numpy's too and a huge one; a bool, a float
    (``2.0`` too) or anything else does not.

    >>> import numpy as np
    >>> check_whole(np.int64(3), "iterations", 1)
    3
    """
    if optional and value is None:
        return None
    if (not isinstance(value, numbers.Integral) or isinstance(value, bool)
            or (least is not None and value < least)):
        allowed = (f"a whole number{unit}" + ("" if least is None else f", at least {least}")
                   + (", or None" if optional else ""))
        raise GameError(f"{name} must be {allowed}; got {describe_text(value)}")
    return int(value)


def check_depth(depth: object, name: str = "depth", least: int = 0, *,
                optional: bool = False) -> None:
    """Raise :class:`GameError` unless ``depth`` is a whole number of plies, at least
    ``least`` (or None, if ``optional``); the message calls it ``name``
    (:func:`check_whole`)."""
    check_whole(depth, name, least, optional=optional, unit=" of plies")


def check_seconds(seconds: object, name: str = "seconds") -> None:
    """Raise :class:`GameError` unless ``seconds``, a time budget, is None or a number more
    than 0 and at most :data:`MAX_SECONDS`: the one range of every ``seconds`` in gamelib.

    Any real number counts (int, float, ``Fraction``, numpy numbers); bools, NaN,
    infinities and numbers above the cap (``10**400`` too) are refused, never cut."""
    if seconds is None:
        return
    if not is_number(seconds) or not 0 < seconds <= MAX_SECONDS:  # type: ignore[operator]
        raise GameError(
            f"{name} must be a positive number of seconds, at most {MAX_SECONDS:g} s, or None; "
            f"got {describe_text(seconds)}"
        )


def check_budget(budget: object, name: str = "budget") -> None:
    """Raise :class:`GameError` unless ``budget`` is a :class:`Budget` or None; the
    message calls it ``name``."""
    if budget is not None and not isinstance(budget, Budget):
        raise GameError(
            f"{name} must be a gamelib.search.Budget or None, got {describe_text(budget)} "
            f"({type(budget).__name__})"
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


def check_heuristic_callable(heuristic: object) -> None:
    """Raise :class:`GameError` unless ``heuristic`` can be called."""
    if not callable(heuristic):
        raise GameError(
            f"heuristic must be a function heuristic(state, player) -> float, "
            f"got {describe_text(heuristic)}"
        )


def is_same_move(move: object, legal: Hashable) -> bool:
    """True if ``move`` stands for the legal move ``legal``: the one comparison of a given
    move with the game's at gamelib's doors. Where the game's move is an int, any integer
    equal to it (numpy's ``int64(3)`` for the column 3), but no bool and no float; where it
    is a tuple, a tuple whose items stand for its items; else ``move == legal``. A
    comparison that raises or gives no plain truth value is no match, never an error."""
    if type(legal) is int:
        return (isinstance(move, numbers.Integral) and not isinstance(move, bool)
                and int(move) == legal)
    if type(legal) is tuple:
        return (isinstance(move, tuple) and len(move) == len(legal)
                and all(is_same_move(m, g) for m, g in zip(move, legal, strict=True)))
    try:
        return (move == legal) is True
    except (TypeError, ValueError):
        return False


def legal_form(legal: Sequence[Hashable], move: object) -> Any:
    """The move of ``legal`` (the game's legal moves) that ``move`` equals
    (:func:`is_same_move`), e.g. the column ``3`` for numpy's ``int64(3)``; ``move`` itself
    if none does, for the door's own refusal to name it."""
    return next((m for m in legal if is_same_move(move, m)), move)


def check_moves(game: AnyGame, state: Hashable, moves: object, name: str) -> list[Hashable]:
    """``moves`` as a list of the game's own legal moves of ``state``, after checking that
    it is a non-empty list or tuple of distinct legal moves; else :class:`GameError`,
    whose message calls it ``name``. The one rule of a list of moves at gamelib's doors:
    a set has no order, so it is refused; a move equal to a legal one
    (:func:`is_same_move`, e.g. numpy's ``int64(3)`` for column 3) counts as that move."""
    legal = game.moves(state)
    if not isinstance(moves, (list, tuple)):
        kind = ("a set has no order: pass a list" if isinstance(moves, (set, frozenset))
                else f"got {describe_text(moves)}")
        raise GameError(f"{name} must be a list of legal moves; {kind}")
    if not moves:
        raise GameError(f"{name} must hold at least one of the legal moves {legal!r}")
    found: list[Hashable] = []
    for move in moves:
        same = legal_form(legal, move)
        if not any(same is m for m in legal):
            raise GameError(f"{name} holds {describe_text(move)}, which is not one of the "
                            f"legal moves {legal!r}")
        if same in found:
            raise GameError(f"{name} repeats a move: {describe_text(moves)}")
        found.append(same)
    return found


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
