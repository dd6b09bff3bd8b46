"""Checkers for the exercise notebooks: precise, friendly feedback on a student's code.

Each exercise notebook ends a task with a check cell such as ``check_next_states(next_states)``.
A checker calls the student's function on many positions, compares every answer with the
reference in :mod:`gamelib.games` and :mod:`gamelib.search`, and returns a
:class:`CheckResult`: a report with one line per check (``✔`` passed, ``✘`` failed,
``…`` not done yet) that Jupyter shows as HTML and ``print`` shows as text. A failed check
names the position, the expected answer, the answer returned and a hint. ``result.passed``
is True when every check passed.

========================================  =========================================================
checker                                   the exercise
========================================  =========================================================
:func:`check_next_states`                 1: Nim's ``next_states(state, player)``
:func:`check_finished`                    1: Nim's ``finished(state)``
:func:`check_utility`                     1: Nim's ``utility(state, player)``
:func:`check_nim_values`                  1: solving Nim with the three functions above
:func:`check_memo_minimax`                2: ``memo_value(game, state, player, cache)``
:func:`check_store_bound`                 3: the store rule ``store_bound(cache, state, alpha,
                                          beta, v)`` inside the lecture's bounded alpha-beta
:func:`check_heuristic`                   4: a Connect Four ``heuristic(state, player)``, judged
                                          by a match of depth-limited players against a baseline
:func:`check_tree_counts`                 5: the game tree and the states of simplified
                                          tic-tac-toe, ``tree_size(n)`` and ``state_count(n)``
========================================  =========================================================

How a checker treats the student's code:

* A stub is "not done yet", never an error: a function that raises ``NotImplementedError``
  or whose first answer is ``None`` or ``...`` gives a result with ``done`` False.
* Any other exception is caught and reported in one line, with the line of the *student's*
  code where it happened (never a traceback into gamelib).
* Bad arguments to a checker itself (e.g. something that is not a function) raise
  :class:`~gamelib.game.GameError`.

Every checker is deterministic: positions come from breadth-first search or from
``random.Random`` with a fixed seed, so a report is the same on every run.

This module imports no user-interface library; ``_repr_html_`` builds plain HTML strings.
"""

from __future__ import annotations

import html
import math
import random
import sysconfig
import traceback
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Final, TypeVar, cast

from gamelib.game import Game, GameError, Player
from gamelib.games import ConnectFour, Nim, TicTacToe, TicTacToeBitboard
from gamelib.search import bounded
from gamelib.search.alphabeta import keeps_three_cases
from gamelib.search.bounded import (
    EXACT,
    FLAGS,
    LOWER,
    UPPER,
    BoundCache,
    BoundedSearch,
    Entry,
    bounded_alphabeta,
)
from gamelib.search.depth_limited import iterative_deepening
from gamelib.search.heuristics import Heuristic, connect_four_heuristic, squash, zero
from gamelib.search.memo import memo_minimax
from gamelib.search.minimax import AnyGame
from gamelib.search.stats import Stats

__all__ = [
    "PASS",
    "FAIL",
    "TODO",
    "INFO",
    "Line",
    "CheckResult",
    "check_next_states",
    "check_finished",
    "check_utility",
    "check_nim_values",
    "NIM_SAMPLE",
    "NIM_STARTS",
    "check_memo_minimax",
    "check_store_bound",
    "check_heuristic",
    "centre_heuristic",
    "BASELINES",
    "check_tree_counts",
    "BRUTE_FORCE_SIZES",
    "FORMULA_SIZES",
    "tree_size_by_enumeration",
    "state_count_by_enumeration",
]

# ---------------------------------------------------------------------------------------------
# The report
# ---------------------------------------------------------------------------------------------

PASS: Final = "pass"
"""A check that passed (shown ``✔``)."""
FAIL: Final = "fail"
"""A check that failed (shown ``✘``)."""
TODO: Final = "todo"
"""A part the student has not written yet (shown ``…``)."""
INFO: Final = "info"
"""A remark that is neither a pass nor a failure (shown ``·``)."""

_SYMBOL: Final = {PASS: "✔", FAIL: "✘", TODO: "…", INFO: "·"}
_COLOUR: Final = {PASS: "#1a7f37", FAIL: "#cf222e", TODO: "#9a6700", INFO: "#57606a"}


@dataclass(frozen=True)
class Line:
    """One line of a report: a status, a sentence, and labelled details below it.

    ``status`` is :data:`PASS`, :data:`FAIL`, :data:`TODO` or :data:`INFO`. Each detail is
    a pair ``(label, text)`` such as ``("expected", "12 states")``; a text with several
    lines (a board picture) is shown as a block.
    """

    status: str
    text: str
    details: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class CheckResult:
    """What a checker found: a titled list of :class:`Line` objects.

    ``done`` is False when (part of) the student's code is still a stub. ``facts`` holds
    the key numbers of the check for programs and tests (e.g. ``{"wins": 12}``); it is not
    part of the report. ``repr()`` is the plain-text report, ``_repr_html_()`` the same
    report for Jupyter.
    """

    title: str
    lines: tuple[Line, ...]
    done: bool = True
    facts: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def passed(self) -> bool:
        """True iff the code is complete, no check failed and at least one passed."""
        statuses = [line.status for line in self.lines]
        return self.done and FAIL not in statuses and PASS in statuses

    @property
    def failures(self) -> list[Line]:
        """The lines of the checks that failed."""
        return [line for line in self.lines if line.status == FAIL]

    def headline(self) -> str:
        """The first line of the report: the title and the verdict."""
        failed = len(self.failures)
        checks = sum(line.status in (PASS, FAIL) for line in self.lines)
        if self.passed:
            verdict = "passed" if checks == 1 else f"all {checks} checks passed"
        elif failed:
            verdict = "failed" if checks == 1 else f"{failed} of {checks} checks failed"
        elif not self.done:
            verdict = "not done yet"
        else:
            verdict = "nothing was checked"
        return f"{self.title}: {verdict}"

    def __repr__(self) -> str:
        out = [self.headline()]
        for line in self.lines:
            out.append(f"{_SYMBOL[line.status]} {line.text}")
            width = max((len(label) for label, _ in line.details), default=0)
            for label, text in line.details:
                first, *rest = text.split("\n")
                out.append(f"    {label + ':':<{width + 1}} {first}")
                out.extend(f"    {'':<{width + 1}} {more}" for more in rest)
        return "\n".join(out)

    def _repr_html_(self) -> str:
        colour = _COLOUR[PASS] if self.passed else _COLOUR[FAIL if self.failures else TODO]
        parts = [
            f'<div class="gamelib-check" style="border-left: 5px solid {colour}; '
            'padding: 0.3em 0.8em; margin: 0.3em 0; line-height: 1.45">',
            f'<div style="font-weight: bold; color: {colour}">{_esc(self.headline())}</div>',
        ]
        for line in self.lines:
            symbol_colour = _COLOUR[line.status]
            parts.append(
                f'<div><span style="color: {symbol_colour}; font-weight: bold">'
                f"{_SYMBOL[line.status]}</span> {_prose(line.text)}</div>"
            )
            for label, text in line.details:
                label_html = f'<span style="color: {_COLOUR[INFO]}">{_esc(label)}:</span>'
                if "\n" in text:
                    body = (f'<pre style="margin: 0.1em 0 0.3em 0; line-height: 1.2">'
                            f"{_esc(text)}</pre>")
                elif label in _PROSE_LABELS:
                    body = " " + _prose(text)
                else:
                    body = f" <code>{_esc(text)}</code>"
                parts.append(f'<div style="margin-left: 1.6em">{label_html}{body}</div>')
        parts.append("</div>")
        return "\n".join(parts)


_PROSE_LABELS: Final = frozenset({"hint", "note", "says", "truth", "problem"})
"""Detail labels whose text is a sentence; the others show code or data."""


def _esc(text: str) -> str:
    return html.escape(text, quote=False)


def _prose(text: str) -> str:
    """``text`` as HTML, with the parts between backticks shown as code."""
    pieces = _esc(text).split("`")
    if len(pieces) % 2 == 0:  # an odd number of backticks: show them as they are
        return _esc(text)
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(pieces))


def _not_done(title: str, what: str, where: str = "") -> CheckResult:
    """The report for a stub: nothing to check yet."""
    text = f"{what} is not done yet: write it in place of `raise NotImplementedError`"
    # Where the stub raised is worth saying only if it is not in the function itself.
    helpful = where and not where.startswith(f"in {what},")
    details = (("note", f"NotImplementedError was raised {where}"),) if helpful else ()
    return CheckResult(
        title,
        (Line(TODO, text, details), Line(INFO, "then run its cell and this one again")),
        done=False,
    )


# ---------------------------------------------------------------------------------------------
# Calling the student's code
# ---------------------------------------------------------------------------------------------


class _NotDone(Exception):
    """The student's function is still a stub."""

    def __init__(self, where: str = "") -> None:
        super().__init__(where)
        self.where = where


class _StudentError(Exception):
    """The student's function raised: ``summary`` says what and ``where`` says where."""

    def __init__(self, summary: str, where: str) -> None:
        super().__init__(summary)
        self.summary, self.where = summary, where


