"""The vocabulary of a two-person, zero-sum game.

The lecture notes define a game as a six-tuple

    G = <States, s0, Players, nextStates, finished, utility>.

:class:`Game` is that six-tuple as a Python protocol, plus the few extra methods that
playing and searching need (whose turn it is, the legal moves, applying a move, and
reading and writing moves as text). A game object holds only constants; all that
changes during a game lives in the *state*, which is immutable and hashable so that a
plain ``dict`` can serve as a cache.

The errors a game raises live in :mod:`gamelib.errors` and are re-exported here.
This module imports no user-interface library.
"""

from __future__ import annotations
import __future__

import ast
import functools
import inspect
import numbers
import os
import sysconfig
import textwrap
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import Any, Final, Protocol, TypeVar, runtime_checkable

from gamelib.errors import GameError, IllegalMoveError, MoveFormatError, describe_text

__all__ = [
    "CHANCE",
    "ChanceGame",
    "Probability",
    "chance_outcomes",
    "is_chance",
    "GAME_MEMBERS",
    "PLAY_MEMBERS",
    "SEARCH_MEMBERS",
    "Game",
    "GameError",
    "IllegalMoveError",
    "MoveFormatError",
    "Player",
    "State",
    "Move",
    "Value",
    "check_player",
    "check_game_over",
    "not_finished",
    "describe_text",
    "not_a_state",
    "other",
    "replay",
    "state_checked",
]

Player = str
"""A player's name, e.g. ``"X"``. ``game.players[0]`` moves first."""

State = Hashable
"""A game state: immutable and hashable (a tuple or an int)."""

Move = Hashable
"""A move in the game's own representation, e.g. ``(row, col)`` or a column index."""

Value = float
"""A value of a state for a player: -1 lost, 0 drawn, +1 won; estimates lie in between."""

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)


@runtime_checkable
class Game(Protocol[S, M]):
    """A two-person, zero-sum game with perfect information.

    ``start``, ``players``, ``next_states``, ``finished`` and ``utility`` are the
    lecture notes' six-tuple; its set of states is left implicit, as everything
    reachable from ``start``. The other members serve play and search. A game object
    holds constants only: every method is a pure function of its arguments, and no
    method changes the state it is given.
    """

    # Read-only properties, so that a class constant, a ``Final`` attribute or an
    # attribute set in ``__init__`` all satisfy the protocol.

    @property
    def name(self) -> str:
        """The game's name for people, e.g. ``"Tic-tac-toe"``."""
        ...

    @property
    def players(self) -> tuple[Player, Player]:
        """The two players' names; ``players[0]`` moves first."""
        ...

    @property
    def start(self) -> S:
        """The state in which every game begins."""
        ...

    def next_states(self, state: S, player: Player) -> list[S]:
        """The states reachable when ``player`` moves in ``state``, in ``moves`` order.

        Precondition: ``player == to_move(state)``. Empty when ``state`` is finished.
        """
        ...

    def finished(self, state: S) -> bool:
        """True iff the game is over in ``state`` (a win or a draw).

        The one rule every search follows: ``finished`` alone says when the game is over;
        ``next_states`` and ``moves`` are empty exactly then (a search that meets a game
        breaking it says so in a GameError, see :mod:`gamelib.search.door`).
        """
        ...

    def utility(self, state: S, player: Player) -> int:
        """-1, 0 or +1: the result of the finished ``state`` for ``player``.

        (A :class:`~gamelib.games.TreeGame` is the one exception: its leaves may hold any
        numbers, and its ``value_range`` tells the searches which.)

        Raises :class:`GameError` when ``state`` is not finished or ``player`` unknown.
        """
        ...

    def to_move(self, state: S) -> Player:
        """The player whose turn it is in ``state``.

        The players need not take turns: where a move gives its player another one,
        ``to_move`` says so, and every search follows it (the sign of a value flips only
        where the mover changes). A game class whose players always alternate may say so
        with a class attribute ``turns_alternate = True`` of its own, which spares the
        searches this call (see :func:`gamelib.search.movers.turns_alternate`).
        """
        ...

    def moves(self, state: S) -> list[M]:
        """The legal moves in ``state``, in a fixed order; empty when finished."""
        ...

    def play(self, state: S, move: M) -> S:
        """The state after the player to move makes ``move``; ``state`` is unchanged.

        Raises :class:`IllegalMoveError` when ``move`` is not legal in ``state``.
        """
        ...

    def parse_move(self, text: str) -> M:
        """The move written as ``text`` in the game's notation.

        Raises :class:`MoveFormatError` when ``text`` is not in that notation. Whether
        the move is legal in a given state is for :meth:`play` to decide.
        """
        ...

    def format_move(self, move: M) -> str:
        """``move`` in the game's notation; ``parse_move`` reads it back."""
        ...

    def render(self, state: S) -> str:
        """A plain-text picture of ``state``."""
        ...


