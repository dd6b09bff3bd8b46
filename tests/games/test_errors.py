"""Bad input is refused with a GameError (a ValueError) that says what was wrong and what
is allowed, stays short however long the input, and leaves the state alone."""

from __future__ import annotations

import re
from typing import Any

import pytest

from gamelib.game import (
    GameError,
    IllegalMoveError,
    MoveFormatError,
    describe_text,
    not_a_state,
    other,
    replay,
)
from gamelib.games import ConnectFour, Nim, TicTacToe, TicTacToeBitboard

TTT, BITS, C4, NIM = TicTacToe(), TicTacToeBitboard(), ConnectFour(), Nim()
HUGE = "1" * 10_000
LONGEST_MESSAGE = 160


def refused(error: type[GameError], call: Any, *args: Any, **kwargs: Any) -> str:
    """Call ``call(*args, **kwargs)``, expect ``error``, and return its checked message."""
    with pytest.raises(error) as caught:
        call(*args, **kwargs)
    assert isinstance(caught.value, ValueError)
    message = str(caught.value)
    assert 20 <= len(message) <= LONGEST_MESSAGE, message
    return message


# -- play ------------------------------------------------------------------------------

X_IN_CENTRE = ((" ", " ", " "), (" ", "X", " "), (" ", " ", " "))
X_WON = (("X", "X", "X"), ("O", "O", " "), (" ", " ", " "))

TICTACTOE_ILLEGAL = {
    "occupied": ((1, 1), r"^cell 2,2 is taken by X; free cells: 1,1 1,2 1,3 2,1 2,3 "),
    "off the board": ((3, 0), r"^cell \(3, 0\) is off the board: row and col go from 0 to 2$"),
    "negative": ((0, -1), r"^cell \(0, -1\) is off the board: row and col go from 0 to 2$"),
    "text": ("2,2", r"^'2,2' is not a cell: a move is \(row, col\), 0 to 2$"),
    "float": ((1.0, 1), r"^\(1\.0, 1\) is not a cell: a move is \(row, col\), 0 to 2$"),
    "bool": ((True, 0), r"^\(True, 0\) is not a cell: a move is \(row, col\), 0 to 2$"),
    "too long": ((1, 1, 1), r"^\(1, 1, 1\) is not a cell: a move is \(row, col\), 0 to 2$"),
    "None": (None, r"^None is not a cell: a move is \(row, col\), 0 to 2$"),
    "huge": (HUGE, r"^'1{19}…' is not a cell: a move is \(row, col\), 0 to 2$"),
}


@pytest.mark.parametrize("case", TICTACTOE_ILLEGAL)
@pytest.mark.parametrize("game", [TTT, BITS], ids=["tuples", "bits"])
def test_tictactoe_play_refuses(game: Any, case: str) -> None:
    move, pattern = TICTACTOE_ILLEGAL[case]
    state = X_IN_CENTRE if game is TTT else BITS.from_board(X_IN_CENTRE)
    saved = repr(state)
    assert re.search(pattern, refused(IllegalMoveError, game.play, state, move))
    assert repr(state) == saved


@pytest.mark.parametrize("game", [TTT, BITS], ids=["tuples", "bits"])
def test_tictactoe_play_after_the_end(game: Any) -> None:
    state = X_WON if game is TTT else BITS.from_board(X_WON)
    message = refused(IllegalMoveError, game.play, state, (2, 2))
    assert message == "the game is over: no more moves are allowed"


FULL_FOURTH = ConnectFour.from_moves("444444")

CONNECT_FOUR_ILLEGAL = {
    "full column": (3, r"^column 4 is full; open columns: 1, 2, 3, 5, 6, 7$"),
    "right of the board": (7, r"^there is no column index 7: columns are 0 to 6 \(numbered 1 to 7"),
    "left of the board": (-1, r"^there is no column index -1: columns are 0 to 6"),
    "text": ("4", r"^'4' is not a column: a move is a column index from 0 to 6$"),
    "float": (3.0, r"^3\.0 is not a column: a move is a column index from 0 to 6$"),
    "bool": (True, r"^True is not a column: a move is a column index from 0 to 6$"),
    "None": (None, r"^None is not a column: a move is a column index from 0 to 6$"),
    "huge": (HUGE, r"^'1{19}…' is not a column: a move is a column index from 0 to 6$"),
}


