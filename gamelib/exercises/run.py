"""Running the student's code: each call caught, so that a report, not a traceback, says
what went wrong and in which line of the student's code."""

from __future__ import annotations

import bisect
import contextlib
import dis
import functools
import inspect
import itertools
import os
import re
import signal
import sys
import threading
import time
import types
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Final, ParamSpec, TypeVar, cast, overload

from gamelib.exercises.failures import (
    EXPECTED_VALUES,
    NotDone,
    Refused,
    StudentError,
    TimedOut,
    _is_library,
    _message,
    _where,
    is_stub,
    raised_line,
    refusal_line,
    restore_handled,
)
from gamelib.exercises.guard import (
    DelegationRefused,
    Forbidden,
    checking,
    refuse,
    refused_calls,
    refusing,
    student_running,
)
from gamelib.exercises.report import FAIL, CheckResult, Line, counted, not_done, shorten, show
from gamelib.game import GameError

DEFAULT_TIME_LIMIT: Final = 5.0
"""Seconds a single call of the student's code may take before the checker stops it."""

MAX_TIME_LIMIT: Final = 600.0
"""The largest time limit :func:`set_time_limit` accepts."""

DEFAULT_TOTAL_LIMIT: Final = 60.0
"""Seconds all the calls of the student's code in one check may take together."""

WALL_FACTOR: Final = 10.0
"""A call of the student's code may take this many times its time limit on the wall clock:
the limit counts CPU time, and this backstop stops a call that waits (``time.sleep``,
``input()``) rather than works. A machine with ten busy programs on two cores gives a call
about a fifth of a core, well inside it."""

MAX_ANSWER_ITEMS: Final = 100_000
"""The most items an answer of the student's code may have (a list, or what an iterator
gives): a larger one is refused, so that an endless generator cannot fill the memory."""

_limit = [DEFAULT_TIME_LIMIT, DEFAULT_TOTAL_LIMIT]
_SIGNALS: Final[Any] = getattr(signal, "_signal", signal)  # C functions, no enums: 10x cheaper


def set_time_limit(seconds: float = DEFAULT_TIME_LIMIT, total: float = DEFAULT_TOTAL_LIMIT
                   ) -> None:
    """Let each call of the student's code run at most ``seconds``, and all the calls of one
    check together at most ``total`` (numbers from 0.1 to :data:`MAX_TIME_LIMIT`; by
    default 5 s and 60 s).

    The limit counts the work the student's code does, not the time that passes: the CPU
    time of the thread running it (``time.thread_time``), so that a busy machine (a shared
    JupyterHub node, ten other programs on two cores) makes no correct solution look like an
    endless loop. A call that waits instead of working (``time.sleep``, ``input()``) is
    stopped after :data:`WALL_FACTOR` times its limit on the wall clock.

    How the limit acts: in the kernel's main thread on Linux and macOS a ``SIGALRM`` timer
    (``signal.setitimer``) interrupts the student's code, even a ``while True: pass``; where
    there is no such timer (Windows, Pyodide/JupyterLite, a thread other than the main one)
    a second thread raises the exception in the student's, or, with no threads, a trace
    function (``sys.settrace``, with an event per bytecode instruction in the student's
    frames) watches the clock, which makes the student's code several times slower but
    still stops any loop of Python code. Where the running thread's CPU time cannot be read
    (a thread other than the main one on macOS or Windows), the wall clock stands in. None
    of them stops a wait inside C code (a ``time.sleep(100)``, a huge ``10**10**8``): the
    limit then acts when it returns. Code that catches the limit's exception (``except
    BaseException:``, a bare ``except:``) has it raised again at every instruction until the
    function stops, and the report says so. Under a debugger (a trace function already set)
    there is no limit off the main thread.
    Raises GameError for a bad ``seconds`` or ``total``.
    """
    for label, value in (("time limit", seconds), ("total time limit", total)):
        if (not isinstance(value, (int, float)) or isinstance(value, bool)
                or not 0.1 <= value <= MAX_TIME_LIMIT):
            raise GameError(f"the {label} is a number of seconds from 0.1 to "
                            f"{MAX_TIME_LIMIT:g}, got {show(value, 40)}")
    _limit[:] = [float(seconds), float(total)]


def time_limit() -> float:
    """The seconds each call of the student's code may take (see :func:`set_time_limit`)."""
    return _limit[0]


