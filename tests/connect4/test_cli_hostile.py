"""The command line's reading and answering, under hostile input (hypothesis, bounded).

In process, through :func:`gamelib.connect4.cli.run` with the real solver on a 4 x 4
board (where every position solves in milliseconds): no exception escapes, every
non-blank line gets exactly one answer or one message, every answer line reads back in,
and every message names its line.
"""

from __future__ import annotations

import io
import re
import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamelib.connect4.cli import EMPTY_BOARD, build_parser, input_lines, make_answer, run
from gamelib.games import ConnectFour

GAME = ConnectFour(4, 4)
ANSWER = make_answer(build_parser().parse_args(["solve", "--rows", "4", "--cols", "4"]), GAME)

# Mostly plausible tokens, with the characters that broke the command line before.
PIECES = st.sampled_from(
    ["1", "2", "3", "4", "5", "0", "00", "12", "1122", "4321", EMPTY_BOARD, " ", "\t",
     "\r", "\n", "\r\n", "\ufeff", "x", "-1", "\x00", "é", "\ufffd", "11111", "1 2 3"]
)
TEXT = st.lists(st.one_of(PIECES, st.text(max_size=3)), max_size=30).map("".join)


def lines_of(text: str) -> list[str]:
    """The lines the command line sees: universal newlines, as input_lines reads them."""
    stream = io.TextIOWrapper(io.BytesIO(text.encode("utf-8", "surrogatepass")), "utf-8")
    return list(input_lines(stream))


@settings(max_examples=150, deadline=2000, suppress_health_check=[HealthCheck.too_slow])
@given(TEXT)
def test_every_line_gets_one_answer_or_one_message(text: str) -> None:
    lines = lines_of(text)
    out, err = io.StringIO(), io.StringIO()
    started = time.perf_counter()
    status = run(lines, GAME, ANSWER, out, err)
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
    assert run([a + "\n" for a in answers], GAME, ANSWER, again, io.StringIO()) == 0
    assert again.getvalue().splitlines() == answers