GAME_MEMBERS: Final[tuple[str, ...]] = tuple(
    name for name in vars(Game) if not name.startswith("_")
)
"""The members of :class:`Game`, in the protocol's order, read from the class itself (the
one list of what a game has):

>>> GAME_MEMBERS[:6]
('name', 'players', 'start', 'next_states', 'finished', 'utility')
"""

SEARCH_MEMBERS: Final[tuple[str, ...]] = tuple(
    name for name in GAME_MEMBERS if name in ("players", "next_states", "finished", "utility",
                                              "to_move")
)
"""The members a search calls: the six-tuple's functions and whose turn it is (a search
is given its state, so it needs no ``start``; it never reads or writes moves as text)."""

PLAY_MEMBERS: Final[tuple[str, ...]] = tuple(name for name in GAME_MEMBERS if name != "name")
"""The members playing a game needs: all but ``name``, which is optional (a game without
one is called by its class name)."""


def other(game: Game[S, M], player: Player) -> Player:
    """The opponent of ``player`` in ``game``.

    >>> from gamelib.games import TicTacToe
    >>> other(TicTacToe(), "X")
    'O'
    """
    first, second = game.players
    if player == first:
        return second
    if player == second:
        return first
    raise GameError(
        f"unknown player {describe_text(player)}: this game's players are {first!r} and {second!r}"
    )


def check_player(game: Game[S, M], player: object) -> None:
    """Raise :class:`GameError` unless ``player`` is one of ``game.players``."""
    if player not in game.players:
        raise GameError(
            f"unknown player {describe_text(player)}: this game's players are "
            f"{game.players[0]!r} and {game.players[1]!r}"
        )


def not_finished() -> GameError:
    """The error a game's ``utility`` raises for a state that is not finished (returned,
    not raised, like :func:`not_a_state`)."""
    return GameError("utility is defined only for finished states; this game goes on")


def check_game_over(game: Game[S, M], state: S, player: object) -> None:
    """The door of a ``utility`` that asks ``finished``: raise :class:`GameError` unless
    ``player`` is one of ``game.players`` and ``state`` is finished."""
    check_player(game, player)
    if not game.finished(state):
        raise not_finished()


def not_a_state(game: Game[S, M], state: object) -> GameError:
    """The error for ``state`` when it is not a state of ``game`` at all.

    A game raises it when a method finds that its ``state`` argument has the wrong type
    or shape (e.g. ``TicTacToe().play("x", (0, 0))``), rather than the ``TypeError``
    or ``IndexError`` that Python would raise deep inside. It is returned, not raised:

    >>> from gamelib.games import TicTacToe
    >>> what, allowed = str(not_a_state(TicTacToe(), "x")).split(": ")
    >>> what
    "'x' is not a state of Tic-tac-toe"
    >>> allowed
    'pass game.start or a state returned by play() or next_states()'
    """
    return GameError(
        f"{describe_text(state)} is not a state of {game.name}: "
        "pass game.start or a state returned by play() or next_states()"
    )


NOT_A_STATE_ERRORS: Final = (TypeError, IndexError, AttributeError, ValueError)
"""What Python raises deep inside a game method given something that is not a state."""