def total_time_limit() -> float:
    """The seconds all calls of the student's code in one check may take together."""
    return _limit[1]


class OverBudget(BaseException):
    """The calls of the student's code in one check took more than the total time limit.
    A BaseException, so that it ends the whole check: :func:`checker` reports it."""

    def __init__(self, seconds: float, calls: int, where: str) -> None:
        super().__init__(seconds)
        self.seconds, self.calls, self.where = seconds, calls, where


class _Alarm(BaseException):
    """Raised inside the student's code when time is up. A BaseException, so that the
    student's ``except Exception`` does not swallow it."""


class Interrupted(BaseException):
    """The user pressed the stop button (KeyboardInterrupt) while the student's code ran;
    ``where`` is the line of it that ran. :func:`checker` turns it into a report."""

    def __init__(self, where: str) -> None:
        super().__init__(where)
        self.where = where


def _can_use_alarm() -> bool:
    """True where a SIGALRM timer can interrupt Python code: Linux and macOS, main thread.
    Pyodide (emscripten) and WASI may define the names but deliver no timer signal."""
    return (hasattr(signal, "setitimer") and hasattr(signal, "SIGALRM")
            and sys.platform not in ("emscripten", "wasi")
            and threading.current_thread() is threading.main_thread())


class _Rings:
    """How often the alarm rang in one call (``count``), whether the student's code caught
    it (``swallowed``: it still ran well after the first), and whether it rang because the
    call waited too long on the wall clock rather than worked too long (``waited``)."""

    def __init__(self) -> None:
        self.count, self.first, self.swallowed, self.waited = 0, 0.0, False, False

    def ring(self) -> None:
        now = time.monotonic()
        if not self.count:
            self.first = now
        elif now - self.first > 0.005:
            self.swallowed = True
        self.count += 1


def _cpu_clock() -> Callable[[], float]:
    """The running thread's CPU time in seconds (``time.thread_time``), or the wall clock
    where a platform has no such clock."""
    try:
        time.thread_time()
    except (OSError, AttributeError):  # pragma: no cover - Pyodide, some WASI builds
        return time.monotonic
    return time.thread_time


def _thread_cpu_clock(thread: int) -> Callable[[], float]:
    """A clock that any thread can read: the CPU time of the thread ``thread`` (an ident of
    :func:`threading.get_ident`); the wall clock where there is none (macOS, Windows)."""
    clock_id_of = getattr(time, "pthread_getcpuclockid", None)
    if clock_id_of is None:
        return time.monotonic
    try:
        clock_id = clock_id_of(thread)
        time.clock_gettime(clock_id)
    except (OSError, OverflowError, ValueError):
        return time.monotonic
    return functools.partial(time.clock_gettime, clock_id)


_MAIN_THREAD: Final = threading.main_thread().native_id
_SCHEDSTAT: Final[dict[int, int]] = {}
"""The open file of the main thread's ``schedstat`` (read at every call: opened once)."""


def _present_clock(thread: int) -> tuple[Callable[[], float], Callable[[], None]]:
    """``(clock, close)``: the seconds the thread ``thread`` (a native id) was present, the
    wall clock less the time it spent waiting for a CPU, as Linux counts it (the second
    figure of ``/proc/self/task/<id>/schedstat``), so that a busy machine does not look
    like a wait; the wall clock alone where that cannot be read. ``close()`` when done."""
    descriptor = _SCHEDSTAT.get(thread)
    if descriptor is None:
        try:
            descriptor = os.open(f"/proc/self/task/{thread}/schedstat", os.O_RDONLY)
        except (OSError, AttributeError):  # not Linux
            return time.monotonic, lambda: None
        if thread == _MAIN_THREAD:
            _SCHEDSTAT[thread] = descriptor
    file = descriptor
    queued = [0.0]

    def present() -> float:
        with contextlib.suppress(OSError, ValueError, IndexError):  # else the last figure
            queued[0] = int(os.pread(file, 64, 0).split()[1]) / 1e9
        return time.monotonic() - queued[0]

    def close() -> None:
        if thread != _MAIN_THREAD:
            os.close(file)

    return present, close


