"""The boards: pixel geometry, and the drawing calls recorded by a RecordingCanvas."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamelib.game import GameError, replay
from gamelib.games import ConnectFour, Nim, TicTacToe, TicTacToeBitboard
from gamelib.ui import RecordingCanvas, Rect, board_for, show_board
from gamelib.ui.boards import (
    ConnectFourBoard,
    ConnectFourGeometry,
    NimBoard,
    Palette,
    TextBoard,
    TicTacToeBoard,
    TicTacToeGeometry,
    format_value,
    position_status,
)
from gamelib.ui.canvas import PIXEL_RATIO

TTT = TicTacToe()
C4 = ConnectFour()
NIM = Nim()


def drawn(board, state, **options) -> RecordingCanvas:
    canvas = RecordingCanvas(board.width, board.height)
    board.draw(canvas, state, **options)
    return canvas


def ttt(*cells: tuple[int, int]):
    return replay(TTT, list(cells))


# -- the recording canvas -------------------------------------------------------------


def test_recording_canvas_records_properties_and_calls_in_order() -> None:
    canvas = RecordingCanvas(100, 50)
    canvas.fill_style = "#ff0000"
    canvas.fill_circle(10, 20, 5)
    canvas.line_width = 3
    canvas.stroke_line(0, 0, 10, 10)
    canvas.fill_text("hi", 1, 2)
    canvas.fill_text("max", 1, 2, 30)
    assert canvas.calls == [
        ("set", "fill_style", "#ff0000"),
        ("fill_circle", 10, 20, 5),
        ("set", "line_width", 3),
        ("stroke_line", 0, 0, 10, 10),
        ("fill_text", "hi", 1, 2),
        ("fill_text", "max", 1, 2, 30),
    ]
    assert canvas.fill_style == "#ff0000" and canvas.line_width == 3
    assert canvas.methods() == ["fill_circle", "stroke_line", "fill_text", "fill_text"]
    assert canvas.texts() == ["hi", "max"]
    assert canvas.styled("stroke_line") == [
        ({"fill_style": "#ff0000", "line_width": 3}, ("stroke_line", 0, 0, 10, 10))
    ]


def test_recording_canvas_rejects_a_property_a_canvas_does_not_have() -> None:
    canvas = RecordingCanvas()
    with pytest.raises(AttributeError, match="fill_colour"):
        canvas.fill_colour = "red"  # type: ignore[attr-defined]
    assert canvas.calls == []


def test_rect_contains_its_left_and_top_edge_only() -> None:
    box = Rect(10, 20, 30, 40)
    assert box.center == (25, 40)
    assert box.contains(10, 20) and box.contains(39.9, 59.9)
    assert not box.contains(40, 30) and not box.contains(20, 60) and not box.contains(9.9, 30)


# -- geometry -------------------------------------------------------------------------


def test_tictactoe_geometry_at_440_pixels() -> None:
    g = TicTacToeGeometry(440)
    assert (g.label, g.grid, g.cell) == (40, Rect(40, 40, 387, 387), 129)
    assert (g.width, g.board_height, g.height) == (440, 440, 510)
    assert g.cell_rect((1, 2)) == Rect(298, 169, 129, 129)
    assert g.cell_at(40, 40) == (0, 0)
    assert g.cell_at(168.9, 297.9) == (1, 0)
    assert g.cell_at(169, 297.9) == (1, 1)
    assert g.cell_at(426.9, 426.9) == (2, 2)


@pytest.mark.parametrize(
    "x, y",
    [(39.9, 100), (100, 39.9), (427, 100), (100, 427), (10, 10), (-5, 100), (100, 480),
     (float("nan"), 100), (100, float("inf"))],
)
def test_tictactoe_clicks_on_the_margins_and_outside_are_no_cell(x: float, y: float) -> None:
    assert TicTacToeGeometry(440).cell_at(x, y) is None
    assert TicTacToeBoard(TTT).move_at(x, y, TTT.start) is None


def test_connect_four_geometry_at_440_pixels() -> None:
    g = ConnectFourGeometry(6, 7, 440)
    assert (g.strip, g.cell, g.frame, g.grid) == (
        31, 57, Rect(11, 40, 417, 360), Rect(20, 49, 399, 342)
    )
    assert (g.board_height, g.height, g.radius) == (440, 510, 22.8)
    assert g.cell_center(0, 3) == (219.5, 362.5)  # bottom row, middle column
    assert g.cell_center(5, 0) == (48.5, 77.5)  # top row, first column
    assert g.column_rect(6) == Rect(362, 9, 57, 391)


def test_connect_four_clicks_select_the_column_from_the_numbers_to_the_frame_bottom() -> None:
    board = ConnectFourBoard(C4)
    assert [board.move_at(20 + 57 * c + 28, 300) for c in range(7)] == list(range(7))
    assert board.move_at(20, 9) == 0  # top left corner of the number strip
    assert board.move_at(418.9, 399.9) == 6  # bottom right corner of the frame's cells
    for x, y in [(15, 200), (425, 200), (200, 8.9), (200, 400), (200, 415), (200, 480),
                 (-1, 200), (500, 200), (math.nan, 100)]:
        assert board.move_at(x, y) is None, (x, y)


def test_nim_clicks_take_the_token_and_everything_to_its_right() -> None:
    board = NimBoard(NIM)
    g = board.geometry
    assert (g.row, g.pitch, g.left, g.top, g.radius) == (70, 65, 57, 13, 24.7)
    start = NIM.start
    third_heap = [board.move_at(*g.slot(2, i).center, start) for i in range(5)]
    assert third_heap == [(2, 5), (2, 4), (2, 3), (2, 2), (2, 1)]
    state = NIM.play(start, (2, 2))  # heap 3 keeps its first three tokens
    assert board.move_at(*g.slot(2, 2).center, state) == (2, 1)
    assert board.move_at(*g.slot(2, 3).center, state) is None  # an outline: taken already
    assert board.move_at(*g.slot(0, 3).center, state) is None  # heap 1 never had a 4th token
    assert board.move_at(30, 50, state) is None  # the heap numbers
    assert board.move_at(200, 300, state) is None  # the status band


def test_nim_move_rect_refuses_an_illegal_move() -> None:
    with pytest.raises(GameError, match="not a legal move"):
        NimBoard(NIM).move_rect((0, 4), NIM.start)


def legal_states(game, moves_lists):
    return [replay(game, moves) for moves in moves_lists]


@pytest.mark.parametrize(
    "game, states",
    [
        (TTT, legal_states(TTT, [[], [(1, 1)], [(0, 0), (2, 2), (0, 2)]])),
        (TicTacToeBitboard(), legal_states(TicTacToeBitboard(), [[], [(0, 1), (1, 1)]])),
        (C4, [C4.start, ConnectFour.from_moves("4453")]),
        (ConnectFour(10, 4), [ConnectFour(10, 4).start]),
        (ConnectFour(4, 10), [ConnectFour(4, 10).start]),
        (NIM, legal_states(NIM, [[], [(2, 2)], [(0, 3), (1, 1)]])),
        (Nim((20,) * 8), [Nim((20,) * 8).start]),
    ],
    ids=["ttt", "bitboard", "c4", "c4-10x4", "c4-4x10", "nim", "nim-8x20"],
)
@pytest.mark.parametrize("size", [240, 440, 1200])
def test_every_legal_move_is_clicked_at_the_centre_of_its_rect(game, states, size) -> None:
    board = board_for(game, size)
    for state in states:
        for move in game.moves(state):
            box = board.move_rect(move, state)
            assert box.x >= 0 and box.right <= board.width and box.bottom <= board.height
            assert board.move_at(*box.center, state) == move


@pytest.mark.parametrize("game", [TTT, C4, ConnectFour(9, 5), NIM], ids=repr)
@given(x=st.floats(-50, 1300), y=st.floats(-50, 1300))
def test_a_click_means_the_move_whose_rect_holds_it(game, x: float, y: float) -> None:
    state = game.start
    board = board_for(game, 440)
    move = board.move_at(x, y, state)
    if move is not None:
        assert move in game.moves(state)
        assert board.move_rect(move, state).contains(x, y)


@pytest.mark.parametrize("size", [239, 1201, 440.0, True, "440", None])
def test_a_bad_size_is_refused_with_the_allowed_range(size) -> None:
    with pytest.raises(GameError, match="from 240 to 1200"):
        board_for(TTT, size)


def test_board_for_picks_the_board_of_each_game() -> None:
    assert type(board_for(TTT)) is TicTacToeBoard
    assert type(board_for(TicTacToeBitboard())) is TicTacToeBoard
    assert type(board_for(ConnectFour(5, 8))) is ConnectFourBoard
    assert type(board_for(Nim((1, 2)))) is NimBoard

    class Other:  # any other game: drawn as text
        name = "Other"
        players = ("P", "Q")

        def render(self, state: object) -> str:
            return f"state {state}"

    board = board_for(Other())  # type: ignore[arg-type]
    assert type(board) is TextBoard
    assert board.move_at(10, 10, 0) is None
    assert "state 7" in drawn(board, 7).texts()


def test_players_are_labelled_by_their_marks() -> None:
    assert board_for(C4).player_label("X") == "X (red)"
    assert board_for(C4).player_label("O") == "O (yellow)"
    assert board_for(TTT).player_label("O") == "O"
    assert board_for(NIM).player_label("B") == "B"


# -- drawing: tic-tac-toe ------------------------------------------------------------


def test_a_drawing_starts_afresh_and_fills_the_whole_canvas() -> None:
    for game in (TTT, C4, NIM):
        board = board_for(game)
        canvas = drawn(board, game.start)
        assert canvas.calls[0] == ("clear",)
        assert ("fill_rect", 0, 0, board.width, board.height) in canvas.calls
        assert canvas.styled("fill_rect")[0][0]["fill_style"] == Palette.BACKGROUND


def test_identical_states_give_identical_drawings() -> None:
    board = board_for(TTT)
    one = ttt((0, 0), (1, 1), (2, 2))
    other_order = ttt((2, 2), (1, 1), (0, 0))
    assert one == other_order
    options = {"last_move": (2, 2), "status": ["X to move"], "status_player": "O"}
    assert drawn(board, one, **options).calls == drawn(board, other_order, **options).calls
    assert drawn(board, one).calls != drawn(board, ttt((0, 0), (1, 1))).calls


def test_both_tictactoe_representations_draw_the_same_picture() -> None:
    bitboard = TicTacToeBitboard()
    moves = [(0, 0), (1, 1), (0, 2), (0, 1), (2, 1)]
    for k in range(len(moves) + 1):
        a = drawn(board_for(TTT), replay(TTT, moves[:k]), status=["s"])
        b = drawn(board_for(bitboard), replay(bitboard, moves[:k]), status=["s"])
        assert a.calls == b.calls


def test_crosses_and_circles_are_drawn_in_their_cells() -> None:
    board = TicTacToeBoard(TTT)
    canvas = drawn(board, ttt((1, 1), (0, 2)))
    # grid: 4 lines; the X in the centre: 2 strokes of 0.27 cell from its centre
    crosses = [c for s, c in canvas.styled("stroke_line") if s["stroke_style"] == Palette.CROSS]
    d = 129 * 0.27
    assert crosses == [
        ("stroke_line", round(233.5 - d, 1), round(233.5 - d, 1), round(233.5 + d, 1),
         round(233.5 + d, 1)),
        ("stroke_line", round(233.5 - d, 1), round(233.5 + d, 1), round(233.5 + d, 1),
         round(233.5 - d, 1)),
    ]
    circles = [c for s, c in canvas.styled("stroke_circle") if s["stroke_style"] == Palette.CIRCLE]
    assert circles == [("stroke_circle", 362.5, 104.5, round(129 * 0.29, 1))]
    assert canvas.texts()[:6] == ["1", "1", "2", "2", "3", "3"]  # column and row numbers


def test_the_last_move_is_highlighted() -> None:
    board = TicTacToeBoard(TTT)
    state = ttt((1, 1), (0, 2))
    highlighted = [
        c for s, c in drawn(board, state, last_move=(0, 2)).styled("fill_rect")
        if s["fill_style"] == Palette.HIGHLIGHT
    ]
    inset, side = 129 * 0.06, round(129 - 2 * 129 * 0.06, 1)
    assert highlighted == [("fill_rect", round(298 + inset, 1), round(40 + inset, 1), side, side)]
    plain = drawn(board, state).styled("fill_rect")
    assert all(s["fill_style"] != Palette.HIGHLIGHT for s, _ in plain)


def win_lines(canvas: RecordingCanvas) -> list[tuple]:
    return [c for s, c in canvas.styled("stroke_line") if s["stroke_style"] == Palette.WIN_LINE]


def test_the_winning_line_is_drawn_through_its_three_cells() -> None:
    board = TicTacToeBoard(TTT)
    won = ttt((0, 0), (1, 0), (1, 1), (2, 0), (2, 2))  # X: the main diagonal
    (line,) = win_lines(drawn(board, won))
    e = 129 * 0.38 / math.sqrt(2)
    assert line == ("stroke_line", round(104.5 - e, 1), round(104.5 - e, 1),
                    round(362.5 + e, 1), round(362.5 + e, 1))
    assert win_lines(drawn(board, ttt((0, 0), (1, 0), (1, 1), (2, 0)))) == []


def test_a_move_that_completes_two_lines_gets_two_lines() -> None:
    # X completes the top row and the left column with its last move at (0, 0).
    state = ttt((0, 1), (1, 1), (0, 2), (1, 2), (1, 0), (2, 2), (2, 0), (2, 1), (0, 0))
    assert TTT.finished(state)
    assert len(win_lines(drawn(TicTacToeBoard(TTT), state))) == 2


def test_hints_are_written_in_the_empty_cells_in_their_colours() -> None:
    board = TicTacToeBoard(TTT)
    canvas = drawn(board, ttt((1, 1)), hints={(0, 0): 0.0, (0, 1): -1.0, (2, 2): 1.0})
    hints = [
        (c[1], c[2], c[3], s["fill_style"]) for s, c in canvas.styled("fill_text")
        if c[1] in {"0", "-1", "+1"}
    ]
    assert hints == [
        ("0", 104.5, 104.5, Palette.NEUTRAL),
        ("-1", 233.5, 104.5, Palette.BAD),
        ("+1", 362.5, 362.5, Palette.GOOD),
    ]


def test_the_status_lines_are_written_below_the_board() -> None:
    board = TicTacToeBoard(TTT)
    canvas = drawn(board, TTT.start, status=["X to move: your turn", "Computer (O): draw"],
                   status_player="X")
    texts = canvas.styled("fill_text")
    first, second = texts[-2], texts[-1]
    assert first[1][1] == "X to move: your turn" and first[1][3] > board.geometry.board_height
    assert second[1][1] == "Computer (O): draw" and second[1][3] > first[1][3]
    assert first[0]["font"].startswith("bold ")
    # the token of the player to move sits beside the first line
    tokens = [s["fill_style"] for s, c in canvas.styled("fill_circle")]
    assert tokens == [Palette.CROSS]


# -- drawing: Connect Four --------------------------------------------------------------


def discs(canvas: RecordingCanvas, colour: str) -> list[tuple]:
    return [c[1:] for s, c in canvas.styled("fill_circle") if s["fill_style"] == colour]


def test_a_dropped_disc_is_drawn_red_at_the_bottom_of_its_column() -> None:
    board = ConnectFourBoard(C4)
    canvas = drawn(board, C4.play(C4.start, 3), last_move=3)
    assert discs(canvas, Palette.RED) == [(219.5, 362.5, 22.8)]
    assert discs(canvas, Palette.YELLOW) == []
    assert len(discs(canvas, Palette.HOLE)) == 41
    answered = drawn(board, ConnectFour.from_moves("44"), last_move=3)
    assert discs(answered, Palette.YELLOW) == [(219.5, 305.5, 22.8)]  # one cell higher


def test_discs_have_a_rim_and_the_last_one_a_ring() -> None:
    board = ConnectFourBoard(C4)
    canvas = drawn(board, ConnectFour.from_moves("4453"), last_move=2)
    rims = {s["stroke_style"] for s, _ in canvas.styled("stroke_circle")}
    assert {Palette.RED_RIM, Palette.YELLOW_RIM, Palette.RING} <= rims
    rings = [c[1:] for s, c in canvas.styled("stroke_circle") if s["stroke_style"] == Palette.RING]
    assert rings == [(162.5, 362.5, round(22.8 * 0.55, 1))]  # column 3, bottom row
    no_last = drawn(board, ConnectFour.from_moves("4453"))
    assert all(s["stroke_style"] != Palette.RING for s, _ in no_last.styled("stroke_circle"))


def test_connect_four_winning_line_joins_the_four_discs() -> None:
    board = ConnectFourBoard(C4)
    won = ConnectFour.from_moves("4455667")  # X: bottom row, columns 4 to 7
    lines = win_lines(drawn(board, won, last_move=6))
    assert lines == [("stroke_line", 219.5, 362.5, 390.5, 362.5)]
    assert win_lines(drawn(board, ConnectFour.from_moves("445566"))) == []


def test_connect_four_column_numbers_and_hints() -> None:
    board = ConnectFourBoard(C4)
    canvas = drawn(board, C4.start, hints={0: -1.0, 3: 0.25})
    texts = canvas.texts()
    assert texts[:7] == ["1", "2", "3", "4", "5", "6", "7"]
    hint_calls = [(c[1], c[2], s["fill_style"]) for s, c in canvas.styled("fill_text")[7:9]]
    assert hint_calls == [("-1", 48.5, Palette.BAD), ("+0.25", 219.5, Palette.GOOD)]


def test_a_full_board_of_any_size_draws_every_cell() -> None:
    for rows, cols in [(4, 4), (10, 10), (4, 10), (10, 4)]:
        game = ConnectFour(rows, cols)
        state = game.start
        while not game.finished(state):
            state = game.play(state, game.moves(state)[0])
        board = ConnectFourBoard(game)
        canvas = drawn(board, state)
        count = sum(len(discs(canvas, c)) for c in (Palette.RED, Palette.YELLOW, Palette.HOLE))
        assert count == rows * cols
        assert board.height <= 510


# -- drawing: Nim -----------------------------------------------------------------------


def test_nim_draws_remaining_tokens_and_outlines_of_taken_ones() -> None:
    board = NimBoard(NIM)
    state = replay(NIM, [(2, 2), (0, 1)])  # heaps 2, 4, 3
    canvas = drawn(board, state, last_move=(0, 1))
    assert len(discs(canvas, Palette.TOKEN)) == 9
    ghosts = [c for s, c in canvas.styled("stroke_circle") if s["stroke_style"] == Palette.GHOST]
    assert len(ghosts) == 2  # heap 3's two tokens taken earlier
    assert ("set_line_dash", (4, 4)) in canvas.calls
    assert canvas.calls[-1] != ("set_line_dash", (4, 4))
    assert canvas.texts()[0:6:2] == ["1", "2", "3"]  # heap numbers, then counts
    assert canvas.texts()[1:6:2] == ["2", "4", "3"]


def test_nim_highlights_the_tokens_the_last_move_took() -> None:
    board = NimBoard(NIM)
    state = NIM.play(NIM.start, (1, 3))  # heap 2 keeps one token
    canvas = drawn(board, state, last_move=(1, 3))
    fresh = [
        c[1:3] for s, c in canvas.styled("stroke_circle")
        if s["stroke_style"] == Palette.TOKEN_RIM and s["line_width"] >= 4
    ]
    g = board.geometry
    assert fresh == [board._centre(1, i) for i in (1, 2, 3)]
    assert fresh[0] == (round(g.slot(1, 1).center[0], 1), round(g.slot(1, 1).center[1], 1))


# -- values and status ------------------------------------------------------------------


@pytest.mark.parametrize(
    "value, text",
    [(1.0, "+1"), (1.5, "+1"), (0.0, "0"), (-1.0, "-1"), (-3.0, "-1"), (0.125, "+0.12"),
     (-0.5, "-0.50")],
)
def test_format_value(value: float, text: str) -> None:
    assert format_value(value) == text


def test_position_status_names_the_player_to_move_or_the_winner() -> None:
    assert position_status(TTT, TTT.start) == (["X to move"], "X")
    won = ttt((0, 0), (1, 0), (1, 1), (2, 0), (2, 2))
    assert position_status(TTT, won) == (["X wins!"], "X")
    drawn_game = ttt((0, 0), (1, 1), (2, 2), (0, 1), (2, 1), (2, 0), (0, 2), (1, 2), (1, 0))
    assert position_status(TTT, drawn_game) == (["Game over: a draw."], None)


def test_show_board_returns_a_canvas_of_the_board_size() -> None:
    canvas = show_board(C4, ConnectFour.from_moves("4453"), last_move=2)
    assert (canvas.width, canvas.height) == (440 * PIXEL_RATIO, 510 * PIXEL_RATIO)
    small = show_board(NIM, size=300)
    assert small.width == 300 * PIXEL_RATIO


def test_drawing_on_a_real_ipycanvas_canvas_works_without_a_browser() -> None:
    from ipycanvas import Canvas

    for game in (TTT, TicTacToeBitboard(), C4, NIM):
        board = board_for(game)
        canvas = Canvas(width=board.width, height=board.height)
        board.draw(canvas, game.start, status=["a", "b"], status_player=game.players[0])


@pytest.mark.parametrize("board", [TicTacToeBoard(TTT), ConnectFourBoard(C4), NimBoard(NIM)],
                         ids=["ttt", "c4", "nim"])
def test_points_too_far_for_a_float_are_off_the_board(board) -> None:
    for x, y in [(10**400, 5), (5, -(10**400)), (10**400, 10**400)]:
        assert board.move_at(x, y, board.game.start) is None
