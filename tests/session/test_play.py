"""The play session on its own: no widget library, budgets and cancellation, no threads,
and bad input of every kind (never raises, never hangs, never loses the game)."""

from __future__ import annotations

import math
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gamelib.search.engine as engine
import gamelib.session.computer as session_module
from gamelib.game import GameError, replay
from gamelib.games import ConnectFour, Nim, TicTacToe
from gamelib.search.common import Budget
from gamelib.search.stats import Decision, Stats
from gamelib.session import MESSAGE_LIMIT, MODES, PlaySession

ROOT = Path(__file__).resolve().parents[2]

BLOCKED = ("ipywidgets", "ipycanvas", "matplotlib")

SCRIPT = textwrap.dedent(
    """
    import sys

    class Block:
        '''A meta-path finder that refuses the widget and plotting libraries.'''

        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCKED:
                raise ImportError(f"{name} is blocked in this test")
            return None

    sys.meta_path.insert(0, Block())
    for blocked in BLOCKED:
        try:
            __import__(blocked)
        except ImportError:
            pass
        else:
            raise SystemExit(f"{blocked} could still be imported")

    from gamelib.game import replay
    from gamelib.games import ConnectFour, Nim, TicTacToe
    from gamelib.session import PlaySession

    s = PlaySession(TicTacToe(), seed=3, background=False)
    while not s.finished:
        assert s.submit(TicTacToe().format_move(TicTacToe().moves(s.state)[0])), s.message
    assert replay(s.game, s.history) == s.state
    print("tic-tac-toe", len(s.history), s.status[0])

    c = PlaySession(ConnectFour(), mode="computer-computer", depth=2, seed=1, delay=0)
    assert c.wait(120), c.message
    print("connect-four", len(c.history), c.finished)

    n = PlaySession(Nim(), mode="human-human")
    assert n.submit("1,3") and n.undo() and n.history == []
    loaded = sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)
    print("loaded", loaded)
    """
)


def test_a_whole_game_is_played_where_no_widget_library_can_be_imported() -> None:
    script = f"BLOCKED = {BLOCKED!r}\n" + SCRIPT
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("tic-tac-toe ") and lines[0].endswith(("wins!", "a draw."))
    assert lines[1] == "connect-four " + lines[1].split()[1] + " True"
    assert lines[2] == "loaded []"


# -- the session on its own ------------------------------------------------------------------




TTT = TicTacToe()
C4 = ConnectFour()


def unchanged(s: PlaySession, state: Any, history: list[Any]) -> bool:
    return s.state == state and s.history == history and replay(s.game, s.history) == s.state


