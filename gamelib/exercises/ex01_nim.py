"""Exercise 1: the rules of Nim."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable
from typing import Any, Final, cast

from gamelib.exercises.answers import MISSING, check_cases, number_problem, require_game, truth
from gamelib.exercises.failures import NotDone, StudentError, TimedOut, is_stub, raised_line
from gamelib.exercises.guard import Forbidden
from gamelib.exercises.positions import reachable, sample_positions, show_state
from gamelib.exercises.report import (
    FAIL,
    INFO,
    PASS,
    CheckResult,
    Line,
    counted,
    listing,
    not_done,
    show,
    signed,
)
from gamelib.exercises.run import call_student, checker
from gamelib.game import Player
from gamelib.games import Nim
from gamelib.search.common import AnyGame
from gamelib.search.memo import memo_minimax

_FORBIDDEN: Final = Forbidden(modules=("gamelib.games", "gamelib.search", "gamelib.connect4"))
"""While the student's rules run: every game of gamelib (Nim's rules are the answer; the
checkers take other games too) and every search."""

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
        return [(nim, s) for heaps in NIM_SAMPLE for nim in [Nim(heaps)] for s in reachable(nim)]
    return [(game, s) for s in sample_positions(game)]


def _describe_game(game: AnyGame | None) -> str:
    if game is None:
        return "Nim with heaps " + ", ".join(str(h) for h in NIM_SAMPLE)
    return show(game)


def _states_list(value: object) -> list[Any] | None:
    """``value`` as a list if it is a collection of states (not a string), else None."""
    if isinstance(value, (str, bytes, dict)) or not isinstance(value, Iterable):
        return None
    try:
        return list(value)
    except Exception:
        return None


def _unhashable(items: list[Any]) -> Any:
    """The first item that cannot be hashed, or :data:`MISSING` if there is none."""
    for item in items:
        try:
            hash(item)
        except TypeError:
            return item
    return MISSING


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


@checker(forbid=_FORBIDDEN)
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
    require_game("check_next_states", game)
    title = f"next_states ({'Nim' if game is None else show(game)})"
    positions = _rule_positions(game)

    def ask(case: tuple[AnyGame, Hashable]) -> tuple[str, tuple[Any, ...]]:
        g, state = case
        player = g.to_move(state)
        return f"next_states({show(state)}, {player!r})", (state, player)

    def judge(case: tuple[AnyGame, Hashable], call: str, answer: object) -> Line | None:
        g, state = case
        expected = g.next_states(state, g.to_move(state))
        return _compare_next_states(g, state, call, expected, answer)

    right = (f"right on all {counted(len(positions), 'position')} of {_describe_game(game)}, "
             "finished ones included")
    return check_cases(title, "next_states", next_states, positions, ask, judge,
                        noun="position", among="on", right=right)


def _compare_next_states(game: AnyGame, state: Hashable, call: str, expected: list[Any],
                         answer: object) -> Line | None:
    """None if ``answer`` holds the states of ``expected``, else a line saying what differs."""
    nim = isinstance(game, Nim)
    position = ("position", show_state(game, state))
    got = _states_list(answer)
    if got is None:
        hint = "return a list of states, e.g. [((2, 4, 5), 1), ...]" if nim else (
            "return a list of states")
        return Line(FAIL, call, (position, ("expected", f"a list of {len(expected)} states"),
                                 ("returned", show(answer)), ("hint", hint)))
    bad = _unhashable(got)
    if bad is not MISSING:
        hint = _nim_shape_hint(bad) if nim else "states must be hashable: use tuples, not lists"
        return Line(FAIL, call, (position, ("returned", show(got)),
                                 ("problem", f"{show(bad)} is not hashable"), ("hint", hint)))
    want, have = Counter(expected), Counter(got)
    if want == have:
        return None
    missing = [s for s in expected if s not in have]
    extra = list(dict.fromkeys(s for s in got if s not in want))
    duplicates = list(dict.fromkeys(s for s in got if have[s] > 1))
    details = [position, ("expected", counted(len(expected), "state")),
               ("returned", counted(len(got), "state"))]
    if missing:
        details.append(("missing", listing(missing)))
    if extra:
        details.append(("extra", listing(extra)))
    if duplicates:
        details.append(("twice", listing(duplicates)))
    if nim:
        hint = _nim_next_states_hint(state, missing, extra, duplicates)
    else:
        hint = _generic_next_states_hint(missing, extra, duplicates)
    if hint:
        details.append(("hint", hint))
    return Line(FAIL, call, tuple(details))




@checker(forbid=_FORBIDDEN)
def check_finished(finished: Callable[[Any], Any], game: AnyGame | None = None) -> CheckResult:
    """Check the student's ``finished(state)`` against ``game.finished`` (default: Nim).

    The answer must be ``True`` or ``False``; the positions are those of
    :func:`check_next_states`. Result: a :class:`CheckResult`. Raises :class:`GameError` if
    ``finished`` is not callable or ``game`` is not a game.
    """
    require_game("check_finished", game)
    title = f"finished ({'Nim' if game is None else show(game)})"
    positions = _rule_positions(game)

    def ask(case: tuple[AnyGame, Hashable]) -> tuple[str, tuple[Any, ...]]:
        state = case[1]
        return f"finished({show(state)})", (state,)

    def judge(case: tuple[AnyGame, Hashable], call: str, answer: object) -> Line | None:
        g, state = case
        expected = g.finished(state)
        if truth(answer) is expected:
            return None
        details = [("position", show_state(g, state)), ("expected", repr(expected)),
                   ("returned", show(answer))]
        if truth(answer) is None:
            details.append(("hint", "return True or False"))
        elif isinstance(g, Nim):
            details.append(("hint", "the game is over exactly when every heap is empty"
                            if expected else
                            "a heap that is not empty still allows a move: the game goes on"))
        return Line(FAIL, call, tuple(details))

    right = f"right on all {counted(len(positions), 'position')} of {_describe_game(game)}"
    return check_cases(title, "finished", finished, positions, ask, judge,
                        noun="position", among="on", right=right)


def _finished_positions(game: AnyGame | None) -> list[tuple[AnyGame, Hashable]]:
    if game is None:
        games: list[AnyGame] = [Nim(heaps) for heaps in NIM_SAMPLE]
        return [(g, s) for g in games for s in reachable(g) if g.finished(s)]
    return [(game, s) for s in sample_positions(game, limit=2000) if game.finished(s)][:200]


@checker(forbid=_FORBIDDEN)
def check_utility(utility: Callable[[Any, Player], Any],
                  game: AnyGame | None = None) -> CheckResult:
    """Check the student's ``utility(state, player)`` against ``game.utility`` (default: Nim).

    It is tried on finished positions (for Nim: the empty heaps of every game of
    :data:`NIM_SAMPLE`, with either player to move) for both players; the answer must be
    the int -1, 0 or +1. Result: a :class:`CheckResult`. Raises :class:`GameError` if
    ``utility`` is not callable or ``game`` is not a game.
    """
    require_game("check_utility", game)
    title = f"utility ({'Nim' if game is None else show(game)})"
    cases = [(g, s, p) for g, s in _finished_positions(game) for p in g.players]

    def ask(case: tuple[AnyGame, Hashable, Player]) -> tuple[str, tuple[Any, ...]]:
        _, state, player = case
        return f"utility({show(state)}, {player!r})", (state, player)

    def judge(case: tuple[AnyGame, Hashable, Player], call: str, answer: object) -> Line | None:
        g, state, player = case
        expected, to_move = g.utility(state, player), g.to_move(state)
        if not number_problem(answer) and answer == expected:
            return None
        details = [("position", show_state(g, state)), ("player", repr(player)),
                   ("expected", repr(expected)), ("returned", show(answer))]
        if number_problem(answer):
            details.append(("hint", f"return -1, 0 or +1: {number_problem(answer)}"))
        elif isinstance(g, Nim):
            mover = to_move
            if answer == 0:
                hint = "Nim has no draws: whoever took the last object won"
            else:
                hint = ("in a finished state the player to move did not take the last object: "
                        f"{mover!r} is to move here, so {mover!r} lost")
            details.append(("hint", hint))
        return Line(FAIL, call, tuple(details))

    where = "finished Nim positions" if game is None else "finished positions"
    return check_cases(title, "utility", utility, cases, ask, judge, noun="case", among="in",
                        right=f"right on all {len(cases) // 2} {where}, for both players")


@checker(forbid=_FORBIDDEN)
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
        except NotDone as stub:
            return not_done(title, "one of next_states, finished and utility", stub.where)
        except (StudentError, TimedOut) as error:
            return CheckResult(title, (raised_line(f"solving Nim {heaps}", error),))
        except _SearchProblem as problem:
            return CheckResult(title, (Line(FAIL, f"solving Nim {heaps}: {problem.text}",
                                            problem.details),))
        values[heaps] = got
        rows.append(f"{show(heaps):<12} {signed(got):>5} {signed(expected):>8}")
        if got != expected and not lines:
            lines.append(Line(FAIL, f"your rules give Nim {heaps} the value {signed(got)} for "
                                    f"the first player; gamelib says {signed(expected)}",
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


def _forgot_return(name: str, answer: object, state: Hashable) -> None:
    if answer is None:
        raise _SearchProblem(f"{name} returned None", (
            ("state", show(state)),
            ("hint", f"is a `return` missing in {name}? A function that ends without "
                     "`return` returns None")))


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
                                 (("state", show(state)),
                                  ("hint", "every move must take at least one object")))
        done = call_student(finished, state)
        _forgot_return("finished", done, state)
        if is_stub(done):  # the three checks above say which function is unfinished
            raise NotDone()
        try:  # the check of finished on its own asks for a bool; this search takes 0 and 1
            over = bool(done)
        except Exception:  # a numpy array of several values, a broken __bool__
            raise _SearchProblem(f"finished returned {show(done, 60)}, not True or False",
                                 (("state", show(state)),)) from None
        if over:
            v = call_student(utility, state, p)
            _forgot_return("utility", v, state)
            if is_stub(v):
                raise NotDone()
            if number_problem(v) or v not in (-1, 0, 1):
                raise _SearchProblem(f"utility returned {show(v)}",
                                     (("state", show(state)),))
        else:
            answer = call_student(next_states, state, p)
            _forgot_return("next_states", answer, state)
            if is_stub(answer):
                raise NotDone()
            children = _states_list(answer)
            if children is None:
                raise _SearchProblem(f"next_states returned {show(answer, 60)} of type "
                                     f"{type(answer).__name__}, not a list of states",
                                     (("state", show(state)),
                                      ("hint", "return a list of the next states")))
            if not children:
                raise _SearchProblem("next_states gave no moves in a running game",
                                     (("state", show(state)),))
            on_path.add(state)
            try:
                v = max(-value(child, opponent[p]) for child in children)
            except TypeError as error:  # an unhashable or malformed state
                raise _SearchProblem(f"a next state cannot be used: {error}",
                                     (("state", show(state)),)) from None
            finally:
                on_path.discard(state)
        cache[state] = v
        return cast(int, v)

    return value(start, player)

