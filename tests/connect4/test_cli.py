"""``python -m gamelib.connect_four`` (gamelib.connect4.cli): the command line.

* Run as a real subprocess, once per mode (solve, analyze, move) and wherever the process
  itself is the subject (its exit on a missing mode, bytes and line endings on its standard
  input, a closed or full standard stream, Ctrl-C, an answer flushed before the next line):
  the expected scores come from the benchmark files (``MOVES SCORE`` per line) or from the
  solver in this process; every run checks its exit status and that no traceback reached
  standard error.
* The other answers, in process through :func:`cli.main` (:func:`answered`: standard input
  a UTF-8 text stream as the interpreter makes it), since the entry point only calls main:
  the same checks, without an interpreter's start for each.
* Bad options, which argparse refuses (status 2, its message on standard error) before
  the command line reads anything, in process through :func:`cli.main`: the entry point
  ``gamelib/connect_four.py`` passes argparse's exit on unchanged, as the subprocess tests
  show for a missing mode; the interpreter's start is paid once, not once per option.
* Under hostile input (hypothesis, bounded), in process, through :func:`cli.run` with the
  real solver on a 4 x 4 board (where every position solves in milliseconds): no exception
  escapes, every non-blank line gets exactly one answer or one message, every answer line
  reads back in, and every message names its line.
"""

from __future__ import annotations

import io
import math
import os
import random
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gamelib.connect4
from gamelib.connect4 import cli
from gamelib.connect4.player import connect_four_move
from gamelib.connect4.solver import Solver
from gamelib.game import GameError
from gamelib.games.connect_four import ConnectFour

# The benchmark sets ship with gamelib (gamelib.connect4.benchmark_positions reads them).
DATA = Path(gamelib.connect4.__file__).parent / "data"
L3_R1 = DATA / "Test_L3_R1"

# Two positions whose answers are pinned below (from Test_L2_R1 and Test_L3_R1).
MIDDLE = "52753311433677442422121"  # score 8
END = "2252576253462244111563365343671351441"  # score -1; columns 1 to 5 are full


