"""The play controller: moves from text, clicks and buttons; the computer; bad input.

The computer is the real engine wherever that is quick (exact tic-tac-toe and Nim,
shallow Connect Four). Where a test must hold the computer in mid-thought, a stand-in
search waits for the test's signal, so nothing here depends on how fast a machine is.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Iterator
from typing import Any

import ipywidgets as w
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gamelib.session.computer as session_module
import gamelib.ui.controller as controller_module
from gamelib.game import GameError, replay
from gamelib.games import ConnectFour, Nim, TicTacToe, TicTacToeBitboard
from gamelib.search.stats import Decision, Stats
from gamelib.ui import MODES, PlayController, play
from gamelib.ui.canvas import PIXEL_RATIO, fit_width
from gamelib.ui.controller import MESSAGE_LIMIT
from gamelib.ui.play_widgets import SIDE

TTT = TicTacToe()
C4 = ConnectFour()
NIM = Nim()
CORNERS = {(0, 0), (0, 2), (2, 0), (2, 2)}


def make(game: Any, **options: Any) -> PlayController:
    options.setdefault("background", False)
    options.setdefault("seed", 1)
    if isinstance(game, ConnectFour):
        options.setdefault("depth", 2)
    return play(game, display=False, **options)


def widgets(root: Any) -> Iterator[Any]:
    yield root
    for child in getattr(root, "children", ()):
        yield from widgets(child)


def find(c: PlayController, kind: type, description: str | None = None) -> Any:
    found = [
        x for x in widgets(c.widget)
        if isinstance(x, kind) and (description is None or x.description == description)
    ]
    assert len(found) == 1, (kind, description, found)
    return found[0]


def unchanged(c: PlayController, state: Hashable, history: list[Any]) -> bool:
    return c.state == state and c.history == history and replay(c.game, c.history) == c.state


class StandIn:
    """A search that waits for :meth:`release`, then plays the first legal move."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self._go = threading.Event()
        self.calls = 0

    def __call__(self, game: Any, state: Any, depth: Any, seconds: Any, rng: Any,
                 budget: Any) -> Decision:
        self.calls += 1
        self.started.set()
        assert self._go.wait(10), "the test never released the search"
        return Decision(game.moves(state)[0], 0.0, False, Stats(), summary="stand-in")

    def release(self) -> None:
        self._go.set()


@pytest.fixture
def stand_in(monkeypatch: pytest.MonkeyPatch) -> Iterator[StandIn]:
    search = StandIn()
    monkeypatch.setattr(session_module, "choose_move", search)
    yield search
    search.release()  # never leave a thread waiting


def first_legal(game: Any, state: Any, depth: Any, seconds: Any, rng: Any,
                budget: Any = None) -> Decision:
    return Decision(game.moves(state)[0], 0.0, False, Stats(), summary="first legal move")


# -- starting -------------------------------------------------------------------------


def test_play_builds_a_game_at_its_start() -> None:
    c = make(TTT)
    assert c.state == TTT.start and c.history == [] and not c.thinking and not c.finished
    assert c.mode == "human-computer"
    assert c.message.startswith("You play X and start.")
    assert c.status == ["X to move: your turn"]
    assert isinstance(c.widget, w.Box)
    # The canvas holds PIXEL_RATIO device pixels per board pixel, for sharp text.
    assert (c.canvas.width, c.canvas.height) == (440 * PIXEL_RATIO, 510 * PIXEL_RATIO)
    assert repr(c) == "<PlayController Tic-tac-toe, human-computer: moves none>"


def test_the_controllers_attributes_are_read_only() -> None:
    c = make(TTT)
    for name in ("session", "board", "canvas", "widget", "message", "history", "state"):
        before = getattr(c, name)
        refused = f"'{name}' of 'PlayController' object has no setter"
        with pytest.raises(AttributeError, match=refused):
            setattr(c, name, None)
        assert getattr(c, name) == before
    assert c.message == c.session.message and c.widget is not None


@pytest.mark.parametrize(
    "options, complaint",
    [
        ({"mode": "me-you"}, "mode must be one of 'human-computer'"),
        ({"depth": 0}, "depth must be a whole number"),
        ({"depth": 2.5}, "depth must be a whole number"),
        ({"seconds": -1}, "seconds must be a positive number of seconds, at most 30 s"),
        ({"seconds": 100}, "seconds must be a positive number of seconds, at most 30 s"),
        ({"seed": "x"}, "seed must be a whole number"),
        ({"size": 10}, "size must be a whole number of pixels from 240 to 1200"),
        ({"delay": -1}, "delay must be a number of seconds from 0 to 5"),
    ],
)
def test_bad_options_are_refused_with_what_is_allowed(options: dict[str, Any], complaint) -> None:
    with pytest.raises(GameError, match=complaint):
        play(TTT, display=False, **options)


