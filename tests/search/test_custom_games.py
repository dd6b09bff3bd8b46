"""Custom games that break the searches' rules get a GameError from every search.

A student's game may cycle, run for thousands of plies, hold its states in lists, leave a
running state without moves, offer moves after the end, or score a win 5. Every public
search (and the play session over them) then says what is wrong in a GameError: never a
raw RecursionError, TypeError, ValueError or IndexError, never a hang, and never two
searches that disagree in silence. (gamelib.search.door: the one rule and its messages.)
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from helpers import IntMoves
from hypothesis import given, settings
from hypothesis import strategies as st

from gamelib.game import GameError
from gamelib.search import (
    alphabeta,
    best_move,
    bounded_alphabeta,
    choose_move,
    depth_limited,
    iterative_deepening,
    mcts,
    memo_minimax,
    minimax,
    move_values,
    tactical_policy,
    trace_search,
    zero,
)
from gamelib.search.door import NO_NEXT_STATE, ORDER_RETURNED_NONE, UNHASHABLE, NoNextState
from gamelib.session import PlaySession


class LineGame(IntMoves):
    """A line of ``length`` plies (states 0, 1, ... ``length``), two moves a ply (both to
    the next state), with one flaw: ``"none"``, ``"cycle"`` (never ends: state ``k`` leads
    back to 0), ``"stuck"`` (``k`` is running without moves), ``"past_end"`` (``k`` is
    finished but has moves), ``"utility"`` (the end scores ``bad``), ``"unhashable"``
    (states after ``k`` are lists)."""

    name = "Line"
    players = ("A", "B")
    start: Any = 0

    def __init__(self, length: int, flaw: str = "none", k: int = 1, bad: Any = 5) -> None:
        self.length, self.flaw, self.k, self.bad = length, flaw, min(k, length), bad

    def _n(self, s: Any) -> int:
        return s[0] if isinstance(s, list) else s

    def finished(self, s: Any) -> bool:
        n = self._n(s)
        if self.flaw == "cycle":
            return False
        if self.flaw == "past_end" and n == self.k:
            return True
        if self.flaw == "stuck" and n == self.k:
            return False
        return n >= self.length

    def next_states(self, s: Any, p: str) -> list[Any]:
        n = self._n(s)
        if self.flaw == "stuck" and n == self.k:
            return []
        if self.flaw != "past_end" and self.finished(s) or n >= self.length:
            return []
        after = 0 if self.flaw == "cycle" and n + 1 > self.k else n + 1
        if self.flaw == "unhashable" and after > self.k:
            return [[after], [after]]
        return [after, after]

    def to_move(self, s: Any) -> str:
        return self.players[self._n(s) % 2]

    def moves(self, s: Any) -> list[int]:
        return [0, 1] if self.next_states(s, self.to_move(s)) else []

    def play(self, s: Any, m: int) -> Any:
        return self.next_states(s, self.to_move(s))[m]

    def utility(self, s: Any, p: str) -> Any:
        win = self.bad if self.flaw == "utility" else 1
        loss = -win if isinstance(win, (int, float)) else win
        return win if p == self.to_move(s) else loss


SEARCHES: dict[str, Callable[[Any], object]] = {
    "minimax": lambda g: minimax(g, g.start),
    "memo_minimax": lambda g: memo_minimax(g, g.start),
    "alphabeta": lambda g: alphabeta(g, g.start),
    "bounded_alphabeta": lambda g: bounded_alphabeta(g, g.start),
    "best_move": lambda g: best_move(g, g.start, rng=random.Random(1)),
    "trace_search": lambda g: trace_search(g, g.start, "minimax"),
    "mcts": lambda g: mcts(g, g.start, iterations=20, seed=1),
    "depth_limited": lambda g: depth_limited(g, g.start, 3, zero),
    "iterative_deepening": lambda g: iterative_deepening(g, g.start, zero, max_depth=3),
    "choose_move": lambda g: choose_move(g, g.start, depth=3, rng=random.Random(1)),
    "move_values": lambda g: move_values(g, g.start, depth=3),
}
DEPTH_LIMITED = {"depth_limited", "iterative_deepening", "choose_move", "move_values"}
MESSAGES = {
    "cycle": "no end in sight",
    "deep": "no end in sight",
    "stuck": "a running state has no next state",
    "past_end": "finished() is True in",
    "utility": "results lie from -1 to 1",
    "unhashable": "a state is not hashable",
}


@pytest.mark.parametrize("name", sorted(SEARCHES))
@pytest.mark.parametrize("flaw", ["stuck", "past_end", "utility", "unhashable"])
def test_a_rule_broken_on_the_first_line_is_named_by_every_search(name: str, flaw: str) -> None:
    with pytest.raises(GameError, match=re.escape(MESSAGES[flaw])):
        SEARCHES[name](LineGame(6, flaw, k=3))


@pytest.mark.parametrize("name", sorted(SEARCHES))
@pytest.mark.parametrize("flaw", ["cycle", "deep"])
def test_cycles_and_deep_lines_get_words_from_exact_searches(name: str, flaw: str) -> None:
    game = LineGame(3000) if flaw == "deep" else LineGame(6, "cycle", k=3)
    # A depth limit copes with both; an MCTS playout of 3,000 plies is fine.
    if name in DEPTH_LIMITED or (name == "mcts" and flaw == "deep"):
        SEARCHES[name](game)
    else:
        message = "a playout went 10,000 plies" if name == "mcts" else MESSAGES[flaw]
        with pytest.raises(GameError, match=message):
            SEARCHES[name](game)


@pytest.mark.parametrize("name", sorted(SEARCHES))
def test_a_sound_line_game_is_searched_and_all_exact_searches_agree(name: str) -> None:
    SEARCHES[name](LineGame(5))
    values = {minimax(LineGame(n), 0) for n in [5]} | {memo_minimax(LineGame(5), 0),
                                                      alphabeta(LineGame(5), 0),
                                                      bounded_alphabeta(LineGame(5), 0)}
    assert values == {-1}


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(sorted(SEARCHES)),
    length=st.integers(1, 12),
    flaw=st.sampled_from(["none", "cycle", "stuck", "past_end", "utility", "unhashable"]),
    k=st.integers(0, 12),
    bad=st.sampled_from([5, -2, 1.5, float("nan"), 10**400, None, "1"]),
)
def test_every_search_returns_or_says_what_is_wrong(name: str, length: int, flaw: str, k: int,
                                                    bad: Any) -> None:
    game = LineGame(length, flaw, k, bad)
    try:
        SEARCHES[name](game)
    except GameError as error:
        assert str(error) and "Traceback" not in str(error)


def test_memo_minimax_and_best_move_follow_finished_off_the_first_line() -> None:
    # The flaw lies on a second move's line only, where the door's walk does not go.
    class Branchy(LineGame):
        def next_states(self, s: Any, p: str) -> list[Any]:
            if s == 0:
                return [1, 100]
            return [] if s in (2, 100) else [s + 1]

        def finished(self, s: Any) -> bool:
            return s == 2  # 100 is running, without moves

    for search in (memo_minimax, minimax):
        with pytest.raises(GameError, match=re.escape(MESSAGES["stuck"])):
            search(Branchy(2), 0)
    with pytest.raises(GameError, match=re.escape(MESSAGES["stuck"])):
        best_move(Branchy(2), 0)


def test_an_order_without_return_is_named() -> None:
    from gamelib.games import TicTacToe

    game = TicTacToe()
    with pytest.raises(GameError, match="order.*returned None.*return moves"):
        alphabeta(game, game.start, order=lambda g, s, moves: moves.sort())  # type: ignore


@pytest.mark.parametrize("flaw", ["cycle", "stuck", "past_end", "utility", "unhashable"])
def test_the_session_says_what_is_wrong_with_the_game(flaw: str) -> None:
    game = LineGame(6, flaw, k=3)
    s = PlaySession(game, mode="computer-human", seed=1, background=False)
    assert s.message.startswith("The computer could not move: ")
    assert "internal error" not in s.message
    h = PlaySession(game, mode="human-human", background=False)
    assert h.hint() is None and h.message.startswith("No hint: ")
    assert "internal error" not in h.message


# -- a running state without moves off the door's line; the door reads types, not texts --


class OffLine(LineGame):
    """State 0 has two next states: 1, finished (a win for B, who moves there, so no
    search is cut off before the second), and ``second`` (100, or ``[100]`` for
    ``unhashable``), which is running and has no next state (``stuck``) or has next
    states that are lists. The door's walk takes 0 and 1 only: all is well there."""

    def __init__(self, flaw: str = "stuck") -> None:
        super().__init__(1, flaw)

    def finished(self, s: Any) -> bool:
        return s == 1

    def next_states(self, s: Any, p: str) -> list[Any]:
        if s == 0:
            return [1, [100] if self.flaw == "unhashable" else 100]
        if self.flaw == "unhashable" and isinstance(s, list):
            return [1, 1]
        return []

    def to_move(self, s: Any) -> str:
        return "A" if s == 0 else "B"