_LIBRARY_DIRS: Final = tuple(
    str(Path(p).resolve())
    for p in {
        str(Path(__file__).resolve().parent),
        sysconfig.get_paths()["stdlib"],
        sysconfig.get_paths()["platstdlib"],
        sysconfig.get_paths()["purelib"],
        sysconfig.get_paths()["platlib"],
    }
)


def _is_library(filename: str) -> bool:
    try:
        resolved = str(Path(filename).resolve())
    except (OSError, ValueError):
        return False
    return resolved.startswith(_LIBRARY_DIRS)


def _where(error: BaseException) -> str:
    """Where in the student's code ``error`` happened: the innermost frame outside gamelib.

    The file name is left out: in a notebook it is a temporary file whose name changes on
    every run, and the line number counts from the top of the cell anyway.
    """
    frames = [f for f in traceback.extract_tb(error.__traceback__) if not _is_library(f.filename)]
    # The checker's own frames live in gamelib, so what is left is the student's code.
    if not frames:
        return ""
    frame = frames[-1]
    code = (frame.line or "").strip()
    shown = f": {code}" if code else ""
    return f"in {frame.name}, line {frame.lineno}{shown}"


def _shorten(text: str, limit: int = 160) -> str:
    text = " ".join(text.split()) if "\n" not in text else text
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _show(value: object, limit: int = 160) -> str:
    """``repr(value)``, shortened for a report."""
    try:
        shown = repr(value)
    except Exception:  # a student's object with a broken __repr__
        shown = f"<{type(value).__name__} object>"
    return _shorten(shown, limit)


def _call(function: Callable[..., Any], *args: Any) -> Any:
    """``function(*args)``; raises :class:`_NotDone` or :class:`_StudentError` instead of
    letting the student's exception through."""
    try:
        return function(*args)
    except NotImplementedError as error:
        raise _NotDone(_where(error)) from None
    except RecursionError as error:
        raise _StudentError(
            "RecursionError: the recursion went too deep (does every call get closer to a "
            "finished state, or to an answer in the cache?)",
            _where(error),
        ) from None
    except Exception as error:
        message = str(error)
        summary = f"{type(error).__name__}: {message}" if message else type(error).__name__
        raise _StudentError(_shorten(summary), _where(error)) from None


_MISSING: Any = object()
"""Stands for "no such value" where None could be a student's answer."""


def _is_stub(value: object) -> bool:
    return value is None or value is Ellipsis


def _error_line(call: str, error: _StudentError, hint: str = "") -> Line:
    details = [("error", error.summary)]
    if error.where:
        details.append(("where", error.where))
    if hint:
        details.append(("hint", hint))
    return Line(FAIL, f"{call} raised an exception", tuple(details))


def _require_function(checker: str, name: str, value: object) -> None:
    if not callable(value):
        raise GameError(
            f"{checker} needs your function {name} itself (the name without parentheses), "
            f"got {_show(value, 60)}"
        )


T = TypeVar("T")


def _check_cases(title: str, name: str, function: Callable[..., Any], cases: Sequence[T],
                 ask: Callable[[T], tuple[str, tuple[Any, ...]]],
                 judge: Callable[[T, str, Any], Line | None], *, noun: str, among: str,
                 right: str) -> CheckResult:
    """The report on calling the student's ``function`` once per case.

    ``ask(case)`` gives the call as the report writes it and its arguments;
    ``judge(case, call, answer)`` is None for a right answer, else the line saying what is
    wrong. The report ends at once with "not done yet" for a stub (``NotImplementedError``,
    or a first answer None or ``...``) or with the exception of the first call that raised
    one. Otherwise it is the line ``right`` if every answer was right, else the first wrong
    line with how many went wrong, e.g. "wrong on 3 of 266 positions" (``among`` "on",
    ``noun`` "position"). ``facts``: the number of cases (under ``noun + "s"``) and of
    wrong ones.
    """
    wrong: list[Line] = []
    for index, case in enumerate(cases):
        call, args = ask(case)
        try:
            answer = _call(function, *args)
        except _NotDone as stub:
            return _not_done(title, name, stub.where)
        except _StudentError as error:
            return CheckResult(title, (_error_line(call, error),))
        if index == 0 and _is_stub(answer):
            return _not_done(title, name)
        line = judge(case, call, answer)
        if line is not None:
            wrong.append(line)
    facts = {f"{noun}s": len(cases), "wrong": len(wrong)}
    if wrong:
        first = wrong[0]
        text = f"wrong {among} {len(wrong):,} of {_count(len(cases), noun)}; the first: "
        return CheckResult(title, (Line(FAIL, text + first.text, first.details),), facts=facts)
    return CheckResult(title, (Line(PASS, right),), facts=facts)


def _require_game(checker: str, game: object) -> None:
    if game is not None and not isinstance(game, Game):
        raise GameError(
            f"{checker} takes a game of gamelib.games as its second argument, e.g. TicTacToe(), "
            f"or None (the default) for Nim; got {_show(game, 60)}"
        )


def _to_move(game: AnyGame, state: Hashable) -> Player:
    """``game.to_move(state)`` for a game of any type."""
    return game.to_move(state)


def _signed(value: float) -> str:
    """A value with its sign: ``+1``, ``0``, ``-1``, ``+0.5``."""
    return "0" if value == 0 else f"{value:+g}"


def _count(n: int, noun: str, plural: str = "") -> str:
    """``n`` with its noun: ``1 state``, ``2 states``, ``0 losses`` (with ``plural``)."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


# ---------------------------------------------------------------------------------------------
# Positions to test on
# ---------------------------------------------------------------------------------------------


def _reachable(game: AnyGame, limit: int | None = None) -> list[Hashable]:
    """The states reachable from ``game.start`` in breadth-first order (at most ``limit``)."""
    seen = {game.start}
    order = [game.start]
    for state in order:  # the list grows while we walk it: a queue without popping
        if limit is not None and len(order) >= limit:
            break
        if game.finished(state):
            continue
        for child in game.next_states(state, game.to_move(state)):
            if child not in seen:
                seen.add(child)
                order.append(child)
    return order if limit is None else order[:limit]


def _sample_positions(game: AnyGame, limit: int = 400, seed: int = 1) -> list[Hashable]:
    """Up to ``limit`` distinct positions of ``game``: half from breadth-first search near
    the start, the rest from random games played with ``random.Random(seed)``, so that
    late and finished positions are included."""
    positions = _reachable(game, limit // 2)
    seen = set(positions)
    rng = random.Random(seed)
    for _ in range(10 * limit):
        if len(positions) >= limit:
            break
        state = game.start
        while not game.finished(state):
            state = game.play(state, rng.choice(game.moves(state)))
            if state not in seen:
                seen.add(state)
                positions.append(state)
    return positions[:limit]


def _show_state(game: AnyGame, state: Hashable) -> str:
    """A state for a report: its repr, and for a board game the picture below it."""
    if isinstance(game, Nim):
        return _show(state)
    try:
        picture = game.render(state)
    except Exception:  # not a state of this game: the repr must do
        return _show(state)
    return f"{_show(state)}\n{picture}"


# ---------------------------------------------------------------------------------------------
# Exercise 1: the rules of Nim
# ---------------------------------------------------------------------------------------------

NIM_SAMPLE: Final = ((3, 4, 5), (0, 3), (6,), (1, 1, 1, 1))
"""The starting heaps of the Nim games whose reachable states the Nim checkers try."""

NIM_STARTS: Final = ((1,), (2,), (1, 1), (1, 2), (2, 2), (1, 2, 3), (1, 3, 5), (2, 3, 4),
                     (3, 4, 5), (1, 4, 5))
"""The starts that :func:`check_nim_values` solves with the student's rules."""


def _rule_positions(game: AnyGame | None) -> list[tuple[AnyGame, Hashable]]:
    """``(game, state)`` pairs to test rules on: every state of the Nim sample by default."""
    if game is None:
        return [(nim, s) for heaps in NIM_SAMPLE for nim in [Nim(heaps)] for s in _reachable(nim)]
    return [(game, s) for s in _sample_positions(game)]


def _describe_game(game: AnyGame | None) -> str:
    if game is None:
        return "Nim with heaps " + ", ".join(str(h) for h in NIM_SAMPLE)
    return _show(game)


def _states_list(value: object) -> list[Any] | None:
    """``value`` as a list if it is a collection of states (not a string), else None."""
    if isinstance(value, (str, bytes, dict)) or not isinstance(value, Iterable):
        return None
    try:
        return list(value)
    except Exception:
        return None


def _unhashable(items: list[Any]) -> Any:
    """The first item that cannot be hashed, or :data:`_MISSING` if there is none."""
    for item in items:
        try:
            hash(item)
        except TypeError:
            return item
    return _MISSING


def _nim_shape_hint(item: object) -> str:
    """A hint when a Nim next state does not have the shape ``(heaps, turn)``."""
    if isinstance(item, (tuple, list)) and len(item) == 2:
        heaps, turn = item
        if isinstance(heaps, list):
            return ("make the heaps a tuple, e.g. tuple(new_heaps): a state must be hashable, "
                    "and lists are not")
        if isinstance(item, list):
            return "make each next state a tuple (heaps, turn), not a list"
        if not isinstance(turn, int):
            return "the second part of a state is the turn, 0 or 1"
    return ("each next state is a pair (heaps, turn) like the state you were given, "
            "e.g. ((2, 4, 5), 1)")


