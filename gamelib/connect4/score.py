"""The solver's score: who wins, and how fast, in one integer.

The score of a position is for the player to move, assuming both sides play perfectly:
``0`` for a draw, positive when the player to move wins, negative when it loses. Its
size says how fast the game ends: a win is worth one point more than the number of
discs the winner still holds when it wins, counting its own winning disc as played.

On a board with ``N = rows * cols`` cells the game ends with ``M`` discs on the board,
and then the winner still holds ``(N - M) // 2`` discs: the first player owns
``ceil(N / 2)`` of the discs, the second ``floor(N / 2)``, and the parity of ``M`` says
which of the two made the last move. Hence

    score = (N + 2 - M) // 2            for the winner, and minus that for the loser.

On the standard 6 x 7 board both players own 21 discs, so a winner that has placed ``k``
discs scores ``21 - k + 1 = 22 - k``, the convention of the benchmark sets
(:func:`gamelib.connect4.benchmark_positions`). On every board with an even number of
cells the rule is ``N // 2 + 1 - k``. On boards with an odd number of cells (5 x 5, 5 x 7, ...) that
simpler formula would be wrong: it would give the first player's win with its very last
disc the score 0 of a draw, because the first player owns one disc more than the second.
The rule "one more than the discs left in hand" is positive for every win on every board.

:func:`score_to_moves` turns a score back into "wins with its n-th move from here".
"""

from __future__ import annotations

from gamelib.game import GameError
from gamelib.games.connect_four import ConnectFour

__all__ = ["end_of_game", "score_to_moves", "winner_score"]


def score_to_moves(score: int, stones: int, game: ConnectFour | None = None) -> int:
    """How many more discs the winner drops, its winning disc included, with perfect play.

    ``score`` is the non-zero score of a position with ``stones`` discs on the board of
    ``game`` (default 6 x 7), for the player to move. For a positive score that player
    wins with its n-th disc from now; for a negative score the opponent wins with its
    n-th disc from now; the result is that n (at least 1). For example a score of 18 on
    the empty 6 x 7 board means the first player wins with its 4th disc.

    Raises :class:`GameError` for a score of 0 (a draw), for a score that no game from
    such a position can reach, or for a stone count off the board.
    """
    game = ConnectFour() if game is None else game
    if not isinstance(game, ConnectFour):
        raise GameError(f"game must be a ConnectFour board, got {type(game).__name__}")
    cells = game.rows * game.cols
    if not isinstance(stones, int) or isinstance(stones, bool) or not 0 <= stones < cells:
        raise GameError(f"stones must be a count from 0 to {cells - 1}, got {stones!r}")
    if not isinstance(score, int) or isinstance(score, bool) or score == 0:
        raise GameError(f"score must be a non-zero int (0 is a draw), got {score!r}")
    end = end_of_game(cells, score, stones)
    if end <= stones or end > cells:
        raise GameError(
            f"score {score} is impossible with {stones} discs on a {game.rows}x{game.cols} board"
        )
    return (end - stones + 1) // 2


def winner_score(cells: int, end: int) -> int:
    """The score, for the winner, of a game won with ``end`` discs on a board of ``cells``
    cells: ``(cells + 2 - end) // 2``, the formula above (the loser's is its negative)."""
    return (cells + 2 - end) // 2


def end_of_game(cells: int, score: int, stones: int) -> int:
    """How many discs the board holds when a game scored ``score`` ends (``score != 0``).

    The mover drops discs number stones + 1, stones + 3, ..., so the last disc has the
    parity of stones + 1 when the mover wins, and that of stones when the opponent does;
    score = (cells + 2 - M) // 2 leaves two candidates for M, of which one has it.
    """
    parity = (stones + 1) % 2 if score > 0 else stones % 2
    end = cells + 2 - 2 * abs(score)
    return end - 1 if end % 2 != parity else end