LABEL = "[Tic-tac-toe: an interactive board; run the notebook in Jupyter to play]"


def test_play_displays_the_widget_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    c = play(TTT, background=False)
    assert capsys.readouterr().out == LABEL + "\n"  # outside IPython, display() prints
    c.close()
    assert repr(make(TTT).widget) == LABEL  # saved outputs stay one stable line


def test_in_ipython_the_board_appears_once_per_cell(capsys: pytest.CaptureFixture[str]) -> None:
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    try:
        shell.run_cell("from gamelib.games import TicTacToe\nfrom gamelib.ui import play")
        capsys.readouterr()
        # In IPython, the plain text of the widget's output is a sentence (what a reader of
        # the text, or an untrusted notebook without the picture, sees).
        said = "Tic-tac-toe board: Run the lesson to play."
        shell.run_cell("play(TicTacToe(), background=False)", store_history=True)
        assert capsys.readouterr().out.count(said) == 1  # not again as the cell's value
        shell.run_cell("c = play(TicTacToe(), background=False)", store_history=True)
        assert capsys.readouterr().out.count(said) == 1
        shell.run_cell("c", store_history=True)  # a later cell shows the same game again
        assert capsys.readouterr().out.count(said) == 1
    finally:
        InteractiveShell.clear_instance()


class Pile:
    """A game no board knows: take 1 or 2 from a pile; who takes the last one wins."""

    name = "Pile"
    players = ("P", "Q")
    start = (5, 0)

    def next_states(self, state: Any, player: Any) -> list[Any]:
        return [self.play(state, m) for m in self.moves(state)]

    def finished(self, state: Any) -> bool:
        return state[0] == 0

    def utility(self, state: Any, player: Any) -> int:
        return 1 if player == self.players[1 - state[1]] else -1

    def to_move(self, state: Any) -> Any:
        return self.players[state[1]]

    def moves(self, state: Any) -> list[int]:
        return [n for n in (1, 2) if n <= state[0]]

    def play(self, state: Any, move: Any) -> Any:
        if move not in self.moves(state):
            raise GameError(f"take 1 or 2, at most {state[0]}")
        return state[0] - move, 1 - state[1]

    def parse_move(self, text: str) -> int:
        if text.strip() not in ("1", "2"):
            raise GameError("a move is 1 or 2")
        return int(text)

    def format_move(self, move: int) -> str:
        return str(move)

    def render(self, state: Any) -> str:
        return f"pile: {'|' * state[0]}"


def test_any_other_game_is_played_with_typed_moves() -> None:
    c = make(Pile())
    assert c.click(100, 100) is False
    assert c.message == (
        "That is not a place on the board: this board takes typed moves only: "
        "type yours in the Move box."
    )
    assert c.submit("3") is False and c.message == "A move is 1 or 2"
    assert c.submit("1") is True  # 4 left: a lost position for the computer
    assert c.history[0] == 1 and len(c.history) == 2 and c.state[0] in (2, 3)


# -- moves and the computer's answers ------------------------------------------------------


def test_the_computer_answers_at_once_when_not_in_the_background() -> None:
    c = make(TTT)
    assert c.submit("2,2") is True
    assert len(c.history) == 2 and c.history[0] == (1, 1)
    assert c.history[1] in CORNERS  # every edge loses against the centre
    assert c.decision is not None and c.decision.exact and c.decision.value == 0
    assert c.status == ["X to move: your turn", "Computer (O): draw with best play"]
    reply, calls = TTT.format_move(c.history[1]), c.decision.stats.calls
    assert calls > 1  # the count depends on what the engine's cache already held
    assert c.message == f"O (computer) played {reply} after searching {calls:,} positions."


def test_the_computer_answers_from_a_thread_and_wait_returns_when_it_is_done() -> None:
    c = make(TTT, background=True)
    assert c.submit("2,2") is True
    assert c.wait(30) is True
    assert not c.thinking and len(c.history) == 2 and c.history[1] in CORNERS
    assert replay(TTT, c.history) == c.state


def test_connect_four_answers_from_a_thread() -> None:
    c = make(C4, background=True)
    assert c.submit("4") is True
    assert c.wait(30) is True
    assert len(c.history) == 2 and c.history[0] == 3
    assert replay(C4, c.history) == c.state