class _Limit:
    """When the code run under a limit of ``seconds`` must stop: once ``clock`` (the CPU time
    of the thread running it) has advanced ``seconds``, or once :data:`WALL_FACTOR` times
    ``seconds`` have passed on the wall clock without the thread waiting for a CPU
    (:func:`_present_clock`: the code waits rather than works). Inside the limit of an
    ``outer`` call of the same thread, the earlier ends hold. ``close()`` when done."""

    def __init__(self, seconds: float, clock: Callable[[], float], thread: int,
                 outer: _Limit | None) -> None:
        self.clock = clock
        self.present, self.close = _present_clock(thread)
        self.cpu_end = clock() + seconds
        self.wall_end = self.present() + WALL_FACTOR * seconds
        if outer is not None:
            self.cpu_end = min(self.cpu_end, clock() + (outer.cpu_end - outer.clock()))
            self.wall_end = min(self.wall_end,
                                self.present() + (outer.wall_end - outer.present()))

    def left(self) -> tuple[float, float]:
        """(CPU seconds left, seconds of presence left): the wall clock runs no slower than
        either, so a timer set to the smaller rings no later than an end."""
        return self.cpu_end - self.clock(), self.wall_end - self.present()

    def over(self, rings: _Rings) -> bool:
        """True once either end has passed; ``rings.waited`` then says which."""
        cpu, wall = self.left()
        if cpu > 0 and wall > 0:
            return False
        rings.waited = cpu > 0
        return True


_ACTIVE: Final = threading.local()
"""``limit``: the :class:`_Limit` of the code running under a limit in this thread, if any."""


def _insist(frame: Any) -> None:
    """Make the next instruction of the student's frames from ``frame`` outwards (and of
    the frames they start) raise :class:`_Alarm`: the time is up and the student's code
    caught the alarm. The trace ignores the event of the exception itself, so that it
    raises in the student's ``except`` clause, which then cannot catch it. (A trace
    function that raises is switched off by Python: the next ring insists again.)
    Library frames are left alone: the alarm leaves them as any exception does."""

    def again(f: Any, event: str, arg: Any) -> Any:
        if _is_library(f.f_code.co_filename):
            return None
        f.f_trace_opcodes = True
        if event in ("exception", "return"):
            return again
        raise _Alarm()

    while frame is not None and frame.f_code is not call_student.__code__:
        if not _is_library(frame.f_code.co_filename):
            frame.f_trace = again
            frame.f_trace_opcodes = True
        frame = frame.f_back
    sys.settrace(again)


def _async_raiser() -> Callable[[int, type[BaseException]], Any] | None:
    """``set(thread_id, exception)``: raise ``exception`` in that thread at its next check;
    None where Python offers no such call (no ``ctypes``, no threads: Pyodide)."""
    if sys.platform in ("emscripten", "wasi"):
        return None
    try:
        import ctypes
        set_async = ctypes.pythonapi.PyThreadState_SetAsyncExc
    except (ImportError, AttributeError, OSError):
        return None

    def raise_in(thread: int, error: type[BaseException]) -> Any:
        return set_async(ctypes.c_ulong(thread), ctypes.py_object(error))

    return raise_in


@contextmanager
def _watchdog(limit: _Limit, rings: _Rings,
              raise_in: Callable[[int, type[BaseException]], Any]) -> Iterator[None]:
    """The limit off the main thread (and on Windows): a second thread that raises
    :class:`_Alarm` in this one once ``limit`` is over and every 10 ms after, until the code
    inside stops, so that neither a one-line loop nor an ``except BaseException:`` escapes
    it. ``limit.clock`` must be one the second thread can read."""
    target = threading.get_ident()
    stop = threading.Event()

    class Alarm(_Alarm):
        """Made in the student's thread where it is raised: if the student's code caught
        an earlier one, the frames it runs in raise it again at every instruction."""

        def __init__(self) -> None:
            super().__init__()
            if rings.swallowed:
                _insist(sys._getframe(1))

    def watch() -> None:
        while not limit.over(rings):  # CPU time advances no faster than the wall clock
            if stop.wait(max(min(limit.left()), 1e-3)):
                return
        while not stop.is_set():
            rings.ring()
            raise_in(target, Alarm)
            stop.wait(0.01)

    dog = threading.Thread(target=watch, name="gamelib time limit", daemon=True)
    dog.start()
    outer_trace = sys.gettrace()
    try:
        yield
    finally:
        stop.set()
        while True:  # the alarm may arrive here too: take each one until the dog is gone
            try:
                dog.join()
                # The dog's last alarm is taken here (at a jump back), not cancelled: a cancel
                # left CPython 3.11's "exception pending" flag on, and later limits hung.
                for _ in range(2):
                    pass
                if rings.swallowed:
                    sys.settrace(outer_trace)
                break
            except _Alarm:
                continue