def run(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    """Run the command line with ``args`` on ``stdin``; no traceback may appear."""
    result = subprocess.run(
        [sys.executable, "-m", "gamelib.connect_four", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "Traceback" not in result.stderr
    return result


def answered(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    """What :func:`run` gives, from :func:`cli.main` in this process: standard input a text
    stream over ``stdin``'s UTF-8 bytes (as the interpreter makes it), standard output and
    error captured, argparse's exit taken as the status. The answers are those of the
    subprocess (the entry point only calls main; the tests above run it for real)."""
    streams = (sys.stdin, sys.stdout, sys.stderr)
    out, err = io.StringIO(), io.StringIO()
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8")
    sys.stdout, sys.stderr = out, err
    try:
        status = cli.main(list(args))
    except SystemExit as exited:
        status = exited.code  # type: ignore[assignment]
    finally:
        sys.stdin, sys.stdout, sys.stderr = streams
    assert "Traceback" not in err.getvalue()
    return subprocess.CompletedProcess(["main", *args], status, out.getvalue(), err.getvalue())


def refused(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[object, str, str]:
    """``cli.main(args)`` on options that argparse refuses: (exit status, standard output,
    standard error)."""
    with pytest.raises(SystemExit) as exited:
        cli.main(args)
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return exited.value.code, out, err


def test_the_entry_point_exits_with_argparses_status_2() -> None:
    result = run(stdin="")
    assert (result.returncode, result.stdout) == (2, "")
    assert "the following arguments are required: MODE" in result.stderr


def benchmark_lines(path: Path, count: int) -> list[str]:
    return path.read_text().split("\n")[:count]


# -- the three modes ---------------------------------------------------------------------


def test_solve_reproduces_the_benchmark_file_lines() -> None:
    lines = benchmark_lines(L3_R1, 60)
    result = run("solve", stdin="\n".join(lines) + "\n")
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.splitlines() == lines  # "MOVES SCORE" exactly as in the file


def test_solve_weak_gives_the_signs() -> None:
    rows = [line.split() for line in benchmark_lines(DATA / "Test_L2_R1", 8)]
    result = answered("solve", "--weak", stdin="".join(f"{moves}\n" for moves, _ in rows))
    assert result.returncode == 0
    expected = [f"{moves} {(int(s) > 0) - (int(s) < 0)}" for moves, s in rows]
    assert result.stdout.splitlines() == expected


def test_analyze_prints_one_score_per_column_and_minus_1000_when_full() -> None:
    result = run("analyze", stdin=f"{MIDDLE}\n{END} -1\n")
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.splitlines() == [
        f"{MIDDLE} 2 3 7 7 8 7 2",
        f"{END} -1000 -1000 -1000 -1000 -1000 -1 -2",
    ]


def test_analyze_agrees_with_the_benchmark_scores() -> None:
    rows = [line.split() for line in benchmark_lines(DATA / "Test_L2_R1", 6)]
    result = answered("analyze", stdin="".join(f"{moves} {score}\n" for moves, score in rows))
    assert result.returncode == 0
    for (moves, score), line in zip(rows, result.stdout.splitlines(), strict=True):
        fields = line.split()
        assert fields[0] == moves and len(fields) == 8
        assert max(int(field) for field in fields[1:]) == int(score)
    weak = answered("analyze", "--weak", stdin=f"{MIDDLE}\n")
    assert weak.stdout == f"{MIDDLE} 1 1 1 1 1 1 1\n"


def test_move_plays_a_best_column() -> None:
    rows = [
        line.split()
        for line in random.Random(3).sample(L3_R1.read_text().split("\n")[:1000], 6)
    ]
    result = run(
        "move", "--seconds", "30", "--seed", "1", stdin="".join(f"{m}\n" for m, _ in rows)
    )
    assert (result.returncode, result.stderr) == (0, "")
    solver = Solver()
    for (moves, score), line in zip(rows, result.stdout.splitlines(), strict=True):
        printed_moves, printed_column = line.split()
        assert printed_moves == moves
        scores = solver.analyze(ConnectFour.from_moves(moves))
        assert scores[int(printed_column) - 1] == int(score)


def test_move_with_depth_and_seed_is_reproducible() -> None:
    stdin = "2636\n137475\n44\n"
    first = answered("move", "--depth", "3", "--seed", "5", stdin=stdin)
    again = answered("move", "--depth", "3", "--seed", "5", stdin=stdin)
    assert first.returncode == 0
    assert first.stdout == again.stdout
    lines = first.stdout.splitlines()
    assert lines[0] == "2636 4"  # the double threat
    assert lines[1].split()[0] == "137475"  # lost anyway: any column
    assert lines[2].split()[0] == "44"
    assert 1 <= int(lines[2].split()[1]) <= 7


# -- bad input ----------------------------------------------------------------------------


def test_invalid_lines_are_reported_and_the_others_answered() -> None:
    stdin = "\r\n".join(
        [
            f"{END} -1",
            "12x4",
            "128",
            "1 2 3",
            "4444444",
            "1212121",
            "12121212",
            f"  {MIDDLE}  ",
        ]
    ) + "\r\n"
    result = answered("solve", stdin=stdin)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [f"{END} -1", f"{MIDDLE} 8"]
    errors = result.stderr.splitlines()
    assert errors[:6] == [
        "line 2: character 3 of the moves, 'x', is not a column: use the digits 1 to 7",
        "line 3: character 3 of the moves, '8', is not a column: use the digits 1 to 7",
        "line 4: expected MOVES or MOVES SCORE, got 3 fields: "
        "a position is one string of column digits, e.g. 4453 ('.' for the empty board)",
        "line 5: move 7 (4): column 4 is already full",
        "line 6: the game is already over (X has four in a row): there is nothing to answer",
        "line 7: move 8 (2) comes after the game has ended: X has four in a row",
    ]
    assert len(errors) == 6


def test_bytes_that_are_not_text_are_a_bad_line_not_a_crash() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "gamelib.connect_four", "solve"],
        input=b"12\xff4\n" + END.encode() + b"\n",
        capture_output=True,
        timeout=300,
    )
    assert result.returncode == 1
    assert result.stdout == f"{END} -1\n".encode()
    assert result.stderr.decode("utf-8", "replace").startswith(
        "line 1: character 3 of the moves, "
    )
    assert b"Traceback" not in result.stderr


def test_a_full_board_is_a_finished_game() -> None:
    result = answered("solve", "--rows", "4", "--cols", "4", stdin="2234114322434311\n")
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr == (
        "line 1: the game is already over (the board is full): there is nothing to answer\n"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["solve", "--rows", "11"], "rows must be a whole number from 4 to 10, got 11"),
        (["solve", "--cols", "10"], "cols must be a whole number from 4 to 9, got 10"),
        (["--rows", "three", "solve"], "rows must be a whole number from 4 to 10"),
        (["move", "--seconds", "0"], "seconds must be a positive number of seconds, at most 30 s"),
        (["move", "--seconds", "60"], "at most 30 s; got 60"),
        (["move", "--seconds", "nan"], "seconds must be a positive number"),
        (["move", "--depth", "0"], "depth must be a whole number of plies, at least 1; got 0"),
        (["move", "--weak"], "unrecognized arguments: --weak"),
        (["play"], "invalid choice: 'play'"),
        ([], "the following arguments are required: MODE"),
    ],
)
def test_bad_options_exit_with_status_2(args: list[str], message: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = refused(args, capsys)
    assert status == 2
    assert message in err
    assert out == ""


# -- board sizes, the empty board, help, pipes ----------------------------------------------


def test_other_board_sizes_and_the_empty_board() -> None:
    # "." is the empty board, and its answer line starts with it.
    wide = answered("analyze", "--rows", "4", "--cols", "5", stdin=".\n")
    assert (wide.returncode, wide.stdout) == (0, ". -1 0 0 0 -1\n")  # the edges lose
    before = answered("--rows", "4", "--cols", "4", "solve", stdin=".\n5\n1\n")
    after = answered("solve", "--rows", "4", "--cols", "4", stdin=".\n5\n1\n")
    assert (before.stdout, before.stderr) == (after.stdout, after.stderr)
    assert before.returncode == 1
    assert before.stdout.splitlines() == [". 0", "1 0"]
    assert before.stderr == (
        "line 2: character 1 of the moves, '5', is not a column: use the digits 1 to 4\n"
    )
    tall = answered("move", "--rows", "7", "--cols", "5", "--depth", "1", stdin="12121\n")
    assert tall.stdout == "12121 1\n"  # block X's three in column 1


def test_help_describes_the_modes_and_the_input() -> None:
    result = answered("--help", stdin="")
    assert result.returncode == 0
    text = " ".join(result.stdout.split())
    for phrase in (
        "solve",
        "analyze",
        "move",
        "The EMPTY BOARD is written '.'",
        "Blank lines are skipped",
        "CR LF or CR",
        "22 - k",
        "exit status is 1",
        "--rows ROWS",
    ):
        assert phrase in text
    move_help = " ".join(answered("move", "--help", stdin="").stdout.split())
    assert "--seconds SECONDS" in move_help and "--depth DEPTH" in move_help
    assert "--weak" in " ".join(answered("analyze", "--help", stdin="").stdout.split())


@pytest.mark.skipif(os.name != "posix", reason="select() on pipes is POSIX only")
def test_each_answer_is_flushed_before_the_next_line_arrives() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "gamelib.connect_four", "solve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        for moves, answer in ((END, f"{END} -1"), (MIDDLE, f"{MIDDLE} 8")):
            process.stdin.write(moves + "\n")
            process.stdin.flush()
            ready, _, _ = select.select([process.stdout], [], [], 120)
            assert ready, "no answer while standard input is still open"
            assert process.stdout.readline() == answer + "\n"
        process.stdin.close()
        assert process.wait(timeout=60) == 0
    finally:
        process.kill()
        process.wait()


# -- hostile input and output (issue 9) ----------------------------------------------------


def test_blank_lines_are_skipped_not_the_empty_board() -> None:
    # A file that ends with an empty line must not start a solve of the empty 6x7 board.
    result = answered("solve", stdin=f"\n{END}\n   \n\t\n\n")
    assert (result.returncode, result.stdout, result.stderr) == (0, f"{END} -1\n", "")


def test_solve_answer_lines_read_back_in_the_empty_board_too() -> None:
    # 'MOVES SCORE' is also the input format, so solve's output is valid input.
    first = answered("solve", "--rows", "4", "--cols", "5", stdin=".\n1122\n")
    assert (first.returncode, first.stdout) == (0, ". 0\n1122 0\n")
    again = answered("solve", "--rows", "4", "--cols", "5", stdin=first.stdout)
    assert (again.returncode, again.stdout) == (0, first.stdout)


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"], ids=["LF", "CRLF", "CR"])
def test_line_endings_lf_crlf_and_cr_alone(ending: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "gamelib.connect_four", "solve"],
        input=f"{END}{ending}{MIDDLE}{ending}".encode(),
        capture_output=True,
        timeout=300,
    )
    assert result.returncode == 0
    assert result.stdout.decode().splitlines() == [f"{END} -1", f"{MIDDLE} 8"]


def test_a_byte_order_mark_is_not_a_column() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "gamelib.connect_four", "solve"],
        input=b"\xef\xbb\xbf" + END.encode() + b"\r\n",
        capture_output=True,
        timeout=300,
    )
    assert (result.returncode, result.stdout, result.stderr) == (0, f"{END} -1\n".encode(), b"")