def test_the_computer_starts_when_it_plays_first() -> None:
    c = make(TTT, mode="computer-human")
    assert len(c.history) == 1 and c.status[0] == "O to move: your turn"
    assert c.submit("1,1") or c.submit("2,2")
    assert len(c.history) == 3


def test_a_seeded_computer_plays_the_same_game_twice() -> None:
    def game(seed: int) -> list[Any]:
        c = make(C4, mode="computer-computer", depth=2, seed=seed)
        assert c.wait() and c.finished
        return c.history

    assert game(3) == game(3)

    def ttt(seed: int) -> list[Any]:
        c = make(TTT, mode="computer-computer", seed=seed)
        assert c.wait() and c.finished
        return c.history

    assert ttt(5) == ttt(5)


def test_two_perfect_tictactoe_players_draw() -> None:
    for game in (TTT, TicTacToeBitboard()):
        c = make(game, mode="computer-computer", seed=2)
        assert c.wait() and c.finished and len(c.history) == 9 and game.utility(c.state, "X") == 0
        assert c.status[0] == "Game over: a draw."
        assert c.message.endswith(". Game over: a draw. Press New to play again.")


def test_the_first_player_wins_nim_345_with_perfect_play() -> None:
    # 3 xor 4 xor 5 = 2, not 0: the player to move at the start wins.
    c = make(NIM, mode="computer-computer", seed=4)
    assert c.wait() and c.finished and NIM.utility(c.state, "A") == 1
    assert c.status[0] == "A wins!"
    assert replay(NIM, c.history) == c.state


def test_computer_versus_computer_runs_in_the_background_to_the_end() -> None:
    c = make(TTT, mode="computer-computer", background=True, delay=0)
    assert c.wait(60) is True
    assert c.finished and len(c.history) == 9 and replay(TTT, c.history) == c.state


def test_a_connect_four_game_against_the_computer_can_be_won(monkeypatch) -> None:
    monkeypatch.setattr(session_module, "choose_move", first_legal)
    c = make(C4)
    for _ in range(4):
        assert c.submit("4")
    assert c.history == [3, 0, 3, 0, 3, 0, 3]
    assert c.finished and c.status[0] == "You win!"
    assert c.message == "You played 4. Game over: you win. Press New to play again."
    assert c.undo() is True  # only the winning move comes back: the computer never replied
    assert c.history == [3, 0, 3, 0, 3, 0] and c.status[0] == "X to move: your turn"


# -- undo and new game ---------------------------------------------------------------------


def test_undo_takes_back_your_move_and_the_computers_reply() -> None:
    c = make(TTT)
    c.submit("2,2")
    reply = TTT.format_move(c.history[1])
    assert c.play_move(TTT.moves(c.state)[0])
    assert len(c.history) == 4
    assert c.undo() is True
    assert len(c.history) == 2 and c.state == replay(TTT, c.history)
    assert c.undo() is True
    assert c.history == [] and c.state == TTT.start
    assert "Took back 2,2; " + reply in c.message  # moves with commas: joined by "; "


def test_between_two_humans_undo_takes_back_one_move() -> None:
    c = make(TTT, mode="human-human")
    c.submit("1,1")
    c.submit("2,2")
    assert c.undo() and c.history == [(0, 0)]


def test_new_game_starts_again() -> None:
    c = make(TTT)
    c.submit("1,1")
    assert c.new_game() is True
    assert c.history == [] and c.state == TTT.start and c.decision is None
    assert c.message.startswith("New game.")


# -- bad input: a clear message, nothing lost ------------------------------------------------

BAD_TEXTS = ["", "abc", "1;2", "9,9", "-1", "8", "1,1,1", "2.5", "x" * 10_000, "  ", "٣"]


@pytest.mark.parametrize("text", BAD_TEXTS, ids=lambda t: repr(t[:12]))
@pytest.mark.parametrize(
    "game, setup, notation",
    [(TTT, ["2,2", "1,1"], "row,col"), (C4, ["4", "4"], "column number from 1 to 7")],
    ids=["tictactoe", "connect-four"],
)
def test_malformed_text_is_refused_with_the_notation(text, game, setup, notation) -> None:
    c = make(game, mode="human-human")
    for move in setup:
        assert c.submit(move)
    state, history = c.state, c.history
    assert c.submit(text) is False
    assert unchanged(c, state, history)
    assert notation in c.message and len(c.message) <= MESSAGE_LIMIT


def test_text_that_is_not_a_string_is_refused() -> None:
    c = make(TTT)
    assert c.submit(None) is False and c.submit(22) is False  # type: ignore[arg-type]
    assert c.message == "A move is typed as text, not int" and c.history == []