def _nim_next_states_hint(state: Any, missing: list[Any], extra: list[Any],
                          duplicates: list[Any]) -> str:
    heaps, turn = state
    for item in extra:
        if not (isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], tuple)):
            return _nim_shape_hint(item)
    for _, new_turn in extra:
        if new_turn == turn:
            return "after a move the other player is to move: each next state's turn is 1 - turn"
    for new_heaps, _ in extra:
        if len(new_heaps) != len(heaps):
            return ("a next state has as many heaps as the state: an emptied heap stays "
                    "in the tuple as 0")
        if new_heaps == heaps:
            return "taking nothing is not a move: take at least one object"
        if any(not isinstance(h, int) or h < 0 for h in new_heaps):
            return "a heap cannot hold fewer than 0 objects: take at most what the heap holds"
        if sum(a != b for a, b in zip(new_heaps, heaps, strict=True)) > 1:
            return "a move takes objects from one heap only"
    if duplicates:
        return "list each next state once"
    for new_heaps, _ in missing:
        if any(a == 0 < b for a, b in zip(new_heaps, heaps, strict=True)):
            return ("a player may take a whole heap: the count goes from 1 up to and including "
                    "the heap's size, range(1, size + 1)")
    for new_heaps, _ in missing:
        if sum(heaps) - sum(new_heaps) == 1:
            return "taking a single object is a move too"
    if missing:
        return "every heap, and for each heap every count from 1 to its size, is a move"
    return ""


def _generic_next_states_hint(missing: list[Any], extra: list[Any],
                              duplicates: list[Any]) -> str:
    if duplicates:
        return "list each next state once"
    if extra and not missing:
        return "some states you return cannot be reached in one move by the player to move"
    if missing and not extra:
        return "some moves are missing: try every legal move of the player to move"
    return "compare each state you return with the position after one legal move"


def check_next_states(next_states: Callable[[Any, Player], Any],
                      game: AnyGame | None = None) -> CheckResult:
    """Check the student's ``next_states(state, player)`` against the rules of ``game``.

    Arguments: ``next_states``, the student's function; ``game`` a game of
    :mod:`gamelib.games` whose states it works on, or None (default) for Nim, where every
    reachable state of Nim with the heaps in :data:`NIM_SAMPLE` is tried. Each answer must
    hold the same states as ``game.next_states(state, player)`` (in any order, each once),
    where ``player`` is the player to move.

    Result: a :class:`CheckResult`; a failure names the position, the expected and the
    returned states (those missing and those extra) and a hint. Raises
    :class:`GameError` if ``next_states`` is not callable or ``game`` is not a game.
    """
    _require_function("check_next_states", "next_states", next_states)
    _require_game("check_next_states", game)
    title = f"next_states ({'Nim' if game is None else _show(game)})"
    positions = _rule_positions(game)

    def ask(case: tuple[AnyGame, Hashable]) -> tuple[str, tuple[Any, ...]]:
        g, state = case
        player = g.to_move(state)
        return f"next_states({_show(state)}, {player!r})", (state, player)

    def judge(case: tuple[AnyGame, Hashable], call: str, answer: object) -> Line | None:
        g, state = case
        expected = g.next_states(state, g.to_move(state))
        return _compare_next_states(g, state, call, expected, answer)

    right = (f"right on all {_count(len(positions), 'position')} of {_describe_game(game)}, "
             "finished ones included")
    return _check_cases(title, "next_states", next_states, positions, ask, judge,
                        noun="position", among="on", right=right)


def _compare_next_states(game: AnyGame, state: Hashable, call: str, expected: list[Any],
                         answer: object) -> Line | None:
    """None if ``answer`` holds the states of ``expected``, else a line saying what differs."""
    nim = isinstance(game, Nim)
    position = ("position", _show_state(game, state))
    got = _states_list(answer)
    if got is None:
        hint = "return a list of states, e.g. [((2, 4, 5), 1), ...]" if nim else (
            "return a list of states")
        return Line(FAIL, call, (position, ("expected", f"a list of {len(expected)} states"),
                                 ("returned", _show(answer)), ("hint", hint)))
    bad = _unhashable(got)
    if bad is not _MISSING:
        hint = _nim_shape_hint(bad) if nim else "states must be hashable: use tuples, not lists"
        return Line(FAIL, call, (position, ("returned", _show(got)),
                                 ("problem", f"{_show(bad)} is not hashable"), ("hint", hint)))
    want, have = Counter(expected), Counter(got)
    if want == have:
        return None
    missing = [s for s in expected if s not in have]
    extra = list(dict.fromkeys(s for s in got if s not in want))
    duplicates = list(dict.fromkeys(s for s in got if have[s] > 1))
    details = [position, ("expected", _count(len(expected), "state")),
               ("returned", _count(len(got), "state"))]
    if missing:
        details.append(("missing", _listing(missing)))
    if extra:
        details.append(("extra", _listing(extra)))
    if duplicates:
        details.append(("twice", _listing(duplicates)))
    if nim:
        hint = _nim_next_states_hint(state, missing, extra, duplicates)
    else:
        hint = _generic_next_states_hint(missing, extra, duplicates)
    if hint:
        details.append(("hint", hint))
    return Line(FAIL, call, tuple(details))


def _listing(items: list[Any], most: int = 3) -> str:
    shown = ", ".join(_show(item, 60) for item in items[:most])
    more = len(items) - most
    return shown + (f" and {more} more" if more > 0 else "")


def check_finished(finished: Callable[[Any], Any], game: AnyGame | None = None) -> CheckResult:
    """Check the student's ``finished(state)`` against ``game.finished`` (default: Nim).

    The answer must be ``True`` or ``False``; the positions are those of
    :func:`check_next_states`. Result: a :class:`CheckResult`. Raises :class:`GameError` if
    ``finished`` is not callable or ``game`` is not a game.
    """
    _require_function("check_finished", "finished", finished)
    _require_game("check_finished", game)
    title = f"finished ({'Nim' if game is None else _show(game)})"
    positions = _rule_positions(game)

    def ask(case: tuple[AnyGame, Hashable]) -> tuple[str, tuple[Any, ...]]:
        state = case[1]
        return f"finished({_show(state)})", (state,)

    def judge(case: tuple[AnyGame, Hashable], call: str, answer: object) -> Line | None:
        g, state = case
        expected = g.finished(state)
        if answer is expected:
            return None
        details = [("position", _show_state(g, state)), ("expected", repr(expected)),
                   ("returned", _show(answer))]
        if not isinstance(answer, bool):
            details.append(("hint", "return True or False"))
        elif isinstance(g, Nim):
            details.append(("hint", "the game is over exactly when every heap is empty"
                            if expected else
                            "a heap that is not empty still allows a move: the game goes on"))
        return Line(FAIL, call, tuple(details))

    right = f"right on all {_count(len(positions), 'position')} of {_describe_game(game)}"
    return _check_cases(title, "finished", finished, positions, ask, judge,
                        noun="position", among="on", right=right)


def _finished_positions(game: AnyGame | None) -> list[tuple[AnyGame, Hashable]]:
    if game is None:
        games: list[AnyGame] = [Nim(heaps) for heaps in NIM_SAMPLE]
        return [(g, s) for g in games for s in _reachable(g) if g.finished(s)]
    return [(game, s) for s in _sample_positions(game, limit=2000) if game.finished(s)][:200]


def check_utility(utility: Callable[[Any, Player], Any],
                  game: AnyGame | None = None) -> CheckResult:
    """Check the student's ``utility(state, player)`` against ``game.utility`` (default: Nim).

    It is tried on finished positions (for Nim: the empty heaps of every game of
    :data:`NIM_SAMPLE`, with either player to move) for both players; the answer must be
    the int -1, 0 or +1. Result: a :class:`CheckResult`. Raises :class:`GameError` if
    ``utility`` is not callable or ``game`` is not a game.
    """
    _require_function("check_utility", "utility", utility)
    _require_game("check_utility", game)
    title = f"utility ({'Nim' if game is None else _show(game)})"
    cases = [(g, s, p) for g, s in _finished_positions(game) for p in g.players]

    def ask(case: tuple[AnyGame, Hashable, Player]) -> tuple[str, tuple[Any, ...]]:
        _, state, player = case
        return f"utility({_show(state)}, {player!r})", (state, player)

    def judge(case: tuple[AnyGame, Hashable, Player], call: str, answer: object) -> Line | None:
        g, state, player = case
        expected = g.utility(state, player)
        if isinstance(answer, int) and not isinstance(answer, bool) and answer == expected:
            return None
        details = [("position", _show_state(g, state)), ("player", repr(player)),
                   ("expected", repr(expected)), ("returned", _show(answer))]
        if not isinstance(answer, int) or isinstance(answer, bool):
            details.append(("hint", "return the int -1, 0 or +1"))
        elif isinstance(g, Nim):
            mover = _to_move(g, state)
            if answer == 0:
                hint = "Nim has no draws: whoever took the last object won"
            else:
                hint = ("in a finished state the player to move did not take the last object: "
                        f"{mover!r} is to move here, so {mover!r} lost")
            details.append(("hint", hint))
        return Line(FAIL, call, tuple(details))

    where = "finished Nim positions" if game is None else "finished positions"
    return _check_cases(title, "utility", utility, cases, ask, judge, noun="case", among="in",
                        right=f"right on all {len(cases) // 2} {where}, for both players")