class LongSearch:
    """A search that runs until its budget says stop, like a deep search cut short."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.threads: list[threading.Thread] = []
        self.budgets: list[Budget] = []

    def __call__(self, game: Any, state: Any, depth: Any, seconds: Any, rng: Any,
                 budget: Budget) -> Decision:
        self.threads.append(threading.current_thread())
        self.budgets.append(budget)
        self.started.set()
        while not budget.expired():
            time.sleep(0.005)
        return Decision(game.moves(state)[0], 0.0, False, Stats(), summary="long search",
                        cut_short=True)


@pytest.fixture
def long_search(monkeypatch: pytest.MonkeyPatch) -> Iterator[LongSearch]:
    search = LongSearch()
    monkeypatch.setattr(session_module, "choose_move", search)
    yield search
    for budget in search.budgets:
        budget.cancel()


@pytest.mark.parametrize("cancel", ["undo", "new_game", "set_mode", "close", "stop"])
def test_undo_new_game_players_close_and_stop_end_the_search_thread(long_search, cancel) -> None:
    mode = "computer-computer" if cancel == "stop" else "human-computer"
    s = PlaySession(TTT, mode=mode, delay=0)
    if mode == "human-computer":
        assert s.submit("2,2")
    assert long_search.started.wait(10) and s.thinking
    thread, budget = long_search.threads[0], long_search.budgets[0]
    assert thread is not threading.current_thread() and not budget.cancelled
    if cancel == "set_mode":
        s.set_mode("human-human")
    else:
        getattr(s, cancel)()
    assert budget.cancelled
    thread.join(1.0)
    assert not thread.is_alive()  # the search ended within a second
    assert not s.thinking and replay(TTT, s.history) == s.state
    if cancel != "close":
        assert len(long_search.threads) == 1  # nothing new started: a human is to move


def test_a_move_cut_short_says_so_on_the_status_line(monkeypatch) -> None:
    def out_of_time(game: Any, state: Any, *args: Any) -> Decision:
        return Decision(game.moves(state)[0], 0.1, False, Stats(calls=500), summary="X +0.10",
                        cut_short=True)

    monkeypatch.setattr(session_module, "choose_move", out_of_time)
    s = PlaySession(TTT, background=False, seconds=2)
    assert s.submit("2,2")
    assert s.message == (
        "O (computer) played 1,1 after searching 500 positions. Its time ran out (2 s): "
        "this is the best move it found."
    )
    assert s.status[1] == "Computer (O, out of time: best so far): X +0.10"


def test_every_search_gets_its_own_budget_the_one_the_engine_uses(monkeypatch) -> None:
    """The session sets the time the search really has: seconds, else the engine's
    default for the game (5 s; Connect Four's player 1 s, or 30 s for a depth alone)."""
    seen: list[Budget] = []

    def spy(game: Any, state: Any, depth: Any, seconds: Any, rng: Any, budget: Budget) -> Any:
        seen.append(budget)
        return Decision(game.moves(state)[0], 0.0, True, Stats())

    monkeypatch.setattr(session_module, "choose_move", spy)
    s = PlaySession(TTT, background=False)
    s.submit("2,2")
    s.set_strength(seconds=2)
    s.submit("3,3")
    assert [b.seconds for b in seen] == [engine.DEFAULT_SECONDS, 2.0] and seen[0] is not seen[1]
    assert engine.DEFAULT_SECONDS == 5.0
    PlaySession(C4, mode="computer-human", background=False)
    PlaySession(C4, mode="computer-human", background=False, depth=2)
    assert [b.seconds for b in seen[2:]] == [1.0, 30.0]


@pytest.mark.parametrize("seconds", [60, 30.5, 10**400, math.inf, math.nan, True, "1"])
def test_seconds_above_the_cap_are_refused_as_everywhere(seconds: Any) -> None:
    with pytest.raises(GameError, match="^seconds must be a positive number of seconds, "
                                        "at most 30 s, or None; got "):
        PlaySession(TTT, seconds=seconds)
    s = PlaySession(TTT, background=False)
    with pytest.raises(GameError, match="at most 30 s"):
        s.set_strength(seconds=seconds)
    assert s.strength == (None, None)


def test_a_move_cut_short_by_the_engines_default_names_that_time(monkeypatch) -> None:
    """No seconds set: the engine's 5 s cut the search, and the message says 5 s."""
    monkeypatch.setattr(engine, "DEFAULT_SECONDS", 0.3)
    s = PlaySession(Nim((20,) * 8), mode="computer-human", background=False)
    assert s.decision is not None and s.decision.cut_short
    assert "Its time ran out (0.3 s): this is the best move it found." in s.message


def test_a_hint_cut_short_says_so_and_gives_no_value_0_for_nim(monkeypatch) -> None:
    monkeypatch.setattr(engine, "DEFAULT_SECONDS", 0.3)
    s = PlaySession(Nim((20,) * 8), mode="human-human", background=False)
    hints = s.hint()
    assert hints is not None
    assert s.message.startswith("Best so far for A: ")
    assert "(estimate 0). The search was cut short: its 0.3 s ran out." in s.message
    assert "value" not in s.message
    assert s.status[1] == "Hints (out of time: best so far): the value of each move for A"


@pytest.mark.skipif(getattr(engine, "_BUDGET_SHIM", False),
                    reason="the session branch's engine shim does not pass Budget.cancel "
                           "into the searches; the search branch's engine does")
@pytest.mark.parametrize("game, options", [
    (Nim((20,) * 8), {}),
    (C4, {"depth": 12}),
], ids=["nim-8x20-exact", "connect-four-depth-12"])
def test_a_long_real_search_ends_within_a_second_of_new_game(game, options) -> None:
    before = set(threading.enumerate())
    s = PlaySession(game, mode="computer-human", **options)
    time.sleep(0.3)
    assert s.thinking
    workers = [t for t in threading.enumerate() if t not in before]
    s.new_game()
    s.close()
    for worker in workers:
        worker.join(1.0)
        assert not worker.is_alive()


# -- thread-free (Pyodide) ------------------------------------------------------------------


@pytest.fixture
def no_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", refuse)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("game", [TTT, ConnectFour(5, 5), Nim()], ids=["ttt", "c4-5x5", "nim"])
def test_without_threads_whole_games_are_played_synchronously(no_threads, game, mode) -> None:
    depth = 2 if isinstance(game, ConnectFour) else None
    for seed in range(3):
        s = PlaySession(game, mode=mode, seed=seed, depth=depth, delay=1.0)
        played = 0
        if mode == "computer-computer":  # one move at most inside a call; wait plays it out
            assert len(s.history) <= 1 and s.wait(60)
        while not s.finished:
            assert not s.thinking  # the computer always answered at once
            move = game.moves(s.state)[seed % len(game.moves(s.state))]
            assert s.play_move(move), s.message
            played += 1
        assert not s.threaded or mode == "human-human"  # a start failed: no more threads
        assert replay(game, s.history) == s.state and s.wait(0)
        assert played == {"human-computer": (len(s.history) + 1) // 2,
                          "computer-human": len(s.history) // 2,
                          "human-human": len(s.history), "computer-computer": 0}[mode]
        # a new computer game plays nothing inside new_game(): its moves come by ticks
        assert s.new_game() and not s.finished and len(s.history) == (mode == "computer-human")


def test_without_threads_hints_and_the_hint_button_still_answer(no_threads) -> None:
    from gamelib.ui import play

    c = play(Nim(), background=True, display=False)

    def buttons(root: Any) -> Iterator[Any]:
        if getattr(root, "description", None) == "Hint":
            yield root
        for child in getattr(root, "children", ()):
            yield from buttons(child)

    [hint] = buttons(c.widget)
    hint.click()
    assert c.hints is not None and c.message == "Best for A: 1,2 (value +1)."


# -- bad input: never raises, never loses the game -------------------------------------------


class Fragile(TicTacToe):
    """A student's game: play() raises on the centre, finished() once a corner 3,3 is taken."""

    def play(self, state: Any, move: Any) -> Any:
        if move == (1, 1):
            raise ValueError("centre not supported")
        return super().play(state, move)

    def finished(self, state: Any) -> bool:
        if self.render(state).endswith("X"):  # X on cell 3,3
            raise KeyError("corner")
        return super().finished(state)


def test_a_game_whose_method_raises_is_named_and_nothing_is_played() -> None:
    s = PlaySession(Fragile(), mode="human-human")
    assert s.submit("2,2") is False
    assert s.message == (
        "The game's play() raised ValueError: centre not supported; nothing was played."
    )
    assert s.history == [] and s.state == TTT.start
    assert s.submit("1,1") and s.submit("1,2")  # later inputs work
    assert s.history == [(0, 0), (0, 1)]
    state, history = s.state, s.history
    assert s.submit("3,3") is False  # finished() raises on the position after it
    assert s.message == "The game's finished() raised KeyError: 'corner'; nothing was played."
    assert unchanged(s, state, history) and s.status == ["X to move"]
    assert s.submit("3,1") and s.undo() and s.history == history


def test_a_game_without_moves_in_a_running_state_is_explained_not_max_of_empty() -> None:
    class Stuck(TicTacToe):
        def moves(self, state: Any) -> list[Any]:
            return [] if state != self.start else super().moves(state)

    s = PlaySession(Stuck(), background=False)
    assert s.submit("2,2")
    assert s.message == ("The computer could not move: the game's moves() gave no move, yet its "
                         "finished() says the game goes on.")
    assert "max()" not in s.message and s.undo() and s.history == []


@pytest.mark.parametrize("timeout, expected", [
    (math.inf, True), (10**400, True), (-1, True), (0, True), (None, True),
])
def test_wait_takes_any_number(timeout, expected) -> None:
    s = PlaySession(TTT, background=False)
    started = time.monotonic()
    assert s.wait(timeout) is expected and time.monotonic() - started < 1


@pytest.mark.parametrize("timeout", ["abc", math.nan, [1], True])
def test_wait_refuses_what_is_not_a_number_without_waiting(long_search, timeout) -> None:
    s = PlaySession(TTT, mode="computer-human")
    assert long_search.started.wait(10)
    state, history = s.state, s.history
    started = time.monotonic()
    assert s.wait(timeout) is False  # the computer is still thinking
    assert time.monotonic() - started < 1 and unchanged(s, state, history)
    assert s.message.startswith("wait(timeout) takes a number of seconds or None, not ")
    s.close()


def test_clicks_far_off_the_board_are_refused() -> None:
    s = PlaySession(TTT, background=False)
    for x, y in [(10**400, 5), (5, -(10**400)), (10**400, 10**400)]:
        assert s.play_at(x, y, lambda *a: (0, 0)) is False
        assert s.message == "That is not a place on the board: moves are typed here."
    assert s.history == []


def test_play_of_a_game_class_names_the_fix() -> None:
    from gamelib.ui import play

    fix = r"TicTacToe is a class, not a game: .*play\(TicTacToe\(\)\)"
    with pytest.raises(GameError, match=fix):
        play(TicTacToe)  # type: ignore[arg-type]
    with pytest.raises(GameError, match="is a class"):
        PlaySession(Nim)  # type: ignore[arg-type]


def test_changing_players_mid_game_does_not_say_you_start() -> None:
    s = PlaySession(TTT, mode="human-human")
    s.submit("2,2")
    s.set_mode("computer-human")
    assert "start" not in s.message
    assert s.message == (
        "Now you play O and the computer plays X. Type a move in the game's notation."
    )


def test_changing_players_on_a_finished_game_invites_no_move() -> None:
    s = PlaySession(TTT, mode="human-human")
    for move in ["1,1", "2,1", "1,2", "2,2", "1,3"]:
        assert s.submit(move)
    for mode in MODES:
        s.set_mode(mode)
        assert "over" in s.message and "To move" not in s.message, s.message
        assert s.submit("3,3") is False and "over" in s.message


def test_set_delay_shortens_a_pause_already_under_way(long_search) -> None:
    s = PlaySession(TTT, mode="computer-computer", delay=5)
    time.sleep(0.2)
    assert not long_search.started.is_set()  # still pausing before the first move
    s.set_delay(0)
    assert long_search.started.wait(2)
    s.close()


def test_input_after_close_is_refused() -> None:
    s = PlaySession(TTT, background=False)
    s.close()
    for action in (lambda: s.submit("1,1"), s.undo, s.new_game, s.run, s.hint):
        assert not action()
        assert s.message == "This board is closed: run play() again to play."


# -- properties: whatever the input, nothing escapes, nothing hangs, nothing is lost ----------

ANYTHING = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=10**300, max_value=10**400),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
    st.tuples(st.integers(-3, 9), st.integers(-3, 9)), st.lists(st.integers(0, 3), max_size=3),
    st.sampled_from(["1,1", "2,2", "3,3", "4", "1", "7", "1,2", "2,3", "", "x", "٣", "1, 1"]),
)
NUMBERS = st.one_of(st.floats(-100, 700), st.integers(-(10**400), 10**400),
                    st.floats(allow_nan=True, allow_infinity=True), st.none(), st.text(max_size=3))