def test_a_taken_cell_is_refused_naming_the_free_cells() -> None:
    c = make(TTT, mode="human-human")
    c.submit("2,2")
    state, history = c.state, c.history
    assert c.submit("2,2") is False and c.play_move((1, 1)) is False
    assert unchanged(c, state, history)
    assert c.message.startswith("Cell 2,2 is taken by X; free cells: 1,1 1,2")
    g = c.board.move_rect((1, 1), state)
    assert c.click(*g.center) is False and unchanged(c, state, history)


def test_a_full_column_is_refused_naming_the_open_ones() -> None:
    c = make(C4, mode="human-human")
    for _ in range(6):
        c.submit("1")
    state, history = c.state, c.history
    assert c.submit("1") is False
    assert unchanged(c, state, history)
    assert c.message == "Column 1 is full; open columns: 2, 3, 4, 5, 6, 7"
    assert find(c, w.Button, "1").click() is None and unchanged(c, state, history)


@pytest.mark.parametrize("game", [TTT, C4], ids=["tictactoe", "connect-four"])
@pytest.mark.parametrize(
    "x, y",
    [(5, 5), (10, 200), (-20, 100), (439.5, 100), (200, 470), (100, 10_000)],
)
def test_a_click_off_the_board_is_refused_with_how_to_click(game, x, y) -> None:
    c = make(game)
    assert c.click(x, y) is False
    assert c.history == [] and c.state == game.start
    assert c.message.startswith("That is not a place on the board: click")


def test_clicks_that_are_not_numbers_are_refused() -> None:
    c = make(TTT)
    for x, y in [("1", 2), (True, 2), (float("nan"), 1), (1, float("inf")), (None, None)]:
        assert c.click(x, y) is False  # type: ignore[arg-type]
        assert c.message == "A click needs two finite numbers x, y in canvas pixels"
    assert c.history == []


def test_a_click_on_the_frame_border_of_connect_four_is_refused() -> None:
    c = make(C4)
    frame = c.board.geometry.frame  # type: ignore[attr-defined]
    assert c.click(frame.x + 2, frame.y + 100) is False
    assert c.message == (
        "That is not a place on the board: click a column (or use the column buttons)."
    )


@pytest.mark.parametrize("game, move", [(TTT, "2,2"), (C4, "4")], ids=["tictactoe", "c4"])
def test_input_while_the_computer_thinks_is_refused_not_queued(game, move, stand_in) -> None:
    c = make(game, background=True)
    assert c.submit(move) is True
    assert stand_in.started.wait(10)
    assert c.thinking and c.status[0].endswith("the computer is thinking…")
    state, history = c.state, c.history
    box = c.board.move_rect(game.moves(state)[0], state)
    assert c.submit(game.format_move(game.moves(state)[0])) is False
    assert c.message == "Please wait: the computer is thinking."
    assert c.click(*box.center) is False and c.play_move(game.moves(state)[0]) is False
    assert c.hint() is None
    assert c.wait(0.01) is False  # still thinking
    assert unchanged(c, state, history)
    stand_in.release()
    assert c.wait(10) is True
    assert len(c.history) == 2 and not c.thinking and stand_in.calls == 1


@pytest.mark.parametrize("game, moves", [
    (TTT, ["1,1", "2,1", "1,2", "2,2", "1,3"]),
    (C4, ["1", "2", "1", "2", "1", "2", "1"]),
], ids=["tictactoe", "connect-four"])
def test_a_move_after_the_game_is_over_is_refused(game, moves) -> None:
    c = make(game, mode="human-human")
    for move in moves:
        assert c.submit(move)
    assert c.finished and c.status[0] == "X wins!"
    state, history = c.state, c.history
    assert c.submit(game.format_move(game.moves(game.start)[-1])) is False
    assert c.message == "The game is over (X wins): press New or Undo."
    assert c.hint() is None
    assert unchanged(c, state, history)


@pytest.mark.parametrize("game", [TTT, C4], ids=["tictactoe", "connect-four"])
def test_undo_with_nothing_to_undo_is_refused(game) -> None:
    c = make(game)
    assert c.undo() is False and c.message == "Nothing to undo: no move has been made yet."
    first = make(game, mode="computer-human")
    history = first.history
    assert len(history) == 1
    assert first.undo() is False
    assert first.message == "Nothing to undo: you have not moved yet."
    assert unchanged(first, replay(game, history), history)


