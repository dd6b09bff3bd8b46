"""Connect Four from the command line: solve positions, analyse them, or ask for a move.

Run it as ``python -m gamelib.connect_four MODE``. It reads one position per line
from standard input and answers each line at once (the output is flushed line by
line, so another program can talk to it through a pipe)::

    $ echo 52753311433677442422121 | python -m gamelib.connect_four analyze
    52753311433677442422121 2 3 7 7 8 7 2

    $ python -m gamelib.connect_four solve < tests/data/connect4/Test_L3_R1

See ``python -m gamelib.connect_four --help`` for the modes and options, and
:mod:`gamelib.search.solver` for what the scores mean. The work is done by
:class:`gamelib.search.solver.Solver` and :func:`gamelib.search.c4player.connect_four_move`;
this module only reads, checks and writes lines.
"""

from __future__ import annotations

import argparse
import io
import math
import os
import random
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import TextIO

from gamelib.game import GameError
from gamelib.games.connect_four import C4State, ConnectFour
from gamelib.search.c4player import DEFAULT_SECONDS, connect_four_move
from gamelib.search.solver import Solver

__all__ = ["FULL_COLUMN", "main", "run"]

FULL_COLUMN = -1000
"""What ``analyze`` prints for a column that is full."""

MAX_COLS = 9
"""The move notation has one digit per move, so boards can be at most 9 columns wide."""

Answer = Callable[[C4State], str]
"""Turns a valid, unfinished position into the text after MOVES on its output line."""

DESCRIPTION = """\
Solve Connect Four positions, analyse them, or let the computer choose a move.

Reads one position per line from standard input and writes one answer line per
position to standard output, flushed at once. A position is written as the columns
played from the empty board, numbered from 1 (left) and first player first, e.g.
4453 (the format of the benchmark files in tests/data/connect4). A second field on
the line, such as the score in those files, is ignored. An EMPTY line is the empty
board; its answer line starts with a space (split answers at the first space).

Scores are for the player to move: 0 is a draw; a positive score means that player
wins, a negative one that it loses. On the 6x7 board the winner scores 22 - k when
it wins with its k-th disc (any board: one more than the discs the winner has left
when it wins), so a faster win scores higher.
"""

EPILOG = """\
examples:
  echo 52753311433677442422121 | python -m gamelib.connect_four solve
  python -m gamelib.connect_four solve < tests/data/connect4/Test_L3_R1
  echo 52753311433677442422121 | python -m gamelib.connect_four analyze
  echo 4453 | python -m gamelib.connect_four move --seconds 2 --seed 1
  printf '\\n1122\\n' | python -m gamelib.connect_four solve --rows 4 --cols 5

The solver is pure Python: positions from the end game and the middle game take
milliseconds to seconds, but the first dozen moves of the 6x7 board can take
minutes or far longer. The move mode never takes much longer than --seconds.

A line that is not a valid position gets a message on standard error naming its
line number and the problem; the other lines are still answered, and the exit
status is 1 (0 when every line was valid). A position in which the game is already
over is not valid: there is nothing left to solve.
"""


def board_size(label: str, largest: int) -> Callable[[str], int]:
    """An argparse type: a whole number from 4 to ``largest`` (``label`` names it)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = 0
        if not 4 <= value <= largest:
            raise argparse.ArgumentTypeError(
                f"{label} must be a whole number from 4 to {largest}, got {text!r}"
            )
        return value

    return parse


def positive_seconds(text: str) -> float:
    """An argparse type: a positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"seconds must be a positive number, got {text!r}")
    return value


