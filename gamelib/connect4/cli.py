"""Connect Four from the command line: solve positions, analyse them, or ask for a move.

Run it as ``python -m gamelib.connect_four MODE`` (that module re-exports this one). It
reads one position per line from standard input and answers each line at once (the
output is flushed line by line, so another program can talk to it through a pipe)::

    $ echo 52753311433677442422121 | python -m gamelib.connect_four analyze
    52753311433677442422121 2 3 7 7 8 7 2

The formats
-----------
Input: one position per line, ``MOVES`` or ``MOVES SCORE`` (the SCORE, a whole number as
in the benchmark sets of :func:`gamelib.connect4.benchmark_positions`, is checked and then
ignored), the fields apart by spaces or tabs (any other character, such as U+2028 or a
no-break space, is part of a field, and refused). ``MOVES``
is the columns played from the empty board, numbered from 1, first player first, e.g.
``4453``; the empty board is written :data:`EMPTY_BOARD` (``.``). Only the digits 1 to
the number of columns are columns: ``0`` is never one, so ``004`` and ``0004`` are both
refused. Lines may end in LF, CR LF or CR alone; a UTF-8 byte order mark before the
first line is ignored; blank lines are skipped (they are not the empty board).

Output: one line per position, ``MOVES ANSWER``, with ``MOVES`` as read (``.`` for the
empty board), so every answer line is itself a valid input line. ``solve`` answers the
score, ``analyze`` one score per column (:data:`FULL_COLUMN` for a full one), ``move``
the column chosen (from 1).

Options take ASCII digits only (``４`` is refused) and are never abbreviated (``--sec`` is
refused: write ``--seconds``). A number an option writes is judged by the rule of every
door of gamelib (:mod:`gamelib.search.common`), with the same message as a function
given that value. Closed standard input is an empty input (status 0); with
standard error closed the messages are dropped, never written among the answers.

Exit status: 0 when every line was a valid, unfinished position; 1 when some line was
not (each gets one line on standard error, and the others are still answered); 2 for
bad options; :data:`EXIT_OUTPUT_FAILED` (74) when the answers cannot be written
(standard output closed, a full disk), with one line on standard error; 130 after
Ctrl-C. No traceback is ever shown.

``solve`` and ``analyze`` read the opening book on the 7 x 6 board
(:mod:`gamelib.connect4.book`; ``echo . | python -m gamelib.connect_four solve`` answers
``. 1`` in about a second); ``--no-book`` searches without it.

The work is done by :class:`gamelib.connect4.solver.Solver` and
:func:`gamelib.connect4.player.connect_four_move`; this module only reads, checks and
writes lines, and checks every argument at its door.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Final, TextIO

from gamelib.connect4.player import DEFAULT_SECONDS, connect_four_move
from gamelib.connect4.solver import Solver
from gamelib.game import GameError, describe_text
from gamelib.games.connect_four import C4State, ConnectFour
from gamelib.search.common import MAX_SECONDS, check_depth, check_seconds, check_whole

__all__ = ["EMPTY_BOARD", "EXIT_OUTPUT_FAILED", "FULL_COLUMN", "main", "run"]

PROG: Final = "python -m gamelib.connect_four"

EMPTY_BOARD: Final = "."
"""How the empty board is written, in the input and in the answer lines."""

EXIT_OUTPUT_FAILED: Final = 74
"""Exit status when the answers cannot be written (``EX_IOERR`` of sysexits.h)."""

FULL_COLUMN = -1000
"""What ``analyze`` prints for a column that is full."""

MAX_COLS = 9
"""The move notation has one digit per move, so boards can be at most 9 columns wide."""

Answer = Callable[[C4State], str]
"""Turns a valid, unfinished position into the text after MOVES on its output line."""

DESCRIPTION = """\
Solve Connect Four positions, analyse them, or let the computer choose a move.