def check_nim_values(next_states: Callable[[Any, Player], Any],
                     finished: Callable[[Any], Any],
                     utility: Callable[[Any, Player], Any]) -> CheckResult:
    """Solve Nim with the student's three rules and compare the values with gamelib's.

    For each start in :data:`NIM_STARTS` the checker runs memoized minimax (negamax)
    built from the student's ``next_states``, ``finished`` and ``utility``, and compares
    the value for the first player with :func:`~gamelib.search.memo_minimax` on
    :class:`~gamelib.games.Nim`. The report shows the table of values.

    Result: a :class:`CheckResult` with ``facts["values"]``, a dict from heaps to the
    student's value. Raises :class:`GameError` if an argument is not callable.
    """
    for name, function in (("next_states", next_states), ("finished", finished),
                           ("utility", utility)):
        _require_function("check_nim_values", name, function)
    title = "Solving Nim with your rules"
    players = Nim.players
    values: dict[tuple[int, ...], int] = {}
    rows = [f"{'heaps':<12} {'yours':>5} {'gamelib':>8}"]
    lines: list[Line] = []
    for heaps in NIM_STARTS:
        nim = Nim(heaps)
        expected = memo_minimax(nim, nim.start)
        try:
            got = _student_negamax(nim.start, players[0], next_states, finished, utility)
        except _NotDone as stub:
            return _not_done(title, "one of next_states, finished and utility", stub.where)
        except _StudentError as error:
            return CheckResult(title, (_error_line(f"solving Nim {heaps}", error),))
        except _SearchProblem as problem:
            return CheckResult(title, (Line(FAIL, f"solving Nim {heaps}: {problem.text}",
                                            problem.details),))
        values[heaps] = got
        rows.append(f"{_show(heaps):<12} {_signed(got):>5} {_signed(expected):>8}")
        if got != expected and not lines:
            lines.append(Line(FAIL, f"your rules give Nim {heaps} the value {_signed(got)} for "
                                    f"the first player; gamelib says {_signed(expected)}",
                              (("hint", "run the three checks above first: they test each "
                                        "function on its own"),)))
    if not lines:
        lines.append(Line(PASS, f"memoized minimax with your rules agrees with gamelib on all "
                                f"{len(NIM_STARTS)} starts"))
    table = Line(INFO, "the value of each start for the first player, A:",
                 (("values", "\n".join(rows)),))
    return CheckResult(title, (*lines, table), facts={"values": values})


class _SearchProblem(Exception):
    """The student's rules made a search impossible (e.g. no moves in a running game)."""

    def __init__(self, text: str, details: tuple[tuple[str, str], ...] = ()) -> None:
        super().__init__(text)
        self.text, self.details = text, details


def _student_negamax(start: Hashable, player: Player, next_states: Callable[..., Any],
                     finished: Callable[..., Any], utility: Callable[..., Any]) -> int:
    """The value of ``start`` for ``player`` by memoized negamax over the student's rules."""
    first, second = Nim.players
    opponent = {first: second, second: first}
    cache: dict[Hashable, int] = {}
    on_path: set[Hashable] = set()

    def value(state: Hashable, p: Player) -> int:
        if state in cache:
            return cache[state]
        if state in on_path:
            raise _SearchProblem("a line of play comes back to a state it passed",
                                 (("state", _show(state)),
                                  ("hint", "every move must take at least one object")))
        done = _call(finished, state)
        if _is_stub(done):  # the three checks above say which function is unfinished
            raise _NotDone()
        if done:
            v = _call(utility, state, p)
            if _is_stub(v):
                raise _NotDone()
            if v not in (-1, 0, 1) or isinstance(v, bool):
                raise _SearchProblem(f"utility returned {_show(v)}",
                                     (("state", _show(state)),))
        else:
            answer = _call(next_states, state, p)
            if _is_stub(answer):
                raise _NotDone()
            children = _states_list(answer)
            if not children:
                raise _SearchProblem("next_states gave no moves in a running game",
                                     (("state", _show(state)),))
            on_path.add(state)
            try:
                v = max(-value(child, opponent[p]) for child in children)
            except TypeError as error:  # an unhashable or malformed state
                raise _SearchProblem(f"a next state cannot be used: {error}",
                                     (("state", _show(state)),)) from None
            finally:
                on_path.discard(state)
        cache[state] = v
        return cast(int, v)

    return value(start, player)


# ---------------------------------------------------------------------------------------------
# Exercise 2: memoized minimax
# ---------------------------------------------------------------------------------------------


class _TooMuchWork(BaseException):
    """Stops a student's search that expands far more states than memoization needs.

    A BaseException, so that a student's ``except Exception`` cannot swallow it.
    """

    def __init__(self, limit: int) -> None:
        super().__init__(limit)
        self.limit = limit


_WORK_FACTOR: Final = 10
"""A search may expand at most this many times as many states as memoized minimax."""


class _CountingGame:
    """A game that forwards everything to ``game`` and counts how often each state is
    expanded (``next_states`` or ``moves`` called on it with a non-empty answer)."""

    def __init__(self, game: AnyGame, limit: int | None = None) -> None:
        self._game = game
        self.limit = limit
        """Raise :class:`_TooMuchWork` at the expansion after ``limit`` (None: no limit)."""
        self.expansions = 0
        self._seen: dict[tuple[str, Hashable], int] = {}
        self.repeated: Any = _MISSING
        """The first state expanded a second time by the same method, if any."""

    def _note(self, method: str, state: Hashable) -> None:
        self.expansions += 1
        if self.limit is not None and self.expansions > self.limit:
            raise _TooMuchWork(self.limit)
        key = (method, state)
        self._seen[key] = self._seen.get(key, 0) + 1
        if self._seen[key] == 2 and self.repeated is _MISSING:
            self.repeated = state

    def next_states(self, state: Hashable, player: Player) -> list[Hashable]:
        children = self._game.next_states(state, player)
        if children:
            self._note("next_states", state)
        return children

    def moves(self, state: Hashable) -> list[Hashable]:
        moves = self._game.moves(state)
        if moves:
            self._note("moves", state)
        return moves

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def __repr__(self) -> str:
        return repr(self._game)


def _memo_positions() -> list[tuple[AnyGame, Hashable]]:
    """Positions for the memo check besides the empty tic-tac-toe board: tic-tac-toe after
    one to six random moves (two of each), the bitboard tic-tac-toe, Nim, Connect Four 4x4."""
    game = TicTacToe()
    rng = random.Random(2024)
    positions: list[tuple[AnyGame, Hashable]] = []
    for plies in (1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6):
        while True:
            state = game.start
            for _ in range(plies):
                state = game.play(state, rng.choice(game.moves(state)))
                if game.finished(state):
                    break
            if not game.finished(state):
                break
        positions.append((game, state))
    bitboard, nim, small = TicTacToeBitboard(), Nim((3, 4, 5)), ConnectFour(4, 4)
    positions += [(bitboard, bitboard.start), (nim, nim.start),
                  (small, ConnectFour.from_moves("2332", rows=4, cols=4))]
    return positions


def _cache_problem(game: AnyGame, cache: object, reference: dict[Hashable, int],
                   call: str) -> Line | None:
    """None if ``cache`` equals ``reference``, else a line on the first difference."""
    if not isinstance(cache, dict):
        return Line(FAIL, f"after {call} the cache is not a dict",
                    (("cache", _show(cache)),))
    if cache == reference:
        return None
    size = f"{len(cache):,} entries, expected {len(reference):,}"
    sizes = (("size", size),) if len(cache) != len(reference) else ()
    if not cache:
        return Line(FAIL, f"after {call} the cache is empty; expected {len(reference):,} entries",
                    (("hint", "store every value you compute before returning it: "
                              "cache[state] = v"),))
    for key in cache:
        if key in reference:
            continue
        hint = "the keys of the cache are the states themselves"
        if isinstance(key, tuple) and any(part in reference for part in key):
            hint = ("key the cache by the state alone: the player to move follows from the "
                    "state, so (state, player) keys only repeat it")
        return Line(FAIL, f"after {call} the cache holds a key that is not a state of the "
                          "search", (("key", _show(key)), *sizes, ("hint", hint)))
    for key, stored in cache.items():
        if stored == reference[key] and type(stored) is int:
            continue
        expected = reference[key]
        if stored == -expected:
            hint = ("the stored value has the wrong sign: store the value for the player "
                    "to move in that state, which is the `player` of the call that "
                    "computed it")
        else:
            hint = "store exactly the value your function returns for that state"
        return Line(FAIL, f"after {call} the cache holds a wrong value",
                    (("state", _show_state(game, key)),
                     ("player", f"{game.to_move(key)!r} (to move)"),
                     ("expected", repr(expected)), ("stored", _show(stored)), ("hint", hint)))
    missing = next(s for s in reference if s not in cache)
    hint = ("store the values of finished states too" if game.finished(missing)
            else "every state your function solves belongs in the cache")
    return Line(FAIL, f"after {call} the cache lacks some states",
                (("size", size), ("missing", _show_state(game, missing)), ("hint", hint)))