def test_undo_while_the_computer_thinks_drops_its_answer(stand_in) -> None:
    c = make(TTT, background=True)
    c.submit("2,2")
    assert stand_in.started.wait(10)
    assert c.undo() is True
    assert c.history == [] and not c.thinking
    stand_in.release()
    assert c.wait(10) is True
    assert c.history == [] and c.state == TTT.start  # the stale reply was dropped


def test_new_game_while_the_computer_thinks_drops_its_answer(stand_in) -> None:
    c = make(C4, background=True)
    c.submit("4")
    assert stand_in.started.wait(10)
    c.new_game()
    stand_in.release()
    assert c.wait(10) is True
    assert c.history == [] and c.state == C4.start


def test_a_failing_search_leaves_the_game_intact(monkeypatch) -> None:
    def broken(*args: Any) -> Decision:
        raise RuntimeError("boom")

    monkeypatch.setattr(session_module, "choose_move", broken)
    c = make(TTT)
    assert c.submit("2,2") is True
    assert c.history == [(1, 1)] and c.wait(1) is True
    assert c.message == (
        "The computer could not move: its search stopped with an internal error (RuntimeError)."
    )
    assert c.status[0] == "O to move: the computer could not move"
    assert c.submit("1,1") is False and c.message.endswith("Press Undo or New.")
    assert c.undo() is True and c.history == []


def test_an_illegal_move_from_the_computer_is_caught(monkeypatch) -> None:
    def cheat(game: Any, state: Any, *args: Any) -> Decision:
        return Decision((1, 1), 0.0, True, Stats())

    monkeypatch.setattr(session_module, "choose_move", cheat)
    c = make(TTT)
    c.submit("2,2")
    assert c.history == [(1, 1)]
    assert c.message.startswith("The computer chose an illegal move (cell 2,2 is taken by X")


# -- hints ------------------------------------------------------------------------------------


def negamax(game: Any, state: Any) -> int:
    """The exact value of ``state`` for the player to move (an oracle for the tests)."""
    if game.finished(state):
        return game.utility(state, game.to_move(state))
    return max(-negamax(game, game.play(state, m)) for m in game.moves(state))


def test_hints_are_the_exact_values_of_the_moves() -> None:
    c = make(TTT, mode="human-human")
    assert c.hint() == dict.fromkeys(TTT.moves(TTT.start), 0.0)  # every opening draws
    c.submit("1,1")
    c.submit("1,2")  # O answers a corner with the next edge: a mistake
    expected = {m: -negamax(TTT, TTT.play(c.state, m)) for m in TTT.moves(c.state)}
    assert c.hint() == expected and c.hints == expected
    assert sorted(m for m, v in expected.items() if v == 1) == [(1, 0), (1, 1), (2, 0)]
    assert c.message == "Best for X: 2,1; 2,2; 3,1 (value +1)."
    assert c.status[-1] == "Hints: the value of each move for X"
    c.submit("2,2")
    assert c.hints is None


def eventually(condition: Any, timeout: float = 30) -> bool:
    """Poll ``condition`` every 10 ms until it holds or ``timeout`` seconds passed."""
    pause = threading.Event()
    for _ in range(int(timeout * 100)):
        if condition():
            return True
        pause.wait(0.01)
    return bool(condition())


def test_the_hint_button_works_in_a_thread() -> None:
    c = make(NIM, background=True)
    find(c, w.Button, "Hint").click()
    assert eventually(lambda: c.hints is not None)
    hints = c.hints
    assert hints is not None and set(hints) == set(NIM.moves(NIM.start))
    # 3 xor 4 xor 5 = 2: only taking 2 from the heap of 3 leaves a xor of 0.
    assert [m for m, v in hints.items() if v == 1] == [(0, 2)]
    assert c.message == "Best for A: 1,2 (value +1)."


# -- modes, autoplay ----------------------------------------------------------------------


def test_changing_the_players_keeps_the_position() -> None:
    c = make(TTT, mode="human-human")
    c.submit("2,2")
    assert c.set_mode("human-computer") is True  # now O, the computer, is to move
    assert len(c.history) == 2
    with pytest.raises(GameError, match="mode must be one of"):
        c.set_mode("robots")
    find(c, w.Dropdown, "Players").value = "human-human"
    assert c.mode == "human-human"
    assert MODES == ("human-computer", "computer-human", "human-human", "computer-computer")


