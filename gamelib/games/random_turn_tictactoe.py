"""Random-turn tic-tac-toe: before every move a fair coin decides who makes it.

The board and the lines are tic-tac-toe's; only the turn is left to chance. A state is
``(board, mover)``: the board (:data:`~gamelib.games.tictactoe.Board`, three rows of
``" "``, ``"X"`` or ``"O"``) and who moves in it, ``"X"``, ``"O"`` or
:data:`~gamelib.game.CHANCE` while the coin is in the air. The coin's outcomes are the
names of the players, ``"X"`` and ``"O"``, each with probability ``Fraction(1, 2)``; a
player may so move twice or more in a row. In a finished state ``mover`` is the player
who made the last move.

The game is small (its 17,000-odd reachable states fit in a cache) and its exact value
is a fraction, found by :func:`gamelib.search.expectiminimax.expectiminimax`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final, TypeGuard

from gamelib.errors import GameError, IllegalMoveError, MoveFormatError, describe_text
from gamelib.game import CHANCE, Player, Probability, check_game_over, check_player, state_checked
from gamelib.games.tictactoe import LINES, Board, Cell, format_cell, parse_cell

__all__ = ["RandomTurnTicTacToe", "RandomTurnState", "RandomTurnMove"]

RandomTurnState = tuple[Board, Player]
"""``(board, mover)``: the board and who moves in it, ``"X"``, ``"O"`` or ``CHANCE``."""

RandomTurnMove = Cell | Player
"""A player's move is a cell ``(row, col)``; the coin's outcome is a player's name."""

EMPTY: Final = " "
HALF: Final = Fraction(1, 2)
_COIN: Final = "the coin's outcome is 'X' or 'O' (who moves next)"