CALLS = st.one_of(
    st.tuples(st.just("submit"), ANYTHING),
    st.tuples(st.just("play_move"), ANYTHING),
    st.tuples(st.just("click"), NUMBERS, NUMBERS),
    st.tuples(st.sampled_from(["undo", "new_game", "hint", "run", "stop"])),
    st.tuples(st.just("wait"), st.one_of(NUMBERS.filter(lambda t: not isinstance(t, (int, float))
                                                         or t != t or t <= 0.01),
                                         st.just(math.inf))),
    st.tuples(st.just("set_mode"), st.sampled_from((*MODES, "robots"))),
    st.tuples(st.just("set_strength"), st.sampled_from([(1, None), (2, None), (None, 0.2),
                                                        (0, None)])),
)
REFUSED_IS = {"submit": False, "play_move": False, "click": False, "undo": False,
              "hint": None, "run": False, "stop": False}
BUDGET_MARGIN = 10.0  # seconds: the searches here take well under one


def apply(target: Any, call: tuple[Any, ...], click: Any) -> Any:
    name, *args = call
    if name == "click":
        return click(*args)
    if name == "set_strength":
        return target.set_strength(*args[0])
    return getattr(target, name)(*args)


def check_calls(target: Any, session: PlaySession, calls: list[tuple[Any, ...]],
                click: Any) -> None:
    for call in calls:
        state, history = session.state, session.history
        started = time.monotonic()
        try:
            result = apply(target, call, click)
        except GameError:
            # only the settings raise, and only for a value they do not take
            assert call[0].startswith("set_") and call[1] in ("robots", (0, None))
            continue
        assert time.monotonic() - started < BUDGET_MARGIN, call
        if call[0] in REFUSED_IS and result is REFUSED_IS[call[0]]:
            assert unchanged(session, state, history), call
            assert session.message and session.error, call
        assert 0 < len(session.message) <= MESSAGE_LIMIT
        assert replay(session.game, session.history) == session.state
        assert not session.thinking