_MEMO_CALL_HINT: Final = "your function is called as memo_value(game, state, player, cache)"


def check_memo_minimax(memo_value: Callable[[Any, Any, Player, dict[Any, Any]], Any]
                       ) -> CheckResult:
    """Check the student's memoizing value function ``memo_value(game, state, player, cache)``.

    Its contract: the value (-1, 0 or +1) of ``state`` for ``player``, the player to move,
    under perfect play; ``cache`` is a dict from states to their values for the player to
    move in them, which the function reads and fills. The checker tries:

    * the empty tic-tac-toe board with an empty cache: value 0, and afterwards the cache
      equals :func:`~gamelib.search.memo_minimax`'s, 5,478 entries;
    * that no state is expanded (``next_states`` or ``moves`` called on it) twice;
    * a second call with the same cache, which must expand nothing;
    * 15 more positions, each with a new cache: tic-tac-toe after one to six moves, the
      bitboard tic-tac-toe, Nim (3, 4, 5) and a 4 x 4 Connect Four position.

    Result: a :class:`CheckResult`. Raises :class:`GameError` if ``memo_value`` is not
    callable.
    """
    _require_function("check_memo_minimax", "memo_value", memo_value)
    title = "memo_value"
    game: AnyGame = TicTacToe()
    reference: dict[Hashable, int] = {}
    memo_minimax(game, game.start, cache=reference)
    needed = sum(not game.finished(s) for s in reference)
    counting = _CountingGame(game, limit=_WORK_FACTOR * needed)
    cache: dict[Hashable, Any] = {}
    call = "memo_value(game, empty board, 'X', cache)"
    try:
        answer = _call(memo_value, counting, game.start, "X", cache)
    except _NotDone as stub:
        return _not_done(title, "memo_value", stub.where)
    except _StudentError as error:
        return CheckResult(title, (_error_line(call, error, _MEMO_CALL_HINT),))
    except _TooMuchWork as stop:
        return CheckResult(title, (_too_much_work(call, stop.limit, needed, counting),))
    if _is_stub(answer) and not cache:
        return _not_done(title, "memo_value")
    lines: list[Line] = []
    if answer == 0 and type(answer) is int:
        lines.append(Line(PASS, f"{call} returns 0: tic-tac-toe is a draw"))
    else:
        lines.append(_wrong_value(call, answer, 0, (
            ("hint", "the value for the player to move is the largest of -value(n, opponent) "
                     "over the next states n"),)))
    problem = _cache_problem(game, cache, reference, "that call")
    lines.append(problem or Line(PASS, f"the cache holds {len(reference):,} states, each with "
                                       "its value for the player to move"))
    facts: dict[str, Any] = {"value": answer, "cache_size": len(cache),
                             "expansions": counting.expansions}
    if counting.repeated is not _MISSING:
        lines.append(Line(FAIL, "a state was expanded twice: the cache did not answer the "
                                "second time",
                          (("state", _show_state(game, counting.repeated)),
                           ("hint", "look the state up first: if it is in the cache, return "
                                    "the cached value without calling next_states"),)))
    elif counting.expansions:
        lines.append(Line(PASS, f"every state was expanded at most once "
                                f"({counting.expansions:,} expansions)"))
    lines.append(_second_call(memo_value, game, cache, answer, needed))
    lines.append(_memo_other_positions(memo_value))
    return CheckResult(title, tuple(lines), facts=facts)


def _wrong_value(call: str, answer: object, expected: int,
                 details: tuple[tuple[str, str], ...]) -> Line:
    """The line for a value function that returned ``answer`` instead of the int ``expected``."""
    if answer == expected:  # right number, wrong type (a float, a bool, a numpy int)
        return Line(FAIL, f"{call} returns {_show(answer)} of type {type(answer).__name__}; "
                          f"expected the int {expected}",
                    (("hint", "return the int -1, 0 or +1"),))
    return Line(FAIL, f"{call} returns {_show(answer)}; expected {expected}", details)


def _second_call(memo_value: Callable[..., Any], game: AnyGame, cache: dict[Hashable, Any],
                 first: object, needed: int) -> Line:
    """The line on calling ``memo_value`` again on the start with the cache of the first call."""
    again = _CountingGame(game, limit=needed)
    call = "a second call with the same cache"
    did_work_again = Line(FAIL, f"{call} did the work again",
                          (("hint", "read the cache that is passed in: the answer for the "
                                    "empty board is already there"),))
    try:
        second = _call(memo_value, again, game.start, game.to_move(game.start), cache)
    except (_NotDone, _StudentError) as error:
        return _raised_line(call, error)
    except _TooMuchWork:
        return did_work_again
    if again.expansions:
        return did_work_again
    if second != first:
        return Line(FAIL, f"{call} returns {_show(second)}, the first returned {_show(first)}",
                    (("hint", "the cache must hold the value your function returns"),))
    return Line(PASS, f"{call} is answered at once, without expanding any state")


def _raised_line(call: str, error: _NotDone | _StudentError) -> Line:
    if isinstance(error, _NotDone):
        return Line(FAIL, f"{call} raised NotImplementedError",
                    (("where", error.where),) if error.where else ())
    return _error_line(call, error)


def _too_much_work(call: str, limit: int, needed: int, counting: _CountingGame) -> Line:
    details = [("note", f"memoized minimax expands {needed:,} states here; the check stopped "
                        f"your function after {limit:,} expansions")]
    if counting.repeated is not _MISSING:
        details.append(("repeated", _show_state(counting._game, counting.repeated)))
    details.append(("hint", "look the state up in the cache first, and store every value "
                            "you compute: then each state is expanded once"))
    return Line(FAIL, f"{call} expands far too many states", tuple(details))


def _memo_other_positions(memo_value: Callable[..., Any]) -> Line:
    positions = _memo_positions()
    for game, state in positions:
        player = game.to_move(state)
        call = f"memo_value({_show(game)}, {_show(state, 60)}, {player!r}, {{}})"
        cache: dict[Hashable, Any] = {}
        reference: dict[Hashable, int] = {}
        expected = memo_minimax(game, state, cache=reference)
        needed = sum(not game.finished(s) for s in reference)
        counting = _CountingGame(game, limit=_WORK_FACTOR * needed)
        try:
            answer = _call(memo_value, counting, state, player, cache)
        except (_NotDone, _StudentError) as error:
            raised = _raised_line(call, error)
            return Line(FAIL, raised.text, (("position", _show_state(game, state)),
                                            *raised.details))
        except _TooMuchWork as stop:
            return _too_much_work(call, stop.limit, needed, counting)
        if answer != expected or type(answer) is not int:
            return _wrong_value(call, answer, expected, (
                ("position", _show_state(game, state)), ("player", repr(player)),
                ("hint", "the value for the player to move: +1 if they can force a win, 0 a "
                         "draw, -1 if the opponent can force a win")))
        problem = _cache_problem(game, cache, reference, "that call")
        if problem is not None:
            return Line(FAIL, f"{call}: {problem.text}",
                        (("position", _show_state(game, state)), *problem.details))
    return Line(PASS, f"right values and caches on {len(positions)} more positions: "
                      "tic-tac-toe (both representations), Nim (3, 4, 5), Connect Four 4 x 4")


# ---------------------------------------------------------------------------------------------
# Exercise 3: the store rule of the bound-flagged cache
# ---------------------------------------------------------------------------------------------

_POINTS: Final = (-1, -0.5, 0, 0.5, 1)
"""The values and window ends of the case-by-case test of a store rule."""

_WINDOWS: Final = ((-1, 1), (-1, 0), (0, 1))
"""The windows of the shared-cache test."""


def _store_cases() -> list[tuple[float, float, float]]:
    """Every ``(alpha, beta, v)`` with ``alpha < beta`` and all three from :data:`_POINTS`."""
    return [(a, b, v) for a in _POINTS for b in _POINTS if a < b for v in _POINTS]


def _store_hint(expected: Entry, alpha: float, beta: float) -> str:
    flag, v = expected
    if flag == UPPER and v == alpha:
        return ("v == alpha counts as failing low: alpha-beta may return alpha for any value "
                "up to alpha, so v is only an upper bound: ('≤', v)")
    if flag == UPPER:
        return "v < alpha: the search failed low, so the true value is at most v: ('≤', v)"
    if flag == LOWER and v == beta:
        return ("v == beta counts as failing high: alpha-beta may return beta for any value "
                "from beta on, so v is only a lower bound: ('≥', v)")
    if flag == LOWER:
        return "v > beta: the search failed high, so the true value is at least v: ('≥', v)"
    return "alpha < v < beta: inside the window alpha-beta returns the exact value: ('=', v)"


def _entry_problem(entry: object, v: float) -> str:
    """What is wrong with the form of a stored entry, or "" if it is a proper (flag, v)."""
    if not isinstance(entry, tuple) or len(entry) != 2:
        return "an entry is a tuple (flag, v), e.g. ('≤', 0)"
    flag, bound = entry
    if flag not in FLAGS:
        return ("the flags are the one-character strings '=', '≤' and '≥'; "
                "`from gamelib.search import EXACT, UPPER, LOWER` gives all three")
    if bound != v:
        return "store the result v itself as the bound"
    return ""