def test_leading_zeros_are_refused_alike() -> None:
    result = answered("solve", stdin="0004\n004\n04\n")
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"line {n}: character 1 of the moves, '0', is not a column: use the digits 1 to 7"
        for n in (1, 2, 3)
    ]


@pytest.mark.skipif(os.name != "posix", reason="closing a descriptor of the child is POSIX")
def test_closed_standard_output_is_an_error_with_one_line() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "gamelib.connect_four", "solve"],
        input=f"{END}\n",
        stdout=None,
        stderr=subprocess.PIPE,
        text=True,
        timeout=300,
        preexec_fn=lambda: os.close(1),
    )
    assert result.returncode == 74
    assert result.stderr == (
        "python -m gamelib.connect_four: standard output is closed: there is nowhere to write\n"
    )


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_is_an_error_with_one_line() -> None:
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "gamelib.connect_four", "solve"],
            input=f"{END}\n{MIDDLE}\n",
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=300,
        )
    assert result.returncode == 74
    assert result.stderr == (
        "python -m gamelib.connect_four: cannot write the answers: No space left on device\n"
    )


def test_depth_without_seconds_is_bounded_by_the_hard_cap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # --depth 100 alone would search the standard board for hours; the player's hard cap
    # (MAX_SECONDS, here cut to 0.2 s as in tests/connect4/test_budget.py) ends it.
    monkeypatch.setattr(gamelib.connect4.player, "MAX_SECONDS", 0.2)
    started = time.monotonic()
    result = answered("move", "--depth", "100", stdin="1\n")
    assert result.returncode == 0 and re.fullmatch(r"1 [1-7]\n", result.stdout)
    assert time.monotonic() - started < 0.2 + 20