GAMES = [TTT, ConnectFour(5, 5), Nim()]


@pytest.mark.parametrize("game", GAMES, ids=["ttt", "c4-5x5", "nim"])
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(calls=st.lists(CALLS, max_size=20))
def test_no_input_escapes_hangs_or_changes_the_game_when_refused(game, calls) -> None:
    from gamelib.ui import board_for

    board = board_for(game)
    s = PlaySession(game, background=False, labels=board, seed=0,
                    depth=1 if isinstance(game, ConnectFour) else None)
    check_calls(s, s, calls, lambda x, y: s.play_at(x, y, board.move_at))


@pytest.mark.parametrize("game", GAMES, ids=["ttt", "c4-5x5", "nim"])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(calls=st.lists(CALLS, max_size=15))
def test_no_controller_input_escapes_hangs_or_changes_the_game(game, calls) -> None:
    from gamelib.ui import play

    c = play(game, background=False, display=False, seed=0,
             depth=1 if isinstance(game, ConnectFour) else None)
    check_calls(c, c.session, calls, c.click)
    c.close()


def test_a_game_method_that_raises_inside_the_search_is_named() -> None:
    class Grumpy(TicTacToe):
        def utility(self, state: Any, player: Any) -> int:
            raise ZeroDivisionError("no score today")

    s = PlaySession(Grumpy(), background=False)
    assert s.submit("2,2") and s.history == [(1, 1)]
    assert s.message == (
        "The computer could not move: the game's utility() raised ZeroDivisionError: "
        "no score today."
    )
    assert s.hint() is None and s.message.endswith("Press Undo or New.")
    assert s.undo() and s.history == [] and s.set_mode("human-human")
    assert s.hint() is None
    assert s.message == "No hint: the game's utility() raised ZeroDivisionError: no score today."


