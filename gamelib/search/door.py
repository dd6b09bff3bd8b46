"""The door of every public search: a broken game gets words, not a traceback.

:func:`search_door` decorates each public search function (minimax, memo_minimax,
alphabeta, bounded_alphabeta, depth_limited, iterative_deepening, best_move, choose_move,
move_values, mcts, trace_search). At the door, one line of play is walked from the state
searched (:func:`check_line`: the first move each time, to the end), checking the game's
rules on it; and the failures that reach the door from deep inside are translated by
their types. Inside, the searches add one test per running state and nothing per next
state: after their loop over the next states, whether it ran at all (else
:class:`NoNextState`, naming the state). Either way the user gets a
:class:`~gamelib.game.GameError` naming what is wrong with the game and what to do.

The one rule every search follows: ``finished(state)`` says when the game is over, and
then only. A running state has at least one next state; a finished state has none, and
its ``utility`` lies in the game's range (-1 to +1; a TreeGame's ``value_range``).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Hashable
from typing import Any, Final, ParamSpec, TypeVar

from gamelib.game import GameError, describe_text
from gamelib.search.common import is_number

__all__ = ["LINE_PLIES", "NO_NEXT_STATE", "ORDER_RETURNED_NONE", "TOO_DEEP", "UNHASHABLE",
           "NoNextState", "check_line", "search_door"]

T = TypeVar("T")
P = ParamSpec("P")

TOO_DEEP: Final = (
    "no end in sight: a cycle, or a line too long for an exact search (over Python's "
    "{limit} nested calls): make every line end (a move limit) or give a depth"
)
UNHASHABLE: Final = (
    "a state is not hashable ({error}): states must be tuples, ints or frozensets, not "
    "lists, sets or dicts (the searches keep them in sets and dicts)"
)
NO_NEXT_STATE: Final = (
    "a running state has no next state: finished() is False but next_states() is []. "
    "One rule: finished() says when the game is over; a running state has moves"
)
MOVES_AFTER_THE_END: Final = (
    "finished() is True in {state} but next_states() still gives {count} state(s): "
    "one rule: finished() says when the game is over, and next_states() is [] there"
)
UTILITY_RANGE: Final = (
    "utility({state}, {player!r}) returned {value}: results lie from {low:g} to {high:g} "
    "(-1 a loss, 0 a draw, +1 a win), or the searches disagree"
)
LINE_PLIES: Final = 400
"""How far :func:`check_line` walks a line of play at most (a longer line is left to the
search: a depth-limited one copes with it, a recursive exact one says it is too deep)."""
ORDER_RETURNED_NONE: Final = (
    "order(game, state, moves) returned None, not the moves: it must return them in the "
    "order to try (a function that sorts the list in place needs a 'return moves')"
)


class NoNextState(GameError):
    """Raised by a search at a running state that gave no next state: its loop over the
    next states ran zero times, which it tests once after the loop (one comparison per
    running state, nothing per next state; minimax, whose ``max()`` of nothing raises a
    ValueError, looks only then). The door re-raises it as a plain :class:`GameError`;
    it is one already, so a caller without a door gets the same words.
    """

    def __init__(self, state: Hashable) -> None:
        super().__init__(f"{NO_NEXT_STATE} (the state: {_show(state)})")
        self.state = state


NO_MOVE: Final = object()
"""What a search's loop variable holds before its loop over the next states (or moves)
of a running state: still this after the loop, the loop ran zero times (:class:`NoNextState`)."""


def search_door(search: Callable[P, T]) -> Callable[P, T]:
    """A public search function whose failures deep inside a broken game come out as a
    :class:`GameError` saying what is wrong with the game and what to do.

    The search's own code stays as it is but for one test per running state (its loop
    over the next states ran at all): only the failures that reach its door are
    translated, by their types:

    * ``RecursionError``: a cycle or a line of play too long for a recursive search;
    * :class:`NoNextState`: a running state without next states (the one rule:
      ``finished()`` decides when a game is over, and a running state has moves);
    * ``TypeError`` when an ``order=`` was given and it returns None for the moves of the
      state searched: an order without ``return``;
    * ``TypeError`` naming an "unhashable type": a state that is a list, set or dict.
      Python gives no exception type of its own for that, so this one case reads the
      message: ``unhashable type: 'list'`` (CPython 3.0 to 3.13, and ``hash()`` in every
      version) or ``cannot use 'list' as a set element (unhashable type: 'list')`` (sets
      and dicts from CPython 3.14 on); both contain ``unhashable type``.

    Every other exception passes through unchanged.
    """

    @functools.wraps(search)
    def door(*args: P.args, **kwargs: P.kwargs) -> T:
        if len(args) >= 2:
            check_line(args[0], args[1])
        try:
            return search(*args, **kwargs)
        except RecursionError:
            raise GameError(TOO_DEEP.format(limit=sys.getrecursionlimit())) from None
        except NoNextState as error:
            raise GameError(str(error)) from None
        except TypeError as error:
            if _order_returns_none(kwargs.get("order"), args):
                raise GameError(ORDER_RETURNED_NONE) from None
            if _is_unhashable(error):
                raise GameError(UNHASHABLE.format(error=error)) from None
            raise

    return door


def _is_unhashable(error: TypeError) -> bool:
    """Whether ``error`` is Python's refusal to hash a value (see :func:`search_door` for
    the messages of the Python versions)."""
    return "unhashable type" in str(error)


def _order_returns_none(order: object, args: tuple[Any, ...]) -> bool:
    """Whether ``order``, given, returns None for the moves of the state searched
    (``args[:2]`` are the game and the state): asked once, after a search failed."""
    if order is None or len(args) < 2 or not callable(order):
        return False
    game, state = args[0], args[1]
    try:
        return order(game, state, list(game.moves(state))) is None
    except Exception:  # noqa: BLE001 - the search's own error says more
        return False


def check_line(game: Any, state: Any) -> None:
    """Walk one line of play from ``state`` (the first next state each time, at most
    :data:`LINE_PLIES` plies) and raise GameError where the game breaks the searches'
    rule (see the module docstring) or gives an unhashable state.

    It costs one line of play per search. Anything else that goes wrong here (not a
    game, not a state, a method that raises) is left for the search's own checks and
    messages: the walk simply stops.
    """
    low, high = getattr(game, "value_range", (-1, 1))
    try:
        _walk(game, state, low, high)
    except _Broken as broken:
        raise GameError(str(broken)) from None
    except TypeError as error:
        if _is_unhashable(error):
            raise GameError(UNHASHABLE.format(error=error)) from None
    except Exception:  # noqa: BLE001, S110 - the search's own checks say what is wrong
        pass


class _Broken(Exception):
    """A rule :func:`check_line` found broken (raised as a GameError at its end)."""


def _walk(game: Any, state: Any, low: float, high: float) -> None:
    """:func:`check_line`'s walk: raise _Broken at a broken rule, anything at other trouble."""
    for _ in range(LINE_PLIES):
        hash(state)
        player = game.to_move(state)
        if game.finished(state):
            after = game.next_states(state, player)
            if isinstance(after, list) and after:
                raise _Broken(MOVES_AFTER_THE_END.format(state=_show(state), count=len(after)))
            for who in game.players:
                value = game.utility(state, who)
                if not is_number(value) or not low <= value <= high:
                    raise _Broken(UTILITY_RANGE.format(
                        state=_show(state), player=who, value=_show(value),
                        low=low, high=high))
            return
        after = game.next_states(state, player)
        if not after:
            raise _Broken(f"{NO_NEXT_STATE} (the state: {_show(state)})")
        state = after[0]


def _show(state: Hashable) -> str:
    """``state`` for a message, shortened."""
    try:
        return describe_text(state, limit=60)
    except Exception:  # noqa: BLE001 - a state whose repr fails
        return f"a {type(state).__name__}"