F = TypeVar("F", bound=Callable[..., Any])

_GUARD: Final = """
try:
    pass
except _GameError:
    raise
except _NOT_A_STATE_ERRORS as _gamelib_error:
    if _raised_by_other_code(_gamelib_error):
        raise
    raise _not_a_state(self, _STATE) from None
"""
_FACTORY: Final = ("def _factory(_GameError, _NOT_A_STATE_ERRORS, _not_a_state, "
                   "_raised_by_other_code):\n    pass\n")

_LIBRARY_DIRS: Final = tuple(
    os.path.join(os.path.realpath(path), "")
    for path in (os.path.dirname(__file__), sysconfig.get_path("stdlib"),
                 sysconfig.get_path("platstdlib"))
)
"""The folders of gamelib and of Python's standard library (each ending in a separator)."""


@functools.cache
def _is_library_file(filename: str) -> bool:
    """Whether code from ``filename`` is gamelib's or the standard library's (or code that
    Python or gamelib made, named ``<frozen ...>`` or ``<gamelib ...>``)."""
    if filename.startswith(("<frozen ", "<gamelib ")):
        return True
    return os.path.realpath(filename).startswith(_LIBRARY_DIRS)


def _raised_by_other_code(error: BaseException, own: int = 1) -> bool:
    """Whether ``error``, caught by a :func:`state_checked` method, passed on its way up
    through code that is neither gamelib's nor the standard library's: a method of the
    user's own (a subclass's ``moves``, say) that the checked method called. Such an
    error is a bug of that code, not a sign of a bad state. The checked method's own
    frames, the first ``own`` of the traceback (two for :func:`_wrapped`'s), do not count."""
    frame = error.__traceback__
    for _ in range(own):
        frame = None if frame is None else frame.tb_next
    while frame is not None:
        if not _is_library_file(frame.tb_frame.f_code.co_filename):
            return True
        frame = frame.tb_next
    return False


def state_checked(method: F) -> F:
    """The one guard of every game method that takes a state: a decorator.

    A game method's first argument after ``self`` is a state. If the method, given
    something that is not a state of the game, fails deep inside with a ``TypeError``,
    ``IndexError``, ``AttributeError`` or ``ValueError``, the decorated method raises
    :func:`not_a_state`'s :class:`GameError` instead; a :class:`GameError` the method
    raises itself passes through unchanged, and so does an error that came up through
    code of the user's own (a subclass's ``moves`` with a bug, which ``play`` calls):
    that is a bug to see with its line, not a bad state. So ``@state_checked`` means::

        def method(self, state, ...):
            try:
                <the method's body>
            except GameError:
                raise
            except (TypeError, IndexError, AttributeError, ValueError) as error:
                if _raised_by_other_code(error):   # not gamelib's, not the standard library's
                    raise
                raise not_a_state(self, state) from None

    and that is literally what it makes, once, when the class is defined: it rewrites
    the method's own code with the ``try`` around the body, rather than wrapping it in a
    second function. Since Python 3.11 a ``try`` costs nothing until something raises,
    so the searches, which call these methods millions of times, pay nothing for it (a
    wrapping function would cost a call each time: a fifth of minimax's time).
    Tracebacks keep the method's file and line numbers. Where the source cannot be read
    (a method typed into an interactive prompt), or the method needs its own scope (it
    calls ``super()`` or reads a variable of an enclosing function, which a recompiled
    copy would not see), it falls back to a wrapping function.
    """
    if method.__code__.co_freevars:  # super()'s __class__, or an enclosing function's names
        return _wrapped(method)
    try:
        source = textwrap.dedent(inspect.getsource(method))
        filename = inspect.getsourcefile(method) or "<state_checked>"
    except (OSError, TypeError):
        return _wrapped(method)
    tree = ast.parse(source)
    function = tree.body[0]
    if not isinstance(function, ast.FunctionDef) or len(function.args.args) < 2:
        raise TypeError("@state_checked decorates a method def method(self, state, ...)")
    function.decorator_list = []
    body = function.body
    has_docstring = (isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                     and isinstance(body[0].value.value, str))
    guard = ast.parse(_GUARD).body[0]
    assert isinstance(guard, ast.Try)
    guard.body = body[1:] if has_docstring else body
    for node in ast.walk(guard):
        if isinstance(node, ast.Name) and node.id == "_STATE":
            node.id = function.args.args[1].arg
    end = guard.body[-1]
    for node in [guard, *(n for h in guard.handlers for n in ast.walk(h))]:
        if hasattr(node, "lineno"):  # the guard's own lines: those of the body's end
            ast.copy_location(node, end)
            setattr(node, "end_lineno", getattr(end, "end_lineno", end.lineno))  # noqa: B010
    function.body = [*body[:1], guard] if has_docstring else [guard]
    factory = ast.parse(_FACTORY)
    outer = factory.body[0]
    assert isinstance(outer, ast.FunctionDef)
    outer.body = [function, ast.Return(value=ast.Name(id=function.name, ctx=ast.Load()))]
    ast.increment_lineno(tree, method.__code__.co_firstlineno - 1)
    ast.fix_missing_locations(factory)
    code = compile(factory, filename, "exec", flags=__future__.annotations.compiler_flag,
                   dont_inherit=True)
    namespace: dict[str, Any] = {}
    exec(code, method.__globals__, namespace)
    checked = namespace["_factory"](GameError, NOT_A_STATE_ERRORS, not_a_state,
                                    _raised_by_other_code)
    checked.__qualname__ = method.__qualname__
    checked.__defaults__ = method.__defaults__
    checked.__kwdefaults__ = method.__kwdefaults__
    return checked  # type: ignore[no-any-return]