@contextmanager
def _deadline(seconds: float, rings: _Rings | None = None) -> Iterator[None]:
    """Raise :class:`_Alarm` in the code run inside once it has used ``seconds`` of CPU time,
    or waited :data:`WALL_FACTOR` times as long (:class:`_Limit`). Nested deadlines keep
    the earlier ends; the outer timer is restored afterwards. ``rings`` counts the alarms
    raised (more than one: the code inside caught one) and says which end was met."""
    rings = rings or _Rings()
    outer_limit: _Limit | None = getattr(_ACTIVE, "limit", None)
    if _can_use_alarm():
        limit = _Limit(seconds, _cpu_clock(), threading.get_native_id(), outer_limit)
        outer_left, _ = signal.getitimer(signal.ITIMER_REAL)
        outer_handler = _SIGNALS.getsignal(signal.SIGALRM)
        outer_trace = sys.gettrace()
        if outer_left:
            limit.wall_end = min(limit.wall_end, limit.present() + outer_left)

        def ring(signum: int, frame: Any) -> None:
            if ended:  # the code inside is over: an alarm handled now must not ring again
                return
            if rings.count and frame is not None and _is_library(frame.f_code.co_filename):
                # the alarm is on its way out through gamelib's code: let it go
                signal.setitimer(signal.ITIMER_REAL, 0.01)
                return
            if not rings.count and not limit.over(rings):
                # the machine is busy: the code has not used its CPU time yet
                signal.setitimer(signal.ITIMER_REAL, max(min(limit.left()), 1e-3))
                return
            rings.ring()
            if rings.swallowed:  # the student's code caught the first alarm
                _insist(frame)
            # Ring again soon, in case the student's code swallows this one as well.
            signal.setitimer(signal.ITIMER_REAL, 0.01)
            raise _Alarm()

        started, ended = time.monotonic(), False
        _ACTIVE.limit = limit
        _SIGNALS.signal(signal.SIGALRM, ring)
        signal.setitimer(signal.ITIMER_REAL, max(min(limit.left()), 1e-3))
        try:
            yield
        finally:
            # First: an alarm already signalled runs `ring` later (in signal() at the latest),
            # which re-armed the timer under the outer handler: the default one kills.
            ended = True
            signal.setitimer(signal.ITIMER_REAL, 0)
            _SIGNALS.signal(signal.SIGALRM, outer_handler)
            _ACTIVE.limit = outer_limit
            limit.close()
            if rings.swallowed:
                sys.settrace(outer_trace)
            if outer_left:
                left = outer_left - (time.monotonic() - started)
                signal.setitimer(signal.ITIMER_REAL, max(left, 1e-3))
        return
    raise_in = _async_raiser()
    if raise_in is not None:
        limit = _Limit(seconds, _thread_cpu_clock(threading.get_ident()),
                       threading.get_native_id(), outer_limit)
        _ACTIVE.limit = limit
        try:
            with _watchdog(limit, rings, raise_in):
                yield
        finally:
            _ACTIVE.limit = outer_limit
            limit.close()
        return
    outer = sys.gettrace()
    if outer is not None and not getattr(outer, "_gamelib_deadline", False):
        yield  # a debugger or coverage tool traces: leave it alone, no limit
        return
    limit = _Limit(seconds, _cpu_clock(), threading.get_native_id(), outer_limit)

    def trace(frame: Any, event: str, arg: Any) -> Any:
        if event == "call" and _one_line_loop(frame.f_code) and \
                not _is_library(frame.f_code.co_filename):
            # an event per instruction, so that a one-line `while True: pass` is stopped
            frame.f_trace_opcodes = True
        if limit.over(rings):
            rings.ring()
            raise _Alarm()  # Python switches the trace off: a caught alarm is not repeated
        return trace

    trace._gamelib_deadline = True  # type: ignore[attr-defined]
    _ACTIVE.limit = limit
    sys.settrace(trace)
    try:
        yield
    finally:
        sys.settrace(outer)
        _ACTIVE.limit = outer_limit
        limit.close()


