"""The time limit on the student's code: it counts the CPU time of the thread that runs
the code (a busy machine changes nothing), stops a call that waits rather than works after
:data:`WALL_FACTOR` times the limit, and interrupts even a one-line loop or code that
catches the exception that stops it. :func:`gamelib.exercises.run.call_student` runs the
student's code inside :func:`_deadline`."""

from __future__ import annotations

import bisect
import contextlib
import dis
import functools
import math
import os
import signal
import sys
import threading
import time
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Final

from gamelib.exercises.failures import _is_library

WALL_FACTOR: Final = 10.0
"""A call of the student's code may take this many times its time limit on the wall clock,
less the time its thread waited for a CPU (:func:`_present_clock`; the wall clock alone
where Linux's figure is missing): the limit counts CPU time, and this backstop stops a call
that waits (``time.sleep``, ``input()``) rather than works. Where only the wall clock is
known, a machine with ten busy programs on two cores gives a call about a fifth of a core,
still inside it."""

_SIGNALS: Final[Any] = getattr(signal, "_signal", signal)  # C functions, no enums: 10x cheaper


class _Alarm(BaseException):
    """Raised inside the student's code when time is up. A BaseException, so that the
    student's ``except Exception`` does not swallow it."""


def _can_use_alarm() -> bool:
    """True where a SIGALRM timer can interrupt Python code: Linux and macOS, main thread.
    Pyodide (emscripten) and WASI may define the names but deliver no timer signal."""
    return (hasattr(signal, "setitimer") and hasattr(signal, "SIGALRM")
            and sys.platform not in ("emscripten", "wasi")
            and threading.current_thread() is threading.main_thread())


class _Rings:
    """How often the alarm rang in one call (``count``), whether the student's code caught
    it (``swallowed``: it still ran well after the first), and whether it rang because the
    call waited too long on the wall clock rather than worked too long (``waited``).
    ``boundary``: the code of the frame that called the student's code; the alarm insists
    (:func:`_insist`) only in the frames inside it."""

    def __init__(self, boundary: types.CodeType | None = None) -> None:
        self.count, self.first, self.swallowed, self.waited = 0, 0.0, False, False
        self.boundary = boundary

    def ring(self) -> None:
        now = time.monotonic()
        if not self.count:
            self.first = now
        elif now - self.first > 0.005:
            self.swallowed = True
        self.count += 1


def _probe_cpu_clock() -> Callable[[], float]:
    """The running thread's CPU time in seconds (``time.thread_time``), or the wall clock
    where a platform has no such clock."""
    try:
        time.thread_time()
    except (OSError, AttributeError):  # pragma: no cover - Pyodide, some WASI builds
        return time.monotonic
    return time.thread_time


_CPU_CLOCK: Final = _probe_cpu_clock()
"""Asked once, at import: reading a CPU clock is a system call, which a sandboxed or busy
machine can make cost a tenth of a millisecond."""


def _cpu_clock() -> Callable[[], float]:
    """The running thread's CPU clock (:func:`_probe_cpu_clock`)."""
    return _CPU_CLOCK


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


_native_id: Final[Callable[[], int]] = getattr(threading, "get_native_id", lambda: -1)
"""The running thread's id in the operating system (-1 where there is none: Pyodide)."""
_MAIN_THREAD: Final = getattr(threading.main_thread(), "native_id", -1)
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
            if thread < 0:
                raise OSError("no thread id")
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


PROBE: Final = 0.02
"""Seconds on the wall clock before a call under the SIGALRM limit reads its clocks
(:meth:`_Limit.measure`). Nearly every call of the student's code ends sooner and reads
none: a CPU clock and ``schedstat`` cost a system call each, and a check makes thousands of
calls. A call that runs longer is measured from then on, so the limit it meets is between
its seconds and its seconds plus :data:`PROBE` (never shorter: no false verdict)."""


