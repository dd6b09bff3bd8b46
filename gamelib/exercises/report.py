"""The report a checker returns, and how to write a checker.

A checker is a function ``check_x(student_function, ...) -> CheckResult``. The report is a
titled list of :class:`Line` objects, each with a status (:data:`PASS` ``✔``, :data:`FAIL`
``✘``, :data:`TODO` ``…`` not done yet, :data:`INFO` ``·`` a remark) and labelled details
(``("position", ...)``, ``("expected", ...)``, ``("returned", ...)``, ``("hint", ...)``).
Jupyter shows it as HTML (``_repr_html_``), ``print`` and ``repr`` as text. ``passed`` is
True when the code is complete, no line failed and one passed; :meth:`CheckResult.require`
is the assert form for autograded cells (nbgrader, otter-grader)::

    check_next_states(next_states)             # a student's cell: the friendly report
    check_next_states(next_states).require()   # a graded test cell: AssertionError unless passed

How to write a new checker (the API of this package; ``gamelib.exercises.ex01_nim`` is a
short example):

1. Decorate it with :func:`gamelib.exercises.run.checker` and annotate each of the
   student's functions among its parameters as a ``Callable``: the decorator is the door
   that refuses, with :class:`~gamelib.game.GameError`, a value that is not callable.
   Check any other argument of the caller's at the start of the checker.
2. Call the student's code only through :func:`gamelib.exercises.run.call_student`
   (``call_student(f, *args)``). It runs the call under the time limit and turns whatever
   goes wrong into one of three exceptions, each rendered by
   :func:`gamelib.exercises.failures.raised_line` (``raised_line(call_text, error)``, a FAIL
   line that names the line of the *student's* code):

   * :class:`~gamelib.exercises.failures.NotDone`: the stub still raises NotImplementedError;
     answer with ``not_done(title, "x", error.where)`` (a report with ``done`` False);
   * :class:`~gamelib.exercises.failures.StudentError`: any other exception;
   * :class:`~gamelib.exercises.failures.TimedOut`: no return within the time limit.

   Catch them as ``except STUDENT_FAILURES as error`` (the tuple of all three); add the
   position the student's function was working on to the line's details.
3. Judge each answer with :func:`gamelib.exercises.failures.returned_none_line` first (a
   function that forgot ``return``), then compare values as numbers:
   :func:`gamelib.exercises.answers.number_problem` accepts ints, floats and numpy numbers
   alike and names a wrong type.
4. For one call per test case, :func:`gamelib.exercises.answers.check_cases` does all of this
   and writes "wrong on 3 of 266 positions; the first: ...".
5. Decorate the public checker with :func:`gamelib.exercises.run.checker`: the stop button
   (KeyboardInterrupt) then ends it with a report, never a traceback.
6. Keep it deterministic (seeded ``random.Random``; :func:`gamelib.exercises.positions.
   sample_positions`), bound every size the caller may pass (refuse larger with GameError),
   and put the key numbers in ``facts`` for tests.
"""

from __future__ import annotations

import functools
import html
import linecache
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

# ---------------------------------------------------------------------------------------------
# The report
# ---------------------------------------------------------------------------------------------

PASS: Final = "pass"
"""A check that passed (shown ``✔``)."""
FAIL: Final = "fail"
"""A check that failed (shown ``✘``)."""
TODO: Final = "todo"
"""A part the student has not written yet (shown ``…``)."""
INFO: Final = "info"
"""A remark that is neither a pass nor a failure (shown ``·``)."""

_SYMBOL: Final = {PASS: "✔", FAIL: "✘", TODO: "…", INFO: "·"}
_COLOUR: Final = {PASS: "#1a7f37", FAIL: "#cf222e", TODO: "#9a6700", INFO: "#57606a"}