def test_a_board_whose_game_cannot_be_drawn_still_plays() -> None:
    from ui.test_controller import Pile

    from gamelib.ui import play

    class Blurry(Pile):
        """Pile, whose render() fails below 3."""

        def render(self, state: Any) -> str:
            if state[0] < 3:
                raise RuntimeError("too few to draw")
            return super().render(state)

    c = play(Blurry(), mode="human-human", background=False, display=False)
    assert c.submit("2") and c.submit("1")
    assert c.state == (2, 0) and c.message == "Q played 1."
    shown = c.widget.children[1].children[-1].value
    assert "cannot show this position: the game&#x27;s render() raised RuntimeError" in shown
    assert c.submit("2") and c.finished and c.status[0] == "P wins!"


def test_the_example_in_the_session_docstring_runs() -> None:
    import doctest

    import gamelib.session

    failed, tried = doctest.testmod(gamelib.session)
    assert failed == 0 and tried > 0


def test_read_only_attributes_refuse_assignment_and_keep_their_docstrings() -> None:
    import doctest

    import gamelib.session.readonly

    failed, tried = doctest.testmod(gamelib.session.readonly)
    assert failed == 0 and tried > 0
    s = PlaySession(TicTacToe(), mode="human-human", background=False)
    assert s.submit("2,2")
    for name, value in (("message", "hello"), ("history", []), ("state", None)):
        before = getattr(s, name)
        with pytest.raises(AttributeError, match=f"'{name}' of 'PlaySession' object has no setter"):
            setattr(s, name, value)
        assert getattr(s, name) == before
    assert s.history == [(1, 1)] and s.last_move == (1, 1) and s.notation == ["2,2"]
    s.history.append((0, 0))  # a copy: the session's own history is untouched
    assert s.history == [(1, 1)]
    assert PlaySession.history.__doc__ is not None
    assert PlaySession.history.__doc__.startswith("The moves from the start")