Reads one position per line from standard input and writes one answer line per
position to standard output, flushed at once: 'MOVES ANSWER', and MOVES as read, so
an answer line is itself a valid input line. A position is written as the columns
played from the empty board, numbered from 1 (left) and first player first, e.g.
4453 (the format of gamelib's benchmark sets); the digit 0 is never a column. The
EMPTY BOARD is written '.' (a dot). A second field on the line, such as the score in
the benchmark sets, is ignored. Blank lines are skipped. Lines may end in LF, CR LF
or CR; a UTF-8 byte order mark at the start is ignored.

Scores are for the player to move: 0 is a draw; a positive score means that player
wins, a negative one that it loses. On the 6x7 board the winner scores 22 - k when
it wins with its k-th disc (any board: one more than the discs the winner has left
when it wins), so a faster win scores higher.
"""

EPILOG = f"""\
examples:
  echo 52753311433677442422121 | python -m gamelib.connect_four solve
  echo 52753311433677442422121 | python -m gamelib.connect_four analyze
  echo 4453 | python -m gamelib.connect_four move --seconds 2 --seed 1
  printf '.\\n1122\\n' | python -m gamelib.connect_four solve --rows 4 --cols 5

The solver is pure Python: positions from the end game and the middle game take
milliseconds to seconds. On the 6x7 board it reads the opening book (the package
bitbully-databases, installed with gamelib) at 12 discs, so every position with at
most 12 discs takes a second or less (the empty board: about one); with --no-book,
or without the package, the first dozen moves take minutes or far longer. The move
mode never takes much longer than --seconds (at most {MAX_SECONDS:g}), and never more
than {MAX_SECONDS:g} s a move whatever --depth asks for.

A line that is not a valid position gets a message on standard error naming its
line number and the problem; the other lines are still answered, and the exit
status is 1 (0 when every line was valid). A position in which the game is already
over is not valid: there is nothing left to solve. When the answers cannot be
written (standard output closed, a full disk) one line on standard error says so
and the exit status is 74; bad options exit with status 2, Ctrl-C with 130.
"""


WHOLE: Final = re.compile(r"[+-]?[0-9]{1,18}")
"""A whole number in ASCII digits (Python's int() also takes ``４``, ``1_0`` and spaces)."""
DIGITS: Final = re.compile(r"[+-]?[0-9]{1,4000}")
"""An option's whole number: ASCII digits, as many as a number of 4,000 digits has."""
DECIMAL: Final = re.compile(r"[+-]?([0-9]{1,18}(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]{1,3})?")
"""A decimal number in ASCII (float() also takes ``inf``, ``nan``, ``１``, ``1_0``)."""


def number_or_text(text: str) -> object:
    """The value an option's ``text`` writes: an int for ASCII digits (any length up to
    4,000 digits), a float for an ASCII decimal (``2.5``, ``1e3``), else the text itself.
    The doors' checks (:mod:`gamelib.search.common`) then judge it as they judge the same
    value passed to a function, with the same message."""
    if DIGITS.fullmatch(text):
        return int(text)
    return float(text) if DECIMAL.fullmatch(text) else text


def option(check: Callable[[object], object]) -> Callable[[str], Any]:
    """An argparse type: :func:`number_or_text` of the option's text, judged by ``check``,
    one of gamelib's door checks. Its GameError becomes argparse's message (exit status 2)
    without the words ", or None": an option left out takes its default, and the command
    line has no way to write None."""

    def parse(text: str) -> Any:
        value = number_or_text(text)
        try:
            check(value)
        except GameError as error:
            raise argparse.ArgumentTypeError(str(error).replace(", or None", "")) from None
        return value

    return parse


def board_size(label: str, largest: int) -> Callable[[str], int]:
    """An argparse type: a whole number from 4 to ``largest`` (``label`` names it), with
    the message of :class:`~gamelib.games.ConnectFour`'s door."""

    def parse(text: str) -> int:
        value = number_or_text(text)
        if not isinstance(value, int) or not 4 <= value <= largest:
            raise argparse.ArgumentTypeError(
                f"{label} must be a whole number from 4 to {largest}, got {describe_text(value)}"
            )
        return value

    return parse


positive_seconds: Final = option(check_seconds)
"""``--seconds``: a number of seconds, more than 0 and at most ``MAX_SECONDS``, as at every
door (:func:`~gamelib.search.common.check_seconds`)."""
positive_depth: Final = option(lambda value: check_depth(value, least=1, optional=True))
"""``--depth``: a whole number of plies, at least 1 (as :func:`connect_four_move` asks)."""
seed_number: Final = option(lambda value: check_whole(value, "seed", None))
"""``--seed``: any whole number (:func:`~gamelib.search.common.check_whole`)."""


def build_parser() -> argparse.ArgumentParser:
    """The parser: the modes ``solve``, ``analyze`` and ``move`` with their options.

    The board options work before or after the mode (``--rows 4 solve`` or
    ``solve --rows 4``).
    """
    parser = argparse.ArgumentParser(
        prog=PROG,
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,  # --sec is not --seconds: a typo is refused, not guessed
    )
    board = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    add_board_options(board, default=argparse.SUPPRESS)
    add_board_options(parser, default=None)
    modes = parser.add_subparsers(dest="mode", metavar="MODE", required=True)
    solve = _add_mode(
        modes,
        "solve",
        board,
        help="print 'MOVES SCORE': the exact score for the player to move",
        description="Print 'MOVES SCORE' for each position: its exact score for the "
        "player to move (with --weak: 1 win, 0 draw, -1 loss).",
    )
    analyze = _add_mode(
        modes,
        "analyze",
        board,
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
        exact_mode.add_argument(
            "--no-book",
            action="store_true",
            help="search without the opening book (to see or time the search alone); "
            "the scores are the same, the opening takes minutes or more",
        )
    move = _add_mode(
        modes,
        "move",
        board,
        help="print 'MOVES COLUMN': the computer player's choice (1-based column)",
        description="Print 'MOVES COLUMN' for each position: the column (numbered "
        "from 1) that the computer player chooses. It plays perfectly when the "
        "solver proves the result within the time, and otherwise uses a heuristic "
        "search; see gamelib.connect4.player.",
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
        f"deep, no exact solver (never more than {MAX_SECONDS:g} s a move)",
    )
    move.add_argument(
        "--seed",
        type=seed_number,
        default=None,
        help="seed for the choice between equally good columns (reproducible play)",
    )
    return parser


def _add_mode(
    modes: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    board: argparse.ArgumentParser,
    *,
    help: str,
    description: str,
) -> argparse.ArgumentParser:
    """The parser of mode ``name``: the board options of ``board``, no abbreviations."""
    parser: argparse.ArgumentParser = modes.add_parser(
        name, parents=[board], allow_abbrev=False, help=help, description=description
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

    solver = Solver(game, book=not args.no_book)  # one table for the input: positions recur
    weak = bool(args.weak)
    if args.mode == "solve":
        return lambda state: str(solver.solve(state, weak=weak))

    def analyze(state: C4State) -> str:
        scores = solver.analyze(state, weak=weak)
        return " ".join(str(FULL_COLUMN if score is None else score) for score in scores)

    return analyze


def read_position(line: str, game: ConnectFour) -> tuple[str, C4State]:
    """``(MOVES, state)`` for one non-blank input line; GameError says what is wrong.

    ``MOVES`` is :data:`EMPTY_BOARD` for the empty board.
    """
    # Fields are apart by spaces and tabs only: str.split() would also split at U+2028,
    # U+00A0 and the like, and take "12\u202834" for MOVES SCORE.
    fields = [field for field in re.split(r"[ \t]+", line.strip(" \t\r\n")) if field]
    if len(fields) > 2:
        raise GameError(
            f"expected MOVES or MOVES SCORE, got {len(fields)} fields: "
            f"a position is one string of column digits, e.g. 4453 ('{EMPTY_BOARD}' for "
            "the empty board)"
        )
    if len(fields) == 2 and not WHOLE.fullmatch(fields[1]):
        raise GameError(
            f"the SCORE after the moves must be a whole number, as in the benchmark sets, "
            f"got {describe_text(fields[1])}"
        )
    if not fields:
        raise GameError("a line of only spaces and other blanks: write a position, e.g. 4453")
    moves = fields[0]
    state = ConnectFour.from_moves(
        "" if moves == EMPTY_BOARD else moves, game.rows, game.cols
    )
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
    """Answer every non-blank line of ``lines`` on ``out``; report bad lines on ``err``.

    Returns the exit status: 1 if some line was not a valid, unfinished position,
    else 0. Every answer line is flushed as soon as it is written. A byte order mark
    at the start of the first line is dropped; blank lines are skipped (their numbers
    still count in the messages). Errors writing to ``out`` propagate (OSError).
    """
    status = 0
    for number, line in enumerate(lines, start=1):
        if number == 1:
            line = line.removeprefix("\ufeff")
        if not line.strip():
            continue
        try:
            moves, state = read_position(line, game)
            text = answer(state)
        except GameError as error:
            print(f"line {number}: {error}", file=err, flush=True)
            status = 1
            continue
        print(f"{moves} {text}", file=out, flush=True)
    return status


def input_lines(stream: TextIO) -> Iterator[str]:
    """The lines of ``stream`` as they arrive, whatever their ending (LF, CR LF, CR).

    Bytes that are not text become U+FFFD, which :func:`read_position` then reports as
    "not a column" instead of the whole run failing with a decoding error.
    """
    if isinstance(stream, io.TextIOWrapper):
        stream.reconfigure(errors="replace", newline=None)
    return iter(stream.readline, "")


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: parse ``argv`` (default ``sys.argv[1:]``), answer standard input.

    Returns the exit status (see the module docstring); argparse exits with status 2
    for bad options. Never lets a traceback reach the user.
    """
    args = build_parser().parse_args(argv)
    out = sys.stdout
    if out is None:  # started with standard output closed (e.g. ">&-")
        return _output_failed("standard output is closed: there is nowhere to write")
    # With standard error closed, print(file=None) would write the messages to standard
    # output, among the answers: they go nowhere instead (the exit status still tells).
    err: TextIO = sys.stderr if sys.stderr is not None else io.StringIO()
    if sys.stdin is None:  # started with standard input closed ("<&-"): no positions
        return 0
    try:
        game = ConnectFour(args.rows or 6, args.cols or 7)
        answer = make_answer(args, game)
        return run(input_lines(sys.stdin), game, answer, out, err)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. "| head"): stop quietly.
        _silence_stdout()
        return 0
    except OSError as error:  # e.g. ENOSPC: a full disk
        _silence_stdout()
        reason = error.strerror or str(error)
        return _output_failed(f"cannot write the answers: {reason}")
    except Exception as error:  # a bug: one line, not a traceback
        print(f"{PROG}: internal error: {type(error).__name__}: {error}", file=err)
        return 70


def _output_failed(message: str) -> int:
    """Say on standard error (if it is open) that the answers cannot be written."""
    if sys.stderr is not None:
        print(f"{PROG}: {message}", file=sys.stderr, flush=True)
    return EXIT_OUTPUT_FAILED


def _silence_stdout() -> None:
    """Point standard output at the null device, so that Python's flush at exit does not
    fail a second time with what is left in its buffer."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":
    sys.exit(main())