@pytest.mark.parametrize("case", CONNECT_FOUR_ILLEGAL)
def test_connect_four_play_refuses(case: str) -> None:
    move, pattern = CONNECT_FOUR_ILLEGAL[case]
    assert re.search(pattern, refused(IllegalMoveError, C4.play, FULL_FOURTH, move))
    assert ConnectFour.from_moves("444444") == FULL_FOURTH


def test_connect_four_play_after_the_end() -> None:
    won = ConnectFour.from_moves("1212121")
    message = refused(IllegalMoveError, C4.play, won, 4)
    assert message == "the game is over: no more moves are allowed"


NIM_ILLEGAL = {
    "no such heap": ((3, 1), r"^there is no heap index 3: heaps are 0 to 2 \(numbered 1 to 3"),
    "negative heap": ((-1, 1), r"^there is no heap index -1: heaps are 0 to 2"),
    "too many": ((0, 4), r"^cannot take 4 from heap 1, which holds 3: take from 1"),
    "none": ((2, 0), r"^cannot take 0 from heap 3, which holds 5: take from 1 to 5"),
    "text": ("1,1", r"^'1,1' is not a move: a move is a pair \(heap index, count\)"),
    "bool": ((0, True), r"^\(0, True\) is not a move: a move is a pair \(heap index, count\)"),
    "float": ((0, 1.0), r"^\(0, 1\.0\) is not a move: .* of whole numbers, e\.g\. \(0, 2\)$"),
}


@pytest.mark.parametrize("case", NIM_ILLEGAL)
def test_nim_play_refuses(case: str) -> None:
    move, pattern = NIM_ILLEGAL[case]
    assert re.search(pattern, refused(IllegalMoveError, NIM.play, NIM.start, move))
    assert NIM.start == ((3, 4, 5), 0)


def test_nim_take_from_an_empty_heap_and_after_the_end() -> None:
    state = ((0, 4, 5), 1)
    message = refused(IllegalMoveError, NIM.play, state, (0, 1))
    assert message == "heap 1 is empty: take from a heap that is not"
    message = refused(IllegalMoveError, NIM.play, ((0, 0, 0), 0), (0, 1))
    assert message == "the game is over: no more moves are allowed"


# -- parse_move --------------------------------------------------------------------------

TICTACTOE_TEXT = {
    "": "no move given",
    "   ": "no move given",
    "abc": "'abc' is not a move",
    "1;2": "'1;2' is not a move",
    "9,9": "'9,9' is off the board",
    "-1": "'-1' is not a move",
    "8": "'8' is not a move",
    "1,1,1": "'1,1,1' is not a move",
    "0,0": "'0,0' is off the board",
    "2.5": "'2.5' is not a move",
    HUGE: "'1111111111111111111…' is not a move",
    None: "expected text, got NoneType",
    3: "expected text, got int",
    (1, 1): "expected text, got tuple",
}
CONNECT_FOUR_TEXT = {
    "": "no move given",
    "abc": "'abc' is not a column number",
    "1;2": "'1;2' is not a column number",
    "9,9": "'9,9' is not a column number",
    "-1": "'-1' is not a column number",
    "8": "there is no column 8",
    "0": "there is no column 0",
    "1,1,1": "'1,1,1' is not a column number",
    "0,0": "'0,0' is not a column number",
    "2.5": "'2.5' is not a column number",
    "٣": "'٣' is not a column number",
    HUGE: "'1111111111111111111…' is not a column number",
    None: "expected text, got NoneType",
    3: "expected text, got int",
}
NIM_TEXT = {
    "": "'' is not a move",
    "abc": "'abc' is not a move",
    "1;2": "'1;2' is not a move",
    "9,9": "'9,9' is out of range",
    "-1": "'-1' is not a move",
    "8": "'8' is not a move",
    "1,1,1": "'1,1,1' is not a move",
    "0,0": "'0,0' is out of range",
    "1,0": "'1,0' is out of range",
    "2.5": "'2.5' is not a move",
    HUGE: "'1111111111111111111…' is not a move",
    None: "expected text, got NoneType",
    3: "expected text, got int",
}
PARSE_CASES = [
    (game, text, wrong, allowed)
    for games, table, allowed in [
        (
            [TTT, BITS],
            TICTACTOE_TEXT,
            "a move is written 'row,col' with row and col from 1 to 3, e.g. '2,3'",
        ),
        ([C4], CONNECT_FOUR_TEXT, "a move is a column number from 1 to 7, e.g. '4'"),
        (
            [NIM],
            NIM_TEXT,
            "a move is written 'heap,count' with heap from 1 to 3 and count at least 1, "
            "e.g. '1,2'",
        ),
    ]
    for game in games
    for text, wrong in table.items()
]