# -- hostile input, in process -----------------------------------------------------------

GAME = ConnectFour(4, 4)
ANSWER = cli.make_answer(
    cli.build_parser().parse_args(["solve", "--rows", "4", "--cols", "4"]), GAME
)

# Mostly plausible tokens, with the characters that broke the command line before.
PIECES = st.sampled_from(
    ["1", "2", "3", "4", "5", "0", "00", "12", "1122", "4321", cli.EMPTY_BOARD, " ", "\t",
     "\r", "\n", "\r\n", "\ufeff", "x", "-1", "\x00", "é", "\ufffd", "11111", "1 2 3"]
)
TEXT = st.lists(st.one_of(PIECES, st.text(max_size=3)), max_size=30).map("".join)


def lines_of(text: str) -> list[str]:
    """The lines the command line sees: universal newlines, as input_lines reads them."""
    stream = io.TextIOWrapper(io.BytesIO(text.encode("utf-8", "surrogatepass")), "utf-8")
    return list(cli.input_lines(stream))


@settings(max_examples=150, deadline=2000, suppress_health_check=[HealthCheck.too_slow])
@given(TEXT)
def test_every_line_gets_one_answer_or_one_message(text: str) -> None:
    lines = lines_of(text)
    out, err = io.StringIO(), io.StringIO()
    started = time.perf_counter()
    status = cli.run(lines, GAME, ANSWER, out, err)
    assert time.perf_counter() - started < 10
    answers, messages = out.getvalue().splitlines(), err.getvalue().splitlines()
    # A byte order mark counts only at the very start.
    first = [lines[0].removeprefix("\ufeff")] if lines else []
    content = [n for n, line in enumerate(first + lines[1:], 1) if line.strip()]
    assert len(answers) + len(messages) == len(content)
    assert status == (1 if messages else 0)
    for message in messages:
        number = int(re.match(r"line (\d+): \S", message).group(1))  # type: ignore[union-attr]
        assert number in content
    for answer in answers:
        moves, score = answer.split(" ")
        assert re.fullmatch(r"\.|[1-4]+", moves) and -8 <= int(score) <= 8
    # Every answer line is itself valid input, and gets the same answer again.
    again = io.StringIO()
    assert cli.run([a + "\n" for a in answers], GAME, ANSWER, again, io.StringIO()) == 0
    assert again.getvalue().splitlines() == answers