def check_store_bound(store_bound: Callable[[dict[Any, Any], Any, Any, Any, Any], Any]
                      ) -> CheckResult:
    """Check the student's store rule ``store_bound(cache, state, alpha, beta, v)``.

    Its contract: file the result ``v`` of a search of ``state`` in the window
    ``[alpha, beta]`` as ``cache[state] = (flag, v)`` with the flag ``'≤'`` if
    ``v <= alpha``, ``'='`` if ``alpha < v < beta`` and ``'≥'`` if ``v >= beta``, replacing
    any older entry and leaving the other entries alone. The checker tries:

    * the rule on its own: all 50 cases of ``alpha < beta`` and ``v`` from -1, -0.5, 0,
      0.5, 1, each with and without an older entry for the state (100 calls);
    * the lecture's bounded alpha-beta (:class:`~gamelib.search.bounded.BoundedSearch`)
      with the student's rule, from the empty tic-tac-toe board: value 0, 4,321 calls,
      2,474 entries (32 ``'='``, 1,206 ``'≤'``, 1,236 ``'≥'``), each entry true of its
      state's exact value;
    * one cache shared by searches of 60 positions in three windows: every result keeps
      alpha-beta's three cases and every entry stays true.

    Result: a :class:`CheckResult`. Raises :class:`GameError` if ``store_bound`` is not
    callable.
    """
    _require_function("check_store_bound", "store_bound", store_bound)
    title = "store_bound"
    cases = _store_cases()
    wrong: list[Line] = []
    for index, (alpha, beta, v) in enumerate(cases * 2):
        with_old = index >= len(cases)
        before: dict[Any, Any] = {"t": (EXACT, 0)}
        if with_old:
            before["s"] = (LOWER, -1) if v != -1 else (UPPER, 1)
        cache = dict(before)
        expected_cache: dict[Any, Any] = {}
        bounded.store_bound(expected_cache, "s", alpha, beta, v)  # type: ignore[arg-type]
        expected = expected_cache["s"]
        call = f"store_bound(cache, s, alpha={alpha:g}, beta={beta:g}, v={v:g})"
        try:
            answer = _call(store_bound, cache, "s", alpha, beta, v)
        except _NotDone as stub:
            return _not_done(title, "store_bound", stub.where)
        except _StudentError as error:
            return CheckResult(title, (_error_line(call, error),))
        if index == 0 and _is_stub(answer) and cache == before:
            return _not_done(title, "store_bound")
        if cache == {**before, "s": expected}:
            continue
        details = [("cache before", _show(before)), ("expected", f"cache['s'] == {expected!r}")]
        if "s" not in cache:
            details += [("stored", "nothing under s"),
                        ("hint", "write the entry into the dict: cache[state] = (flag, v)")]
        elif {k: e for k, e in cache.items() if k != "s"} != {"t": (EXACT, 0)}:
            details += [("cache after", _show(cache)),
                        ("hint", "store under `state` only and leave the other entries alone")]
        else:
            entry = cache["s"]
            details.append(("stored", f"cache['s'] == {_show(entry)}"))
            if with_old and entry == before["s"]:
                details.append(("hint", "the new entry replaces the old one: assign "
                                        "cache[state] = (flag, v) whatever was there"))
            else:
                details.append(("hint", _entry_problem(entry, v) or
                                _store_hint(expected, alpha, beta)))
        wrong.append(Line(FAIL, call, tuple(details)))
    lines: list[Line] = []
    total = 2 * len(cases)
    if wrong:
        first = wrong[0]
        lines.append(Line(FAIL, f"wrong in {len(wrong)} of {total} cases; the first: "
                                f"{first.text}", first.details))
    else:
        lines.append(Line(PASS, f"the rule is right in all {total} cases of a window and a "
                                "result, with and without an older entry"))
    facts: dict[str, Any] = {"wrong_cases": len(wrong)}
    lines += _bounded_search_lines(store_bound, facts)
    return CheckResult(title, tuple(lines), facts=facts)


class _SearchStopped(Exception):
    """The student's rule stored something the search cannot read; ``line`` says what."""

    def __init__(self, line: Line) -> None:
        super().__init__(line.text)
        self.line = line


def _student_search(game: AnyGame, cache: BoundCache, stats: Stats,
                    rule: Callable[..., Any]) -> BoundedSearch:
    """The lecture's bounded alpha-beta with the student's store ``rule`` in place of
    :func:`~gamelib.search.bounded.store_bound`, and a check of every entry it stores."""

    def store(cache: BoundCache, state: Hashable, alpha: int, beta: int, v: int) -> None:
        size, known = len(cache), state in cache
        _call(rule, cache, state, alpha, beta, v)
        if len(cache) > size + (not known):
            raise _SearchStopped(Line(
                FAIL, "the search stopped: your rule added entries for other states",
                (("state", _show_state(game, state)),
                 ("hint", "store under `state` only and leave the other entries alone"))))
        entry = cache.get(state)
        if entry is not None:
            problem = _entry_problem(entry, v)
            if problem:
                raise _SearchStopped(Line(
                    FAIL, "the search stopped: it cannot read an entry your rule stored",
                    (("state", _show_state(game, state)), ("entry", _show(entry)),
                     ("hint", problem))))

    return BoundedSearch(game, cache, stats, store)


@lru_cache(maxsize=1)
def _tictactoe_values() -> dict[Hashable, int]:
    """The exact value for X of every tic-tac-toe state that play can reach."""
    game: AnyGame = TicTacToe()
    cache: dict[Hashable, int] = {}
    memo_minimax(game, game.start, cache=cache)
    return {s: v if game.to_move(s) == "X" else -v for s, v in cache.items()}


def _holds(entry: Entry, value: int) -> bool:
    flag, bound = entry
    return value == bound if flag == EXACT else value <= bound if flag == UPPER else (
        value >= bound)


def _malformed_entry(game: AnyGame, cache: BoundCache,
                     values: dict[Hashable, int]) -> Line | None:
    """A line on the first entry that is not ``state: (flag, bound)``, or None."""
    for state, entry in cache.items():
        if state not in values:
            hint = "the key is not a state of the game: store under `state` only"
        elif not isinstance(entry, tuple) or len(entry) != 2 or entry[0] not in FLAGS:
            hint = "an entry is a tuple (flag, v) with the flag '=', '≤' or '≥'"
        else:
            continue
        return Line(FAIL, "after the search the cache holds an entry the search cannot read",
                    (("key", _show(state)), ("entry", _show(entry)), ("hint", hint)))
    return None


def _false_entries(game: AnyGame, cache: BoundCache, values: dict[Hashable, int]) -> Line | None:
    false = [(s, e) for s, e in cache.items() if not _holds(e, values[s])]
    if not false:
        return None
    state, entry = false[0]
    flag, bound = entry
    claim = {EXACT: "exactly", UPPER: "at most", LOWER: "at least"}[flag]
    return Line(FAIL, f"{len(false):,} of the {len(cache):,} entries are false; the first:",
                (("state", _show_state(game, state)), ("entry", repr(entry)),
                 ("says", f"the value for X is {claim} {bound:g}"),
                 ("truth", f"the value for X is {values[state]}"),
                 ("hint", "an entry may claim only what the window lets the search know: "
                          "a result at or beyond an end of the window is a bound")))


def _bounded_search_lines(rule: Callable[..., Any], facts: dict[str, Any]) -> list[Line]:
    """The lines on running the lecture's bounded alpha-beta with the student's ``rule``."""
    game = TicTacToe()
    values = _tictactoe_values()
    cache, stats = BoundCache(), Stats()
    search = _student_search(game, cache, stats, rule)
    call = "bounded alpha-beta with your rule from the empty board"
    try:
        result = search.value(game.start, -1, 1)
    except (_NotDone, _StudentError) as error:
        return [_raised_line(call, error)]
    except _SearchStopped as stop:
        return [stop.line]
    malformed = _malformed_entry(game, cache, values)
    if malformed is not None:
        return [malformed]
    facts.update(value=result, calls=stats.calls, entries=len(cache), by_flag=cache.by_flag())
    reference = BoundCache()
    reference_stats = Stats()
    bounded_alphabeta(game, game.start, cache=reference, stats=reference_stats)
    lines = []
    flags = ", ".join(f"{n:,} '{f}'" for f, n in cache.by_flag().items())
    want = ", ".join(f"{n:,} '{f}'" for f, n in reference.by_flag().items())
    if result == 0 and len(cache) == len(reference) and cache.by_flag() == reference.by_flag():
        lines.append(Line(PASS, f"{call}: value 0, {stats.calls:,} calls, {len(cache):,} "
                                f"entries ({flags})"))
    else:
        lines.append(Line(FAIL, f"{call}: value {_signed(result)}, {stats.calls:,} calls, "
                                f"{len(cache):,} entries",
                          (("expected", f"value 0, {reference_stats.calls:,} calls, "
                                        f"{len(reference):,} entries ({want})"),
                           ("yours", f"{flags}"),
                           ("hint", "first make the rule right in every case above")
                           if facts["wrong_cases"] else
                           ("hint", "store an entry after every search: "
                                    "cache[state] = (flag, v)"))))
    if not cache:
        return lines
    false = _false_entries(game, cache, values)
    lines.append(false or Line(PASS, f"all {len(cache):,} entries are true of their states' "
                                     "exact values"))
    if false is None:
        lines.append(_shared_cache_line(rule, values))
    return lines