@functools.lru_cache(maxsize=4096)
def _one_line_loop(code: types.CodeType) -> bool:
    """True if ``code`` has a loop within one line (``while True: pass``, a comprehension):
    the trace fallback needs an event per instruction there, as such a loop makes no line
    events. Elsewhere line events suffice, and cost far less (an event per instruction
    makes a tight loop 30 to 40 times slower)."""
    starts = sorted(dis.findlinestarts(code))
    if not starts:
        return False
    offsets = [offset for offset, _ in starts]

    def line(offset: int) -> int | None:
        index = bisect.bisect_right(offsets, offset) - 1
        return starts[index][1] if index >= 0 else None

    for instruction in dis.get_instructions(code):
        target = instruction.argval
        backward = instruction.opname.startswith("JUMP_BACKWARD") or (
            instruction.opname == "JUMP_ABSOLUTE" and isinstance(target, int)
            and target <= instruction.offset)
        if backward and isinstance(target, int) and line(target) == line(instruction.offset):
            return True
    return False


class _Calls:
    """The calls of the student's code in the running check: their number, the CPU seconds
    of the check's total time limit still left (None: no check runs, no total), and when
    the total's wall-clock backstop ends (:data:`WALL_FACTOR` times the total)."""

    def __init__(self) -> None:
        self.count = 0
        self.left: float | None = None
        self.wall_end = 0.0


_CALLS: Final = _Calls()


@contextmanager
def _total_budget() -> Iterator[None]:
    """The checker's side of the total time limit: the calls of the student's code inside
    share :func:`total_time_limit` seconds of CPU time (an inner check keeps the outer
    budget)."""
    saved = (_CALLS.count, _CALLS.left, _CALLS.wall_end)
    if _CALLS.left is None:
        _CALLS.count, _CALLS.left = 0, total_time_limit()
        _CALLS.wall_end = time.monotonic() + WALL_FACTOR * total_time_limit()
    try:
        yield
    finally:
        _CALLS.count, _CALLS.left, _CALLS.wall_end = saved


_SAFE_TYPES: Final = (int, float, complex, str, bytes, bool, type(None), type(Ellipsis))
_CONTAINERS: Final = (list, tuple, set, frozenset, dict)
MAX_ANSWER_DEPTH: Final = 50
"""The deepest nesting of containers in an answer that a checker reads."""


class _TooBig(Exception):
    """The student's answer is larger than a checker reads, or unusable."""


class _Opaque:
    """Stands in for an object of the student's own class in an answer: its ``repr`` as it
    was taken under the limit, ``==`` and ``hash`` by identity, so that the checker can
    compare, hash and show it without running the student's code again. Its class bears
    the name of the student's class, for messages that name the type."""

    __slots__ = ("_shown",)

    def __init__(self, shown: str) -> None:
        self._shown = shown

    def __repr__(self) -> str:
        return self._shown


@functools.lru_cache(maxsize=256)
def _opaque_class(name: str, hashable: bool) -> type[_Opaque]:
    """A subclass of :class:`_Opaque` named ``name``, unhashable as its original was."""
    return type(name, (_Opaque,), {"__slots__": ()} if hashable else
                {"__slots__": (), "__hash__": None})


def _is_library_type(kind: type) -> bool:
    """True for a type of Python, numpy, gamelib or another installed package."""
    module = sys.modules.get(kind.__module__)
    return kind.__module__ == "builtins" or _is_library(
        getattr(module, "__file__", None) or "<unknown>")


def _settle(answer: Any) -> Any:
    """The student's ``answer`` made of plain values, run under the call's time limit, so
    that the checker can compare, hash and show it afterwards without running the
    student's code: lists, tuples, sets, frozensets and dicts (their subclasses too) are
    rebuilt of plain items; an iterator, or any other iterable that is not a string or a
    numpy array (a generator, ``itertools.count()``, an object with ``__iter__``), is read
    into a list; each of them may hold at most :data:`MAX_ANSWER_ITEMS` items, at most
    :data:`MAX_ANSWER_DEPTH` levels deep, or the answer is refused (the time limit bounds
    the rest). Numbers, strings,
    numpy's values and functions stay as they are; any other object of the student's own
    class becomes an :class:`_Opaque` stand-in after its ``repr``, ``hash`` and ``==`` are
    tried once (one that raises is refused with a message, one that loops meets the
    limit)."""
    return _plain(answer, 0) if type(answer) not in _SAFE_TYPES else answer