def test_stop_pauses_a_computer_game_at_once_and_run_resumes_it() -> None:
    c = make(TTT, mode="computer-computer", background=True, delay=5)
    assert c.running
    assert c.stop() is True
    assert not c.running and c.wait(1) is True and c.history == []
    assert c.message == "Paused. Move for either side, or press Run to continue."
    assert c.status == ["X to move (paused)"]
    assert c.submit("2,2") and c.submit("1,1")  # while paused, moves by hand for both
    assert c.undo() and c.history == [(1, 1)]
    c.set_delay(0)
    assert c.run() is True
    assert c.wait(60) is True and c.finished
    assert c.run() is False and c.message == "The game is over: press New to watch another."


def test_the_delay_slider_and_the_controller_agree() -> None:
    c = make(TTT, mode="computer-computer", delay=4.5)
    slider = find(c, w.FloatSlider, "Delay (s)")
    assert slider.value == 4.5
    c.set_delay(5)
    assert slider.value == 5.0 and c.delay == 5.0
    slider.value = 0.3
    assert c.delay == 0.3
    with pytest.raises(GameError, match="from 0 to 5"):
        c.set_delay(6)


def test_run_and_stop_are_only_for_computer_games() -> None:
    c = make(TTT)
    assert c.run() is False and c.stop() is False
    assert c.message == "Nothing to stop: no computer-versus-computer game is running."
    assert find(c, w.Button, "Run").disabled and find(c, w.Button, "Stop").disabled


def test_a_running_computer_game_refuses_moves_and_undo(stand_in) -> None:
    c = make(TTT, mode="computer-computer", background=True, delay=0)
    assert stand_in.started.wait(10)
    assert c.submit("2,2") is False and c.message == "Please wait: the computer is thinking."
    assert c.undo() is False
    assert c.message == "The computers are playing: press Stop first, then Undo."
    c.stop()
    assert c.history == [] and not c.thinking


def test_strength_changes_the_next_search(monkeypatch) -> None:
    seen: list[tuple[Any, Any]] = []

    def spy(game: Any, state: Any, depth: Any, seconds: Any, rng: Any, budget: Any) -> Decision:
        seen.append((depth, seconds))
        return first_legal(game, state, depth, seconds, rng)

    monkeypatch.setattr(session_module, "choose_move", spy)
    c = make(TTT)
    c.submit("2,2")
    c.set_strength(depth=2)
    c.submit("3,3")
    find(c, w.Dropdown, "Strength").value = (4, None)
    c.submit("3,1")
    assert seen == [(None, None), (2, None), (4, None)]
    assert c.strength == (4, None)
    c.set_strength(seconds=0.5)  # not among the choices: added to them
    assert find(c, w.Dropdown, "Strength").value == (None, 0.5) and c.strength == (None, 0.5)
    with pytest.raises(GameError, match="depth"):
        c.set_strength(depth=-3)


# -- the widgets call the same controller ------------------------------------------------------


def test_typing_in_the_box_submits_and_clears_it() -> None:
    c = make(TTT)
    box = find(c, w.Text)
    box.value = "2,2"
    assert c.history[0] == (1, 1) and len(c.history) == 2 and box.value == ""
    box.value = "nonsense"
    assert c.message.startswith("'nonsense' is not a move") and box.value == ""


def test_canvas_clicks_and_taps_make_moves() -> None:
    c = make(TTT, mode="human-human")
    # The browser reports canvas pixels: PIXEL_RATIO per board pixel.
    x, y = (PIXEL_RATIO * v for v in c.board.move_rect((0, 2), c.state).center)
    c.canvas._handle_frontend_event(None, {"event": "mouse_down", "x": x, "y": y}, [])
    assert c.history == [(0, 2)]
    x, y = (PIXEL_RATIO * v for v in c.board.move_rect((2, 0), c.state).center)
    c.canvas._handle_frontend_event(None, {"event": "touch_start", "touches": [{"x": x, "y": y}]},
                                    [])
    assert c.history == [(0, 2), (2, 0)]