def _shared_cache_line(rule: Callable[..., Any], values: dict[Hashable, int]) -> Line:
    """One cache for 60 searches in three windows: results keep the three cases, entries hold."""
    game: AnyGame = TicTacToe()
    cache, stats = BoundCache(), Stats()
    search = _student_search(game, cache, stats, rule)
    positions = [s for s in _sample_positions(game, limit=120, seed=5) if not game.finished(s)]
    positions = positions[:60]
    for state in positions:
        for alpha, beta in _WINDOWS:
            try:
                result = search.value(state, alpha, beta)
            except (_NotDone, _StudentError) as error:
                return _raised_line("a search with a shared cache", error)
            except _SearchStopped as stop:
                return stop.line
            value = values[state]
            if not keeps_three_cases(result, value, alpha, beta):
                return Line(FAIL, f"with a shared cache, a search in [{alpha}, {beta}] returned "
                                  f"{result} for a state of value {value} (for X)",
                            (("state", _show_state(game, state)),
                             ("hint", "an entry read in a later search was wrong")))
    false = _malformed_entry(game, cache, values) or _false_entries(game, cache, values)
    if false is not None:
        return false
    return Line(PASS, f"one cache shared by {len(positions) * len(_WINDOWS)} searches "
                      f"({len(positions)} positions, windows {', '.join(map(str, _WINDOWS))}): "
                      f"every result and all {len(cache):,} entries are right")


# ---------------------------------------------------------------------------------------------
# Exercise 4: a Connect Four heuristic
# ---------------------------------------------------------------------------------------------


def centre_heuristic(game: ConnectFour) -> Heuristic:
    """A simple baseline for Connect Four: discs count more the nearer the centre they are.

    Column ``c`` (0-based) has the weight ``min(c, cols - 1 - c)``: 0, 1, 2, 3, 2, 1, 0 on
    the standard board. With ``x`` the weighted sum of the player's discs minus that of the
    opponent's, the estimate is ``x / (10 + |x|)``, strictly inside (-1, 1) and
    antisymmetric: ``h(s, "O") == -h(s, "X")``. Raises :class:`GameError` if ``game`` is not
    a :class:`~gamelib.games.ConnectFour`.

    >>> game = ConnectFour()
    >>> h = centre_heuristic(game)
    >>> state = ConnectFour.from_moves("41")   # X in the centre, O at the edge
    >>> h(state, "X"), h(state, "O")
    (0.23076923076923078, -0.23076923076923078)
    """
    if not isinstance(game, ConnectFour):
        raise GameError(f"centre_heuristic needs a ConnectFour game, got {_show(game, 60)}")
    weighted = [(game.column_masks[c], min(c, game.cols - 1 - c)) for c in range(game.cols)]
    first_player = game.players[0]

    def heuristic(state: Hashable, player: Player) -> float:
        first, second = cast(tuple[int, int], state)
        x = sum(w * ((first & m).bit_count() - (second & m).bit_count()) for m, w in weighted)
        return squash(x if player == first_player else -x, 10.0)

    return heuristic


BASELINES: Final = ("zero", "centre", "threats")
"""The baselines of :func:`check_heuristic`: :func:`~gamelib.search.heuristics.zero` (knows
nothing), :func:`centre_heuristic`, and gamelib's own threat counter
:func:`~gamelib.search.heuristics.connect_four_heuristic`."""


def _baseline(baseline: str, game: ConnectFour) -> Heuristic:
    if baseline == "zero":
        return zero
    if baseline == "centre":
        return centre_heuristic(game)
    if baseline == "threats":
        return connect_four_heuristic(game)
    raise GameError(f"baseline must be one of {', '.join(map(repr, BASELINES))}, "
                    f"got {_show(baseline, 40)}")


def _heuristic_problem(heuristic: Callable[..., Any], game: AnyGame,
                       positions: list[Hashable]) -> Line | None:
    """None if ``heuristic`` gives valid estimates on ``positions``, else what is wrong."""
    for index, state in enumerate(positions):
        picture = ("position", _show_state(game, state))
        estimates = []
        for player in game.players:
            call = f"heuristic(state, {player!r})"
            estimate = _call(heuristic, state, player)
            if not isinstance(estimate, (int, float)) or isinstance(estimate, bool):
                return Line(FAIL, f"{call} returned {_show(estimate)}, which is not a number",
                            (picture, ("hint", "return a float strictly between -1 and 1"),))
            if not -1 < estimate < 1:
                return Line(FAIL, f"{call} returned {estimate!r}, which is not strictly "
                                  "between -1 and 1",
                            (picture, ("hint", "squash your score x into (-1, 1), e.g. "
                                               "x / (k + abs(x)) for some k > 0: -1 and +1 "
                                               "are kept for proven losses and wins"),))
            if index < 20 and _call(heuristic, state, player) != estimate:
                return Line(FAIL, f"{call} gave two different answers for the same position",
                            (picture, ("hint", "a heuristic must be a function of the state and "
                                               "the player only: no randomness, no memory"),))
            estimates.append(float(estimate))
        x_value, o_value = estimates
        if abs(x_value + o_value) > 1e-9:
            return Line(FAIL, f"heuristic(state, 'X') is {x_value!r} but heuristic(state, 'O') "
                              f"is {o_value!r}",
                        (picture, ("expected", "heuristic(state, 'O') == -heuristic(state, 'X')"),
                         ("hint", "the game is zero-sum: what is good for one player is "
                                  "equally bad for the other; compute the score for X and "
                                  "negate it for O")))
    return None


def _match_game(game: AnyGame, first_move: int, players: dict[Player, Heuristic],
                depth: int, seed: int) -> tuple[Hashable, int]:
    """Play one game from the first move ``first_move``; the final state and its length."""
    rng = random.Random(seed)
    state = game.play(game.start, first_move)
    plies = 1
    while not game.finished(state):
        decision = iterative_deepening(game, state, players[game.to_move(state)],
                                       max_depth=depth, rng=rng)
        state = game.play(state, decision.move)
        plies += 1
    return state, plies


def check_heuristic(heuristic: Callable[[Any, Player], Any], *, baseline: str = "centre",
                    depth: int = 3, first_moves: Sequence[int] = tuple(range(7))
                    ) -> CheckResult:
    """Check the student's Connect Four ``heuristic(state, player)``, then let it play.

    First, on 300 positions of the standard 6 x 7 board (seeded): every estimate is a
    number strictly between -1 and 1, the same on a second call, and
    ``heuristic(s, "O") == -heuristic(s, "X")`` (within 1e-9).

    Then a match against ``baseline`` (one of :data:`BASELINES`): for each column in
    ``first_moves`` (0-based) two games start with X's disc in that column, one with the
    student's heuristic playing X and one with it playing O. Both sides choose their moves by
    :func:`~gamelib.search.iterative_deepening` to ``depth`` plies (1 to 5), ties broken by
    a ``random.Random`` seeded per game. The check passes if the student's heuristic wins
    more games than it loses.

    Result: a :class:`CheckResult` with ``facts`` ``wins``, ``draws``, ``losses`` and
    ``games`` (one ``(first_move, colour, outcome, plies)`` tuple per game, outcome +1, 0
    or -1 for the student). Raises :class:`GameError` for a bad argument.
    """
    _require_function("check_heuristic", "heuristic", heuristic)
    board = ConnectFour()
    opponent = _baseline(baseline, board)
    if not isinstance(depth, int) or isinstance(depth, bool) or not 1 <= depth <= 5:
        raise GameError(f"depth must be a whole number from 1 to 5, got {_show(depth, 40)}")
    columns = list(first_moves) if isinstance(first_moves, Iterable) else None
    if not columns or not all(
            isinstance(c, int) and not isinstance(c, bool) and 0 <= c < board.cols
            for c in columns):
        raise GameError("first_moves must be a non-empty sequence of column indices 0 to 6, "
                        f"got {_show(first_moves, 40)}")
    title = "heuristic (Connect Four)"
    game: AnyGame = board
    positions = [s for s in _sample_positions(game, limit=330, seed=7) if not game.finished(s)]
    positions = positions[:300]
    try:
        if _is_stub(_call(heuristic, positions[1], "O")):
            return _not_done(title, "heuristic")
        problem = _heuristic_problem(heuristic, game, positions)
    except _NotDone as stub:
        return _not_done(title, "heuristic", stub.where)
    except _StudentError as error:
        return CheckResult(title, (_error_line("heuristic(state, player)", error),))
    if problem is not None:
        return CheckResult(title, (problem,))
    lines = [Line(PASS, f"valid on {len(positions)} positions: numbers strictly between -1 "
                        "and 1, the same when asked twice, and h(s, 'O') == -h(s, 'X')")]
    games: list[tuple[int, Player, int, int]] = []
    rows = [f"{'first move':<11}{'you':<5}result"]
    for column in columns:
        for colour in game.players:
            other_colour = game.players[1 - game.players.index(colour)]
            players = {colour: heuristic, other_colour: opponent}
            seed = 1000 + 2 * column + game.players.index(colour)
            try:
                final, plies = _call(_match_game, game, column, players, depth, seed)
            except (_NotDone, _StudentError) as error:
                raised = _raised_line(f"the game with first move {column + 1}, you as {colour},",
                                      error)
                return CheckResult(title, (*lines, raised))
            outcome = game.utility(final, colour)
            games.append((column, colour, outcome, plies))
            verdict = {1: "won", 0: "drawn", -1: "lost"}[outcome]
            rows.append(f"{column + 1:<11}{colour:<5}{verdict} after {plies} plies")
    wins = sum(g[2] == 1 for g in games)
    draws = sum(g[2] == 0 for g in games)
    losses = sum(g[2] == -1 for g in games)
    score = (f"{_count(wins, 'win')}, {_count(draws, 'draw')}, {_count(losses, 'loss', 'losses')} "
             f"in {len(games)} games against the {baseline} baseline (depth {depth})")
    table = ("games", "\n".join(rows))
    if wins > losses:
        lines.append(Line(PASS, score, (table,)))
    else:
        lines.append(Line(FAIL, score, (
            table, ("hint", "to pass, win more games than you lose; ideas: count lines of "
                            "four that are still open, weigh three discs far more than two, "
                            "prefer the centre columns"))))
    facts = {"wins": wins, "draws": draws, "losses": losses, "games": games}
    return CheckResult(title, tuple(lines), facts=facts)