class _Limit:
    """When the code run under a limit of ``seconds`` must stop: once ``clock`` (the CPU time
    of the thread running it) has advanced ``seconds``, or once :data:`WALL_FACTOR` times
    ``seconds`` have passed on the wall clock without the thread waiting for a CPU
    (:func:`_present_clock`: the code waits rather than works), or at ``hard_end`` on the
    monotonic clock (an outer timer that is not gamelib's). Inside the limit of an ``outer``
    call of the same thread, the earlier ends hold. With ``lazy`` the clocks are first read
    by :meth:`measure` (the SIGALRM limit calls it after :data:`PROBE` seconds), else at
    once. ``thread``: the native id of the thread that runs the code (None: the thread that
    measures). ``close()`` when done."""

    def __init__(self, seconds: float, clock: Callable[[], float], thread: int | None,
                 outer: _Limit | None, *, lazy: bool = False) -> None:
        self.seconds, self.clock, self.thread, self.outer = seconds, clock, thread, outer
        self.started = time.monotonic()
        self.hard_end = math.inf
        self.measured = False
        self.cpu_end = self.wall_end = math.inf
        self.present: Callable[[], float] = time.monotonic
        self.close: Callable[[], None] = _nothing
        if not lazy:
            self.measure()

    def measure(self) -> None:
        """Read the clocks (once): the ends are counted from now."""
        if self.measured:
            return
        self.measured = True
        thread = _native_id() if self.thread is None else self.thread
        self.present, self.close = _present_clock(thread)
        self.cpu_end = self.clock() + self.seconds
        self.wall_end = self.present() + WALL_FACTOR * self.seconds
        outer = self.outer
        if outer is not None:
            outer.measure()
            self.cpu_end = min(self.cpu_end, self.clock() + (outer.cpu_end - outer.clock()))
            self.wall_end = min(self.wall_end,
                                self.present() + (outer.wall_end - outer.present()))
            self.hard_end = min(self.hard_end, outer.hard_end)

    def left(self) -> tuple[float, float]:
        """(CPU seconds left, seconds of presence left): the wall clock runs no slower than
        either, so a timer set to the smaller rings no later than an end."""
        self.measure()
        hard = self.hard_end - time.monotonic()
        return self.cpu_end - self.clock(), min(self.wall_end - self.present(), hard)

    def over(self, rings: _Rings) -> bool:
        """True once either end has passed; ``rings.waited`` then says which."""
        cpu, wall = self.left()
        if cpu > 0 and wall > 0:
            return False
        rings.waited = cpu > 0
        return True


def _nothing() -> None:
    """Nothing to close."""


_ACTIVE: Final = threading.local()
"""``limit``: the :class:`_Limit` of the code running under a limit in this thread, if any."""