def spy_on_drawing(c: PlayController, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Record the keyword arguments of every drawing of ``c``'s board from now on."""
    drawings: list[dict[str, Any]] = []
    draw = c.board.draw

    def spy(canvas: Any, state: Any, **options: Any) -> None:
        drawings.append({"state": state, **options})
        draw(canvas, state, **options)

    monkeypatch.setattr(c.board, "draw", spy)
    return drawings


def test_a_browser_that_recreates_the_canvas_gets_the_board_redrawn(monkeypatch) -> None:
    c = make(TTT)
    c.submit("2,2")
    drawings = spy_on_drawing(c, monkeypatch)
    c.canvas._handle_frontend_event(None, {"event": "client_ready"}, [])
    assert len(drawings) == 1 and drawings[0]["state"] == c.state
    assert drawings[0]["last_move"] == c.history[-1]


def test_the_board_shows_that_the_computer_is_thinking(monkeypatch, stand_in) -> None:
    c = make(C4, background=True)
    drawings = spy_on_drawing(c, monkeypatch)
    c.submit("4")
    assert stand_in.started.wait(10)
    assert drawings[-1]["status"][0] == "O to move: the computer is thinking…"
    assert drawings[-1]["status_player"] == "O" and drawings[-1]["last_move"] == 3
    stand_in.release()
    assert c.wait(10)
    assert drawings[-1]["status"] == ["X to move: your turn", "Computer (O): stand-in"]


def test_column_buttons_drop_discs() -> None:
    c = make(C4, mode="human-human")
    find(c, w.Button, "4").click()
    find(c, w.Button, "5").click()
    assert c.history == [3, 4]


def test_nim_clicks_take_tokens() -> None:
    c = make(NIM, mode="human-human")
    board = c.board
    assert c.click(*board.move_rect((2, 5), c.state).center) is True
    assert c.state == ((3, 4, 0), 1)


def test_the_message_is_shown_escaped() -> None:
    c = make(TTT)
    c.submit("<b>bold</b>")
    assert "<b>" in c.message
    (shown,) = [x.value for x in widgets(c.widget) if isinstance(x, w.HTML) and "bold" in x.value]
    assert "&lt;b&gt;bold&lt;/b&gt;" in shown and "<b>" not in shown


def test_the_buttons_undo_and_start_again() -> None:
    c = make(TTT)
    c.submit("2,2")
    find(c, w.Button, "Undo").click()
    assert c.history == []
    c.submit("1,1")
    find(c, w.Button, "New").click()
    assert c.history == []


# -- whatever happens, nothing breaks --------------------------------------------------------


def test_interrupting_a_running_computer_game_many_times_keeps_it_consistent(monkeypatch) -> None:
    failures: list[Any] = []
    monkeypatch.setattr(threading, "excepthook", failures.append)
    c = make(TTT, mode="computer-computer", background=True, delay=0)
    for round_ in range(60):
        action = (c.new_game, c.stop, c.run, c.undo, c.hint)[round_ % 5]
        action()
        if action == c.stop:  # paused: nothing moves while we look
            assert not c.running and replay(TTT, c.history) == c.state
    c.run()
    assert c.wait(60) is True
    assert c.finished or not c.running
    assert replay(TTT, c.history) == c.state and failures == []


ACTIONS = st.one_of(
    st.tuples(st.just("submit"), st.one_of(
        st.sampled_from(["1,1", "2,2", "3,3", "1,3", "4", "1", "7", "0", "", "x", "9,9"]),
        st.text(max_size=8),
    )),
    st.tuples(st.just("click"), st.floats(-50, 600) | st.just(float("nan")), st.floats(-50, 600)),
    st.tuples(st.just("undo")),
    st.tuples(st.just("new")),
    st.tuples(st.just("hint")),
    st.tuples(st.just("mode"), st.sampled_from(MODES[:3])),
)


def check_consistent(c: PlayController, drawings: list[dict[str, Any]]) -> None:
    assert replay(c.game, c.history) == c.state == drawings[-1]["state"]  # as shown
    assert 0 < len(c.message) <= MESSAGE_LIMIT
    assert not c.thinking
    if not c.finished:  # the computer has answered: a human is to move
        mover = c.game.players.index(c.game.to_move(c.state))
        assert c.mode.split("-")[mover] == "human"


@pytest.mark.slow
@pytest.mark.parametrize("game", [TTT, ConnectFour(5, 5), NIM], ids=["ttt", "c4-5x5", "nim"])
@settings(max_examples=40)
@given(actions=st.lists(ACTIONS, max_size=25))
def test_random_input_never_raises_and_the_history_replays(game, actions) -> None:
    c = make(game, depth=1 if isinstance(game, ConnectFour) else None)
    drawings: list[dict[str, Any]] = []
    draw = c.board.draw

    def spy(canvas: Any, state: Any, **options: Any) -> None:
        drawings.append({"state": state, **options})
        draw(canvas, state, **options)

    c.board.draw = spy  # type: ignore[method-assign]
    c.new_game()
    for action in actions:
        kind = action[0]
        if kind == "submit":
            result: Any = c.submit(action[1])
        elif kind == "click":
            result = c.click(action[1], action[2])
        elif kind == "undo":
            result = c.undo()
        elif kind == "new":
            result = c.new_game()
        elif kind == "hint":
            result = c.hint()
            assert result is None or set(result) == set(game.moves(c.state))
        else:
            result = c.set_mode(action[1])
        assert result is None or isinstance(result, (bool, dict))
        check_consistent(c, drawings)


def test_the_examples_in_the_docstrings_run() -> None:
    import doctest

    import gamelib.ui.canvas

    for module in (controller_module, gamelib.ui.canvas):
        failed, tried = doctest.testmod(module)
        assert failed == 0 and tried > 0, module.__name__


@pytest.mark.parametrize("not_a_game", [None, "ConnectFour", 7, object()])
def test_play_refuses_what_is_not_a_game(not_a_game: object) -> None:
    with pytest.raises(GameError, match=r"is not a game: it lacks .*players.*TicTacToe\(\)"):
        play(not_a_game, display=False, background=False)  # type: ignore[arg-type]


# -- fitting a lecture screen -------------------------------------------------------------


def test_the_column_buttons_are_disabled_while_the_computer_plays_both_sides() -> None:
    c = make(C4, mode="human-human")
    columns = [x for x in widgets(c.widget) if isinstance(x, w.Button) and x.icon == "arrow-down"]
    assert len(columns) == 7 and not any(b.disabled for b in columns)
    c.set_mode("computer-computer")
    assert all(b.disabled for b in columns)
    c.set_mode("human-computer")
    assert not any(b.disabled for b in columns)


def test_the_players_choices_are_short_enough_for_their_dropdown() -> None:
    # "You: O (yellow), computer starts" was cut off at 16 px; 24 characters fit.
    labels = [label for label, _ in find(make(C4), w.Dropdown, "Players").options]
    assert labels[:2] == ["You: X (red), first", "You: O (yellow), second"]
    assert max(len(label) for label in labels) <= 24


def test_the_board_scales_with_the_window_and_the_column_buttons_with_the_board() -> None:
    c = make(C4)
    board = c.board
    assert c.canvas.layout.width == "100%" and c.canvas.layout.height == "auto"
    left = next(x for x in widgets(c.widget) if isinstance(x, w.VBox) and c.canvas in x.children)
    assert left.layout.width == fit_width(
        board.width, board.height, 60, across=f"100cqw - 16px - {SIDE}")
    columns = [x for x in widgets(c.widget) if isinstance(x, w.Button) and x.icon == "arrow-down"]
    g = board.geometry  # type: ignore[attr-defined]
    # Each button is as wide as its column less 4 px, in % of the board's width.
    assert columns[3].layout.width == f"{100 * (g.cell - 4) / board.width:.3f}%"
    assert columns[0].layout.margin.endswith(f"{100 * (g.grid.x + 2) / board.width:.3f}%")


# -- without threads: a computer game advances a move per tick of the front end ----------


def test_a_threadless_computer_game_yields_after_each_move_and_stop_stops_it() -> None:
    c = make(TTT, mode="computer-computer", delay=0)
    ticker = find(c, w.Play, "")
    assert c.history == [] and c.running and ticker.playing  # nothing played inside play()
    assert ticker.layout.display == "none" and ticker.interval <= 250
    for ply in range(1, 4):  # each tick of the front end plays one move and returns
        ticker.value += 1
        assert len(c.history) == ply and not c.thinking
    assert c.stop() is True and not ticker.playing
    assert c.message == "Paused. Move for either side, or press Run to continue."
    ticker.value += 1  # a tick already on its way when Stop was pressed: nothing happens
    assert c.tick() is False and len(c.history) == 3
    assert c.run() is True and ticker.playing
    assert c.tick() is True and len(c.history) == 4
    assert c.wait() and c.finished and not ticker.playing and len(c.history) == 9
    assert c.stop() is False  # a finished game is not paused: it says it is over
    assert c.message == "Nothing to stop: the game is over. Press New for another."


def test_a_threadless_tick_waits_for_the_delay() -> None:
    c = make(NIM, mode="computer-computer", delay=5)
    assert c.tick() is False and c.history == []  # 5 s have not passed since the start
    c.set_delay(0)
    assert c.tick() is True and len(c.history) == 1
    c.set_delay(5)
    assert c.tick() is False and len(c.history) == 1


def test_wait_plays_a_threadless_computer_game_out_within_its_timeout() -> None:
    c = make(C4, mode="computer-computer", depth=2, delay=5)
    assert c.wait(0) is False and c.history == []  # no time given: no move played
    assert c.wait(60) is True and c.finished


def test_ticks_do_nothing_where_a_thread_plays() -> None:
    c = make(TTT, mode="computer-computer", background=True, delay=5)
    assert c.tick() is False and not find(c, w.Play, "").playing
    c.close()