def positive_depth(text: str) -> int:
    """An argparse type: a whole number of plies, at least 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"depth must be a whole number >= 1, got {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The parser: the modes ``solve``, ``analyze`` and ``move`` with their options.

    The board options work before or after the mode (``--rows 4 solve`` or
    ``solve --rows 4``).
    """
    parser = argparse.ArgumentParser(
        prog="python -m gamelib.connect_four",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    board = argparse.ArgumentParser(add_help=False)
    add_board_options(board, default=argparse.SUPPRESS)
    add_board_options(parser, default=None)
    modes = parser.add_subparsers(dest="mode", metavar="MODE", required=True)
    solve = modes.add_parser(
        "solve",
        parents=[board],
        help="print 'MOVES SCORE': the exact score for the player to move",
        description="Print 'MOVES SCORE' for each position: its exact score for the "
        "player to move (with --weak: 1 win, 0 draw, -1 loss).",
    )
    analyze = modes.add_parser(
        "analyze",
        parents=[board],
        help="print 'MOVES s1 s2 ...': the exact score of each column",
        description="Print 'MOVES s1 s2 ...' for each position: one field per column, "
        "the exact score for the player to move of playing that column, or "
        f"{FULL_COLUMN} for a full column. A column that wins at once gets the "
        "winning score.",
    )
    for exact_mode in (solve, analyze):
        exact_mode.add_argument(
            "--weak",
            action="store_true",
            help="only win (1), draw (0) or loss (-1); usually faster",
        )
    move = modes.add_parser(
        "move",
        parents=[board],
        help="print 'MOVES COLUMN': the computer player's choice (1-based column)",
        description="Print 'MOVES COLUMN' for each position: the column (numbered "
        "from 1) that the computer player chooses. It plays perfectly when the "
        "solver proves the result within the time, and otherwise uses a heuristic "
        "search; see gamelib.search.c4player.",
    )
    move.add_argument(
        "--seconds",
        type=positive_seconds,
        default=None,
        help=f"time for each move, in seconds (default {DEFAULT_SECONDS:g}; "
        "with --depth: no time limit unless given)",
    )
    move.add_argument(
        "--depth",
        type=positive_depth,
        default=None,
        help="a weaker player that needs no clock: heuristic search this many plies "
        "deep, no exact solver",
    )
    move.add_argument(
        "--seed",
        type=int,
        default=None,
        help="seed for the choice between equally good columns (reproducible play)",
    )
    return parser


def add_board_options(parser: argparse.ArgumentParser, default: object) -> None:
    """Add ``--rows`` and ``--cols`` to ``parser`` with the given default."""
    parser.add_argument(
        "--rows",
        type=board_size("rows", 10),
        default=default,
        help="rows of the board, 4 to 10 (default 6)",
    )
    parser.add_argument(
        "--cols",
        type=board_size("cols", MAX_COLS),
        default=default,
        help=f"columns of the board, 4 to {MAX_COLS} (default 7)",
    )


def make_answer(args: argparse.Namespace, game: ConnectFour) -> Answer:
    """The function that answers one valid position in the chosen mode."""
    if args.mode == "move":
        rng = random.Random(args.seed) if args.seed is not None else None
        seconds = args.seconds
        if seconds is None and args.depth is None:
            seconds = DEFAULT_SECONDS

        def choose(state: C4State) -> str:
            decision = connect_four_move(game, state, seconds=seconds, depth=args.depth, rng=rng)
            column = decision.move
            assert isinstance(column, int)
            return game.format_move(column)

        return choose

    solver = Solver(game)  # one table for the whole input: positions recur
    weak = bool(args.weak)
    if args.mode == "solve":
        return lambda state: str(solver.solve(state, weak=weak))

    def analyze(state: C4State) -> str:
        scores = solver.analyze(state, weak=weak)
        return " ".join(str(FULL_COLUMN if score is None else score) for score in scores)

    return analyze


def read_position(line: str, game: ConnectFour) -> tuple[str, C4State]:
    """``(MOVES, state)`` for one input line; GameError says what is wrong with it."""
    fields = line.split()
    if len(fields) > 2:
        raise GameError(
            f"expected MOVES or MOVES SCORE, got {len(fields)} fields: "
            "a position is one string of column digits, e.g. 4453"
        )
    moves = fields[0] if fields else ""
    state = ConnectFour.from_moves(moves, game.rows, game.cols)
    if game.finished(state):
        first, second = state
        if game.has_four(first) or game.has_four(second):
            winner = game.players[0] if game.has_four(first) else game.players[1]
            reason = f"{winner} has four in a row"
        else:
            reason = "the board is full"
        raise GameError(f"the game is already over ({reason}): there is nothing to answer")
    return moves, state


def run(
    lines: Iterable[str],
    game: ConnectFour,
    answer: Answer,
    out: TextIO,
    err: TextIO,
) -> int:
    """Answer every line of ``lines`` on ``out``; report bad lines on ``err``.

    Returns the exit status: 1 if some line was not a valid, unfinished position,
    else 0. Every answer line is flushed as soon as it is written.
    """
    status = 0
    for number, line in enumerate(lines, start=1):
        try:
            moves, state = read_position(line, game)
            text = answer(state)
        except GameError as error:
            print(f"line {number}: {error}", file=err, flush=True)
            status = 1
            continue
        print(f"{moves} {text}", file=out, flush=True)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: parse ``argv`` (default ``sys.argv[1:]``), answer standard input.

    Returns the exit status (0 all lines valid, 1 some line invalid); argparse exits
    with status 2 for bad options. Ctrl-C ends it quietly with status 130.
    """
    args = build_parser().parse_args(argv)
    game = ConnectFour(args.rows or 6, args.cols or 7)
    answer = make_answer(args, game)
    if isinstance(sys.stdin, io.TextIOWrapper):
        # Bytes that are not text become U+FFFD, which read_position then reports as
        # "not a column" instead of the whole run failing with a decoding error.
        sys.stdin.reconfigure(errors="replace")
    try:
        return run(iter(sys.stdin.readline, ""), game, answer, sys.stdout, sys.stderr)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. "| head"): stop quietly. Point stdout at the null
        # device so that Python's final flush at exit does not fail a second time.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