# ---------------------------------------------------------------------------------------------
# Exercise 5: counting the game tree and the states of simplified tic-tac-toe
# ---------------------------------------------------------------------------------------------

BRUTE_FORCE_SIZES: Final = (3, 1, 2, 4, 5, 6, 7, 8, 9)
"""The board sizes (numbers of squares) for which the checker enumerates the game: 3 first,
the size the notebook works by hand, then 1 to 9."""

FORMULA_SIZES: Final = (16, 25)
"""Boards too large to enumerate (4 x 4 and 5 x 5), checked against the formulas."""


@cache
def _levels(n: int) -> tuple[dict[tuple[int, int], int], ...]:
    """Simplified tic-tac-toe on ``n`` squares, enumerated level by level.

    Level ``k`` maps each board after ``k`` moves, as the bit masks ``(xs, os)`` of the two
    players' squares, to the number of move sequences that reach it. The game ends only when
    the board is full, so which lines exist does not matter for counting.
    """
    levels = [{(0, 0): 1}]
    for k in range(n):
        below: dict[tuple[int, int], int] = {}
        for (xs, os), paths in levels[-1].items():
            taken = xs | os
            for square in range(n):
                bit = 1 << square
                if taken & bit:
                    continue
                child = (xs | bit, os) if k % 2 == 0 else (xs, os | bit)
                below[child] = below.get(child, 0) + paths
        levels.append(below)
    return tuple(levels)


def tree_size_by_enumeration(n: int) -> int:
    """The number of nodes of the game tree of simplified tic-tac-toe on ``n`` squares.

    Counted by enumerating the game level by level (no formula): 986,410 for ``n = 9``.
    ``n`` is a whole number from 0 to 12; raises :class:`GameError` otherwise.
    """
    _check_squares(n)
    return sum(sum(level.values()) for level in _levels(n))


def state_count_by_enumeration(n: int) -> int:
    """The number of states of simplified tic-tac-toe on ``n`` squares.

    Counted by enumerating the game level by level (no formula): 6,046 for ``n = 9``.
    ``n`` is a whole number from 0 to 12; raises :class:`GameError` otherwise.
    """
    _check_squares(n)
    return sum(len(level) for level in _levels(n))


def _check_squares(n: object) -> None:
    if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 12:
        raise GameError(f"n must be a whole number of squares from 0 to 12, got {_show(n, 40)}")


def _tree_formula(n: int) -> int:
    return sum(math.perm(n, k) for k in range(n + 1))


def _states_formula(n: int) -> int:
    return sum(math.comb(n, (k + 1) // 2) * math.comb(n - (k + 1) // 2, k // 2)
               for k in range(n + 1))


def _tree_hint(n: int, got: int, expected: int) -> str:
    if got == expected - 1:
        return "count the root, the empty board, too"
    if got == math.factorial(n):
        return ("n! counts only the leaves, the full boards: the tree has nodes at every "
                "depth, the root included")
    if got == expected - math.factorial(n):
        return "the leaves, the full boards, are nodes of the tree too"
    return ("a node of the tree is a sequence of moves from the start: how many sequences of "
            "k moves are there, for k = 0, 1, ..., n?")


def _states_hint(n: int, got: int, expected: int) -> str:
    if got == 3**n:
        return ("3^n also counts boards no game reaches: after k moves X has made "
                "ceil(k/2) marks and O floor(k/2)")
    if got == expected - 1:
        return "the empty board is a state too"
    if got == _tree_formula(n):
        return ("that is the number of tree nodes: a board reached by several move orders "
                "is one state")
    if n == 9 and got == 5478:
        return ("5,478 is ordinary tic-tac-toe, where a game stops at the first line; "
                "here every game goes on until the board is full")
    return ("count the boards with k marks for each k: choose the squares of X, then those "
            "of O among the squares left")


def _count_lines(name: str, function: Callable[[int], Any], truth: Callable[[int], int],
                 hint: Callable[[int, int, int], str]) -> Line:
    """The line on one counting function: right on every size, or the first size it fails."""
    sizes = [*BRUTE_FORCE_SIZES, *FORMULA_SIZES]
    for index, n in enumerate(sizes):
        call = f"{name}({n})"
        answer = _call(function, n)
        if index == 0 and _is_stub(answer):
            raise _NotDone()
        expected = truth(n)
        how = "by enumerating the game" if n in BRUTE_FORCE_SIZES else "by the formula"
        if isinstance(answer, int) and not isinstance(answer, bool) and answer == expected:
            continue
        details = [("expected", f"{expected:,} (counted {how})"), ("returned", _show(answer))]
        if isinstance(answer, float) and answer == expected:
            return Line(FAIL, f"{call} returns the float {answer!r}, not the int {expected}",
                        (("hint", "compute with whole numbers (math.factorial, math.comb, //): "
                                  "a float keeps only about 16 digits, too few for large n"),))
        if isinstance(answer, float):
            details.append(("hint", "compute with whole numbers (math.factorial, math.comb, "
                                    "//): a float keeps only about 16 digits"))
        elif not isinstance(answer, int) or isinstance(answer, bool):
            details.append(("hint", "return a whole number, an int"))
        else:
            details.append(("hint", hint(n, answer, expected)))
        return Line(FAIL, f"{call} is wrong", tuple(details))
    last = max(BRUTE_FORCE_SIZES)
    return Line(PASS, f"{name}(n) is right for n = {min(BRUTE_FORCE_SIZES)} to {last} (checked "
                      f"by enumerating the game) and n = {', '.join(map(str, FORMULA_SIZES))}: "
                      f"{name}({last}) = {truth(last):,}")


def check_tree_counts(tree_size: Callable[[int], Any],
                      state_count: Callable[[int], Any]) -> CheckResult:
    """Check the student's counts for simplified tic-tac-toe on a board of ``n`` squares.

    In simplified tic-tac-toe a game ends only when the board is full. ``tree_size(n)`` must
    return the number of nodes of the game tree (the start included) and ``state_count(n)``
    the number of distinct states, as ints. Both are compared, for ``n`` = 1 to 9, with
    counts the checker gets by enumerating the game, and for the 4 x 4 and 5 x 5 boards
    (``n`` = 16 and 25), too large to enumerate, with the formulas. For ``n`` = 9:
    986,410 nodes and 6,046 states.

    Result: a :class:`CheckResult` with one line per function; a function that is still a
    stub gives a "not done yet" line. Raises :class:`GameError` if an argument is not
    callable.
    """
    _require_function("check_tree_counts", "tree_size", tree_size)
    _require_function("check_tree_counts", "state_count", state_count)
    title = "Counting simplified tic-tac-toe"

    def tree_truth(n: int) -> int:
        return tree_size_by_enumeration(n) if n in BRUTE_FORCE_SIZES else _tree_formula(n)

    def states_truth(n: int) -> int:
        return state_count_by_enumeration(n) if n in BRUTE_FORCE_SIZES else _states_formula(n)

    lines: list[Line] = []
    done = True
    for name, function, truth, hint in (("tree_size", tree_size, tree_truth, _tree_hint),
                                        ("state_count", state_count, states_truth,
                                         _states_hint)):
        try:
            lines.append(_count_lines(name, function, truth, hint))
        except _NotDone:
            done = False
            lines.append(Line(TODO, f"{name} is not done yet: write it in place of "
                                    "`raise NotImplementedError`"))
        except _StudentError as error:
            lines.append(_error_line(f"{name}(n)", error))
    return CheckResult(title, tuple(lines), done=done,
                       facts={"tree_size_9": tree_truth(9), "state_count_9": states_truth(9)})