STUCK_AT_100 = f"{NO_NEXT_STATE} (the state: 100)"
TRACES: dict[str, Callable[[Any], object]] = {
    "trace minimax": lambda g: trace_search(g, g.start, "minimax"),
    "trace alphabeta": lambda g: trace_search(g, g.start, "alphabeta"),
    "trace bounded": lambda g: trace_search(g, g.start, "bounded"),
    "trace depth_limited": lambda g: trace_search(g, g.start, "depth_limited", depth=3),
    "trace mcts": lambda g: trace_search(g, g.start, "mcts", iterations=20),
    "mcts tactical": lambda g: mcts(g, g.start, iterations=20, seed=1, policy=tactical_policy),
    "choose_move exact": lambda g: choose_move(g, g.start, rng=random.Random(1)),
}


@pytest.mark.parametrize("name", sorted(SEARCHES | TRACES))
def test_a_running_state_without_moves_off_the_first_line_is_named(name: str) -> None:
    with pytest.raises(GameError) as caught:
        {**SEARCHES, **TRACES}[name](OffLine())
    assert str(caught.value) == STUCK_AT_100
    # A plain GameError, without the search's frames chained to it.
    assert type(caught.value) is GameError and caught.value.__suppress_context__


def test_without_a_door_the_search_still_says_it_in_words() -> None:
    from gamelib.search import broken_alphabeta

    with pytest.raises(NoNextState, match=re.escape(STUCK_AT_100)):
        broken_alphabeta(OffLine(), 0)
    assert issubclass(NoNextState, GameError)