def _plain(value: Any, depth: int) -> Any:
    kind = type(value)
    if kind in _SAFE_TYPES:
        return value
    if depth > MAX_ANSWER_DEPTH:
        raise _TooBig(f"containers nested more than {MAX_ANSWER_DEPTH} levels deep (does "
                      "a list hold itself?)")
    if isinstance(value, _CONTAINERS):
        base = next(b for b in _CONTAINERS if isinstance(value, b))
        items = _read(dict.items(cast(dict[Any, Any], value)) if base is dict else value,
                      kind)
        plain = [_plain(item, depth + 1) for item in items]
        if base is dict:
            return {_plain_key(k): v for k, v in plain}
        return base(plain) if base in (set, frozenset) else (
            tuple(plain) if base is tuple else plain)
    library = _is_library_type(kind)
    if library and kind.__module__ == "numpy":
        if getattr(getattr(value, "dtype", None), "kind", "") == "O":  # objects inside
            return _plain(value.tolist(), depth)
        return value
    if callable(value) or isinstance(value, type):
        return value
    if (isinstance(value, Iterator) or (not library and hasattr(kind, "__iter__"))
            or kind in (range, map, filter, zip, enumerate, reversed)
            or kind.__name__ in ("dict_keys", "dict_values", "dict_items")):
        return [_plain(item, depth + 1) for item in _read(value, kind)]
    if library:
        return value
    if isinstance(value, (int, float, str, bytes, complex)):  # a subclass of the student's
        base_type: Any = next(b for b in (int, float, complex, str, bytes)
                              if isinstance(value, b))
        return _plain(base_type(value), depth)
    return _stand_in(value, kind)


def _plain_key(key: Any) -> Any:
    try:
        hash(key)
    except TypeError:
        raise _TooBig(f"a dict with a key {type(key).__name__} that cannot be a key "
                      "once read") from None
    return key


def _read(items: Any, kind: type) -> list[Any]:
    """The items of ``items``, if there are at most :data:`MAX_ANSWER_ITEMS`."""
    left = MAX_ANSWER_ITEMS
    try:
        size = len(items) if isinstance(items, _CONTAINERS) else None
    except Exception:
        size = None
    if size is not None and size > left:
        raise _TooBig(f"a {kind.__name__} of {size:,} items (at most {MAX_ANSWER_ITEMS:,} "
                      "are read)")
    read = list(itertools.islice(items, left + 1))
    if len(read) > left:
        what = "an iterator" if isinstance(items, Iterator) else "an iterable"
        raise _TooBig(f"{what} of {kind.__name__} that gave more than "
                      f"{MAX_ANSWER_ITEMS:,} items (does it ever end? a generator without "
                      "a way out, itertools.count()?)")
    return read


def _stand_in(value: Any, kind: type) -> _Opaque:
    """An :class:`_Opaque` for the student's ``value``, after its dunders were tried."""
    try:
        shown = repr(value)
    except Exception:
        shown = f"<{kind.__name__} object>"
    hashable = getattr(kind, "__hash__", None) is not None
    for name, probe in (("__hash__", hash), ("__eq__", lambda v: v == v)):
        if name == "__hash__" and not hashable:
            continue  # unhashable: so is the stand-in; each checker says so where it must
        try:
            probe(value)
        except Exception as error:
            raise _TooBig(f"an object of type {kind.__name__} whose {name} raised "
                          f"{type(error).__name__}: {_message(error)}") from None
    return _opaque_class(kind.__name__, hashable)(shown[:1000])