def _insist(frame: Any, boundary: types.CodeType | None) -> None:
    """Make the next instruction of the student's frames from ``frame`` outwards to the
    frame running ``boundary`` (and of
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

    while frame is not None and frame.f_code is not boundary:
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
                _insist(sys._getframe(1), rings.boundary)

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


_RINGERS: Final[list[Callable[[int, Any], None]]] = []
"""Inside :func:`alarm_scope`: the SIGALRM handlers of the limits running, innermost last."""
_PASSED_ON: Final[list[Any]] = []
"""Inside :func:`alarm_scope`: the SIGALRM handler it replaced."""


def _dispatch(signum: int, frame: Any) -> None:
    """gamelib's SIGALRM handler inside :func:`alarm_scope`: the innermost running limit's,
    or, between calls, the handler the scope replaced (if it is a Python function)."""
    if _RINGERS:
        _RINGERS[-1](signum, frame)
    elif _PASSED_ON and callable(_PASSED_ON[-1]):
        _PASSED_ON[-1](signum, frame)


@contextmanager
def alarm_scope() -> Iterator[None]:
    """Keep one SIGALRM handler for all the limits inside (one check's thousands of calls of
    the student's code): each then makes two system calls (the timer's) instead of four.
    The handler in place before is put back at the end, and called for an alarm that rings
    between two limits. Off the main thread, or where there is no SIGALRM: nothing."""
    if not _can_use_alarm() or _SIGNALS.getsignal(signal.SIGALRM) is _dispatch:
        yield
        return
    _PASSED_ON.append(_SIGNALS.signal(signal.SIGALRM, _dispatch))
    try:
        yield
    finally:
        _SIGNALS.signal(signal.SIGALRM, _PASSED_ON.pop())


@contextmanager
def _deadline(seconds: float, rings: _Rings | None = None) -> Iterator[None]:
    """Raise :class:`_Alarm` in the code run inside once it has used ``seconds`` of CPU time,
    or waited :data:`WALL_FACTOR` times as long (:class:`_Limit`). Nested deadlines keep
    the earlier ends; the outer timer is restored afterwards. ``rings`` counts the alarms
    raised (more than one: the code inside caught one) and says which end was met."""
    rings = rings or _Rings()
    outer_limit: _Limit | None = getattr(_ACTIVE, "limit", None)
    if _can_use_alarm():
        # A call that ends within PROBE seconds (nearly all) makes four system calls here:
        # signal() and setitimer() give back the outer handler and timer as they replace them.
        limit = _Limit(seconds, _cpu_clock(), None, outer_limit, lazy=True)
        outer_trace = sys.gettrace()

        def ring(signum: int, frame: Any) -> None:
            if ended:  # the code inside is over: an alarm handled now must not ring again
                return
            if rings.count and frame is not None and _is_library(frame.f_code.co_filename):
                # the alarm is on its way out through gamelib's code: let it go
                signal.setitimer(signal.ITIMER_REAL, 0.01)
                return
            if not rings.count and not limit.over(rings):
                # the first ring measures; or the machine is busy: the CPU time is not used
                signal.setitimer(signal.ITIMER_REAL, max(min(limit.left()), 1e-3))
                return
            rings.ring()
            if rings.swallowed:  # the student's code caught the first alarm
                _insist(frame, rings.boundary)
            # Ring again soon, in case the student's code swallows this one as well.
            signal.setitimer(signal.ITIMER_REAL, 0.01)
            raise _Alarm()

        ended = False
        _ACTIVE.limit = limit
        first = min(seconds, PROBE)
        kept = _SIGNALS.getsignal(signal.SIGALRM) is _dispatch  # inside alarm_scope()
        if kept:
            _RINGERS.append(ring)
        else:
            outer_handler = _SIGNALS.signal(signal.SIGALRM, ring)
        outer_left, _ = signal.setitimer(signal.ITIMER_REAL, first)
        if outer_left:
            if outer_limit is None:  # a timer not gamelib's: its end is a hard one
                limit.hard_end = limit.started + outer_left
            # (an outer limit's timer may be its probe: its ends count once measured)
            if outer_left < first:
                signal.setitimer(signal.ITIMER_REAL, outer_left)
        try:
            yield
        finally:
            # First: an alarm already signalled runs `ring` later (in signal() at the latest),
            # which re-armed the timer under the outer handler: the default one kills.
            ended = True
            signal.setitimer(signal.ITIMER_REAL, 0)
            if kept:
                _RINGERS.pop()
            else:
                _SIGNALS.signal(signal.SIGALRM, outer_handler)
            _ACTIVE.limit = outer_limit
            limit.close()
            if rings.swallowed:
                sys.settrace(outer_trace)
            if outer_left:
                left = outer_left - (time.monotonic() - limit.started)
                signal.setitimer(signal.ITIMER_REAL, max(left, 1e-3))
        return
    raise_in = _async_raiser()
    if raise_in is not None:
        limit = _Limit(seconds, _thread_cpu_clock(threading.get_ident()),
                       _native_id(), outer_limit)
        _ACTIVE.limit = limit
        try:
            with _watchdog(limit, rings, raise_in):
                yield
        finally:
            _ACTIVE.limit = outer_limit
            limit.close()
        return
    with _traced(seconds, rings, outer_limit):
        yield


@contextmanager
def _traced(seconds: float, rings: _Rings, outer_limit: _Limit | None) -> Iterator[None]:
    """:func:`_deadline` where neither an alarm nor a second thread can stop the code inside
    (Pyodide, WASI): a trace function raises :class:`_Alarm` at its first event past the limit.
    Under another tool's trace (a debugger, coverage), no limit: that trace is left alone."""
    outer = sys.gettrace()
    if outer is not None and not getattr(outer, "_gamelib_deadline", False):
        yield  # a debugger or coverage tool traces: leave it alone, no limit
        return
    limit = _Limit(seconds, _cpu_clock(), _native_id(), outer_limit)

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