def test_the_first_line_and_the_search_give_one_message_for_a_stuck_state() -> None:
    # LineGame(6, "stuck", k=3): the door's walk meets state 3; OffLine: the search meets 100.
    with pytest.raises(GameError) as on_line:
        alphabeta(LineGame(6, "stuck", k=3), 0)
    assert str(on_line.value) == f"{NO_NEXT_STATE} (the state: 3)"


@pytest.mark.parametrize("name", ["minimax", "memo_minimax", "alphabeta", "bounded_alphabeta",
                                  "best_move", "trace_search", "mcts", "depth_limited"])
def test_an_unhashable_state_off_the_first_line_keeps_its_message(name: str) -> None:
    # On this Python (3.11) the sets and dicts of the searches say "unhashable type: 'list'".
    with pytest.raises(GameError) as caught:
        SEARCHES[name](OffLine("unhashable"))
    assert str(caught.value) == UNHASHABLE.format(error="unhashable type: 'list'")


@pytest.mark.parametrize("text", [
    "unhashable type: 'list'",                                      # CPython 3.0 to 3.13
    "cannot use 'list' as a set element (unhashable type: 'list')",  # CPython 3.14 on
    "cannot use 'dict' as a dict key (unhashable type: 'dict')",
])
def test_the_unhashable_messages_of_every_python_are_recognised(text: str) -> None:
    class Refuses(LineGame):
        def next_states(self, s: Any, p: str) -> list[Any]:
            if s == 0:
                return [1, 2]
            raise TypeError(text)   # what the interpreter says, as the search meets it

        def finished(self, s: Any) -> bool:
            return s == 1

    with pytest.raises(GameError) as caught:
        alphabeta(Refuses(1), 0)
    assert str(caught.value) == UNHASHABLE.format(error=text)


@pytest.mark.parametrize("search", ["alphabeta", "depth_limited"])
def test_an_order_without_return_keeps_its_message(search: str) -> None:
    from gamelib.games import TicTacToe

    game = TicTacToe()
    sort_in_place: Any = lambda g, s, moves: moves.sort()  # noqa: E731
    with pytest.raises(GameError) as caught:
        if search == "alphabeta":
            alphabeta(game, game.start, order=sort_in_place)
        else:
            depth_limited(game, game.start, 2, zero, order=sort_in_place)
    assert str(caught.value) == ORDER_RETURNED_NONE


def test_an_order_that_fails_otherwise_is_not_called_an_order_without_return() -> None:
    from gamelib.games import TicTacToe

    game = TicTacToe()
    with pytest.raises(TypeError, match="my own mistake"):
        alphabeta(game, game.start,
                  order=lambda g, s, moves: (_ for _ in ()).throw(TypeError("my own mistake")))


@pytest.mark.parametrize("error", [ValueError("max() arg is an empty sequence"),
                                   IndexError("Cannot choose from an empty sequence"),
                                   TypeError("'NoneType' object is not iterable")])
@pytest.mark.parametrize("name", ["minimax", "alphabeta", "depth_limited", "mcts"])
def test_the_games_own_errors_pass_the_door_unchanged(name: str, error: Exception) -> None:
    # Before, the door read these texts and blamed a state without moves (or an order).
    class Raises(OffLine):
        def utility(self, s: Any, p: str) -> Any:
            raise error   # the door's walk leaves it to the search, which meets it

    with pytest.raises(type(error), match=re.escape(str(error))) as caught:
        SEARCHES[name](Raises())
    assert not isinstance(caught.value, GameError)


def test_the_session_says_a_stuck_state_off_the_first_line_is_wrong() -> None:
    # The session shortens its messages: the rule is there, the state's name is cut off.
    s = PlaySession(OffLine(), mode="computer-human", seed=1, background=False)
    assert s.message.startswith(f"The computer could not move: {NO_NEXT_STATE[:60]}")
    h = PlaySession(OffLine(), mode="human-human", background=False)
    assert h.hint() is None and h.message.startswith(f"No hint: {NO_NEXT_STATE[:60]}")