def _wrapped(method: F) -> F:
    """:func:`state_checked`'s fallback: the same guard as a wrapping function."""

    @functools.wraps(method)
    def checked(self: Any, state: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, state, *args, **kwargs)
        except GameError:
            raise
        except NOT_A_STATE_ERRORS as error:
            if _raised_by_other_code(error, own=2):  # this wrapper's frame and the method's
                raise
            raise not_a_state(self, state) from None

    return checked  # type: ignore[return-value]


def replay(game: Game[S, M], moves: Sequence[M], state: S | None = None) -> S:
    """The state after playing ``moves`` one after another from ``state`` (default: start).

    Raises :class:`IllegalMoveError` at the first illegal move, naming its position, and
    :class:`GameError` when ``moves`` is not a list (or tuple) of moves.
    """
    if isinstance(moves, (str, bytes)) or not isinstance(moves, Sequence):
        raise GameError(f"moves must be a list of moves, e.g. [(1, 1), (0, 0)], got "
                        f"{describe_text(moves)} ({type(moves).__name__})")
    current = game.start if state is None else state
    for index, move in enumerate(moves, start=1):
        try:
            current = game.play(current, move)
        except IllegalMoveError as error:
            raise IllegalMoveError(f"move {index} ({_show_move(game, move)}): {error}") from None
    return current


def _show_move(game: Game[S, M], move: M) -> str:
    """``move`` in the game's notation, or its ``repr`` when it is not a move at all."""
    try:
        return game.format_move(move)
    except (TypeError, ValueError, IndexError):
        return describe_text(move)


# -- chance: games with dice and coins ---------------------------------------------------

CHANCE: Final[Player] = "chance"
"""What ``to_move(state)`` returns in a *chance state*: a state in which no player moves
but a die is rolled or a coin tossed. It is never one of ``game.players``."""

Probability = Fraction | float
"""The probability of a chance outcome: an exact ``Fraction`` where the rules give one
(a fair die: ``Fraction(1, 6)``), else a float."""

PROBABILITY_TOLERANCE: Final = 1e-9
"""How far from 1 the float probabilities of a chance state may sum (Fractions: exactly 1)."""