def call_student(function: Callable[..., Any], *args: Any, first: bool = False,
                 read: Callable[[], Any] | None = None) -> Any:
    """``function(*args)`` under the time limit (:func:`time_limit`). Instead of letting the
    student's exception through it raises :class:`NotDone` (NotImplementedError: a stub),
    :class:`StudentError` (any other exception, SystemExit included, or an answer too
    large to read), :class:`TimedOut` (no return in time), :class:`Refused` (a call of a
    reference the exercise forbids) or :class:`Interrupted` (the stop button); and
    :class:`OverBudget` once the calls of the running check have used up its total time
    limit. The answer is read under the limit and comes back made of plain values
    (:func:`_settle`): an iterator as a list, an object of the student's class as a
    stand-in. With ``read`` the result is the pair ``(answer, read())``: ``read`` reads what
    the call wrote into what the checker handed it (the cache, the nodes of a path), under
    the same limit, and its result is made plain the same way. With ``first=True`` (the
    check's first call) an answer ``...`` (:func:`is_stub`), a placeholder left in the
    template, is a stub too."""
    seconds = time_limit()
    budget_left = _CALLS.left
    if budget_left is not None:
        if budget_left <= 0 or time.monotonic() >= _CALLS.wall_end:
            raise OverBudget(total_time_limit(), _CALLS.count, "")
        seconds = min(seconds, budget_left)
    _CALLS.count += 1
    refused = len(refused_calls())
    rings = _Rings()
    clock = _cpu_clock()
    started = clock()
    try:
        try:
            with _deadline(seconds, rings), refusing():
                raw = function(*args)
                answer = _settle(raw if read is None else (raw, read()))
        finally:
            if _CALLS.left is not None:
                _CALLS.left -= clock() - started
    except DelegationRefused as refusal:
        raise Refused(refusal.name, _where(refusal)) from None
    except _Alarm as alarm:
        if budget_left is not None and seconds < time_limit() and not rings.waited:
            raise OverBudget(total_time_limit(), _CALLS.count, _where(alarm)) from None
        if rings.waited:
            raise TimedOut(WALL_FACTOR * seconds, _where(alarm), rings.swallowed,
                           waited=True) from None
        raise TimedOut(seconds, _where(alarm), rings.swallowed) from None
    except KeyboardInterrupt as stop:
        raise Interrupted(_where(stop)) from None
    except NotImplementedError as error:
        raise NotDone(_where(error)) from None
    except RecursionError as error:
        raise StudentError(
            "RecursionError: the recursion went too deep (does every call get closer to a "
            "finished state, or to an answer in the cache?)",
            _where(error),
        ) from None
    except _TooBig as error:
        raise StudentError(f"it returned {error}", "") from None
    except SystemExit as error:
        raise StudentError(f"SystemExit({show(error.code, 40)}): your code called exit() or "
                           "sys.exit(); return a value instead", _where(error)) from None
    except Exception as error:
        summary = f"{type(error).__name__}: {_message(error)}"
        raise StudentError(shorten(summary.rstrip(": ")), _where(error)) from None
    calls = refused_calls()
    if len(calls) > refused:  # the student's code caught the refusal
        raise Refused(calls[refused], "")
    if first and is_stub(raw):
        raise NotDone()
    return answer


class CheckEnded(Exception):
    """A check that ends early with its report ``result``: raised by :func:`ask`, returned
    by the :func:`checker` around the public checker."""

    def __init__(self, result: CheckResult) -> None:
        super().__init__(result.title)
        self.result = result


def ask(title: str, name: str, call: str, function: Callable[..., Any], *args: Any,
        first: bool = False, hint: str = "",
        context: Callable[[], Sequence[tuple[str, str]]] | None = None,
        read: Callable[[], Any] | None = None) -> Any:
    """The student's answer ``function(*args)`` (through :func:`call_student`), or the end of
    the check: :class:`CheckEnded` with the report ``title`` on the student's function ``name``.

    A stub (``NotImplementedError``, or ``...`` as the answer when ``first`` says this is the
    first call) ends it with "not done yet" (:func:`not_done`); an exception or a timeout
    ends it with the line of :func:`raised_line` on ``call``, the call as the report writes
    it, with the details ``context()`` (e.g. the position) before its own and, for an
    exception, ``hint``. ``read`` as for :func:`call_student`.
    """
    try:
        return call_student(function, *args, first=first, read=read)
    except NotDone as stub:
        raise CheckEnded(not_done(title, name, stub.where)) from None
    except (StudentError, TimedOut) as error:
        line = raised_line(call, error, hint, () if context is None else context())
        raise CheckEnded(CheckResult(title, (line,))) from None


@overload
def checker(function: Callable[P, CheckResult], /) -> Callable[P, CheckResult]: ...


@overload
def checker(*, forbid: Forbidden) -> Callable[[Callable[P, CheckResult]],
                                              Callable[P, CheckResult]]: ...