# -- closed streams, Ctrl-C while loading, strict options and fields -----------------------


@pytest.mark.skipif(os.name != "posix", reason="closing a descriptor of the child is POSIX")
def test_closed_standard_input_is_an_empty_input() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "gamelib.connect_four", "solve"],
        stdin=None, capture_output=True, text=True, timeout=300,
        preexec_fn=lambda: os.close(0),
    )
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


@pytest.mark.skipif(os.name != "posix", reason="closing a descriptor of the child is POSIX")
def test_with_standard_error_closed_messages_never_reach_the_answers() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "gamelib.connect_four", "solve"],
        input=f"44x\n{END}\n0\n", stdout=subprocess.PIPE, stderr=None, text=True,
        timeout=300, preexec_fn=lambda: os.close(2),
    )
    assert result.returncode == 1
    assert result.stdout == f"{END} -1\n"


def test_ctrl_c_while_the_command_line_loads_exits_130_without_a_traceback() -> None:
    code = (
        "import builtins, runpy, sys\n"
        "real = builtins.__import__\n"
        "def interrupted(name, *args, **kwargs):\n"
        "    if name == 'gamelib.connect4.cli':\n"
        "        raise KeyboardInterrupt\n"
        "    return real(name, *args, **kwargs)\n"
        "builtins.__import__ = interrupted\n"
        "sys.argv = ['connect_four', 'solve']\n"
        "runpy.run_module('gamelib.connect_four', run_name='__main__')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], input="", capture_output=True,
                            text=True, timeout=300)
    assert (result.returncode, result.stdout, result.stderr) == (130, "", "")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["move", "--sec", "1"], "unrecognized arguments: --sec"),
        (["--r", "4", "solve"], "invalid choice: '4'"),
        (["solve", "--ro", "4"], "unrecognized arguments: --ro"),
        (["move", "--dep", "2"], "unrecognized arguments: --dep"),
        (["--rows", "\uff14", "solve"], "rows must be a whole number from 4 to 10, got '４'"),
        (["move", "--depth", "\uff12"], "depth must be a whole number of plies, at least 1; "
                                        "got '２'"),
        (["move", "--seed", "\uff11"], "seed must be a whole number; got '１'"),
        (["move", "--seed", "1_0"], "seed must be a whole number; got '1_0'"),
        (["move", "--seconds", "\uff11"], "seconds must be a positive number"),
        (["move", "--seconds", "1_0"], "seconds must be a positive number"),
        (["move", "--seconds", "inf"], "seconds must be a positive number"),
    ],
)
def test_abbreviations_and_non_ascii_digits_are_refused(
        args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = refused(args, capsys)
    assert status == 2 and message in err and out == ""


def _door_message(option: str, value: object) -> str:
    """What the function the option reaches says of ``value``: connect_four_move for
    ``seconds`` and ``depth``; for ``seed``, a door that takes one and no None
    (gamelib.exercises.ex11_backprop.run_uct)."""
    with pytest.raises(GameError) as refusal:
        if option == "seed":
            from gamelib.exercises.ex11_backprop import run_uct
            run_uct(ConnectFour(4, 4), (0, 0), value, 1, lambda path, result: None)  # type: ignore[arg-type]
        else:
            connect_four_move(ConnectFour(4, 4), (0, 0), **{option: value})  # type: ignore[arg-type]
    return str(refusal.value).replace(", or None", "")  # the option cannot write None


@pytest.mark.parametrize(
    ("option", "text", "value"),
    [
        ("depth", "2.5", 2.5), ("depth", "1e3", 1000.0), ("depth", "-3", -3), ("depth", "0", 0),
        ("depth", "three", "three"), ("depth", "\uff13", "\uff13"),
        ("seconds", "-1", -1), ("seconds", "31", 31), ("seconds", "1" + "0" * 400, 10**400),
        ("seconds", "1e400", math.inf), ("seconds", "nan", "nan"), ("seconds", "2s", "2s"),
        ("seed", "1.5", 1.5), ("seed", "x", "x"), ("seed", "np.int64(3)", "np.int64(3)"),
    ],
)
def test_an_options_number_gets_the_message_of_the_function_it_reaches(
        option: str, text: str, value: object, capsys: pytest.CaptureFixture[str]) -> None:
    """One rule for a number at every door (gamelib.search.common): the option's text is
    read as the value it writes and judged by the same check, with the same message (less
    ", or None", which no option can write)."""
    status, out, err = refused(["move", f"--{option}", text], capsys)
    assert (status, out) == (2, "")
    assert err.endswith(f"argument --{option}: {_door_message(option, value)}\n"), err


def test_numbers_the_functions_accept_are_accepted_with_the_same_answer() -> None:
    """Whatever a function takes, the option takes as digits: a huge seed or depth, and
    numpy's integers at the function give the answer of the same digits at the option (on a
    4 x 4 board four discs in, which a search to the end answers in milliseconds)."""
    game = ConnectFour(4, 4)
    state = ConnectFour.from_moves("1122", 4, 4)
    for depth, seed in ((np.int64(3), 5), (10**30, -(10**30))):
        args = cli.build_parser().parse_args(
            ["move", "--rows", "4", "--cols", "4", "--depth", str(depth), "--seed", str(seed)])
        assert (args.depth, args.seed) == (depth, seed)
        direct = connect_four_move(game, state, depth=depth, rng=random.Random(seed))  # type: ignore[arg-type]
        assert cli.make_answer(args, game)(state) == game.format_move(direct.move)


def test_ascii_options_still_work() -> None:
    result = answered("move", "--seconds", "0.5", "--seed", "-3", "--rows", "4", "--cols", "4",
                 stdin="1\n")
    assert result.returncode == 0 and re.fullmatch(r"1 [1-4]\n", result.stdout)


@pytest.mark.parametrize("score", ["x", "1.5", "--1", "\uff11", "1e3", "12a"])
def test_the_score_field_must_be_a_whole_number(score: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert cli.run([f"1122 {score}\n", "1122 -3\n"], GAME, ANSWER, out, err) == 1
    assert err.getvalue().startswith("line 1: the SCORE after the moves must be a whole number")
    assert out.getvalue().startswith("1122 ")  # line 2 is answered


@pytest.mark.parametrize("blank", ["\u2028", "\u2029", "\u00a0", "\u3000", "\x0b", "\x85"])
def test_only_spaces_and_tabs_separate_fields(blank: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert cli.run([f"11{blank}22\n"], GAME, ANSWER, out, err) == 1
    assert out.getvalue() == ""
    [message] = err.getvalue().splitlines()  # one line, even for U+2028
    assert message.startswith("line 1: character 3 of the moves") and "is not a column" in message
    tabs = io.StringIO()
    assert cli.run(["11\t-2\n", "11 \t 22\n"], GAME, ANSWER, tabs, io.StringIO()) == 0
    assert [line.split(" ")[0] for line in tabs.getvalue().splitlines()] == ["11", "11"]


# -- the opening book ----------------------------------------------------------------------


def test_solve_answers_the_empty_board_with_the_book_and_searches_without_it() -> None:
    """With the book the empty line answers 1 (the opening book is read at 12 discs);
    --no-book searches without it and gives the same score where it finishes."""
    pytest.importorskip("bitbully_databases")
    result = answered("solve", stdin=".\n32164625\n")
    assert (result.returncode, result.stdout) == (0, ". 1\n32164625 11\n")
    result = answered("solve", "--no-book", stdin="32164625\n")
    assert (result.returncode, result.stdout) == (0, "32164625 11\n")


def test_no_book_is_an_option_of_the_exact_modes_only(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = refused(["move", "--no-book"], capsys)
    assert status == 2 and out == "" and "--no-book" in err