@pytest.mark.parametrize(
    ("game", "text", "wrong", "allowed"),
    PARSE_CASES,
    ids=[f"{type(g).__name__}-{t!r:.12}" for g, t, _, _ in PARSE_CASES],
)
def test_parse_move_refuses(game: Any, text: Any, wrong: str, allowed: str) -> None:
    message = refused(MoveFormatError, game.parse_move, text)
    assert message == f"{wrong}: {allowed}"


def test_parse_move_accepts_spaces_and_leading_zeros() -> None:
    assert TTT.parse_move(" 3 , 1 ") == (2, 0)
    assert C4.parse_move(" 07 ") == 6
    assert NIM.parse_move("3,5") == (2, 5)
    # Legality is play's business: Nim's notation takes any count of at least one.
    assert NIM.parse_move("1,99") == (0, 99)


# -- from_moves ----------------------------------------------------------------------------

DIGITS = "is not a column: use the digits 1 to 7"
ENDED = "comes after the game has ended"
FROM_MOVES = {
    "4453x": (MoveFormatError, f"character 5 of the moves, 'x', {DIGITS}"),
    "0": (MoveFormatError, f"character 1 of the moves, '0', {DIGITS}"),
    "8": (MoveFormatError, f"character 1 of the moves, '8', {DIGITS}"),
    "44 5": (MoveFormatError, f"character 3 of the moves, ' ', {DIGITS}"),
    "44444444": (IllegalMoveError, "move 7 (4): column 4 is already full"),
    "12121213": (IllegalMoveError, f"move 8 (3) {ENDED}: X has four in a row"),
    "121232125": (IllegalMoveError, f"move 9 (5) {ENDED}: O has four in a row"),
}


@pytest.mark.parametrize("moves", FROM_MOVES)
def test_from_moves_refuses(moves: str) -> None:
    error, expected = FROM_MOVES[moves]
    assert refused(error, ConnectFour.from_moves, moves) == expected


def test_from_moves_refuses_non_strings_and_bad_shapes() -> None:
    message = refused(MoveFormatError, ConnectFour.from_moves, [4, 4])
    assert message == "expected a string of column digits, got list"
    message = refused(GameError, ConnectFour.from_moves, "44", 3, 7)
    assert message == "rows must be a whole number from 4 to 10, got 3"
    # A draw is an end too: 4x4 filled without four in a row, then one more disc.
    small = ConnectFour(4, 4)
    full = "1234" "1234" "2143" "2143"
    assert small.finished(ConnectFour.from_moves(full, 4, 4))
    assert small.utility(ConnectFour.from_moves(full, 4, 4), "X") == 0
    message = refused(IllegalMoveError, ConnectFour.from_moves, full + "1", 4, 4)
    assert message == "move 17 (1) comes after the game has ended: the board is full"


# -- constructors --------------------------------------------------------------------------

SIZE = "must be a whole number from 4 to 10, got"
HEAPS = "heaps must be 1 to 8 whole numbers from 0 to 20, not all 0; got"
CONSTRUCTORS = [
    (ConnectFour, {"rows": 3}, f"rows {SIZE} 3"),
    (ConnectFour, {"cols": 11}, f"cols {SIZE} 11"),
    (ConnectFour, {"rows": True}, f"rows {SIZE} True"),
    (ConnectFour, {"rows": 6.0}, f"rows {SIZE} 6.0"),
    (ConnectFour, {"cols": "7"}, f"cols {SIZE} '7'"),
    (ConnectFour, {"cols": HUGE}, f"cols {SIZE} '1111111111111111111…'"),
    (Nim, {"heaps": [-1]}, f"{HEAPS} (-1,)"),
    (Nim, {"heaps": [21]}, f"{HEAPS} (21,)"),
    (Nim, {"heaps": []}, f"{HEAPS} ()"),
    (Nim, {"heaps": (0, 0)}, f"{HEAPS} (0, 0)"),
    (Nim, {"heaps": [True]}, f"{HEAPS} (True,)"),
    (Nim, {"heaps": 5}, f"{HEAPS} 5"),
    (Nim, {"heaps": "345"}, f"{HEAPS} '345'"),
    (Nim, {"heaps": [1] * 9}, f"{HEAPS} (1, 1, 1, 1, 1, 1, 1, 1, 1)"),
    (Nim, {"heaps": [1] * 50}, f"{HEAPS} (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, …)"),
]