def checker(function: Callable[P, CheckResult] | None = None, /, *,
            forbid: Forbidden | None = None) -> Any:
    """Decorate a public checker: its door, its guard and its way out.

    The door: every parameter of the checker annotated as a ``Callable`` is a function of
    the student's, and a value that is not callable (say ``check_x(x())`` instead of
    ``check_x(x)``) is refused with :class:`~gamelib.game.GameError` before anything runs
    (:func:`require_function`). The guard (``@checker(forbid=...)``): while
    :func:`call_student` runs the student's code, the references in ``forbid`` refuse to
    run (:mod:`gamelib.exercises.guard`); a check in which the student's code called one
    fails with one line that names the call, whatever else it found. A checker called from
    inside the student's code (while its own check runs) is refused the same way. The way
    out: the stop button (KeyboardInterrupt) pressed while it runs gives a report that
    says so, not a traceback through gamelib, and a check that :func:`ask` ended early
    (:class:`CheckEnded`) gives its report.
    """
    if function is None:
        return functools.partial(_checker, forbid=forbid)
    return _checker(function, forbid=forbid)


def _checker(function: Callable[P, CheckResult], forbid: Forbidden | None
             ) -> Callable[P, CheckResult]:
    signature = inspect.signature(function)
    students = [name for name, parameter in signature.parameters.items()
                if _is_callable_annotation(parameter.annotation)]
    name = function.__name__

    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> CheckResult:
        if student_running():  # the student's function calls a checker
            refuse(f"the checker {name}")
        given = signature.bind_partial(*args, **kwargs).arguments
        for student in students:
            if student in given:
                require_function(name, student, given[student])

        def run() -> CheckResult:
            with checking(forbid) as refused, _total_budget():
                try:
                    result = function(*args, **kwargs)
                except CheckEnded as ended:
                    result = ended.result
                except OverBudget as over:
                    details = (("where", over.where),) if over.where else ()
                    hint = ("is each call much slower than it needs to be? gamelib.exercises"
                            ".set_time_limit(seconds, total) allows more time")
                    return CheckResult(name, (Line(
                        FAIL, f"stopped after {counted(over.calls, 'call')} of your function: the "
                              f"check may take {over.seconds:g} s in all",
                        (*details, ("hint", hint))),))
                except (KeyboardInterrupt, Interrupted) as stop:
                    where = getattr(stop, "where", "")
                    details = (("where", where),) if where else ()
                    return CheckResult(name, (Line(
                        FAIL, "stopped: you interrupted the check (the stop button); run the cell "
                              "again to check", details),))
                if refused:
                    return CheckResult(result.title, (refusal_line(refused),),
                                       facts={"refused": list(refused)})
                return result

        before = sys.exc_info()  # see restore_handled
        try:
            return run()
        finally:
            restore_handled(before)

    return wrapper


def expected(function: Callable[P, T]) -> Callable[P, T]:
    """``function``, a checker's computation of its expected values, with its results kept
    (as ``functools.cache`` keeps them: computed once per process, every check asks the
    same) where only a call reaches them, and that call refused while the student's code
    runs (:func:`~gamelib.exercises.guard.refuse`): the expected values are not there for
    the taking as module attributes during a check. The checker's own calls, between the
    student's, read them as before."""
    values: dict[tuple[Any, ...], T] = {}
    name = f"{function.__module__.rsplit('.', 1)[-1]}.{function.__qualname__}"

    def cached(*args: P.args, **kwargs: P.kwargs) -> T:
        if student_running():
            refuse(f"{EXPECTED_VALUES} {name}")
        key = (*args, *sorted(kwargs.items()))
        if key not in values:
            values[key] = function(*args, **kwargs)
        return values[key]

    cached.__name__, cached.__qualname__ = function.__name__, function.__qualname__
    cached.__doc__ = function.__doc__
    return cached


def _is_callable_annotation(annotation: object) -> bool:
    """True for ``Callable[...]`` written as text (``from __future__ import annotations``)
    or as the object itself."""
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return re.match(r"(collections\.abc\.|typing\.)?Callable\b", text) is not None


def require_function(checker: str, name: str, value: object) -> None:
    """Raise :class:`GameError` unless ``value``, the argument ``name`` of the checker
    ``checker``, is callable: a student's function itself, not its result."""
    if not callable(value):
        raise GameError(
            f"{checker} needs your function {name} itself (the name without parentheses), "
            f"got {show(value, 60)}"
        )


T = TypeVar("T")
P = ParamSpec("P")