@dataclass(frozen=True)
class Line:
    """One line of a report: a status, a sentence, and labelled details below it.

    ``status`` is :data:`PASS`, :data:`FAIL`, :data:`TODO` or :data:`INFO`. Each detail is
    a pair ``(label, text)`` such as ``("expected", "12 states")``; a text with several
    lines (a board picture) is shown as a block.
    """

    status: str
    text: str
    details: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class CheckResult:
    """What a checker found: a titled list of :class:`Line` objects.

    ``done`` is False when (part of) the student's code is still a stub. ``facts`` holds
    the key numbers of the check for programs and tests (e.g. ``{"wins": 12}``); it is not
    part of the report. ``repr()`` is the plain-text report, ``_repr_html_()`` the same
    report for Jupyter.
    """

    title: str
    lines: tuple[Line, ...]
    done: bool = True
    facts: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def passed(self) -> bool:
        """True iff the code is complete, no check failed and at least one passed."""
        statuses = [line.status for line in self.lines]
        return self.done and FAIL not in statuses and PASS in statuses

    @property
    def failures(self) -> list[Line]:
        """The lines of the checks that failed."""
        return [line for line in self.lines if line.status == FAIL]

    @property
    def require(self) -> Callable[[], None]:
        """The assert form of the check, for autograded cells: ``result.require()`` returns
        None if the check :attr:`passed`, else raises AssertionError with the report's text
        as its message.

        >>> CheckResult("demo", (Line(PASS, "fine"),)).require()
        >>> CheckResult("demo", (Line(FAIL, "wrong"),)).require()
        Traceback (most recent call last):
        ...
        AssertionError: demo: failed
        ✘ wrong

        A property that returns the call, so that the AssertionError is raised by a builtin
        (``exec``) and its traceback shows the student's cell and no file inside gamelib: the
        saved output of a graded cell is the same in every checkout.
        """
        if self.passed:
            return _passes
        return functools.partial(exec, _RAISE, {"report": repr(self)})

    def headline(self) -> str:
        """The first line of the report: the title and the verdict."""
        failed = len(self.failures)
        checks = sum(line.status in (PASS, FAIL) for line in self.lines)
        if self.passed:
            verdict = "passed" if checks == 1 else f"all {checks} checks passed"
        elif failed:
            verdict = "failed" if checks == 1 else f"{failed} of {checks} checks failed"
        elif not self.done:
            verdict = "not done yet"
        else:
            verdict = "nothing was checked"
        return f"{self.title}: {verdict}"

    def __repr__(self) -> str:
        out = [self.headline()]
        for line in self.lines:
            out.append(f"{_SYMBOL[line.status]} {line.text}")
            width = max((len(label) for label, _ in line.details), default=0)
            for label, text in line.details:
                first, *rest = text.split("\n")
                out.append(f"    {label + ':':<{width + 1}} {first}")
                out.extend(f"    {'':<{width + 1}} {more}" for more in rest)
        return "\n".join(out)

    def _repr_html_(self) -> str:
        colour = _COLOUR[PASS] if self.passed else _COLOUR[FAIL if self.failures else TODO]
        parts = [
            f'<div class="gamelib-check" style="border-left: 5px solid {colour}; '
            'padding: 0.3em 0.8em; margin: 0.3em 0; line-height: 1.45">',
            f'<div style="font-weight: bold; color: {colour}">{_esc(self.headline())}</div>',
        ]
        for line in self.lines:
            symbol_colour = _COLOUR[line.status]
            parts.append(
                f'<div><span style="color: {symbol_colour}; font-weight: bold">'
                f"{_SYMBOL[line.status]}</span> {_prose(line.text)}</div>"
            )
            for label, text in line.details:
                label_html = f'<span style="color: {_COLOUR[INFO]}">{_esc(label)}:</span>'
                if "\n" in text:
                    body = (f'<pre style="margin: 0.1em 0 0.3em 0; line-height: 1.2">'
                            f"{_esc(text)}</pre>")
                elif label in _PROSE_LABELS:
                    body = " " + _prose(text)
                else:
                    body = f" <code>{_esc(text)}</code>"
                parts.append(f'<div style="margin-left: 1.6em">{label_html}{body}</div>')
        parts.append("</div>")
        return "\n".join(parts)


_RAISE_SOURCE: Final = "raise AssertionError(report)  # the check above did not pass\n"
_RAISE_FILE: Final = "<gamelib check>"
_RAISE: Final = compile(_RAISE_SOURCE, _RAISE_FILE, "exec")
# Tracebacks show this line as the source of <gamelib check> (mtime None: never dropped).
linecache.cache[_RAISE_FILE] = (len(_RAISE_SOURCE), None, [_RAISE_SOURCE], _RAISE_FILE)


def _passes() -> None:
    """What :attr:`CheckResult.require` calls for a check that passed: nothing."""


_PROSE_LABELS: Final = frozenset({"hint", "note", "says", "truth", "problem"})
"""Detail labels whose text is a sentence; the others show code or data."""


def _esc(text: str) -> str:
    return html.escape(text, quote=False)


def _prose(text: str) -> str:
    """``text`` as HTML, with the parts between backticks shown as code."""
    pieces = _esc(text).split("`")
    if len(pieces) % 2 == 0:  # an odd number of backticks: show them as they are
        return _esc(text)
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(pieces))


def not_done(title: str, what: str, where: str = "") -> CheckResult:
    """The report for a stub: nothing to check yet."""
    text = f"{what} is not done yet: write it in place of `raise NotImplementedError`"
    # Where the stub raised is worth saying only if it is not in the function itself.
    helpful = where and not where.startswith(f"in {what},")
    details = (("note", f"NotImplementedError was raised {where}"),) if helpful else ()
    return CheckResult(
        title,
        (Line(TODO, text, details), Line(INFO, "then run its cell and this one again")),
        done=False,
    )


def shorten(text: str, limit: int = 160) -> str:
    text = " ".join(text.split()) if "\n" not in text else text
    return text if len(text) <= limit else text[: limit - 1] + "…"


def show(value: object, limit: int = 160) -> str:
    """``repr(value)``, shortened for a report; an int of more than 40 digits is shown by
    its first and last digits and its length (Python refuses to write one of over 4,300)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 133:
        return _huge_int(value)
    try:
        shown = repr(value)
    except Exception:  # a student's object with a broken __repr__
        shown = f"<{type(value).__name__} object>"
    return shorten(shown, limit)


def _huge_int(value: int) -> str:
    """``10000…00000 (an int of 401 digits)``, without writing every digit."""
    sign = "-" if value < 0 else ""
    value = abs(value)
    digits = len(str(value)) if value.bit_length() < 14_000 else None
    if digits is None:  # about log10(2) digits per bit: 4,300 digits need 14,000 bits
        rough = int(value.bit_length() * 0.30103)
        return f"{sign}an int of about {rough:,} digits"
    text = str(value)
    return f"{sign}{text[:5]}…{text[-5:]} (an int of {digits:,} digits)"


def signed(value: float) -> str:
    """A value with its sign: ``+1``, ``0``, ``-1``, ``+0.5``."""
    return "0" if value == 0 else f"{value:+g}"


def counted(n: int, noun: str, plural: str = "") -> str:
    """``n`` with its noun: ``1 state``, ``2 states``, ``0 losses`` (with ``plural``)."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def listing(items: list[Any], most: int = 3) -> str:
    shown = ", ".join(show(item, 60) for item in items[:most])
    more = len(items) - most
    return shown + (f" and {more} more" if more > 0 else "")