@runtime_checkable
class ChanceGame(Game[S, M], Protocol[S, M]):
    """A :class:`Game` with chance states (AIMA's stochastic games; OpenSpiel's chance nodes).

    A chance state is one where ``to_move(state) == CHANCE``. There ``moves(state)`` are
    the outcomes (the faces of the die, the sides of the coin), ``play(state, outcome)``
    is the state after it, ``next_states(state, CHANCE)`` the states after each outcome
    in ``moves`` order, and :meth:`outcome_probabilities` the probability of each, in the
    same order. Everything else is as in :class:`Game`: a chance state is never finished,
    and the two players keep their names. Who moves after a chance state is whatever
    ``to_move`` says of the next state (a coin may give the same player two turns).

    The searches read the probabilities through :func:`chance_outcomes`, which checks them.
    """

    def outcome_probabilities(self, state: S) -> list[Probability]:
        """The probability of each outcome of the chance state ``state``, in ``moves``
        order: non-negative numbers that sum to 1 (exact Fractions where the rules give
        them). Precondition: ``to_move(state) == CHANCE``."""
        ...


def is_chance(game: object, state: Hashable) -> bool:
    """True iff ``state`` is a chance state of ``game``: ``game.to_move(state) == CHANCE``
    (False for every state of a game without chance, which never names CHANCE).

    >>> from gamelib.games import TicTacToe
    >>> is_chance(TicTacToe(), TicTacToe().start)
    False
    """
    return bool(game.to_move(state) == CHANCE)  # type: ignore[attr-defined]


def chance_outcomes(game: Game[S, M], state: S) -> list[tuple[Probability, S]]:
    """The door to a chance state: each outcome's probability with the state after it,
    ``[(p, next_state), ...]`` in ``moves`` order, after checking the game's rules.

    Raises :class:`GameError`, saying what is wrong and what is allowed, when ``state``
    is not a chance state, the game has no ``outcome_probabilities``, the chance state
    has no outcomes, there are not as many probabilities as next states, a probability
    is not a number or is negative, or they do not sum to 1 (exactly, when they are all
    Fractions or ints; within :data:`PROBABILITY_TOLERANCE` otherwise). The state is
    not changed.
    """
    if game.to_move(state) != CHANCE:
        raise GameError(f"{describe_text(state, limit=40)} is not a chance state: "
                        f"it is {game.to_move(state)!r}'s turn, so no die is rolled there")
    probabilities = getattr(game, "outcome_probabilities", None)
    if not callable(probabilities):
        raise GameError(f"{getattr(game, 'name', type(game).__name__)} has a chance state but "
                        "no outcome_probabilities(state): a game with chance states gives "
                        "each outcome's probability")
    after = game.next_states(state, CHANCE)
    given = probabilities(state)
    _check_probabilities(given, len(after) if isinstance(after, list) else -1)
    return list(zip(given, after, strict=True))


def _check_probabilities(given: object, outcomes: int) -> None:
    """Raise :class:`GameError` unless ``given`` is a list of ``outcomes`` (at least one)
    non-negative numbers summing to 1."""
    where = "a chance state"
    if outcomes == 0:
        raise GameError(f"{where} has no outcomes (next_states(state, CHANCE) is []): "
                        "a chance state has at least one outcome, each with its probability")
    if not isinstance(given, (list, tuple)) or len(given) != outcomes:
        raise GameError(f"{where} has {outcomes} outcome(s) but outcome_probabilities gave "
                        f"{describe_text(given, limit=40)}: give one probability per outcome, "
                        "in moves order")
    for p in given:
        if not isinstance(p, numbers.Real) or isinstance(p, bool) or p != p:
            raise GameError(f"the probability {describe_text(p)} of an outcome is not a number: "
                            "probabilities are Fractions, ints or floats from 0 to 1")
        if p < 0:
            raise GameError(f"the probability {p} of an outcome is negative: probabilities "
                            "lie from 0 to 1")
    total = sum(given)
    exact = all(isinstance(p, (int, Fraction)) for p in given)
    if (total != 1) if exact else abs(float(total) - 1) > PROBABILITY_TOLERANCE:
        raise GameError(f"the probabilities of a chance state sum to {total}, not 1: "
                        "give each outcome its share of certainty, e.g. 1/6 for each face of a die")