class RandomTurnTicTacToe:
    """Tic-tac-toe in which a fair coin, tossed before every move, says who moves.

    >>> game = RandomTurnTicTacToe()
    >>> game.to_move(game.start), game.moves(game.start), game.outcome_probabilities(game.start)
    ('chance', ['X', 'O'], [Fraction(1, 2), Fraction(1, 2)])
    >>> state = game.play(game.play(game.start, "O"), (1, 1))
    >>> print(game.render(state).replace(" ", "."))
    .|.|.
    -+-+-
    .|O|.
    -+-+-
    .|.|.
    coin:.in.the.air
    """

    name: Final = "Random-turn tic-tac-toe"
    players: Final[tuple[Player, Player]] = ("X", "O")
    start: Final[RandomTurnState] = (((EMPTY,) * 3,) * 3, CHANCE)
    text_round_trips: Final = True

    # -- the six-tuple -------------------------------------------------------------

    @state_checked
    def next_states(self, state: RandomTurnState, player: Player) -> list[RandomTurnState]:
        """The states after each move of ``player`` (or each side of the coin, when
        ``player`` is ``CHANCE``), in :meth:`moves` order.

        Precondition: ``player == to_move(state)``. Raises :class:`GameError` when
        ``player`` is none of ``"X"``, ``"O"`` and ``CHANCE``, or ``state`` is not a state.
        """
        board, _ = state
        if player == CHANCE:
            return [(board, "X"), (board, "O")]
        check_player(self, player)
        if _winner(board) is not None:
            return []
        return [self._after(board, cell, player) for cell in _empty(board)]

    @state_checked
    def finished(self, state: RandomTurnState) -> bool:
        """True iff a line is complete or the board is full."""
        board = state[0]
        return _winner(board) is not None or EMPTY not in board[0] + board[1] + board[2]

    @state_checked
    def utility(self, state: RandomTurnState, player: Player) -> int:
        """+1 if ``player`` has a line, -1 if the opponent has, 0 for a full board.

        Raises :class:`GameError` when ``state`` is not finished or ``player`` unknown.
        """
        check_game_over(self, state, player)
        winner = _winner(state[0])
        return 0 if winner is None else 1 if winner == player else -1

    @state_checked
    def to_move(self, state: RandomTurnState) -> Player:
        """``"X"`` or ``"O"`` when the coin has chosen them, ``CHANCE`` while it is in the air."""
        return state[1]

    @state_checked
    def outcome_probabilities(self, state: RandomTurnState) -> list[Probability]:
        """``[1/2, 1/2]``: the coin is fair (precondition: a chance state)."""
        return [HALF, HALF]

    @state_checked
    def moves(self, state: RandomTurnState) -> list[RandomTurnMove]:
        """``["X", "O"]`` in a chance state; else the empty cells row by row, none once
        the game is finished."""
        board, mover = state
        if mover == CHANCE:
            return ["X", "O"]
        return [] if self.finished(state) else list(_empty(board))

    @state_checked
    def play(self, state: RandomTurnState, move: RandomTurnMove) -> RandomTurnState:
        """The state after ``move``: the coin's outcome in a chance state, else a cell.

        Raises :class:`IllegalMoveError` for a cell that is taken or off the board, a
        cell while the coin is in the air, a name while a player is to move, or any move
        once the game is over.
        """
        board, mover = state
        if mover == CHANCE:
            if move not in self.players:
                raise IllegalMoveError(f"{describe_text(move)} is not an outcome of the coin: "
                                       f"{_COIN}")
            return board, move
        if self.finished(state):
            raise IllegalMoveError("the game is over: no more moves are allowed")
        if (not isinstance(move, tuple) or len(move) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in move)
                or not all(0 <= x <= 2 for x in move)):
            raise IllegalMoveError(f"{describe_text(move)} is not a cell: a move is (row, col), "
                                   "0 to 2")
        row, col = move
        if board[row][col] != EMPTY:
            free = " ".join(format_cell(c) for c in _empty(board))
            raise IllegalMoveError(f"cell {format_cell(move)} is taken by {board[row][col]}; "
                                   f"free cells: {free}")
        return self._after(board, move, mover)

    def parse_move(self, text: str) -> RandomTurnMove:
        """``'row,col'`` (1-based) for a player's move, ``'X'`` or ``'O'`` for the coin's.

        Raises :class:`MoveFormatError` for anything else.
        """
        if isinstance(text, str) and text.strip() in self.players:
            return text.strip()
        try:
            return parse_cell(text)
        except MoveFormatError as error:
            raise MoveFormatError(f"{error} ({_COIN})") from None

    def format_move(self, move: RandomTurnMove) -> str:
        """``'row,col'`` for a cell, the player's name for the coin's outcome."""
        return move if isinstance(move, str) else format_cell(move)

    @state_checked
    def render(self, state: RandomTurnState) -> str:
        """Tic-tac-toe's picture (rows joined by ``|``, separated by ``-+-+-``), then a
        line for the coin: ``coin: X moves``, ``coin: in the air``, or ``coin: X moved
        last`` once the game is over. :meth:`from_text` reads it back."""
        board, mover = state
        if not _is_board(board) or mover not in ("X", "O", CHANCE):
            raise GameError(f"{describe_text(state, limit=40)} is not a state of {self.name}: "
                            "pass game.start or a state returned by play() or next_states()")
        coin = (f"{mover} moved last" if self.finished(state) else "in the air"
                if mover == CHANCE else f"{mover} moves")
        return "\n-+-+-\n".join("|".join(row) for row in board) + f"\ncoin: {coin}"

    def from_text(self, text: str) -> RandomTurnState:
        """The state that :meth:`render` drew as ``text``.

        Raises :class:`GameError` unless ``text`` is such a picture.
        """
        picture = "three rows like 'X| |O' separated by '-+-+-', then 'coin: X moves'"
        if not isinstance(text, str) or "\ncoin: " not in text:
            raise GameError(f"{describe_text(text)} is not a {self.name} position: {picture}")
        drawing, coin = text.rsplit("\ncoin: ", 1)
        cells = [row.split("|") for row in drawing.split("\n-+-+-\n")]
        if len(cells) != 3 or any(len(r) != 3 or not set(r) <= {EMPTY, "X", "O"} for r in cells):
            raise GameError(f"{describe_text(text)} is not a {self.name} position: {picture}")
        board: Board = tuple(tuple(r) for r in cells)  # type: ignore[assignment]
        mover = {"X moves": "X", "O moves": "O", "in the air": CHANCE,
                 "X moved last": "X", "O moved last": "O"}.get(coin)
        if mover is None or coin.endswith("last") != self.finished((board, "X")):
            raise GameError(f"{describe_text(coin)} does not fit this board: {picture}")
        return board, mover

    def __repr__(self) -> str:
        return "RandomTurnTicTacToe()"

    @staticmethod
    def _after(board: Board, cell: Cell, mark: Player) -> RandomTurnState:
        """The state after ``mark`` is put on ``cell``: the coin is tossed again, unless
        the game is over."""
        row, col = cell
        line = board[row]
        new: Board = board[:row] + (line[:col] + (mark,) + line[col + 1:],) + board[row + 1:]  # type: ignore[assignment]
        over = _winner(new) is not None or EMPTY not in new[0] + new[1] + new[2]
        return new, (mark if over else CHANCE)


def _empty(board: Board) -> list[Cell]:
    """The empty cells of ``board``, row by row."""
    return [(r, c) for r in range(3) for c in range(3) if board[r][c] == EMPTY]


def _winner(board: Board) -> str | None:
    """The mark on a complete line of ``board``, or None (one move makes at most one
    player's lines, so the first found is the only winner)."""
    for (r0, c0), (r1, c1), (r2, c2) in LINES:
        mark = board[r0][c0]
        if mark != EMPTY and mark == board[r1][c1] == board[r2][c2]:
            return mark
    return None


def _is_board(board: object) -> TypeGuard[Board]:
    """Is ``board`` three rows (tuples) of three marks?"""
    return (isinstance(board, tuple) and len(board) == 3
            and all(isinstance(row, tuple) and len(row) == 3
                    and all(m in (EMPTY, "X", "O") for m in row) for row in board))