@pytest.mark.parametrize(("cls", "kwargs", "expected"), CONSTRUCTORS)
def test_constructors_refuse(cls: Any, kwargs: dict[str, Any], expected: str) -> None:
    assert refused(GameError, cls, **kwargs) == expected


# -- from_text, utility, players, helpers ------------------------------------------------------

FROM_TEXT = [
    (TTT, "X|X", r"^'X\|X' is not a tic-tac-toe board: a board is three rows like"),
    (TTT, None, r"^expected text, got NoneType: a board is three rows like"),
    (TTT, "X|X|X\n-+-+-\n | | \n-+-+-\n | | ", r"^X has 3 marks and O has 0: X must"),
    (TTT, "X|X|X\n-+-+-\nO|O|O\n-+-+-\nX| |O", r"^both players have three in a row"),
    (TTT, "O|O|O\n-+-+-\nX|X| \n-+-+-\nX|X| ", r"^O has three in a row but X moved"),
    (BITS, "?", r"^'\?' is not a tic-tac-toe board"),
    (C4, "X . .", r"^not a 6x7 board as render\(\) draws it$"),
    (C4, 42, r"^expected text, got int: a board as render\(\) draws it$"),
    (C4, ". . . . . . .\n" * 5 + "Z . . . . . .", r"^unknown mark 'Z': cells are 'X', 'O'"),
    (C4, "X . . . . . .\n" + ". . . . . . .\n" * 5, r"^column 1 has a gap below a disc$"),
    (C4, ". . . . . . .\n" * 5 + "O O . . . . .", r"^X must have as many discs as O or"),
    (NIM, "to move: A", r"^heaps \(\) cannot arise in Nim\(\(3, 4, 5\)\): it has 3 heaps"),
    (NIM, "1: || (3)\nto move: A", r"^heap 1 shows 2 bars but says 3$"),
    (NIM, "1: ||| (3)\n2:  (0)\n3:  (0)\nto move: C", r"^'to move: C' does not say whose turn"),
    (NIM, "2: ||| (3)\nto move: A", r"^'2: \|\|\| \(3\)' is not heap 1: a position is"),
]


@pytest.mark.parametrize(("game", "text", "pattern"), FROM_TEXT)
def test_from_text_refuses(game: Any, text: Any, pattern: str) -> None:
    assert re.search(pattern, refused(GameError, game.from_text, text))


@pytest.mark.parametrize("game", [TTT, BITS, C4, NIM], ids=lambda g: type(g).__name__)
def test_utility_of_an_unfinished_state_and_unknown_players(game: Any) -> None:
    message = refused(GameError, game.utility, game.start, game.players[0])
    assert message == "utility is defined only for finished states; this game goes on"
    first, second = game.players
    expected = f"unknown player 'x': this game's players are {first!r} and {second!r}"
    assert refused(GameError, game.next_states, game.start, "x") == expected
    assert refused(GameError, other, game, "x") == expected
    huge = refused(GameError, other, game, HUGE)
    assert huge.startswith("unknown player '1111111111111111111…': this game's players are")


def test_connect_four_helpers_refuse_cells_off_the_board() -> None:
    message = refused(GameError, C4.cell, C4.start, 6, 0)
    assert message == "row must be a whole number from 0 to 5, got 6"
    message = refused(GameError, C4.cell, C4.start, 0, -1)
    assert message == "col must be a whole number from 0 to 6, got -1"
    message = refused(GameError, C4.column_height, C4.start, 7)
    assert message == "col must be a whole number from 0 to 6, got 7"
    message = refused(GameError, C4.validate, (1, 1))
    assert message == "a cell holds discs of both players"
    message = refused(GameError, C4.validate, (True, 0))
    assert message == "a Connect Four state is a pair of non-negative ints (first, second)"
    message = refused(GameError, C4.validate, (1 << 6, 0))
    assert message == "a disc lies outside the 6x7 board"


def test_from_board_refuses_non_boards() -> None:
    message = refused(GameError, BITS.from_board, (("X", "Y", " "),) * 3)
    assert message.startswith("a tic-tac-toe board is a tuple of three rows")


def test_replay_names_the_move_that_failed() -> None:
    message = refused(IllegalMoveError, replay, TTT, [(0, 0), (1, 1), (0, 0)])
    assert message.startswith("move 3 (1,1): cell 1,1 is taken by X; free cells: 1,2 1,3 ")
    message = refused(IllegalMoveError, replay, C4, [3, "a"])
    assert message == "move 2 ('a'): 'a' is not a column: a move is a column index from 0 to 6"
    message = refused(IllegalMoveError, replay, NIM, [(2, 5), (1, 4), (0, 3), (0, 1)])
    assert message == "move 4 (1,1): the game is over: no more moves are allowed"