def test_a_hint_is_not_delayed_by_another_sessions_exact_search() -> None:
    """Both sessions play one Nim object, so they would share its exact-search cache: the
    busy one's search keeps it, and the other searches with a cache of its own."""
    game = Nim((20,) * 8)
    busy = PlaySession(game, mode="computer-human")   # an exact search of 5 s
    assert busy.thinking
    for _ in range(500):   # the busy thread makes the cache and takes its lock as it starts
        if game in engine._caches and engine._caches[game].lock.locked():
            break
        time.sleep(0.01)
    assert engine._caches[game].lock.locked()
    other = PlaySession(game, mode="human-human", background=False)
    for move in [(0, 18), (1, 19), (2, 20), (3, 20), (4, 20), (5, 20), (6, 20), (7, 17)]:
        assert other.play_move(move), other.message
    hints = other.hint()
    assert hints is not None and set(hints.values()) == {-1.0}
    # The busy search still holds its lock: the hint did not wait for it to end (it used to).
    assert engine._caches[game].lock.locked()
    # A third session's computer move starts behind the busy one, and is cancelled at once.
    before = set(threading.enumerate())
    third = PlaySession(game, mode="computer-human")
    workers = [t for t in threading.enumerate() if t not in before]
    time.sleep(0.1)
    third.close()
    for worker in workers:
        worker.join(30.0)   # a hang detector, not a timing
        assert not worker.is_alive()
    # The third ended while the busy search still ran: its cancel did not wait behind it.
    assert engine._caches[game].lock.locked()
    busy.close()


# -- hostile arguments: refused with a short message ----------------------------------------


@pytest.mark.parametrize("labels", [42, "board", object(), [1]])
def test_labels_that_are_not_a_board_are_refused(labels: object) -> None:
    with pytest.raises(GameError, match=r"labels must be a board \(gamelib.ui.board_for"):
        PlaySession(TTT, labels=labels, background=False)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [10**400, -(10**400), 10**5000], ids=["e400", "-e400", "e5000"])
def test_settings_never_echo_a_huge_number(value: int) -> None:
    s = PlaySession(TTT, background=False)
    for setting in (lambda: s.set_delay(value), lambda: s.set_strength(seconds=value),
                    lambda: PlaySession(TTT, seed=1, delay=value), lambda: s.set_mode(value)):
        with pytest.raises(GameError) as caught:
            setting()  # type: ignore[no-untyped-call]
        assert len(str(caught.value)) < 200
    assert s.wait(value)  # a huge timeout waits as None does: here nothing is pending
    assert s.submit("7" * 5000) is False and len(s.message) <= 160
    assert s.play_move(value) is False and len(s.message) <= 160


def test_stop_after_a_finished_computer_game_says_it_is_over() -> None:
    s = PlaySession(Nim(), mode="computer-computer", delay=0, background=False)
    assert s.wait(60) and s.finished
    assert s.stop() is False
    assert s.message == "Nothing to stop: the game is over. Press New for another."