# -- states that are not states ------------------------------------------------------------

NOT_A_STATE = "pass game.start or a state returned by play() or next_states()"
# Per game: a move that is legal at the start, and non-states of the wrong shape for it:
# tuple-game boards with two rows, a bitboard given a tuple board, and so on.
STATE_CASES: list[tuple[Any, Any, list[Any]]] = [
    (TTT, (0, 0), [((" ", " ", " "), (" ", " ", " ")), 0]),
    (BITS, (0, 0), [TTT.start, (0, 0)]),
    (C4, 3, [(0.0, 0.0), ("0", "0"), ((0, 0), 0)]),
    (NIM, (0, 1), [(0, (3, 4, 5))]),
]
METHODS = ["play", "moves", "to_move", "render", "utility", "finished", "next_states"]


def _non_state_calls() -> list[Any]:
    calls = []
    for game, move, wrong_shapes in STATE_CASES:
        first = game.players[0]
        for state in ["x", None, (1,), 3.5, HUGE, *wrong_shapes]:
            for method in METHODS:
                if game is NIM and isinstance(state, str) and method in ("finished", "utility"):
                    # Nim reads only state[0] here, and any("x") is True: such a "state" looks
                    # unfinished, and catching it would cost the search a check per call.
                    continue
                second = {"play": move, "utility": first, "next_states": first}
                args = (state, second[method]) if method in second else (state,)
                name = f"{game!r}.{method}({state!r:.12})"
                calls.append(pytest.param(game, method, args, id=name))
    return calls


@pytest.mark.parametrize(("game", "method", "args"), _non_state_calls())
def test_a_non_state_is_refused_with_a_game_error(game: Any, method: str, args: Any) -> None:
    state = args[0]
    saved = repr(game)
    with pytest.raises(GameError) as caught:
        getattr(game, method)(*args)
    error = caught.value
    assert type(error) is GameError  # not a move error: the move was fine
    assert str(error) == f"{describe_text(state)} is not a state of {game.name}: {NOT_A_STATE}"
    assert len(str(error)) <= LONGEST_MESSAGE
    # Raised "from None" (or checked first): the traceback shows no TypeError from inside.
    assert error.__cause__ is None
    assert error.__context__ is None or error.__suppress_context__
    assert repr(game) == saved


def test_not_a_state_message() -> None:
    assert str(not_a_state(TTT, "x")) == f"'x' is not a state of Tic-tac-toe: {NOT_A_STATE}"
    assert str(not_a_state(C4, HUGE)).startswith("'1111111111111111111…' is not a state of ")
    assert isinstance(not_a_state(NIM, None), ValueError)


def test_a_bad_move_or_player_is_reported_before_a_bad_state() -> None:
    # play checks the move before it looks at the state (tic-tac-toe and Connect Four).
    message = refused(IllegalMoveError, TTT.play, "x", "2,2")
    assert message == "'2,2' is not a cell: a move is (row, col), 0 to 2"
    message = refused(IllegalMoveError, BITS.play, None, (3, 0))
    assert message == "cell (3, 0) is off the board: row and col go from 0 to 2"
    message = refused(IllegalMoveError, C4.play, (1,), 7)
    assert message.startswith("there is no column index 7: columns are 0 to 6")
    for game in (TTT, BITS, C4, NIM):
        first, second = game.players
        expected = f"unknown player 'x': this game's players are {first!r} and {second!r}"
        assert refused(GameError, game.utility, 3.5, "x") == expected
        assert refused(GameError, game.next_states, 3.5, "x") == expected


def test_valid_states_still_work_after_a_refusal() -> None:
    for game, move, _ in STATE_CASES:
        with pytest.raises(GameError):
            game.play("x", move)
        after = game.play(game.start, move)
        assert game.to_move(after) == game.players[1]
        assert after in game.next_states(game.start, game.players[0])


def test_the_errors_live_in_gamelib_errors_and_the_old_imports_still_work() -> None:
    import gamelib.errors
    import gamelib.game

    for name in gamelib.errors.__all__:
        assert getattr(gamelib.game, name) is getattr(gamelib.errors, name)
        assert name in gamelib.game.__all__
    assert issubclass(gamelib.errors.IllegalMoveError, ValueError)
