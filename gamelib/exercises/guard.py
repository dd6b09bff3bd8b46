"""Refusing delegation: while the student's function runs, the references the exercise asks
the student to write are out of reach.

A checker names what it forbids (:class:`Forbidden`: modules, packages, classes,
functions); while a check runs, each forbidden Python function has its ``__code__``
swapped for a small guard (once per check: the original is put back when the check ends),
and the guard refuses while :func:`gamelib.exercises.run.call_student` runs the student's
code. Every path to the function reaches the guard: ``from
... import``, a module attribute, ``importlib.import_module``, a reference saved before the
check, a bound method, a subclass: they all share the one function object. A call of a
guarded function while the student's code runs is written in a log and raises
:class:`DelegationRefused`; the checker's way out (:func:`gamelib.exercises.run.checker`)
turns a non-empty log into a failed report with one line that names the call, however the
student's code handled the exception.

What the exercise hands the student stays usable in two ways:

* the game object and the cache the student works on belong to modules or classes the
  exercise does not forbid (a search exercise forbids :mod:`gamelib.search` and
  :mod:`gamelib.connect4`, not :mod:`gamelib.games`), or are listed in ``allowed``;
* a handed helper that itself runs forbidden code (Exercise 7's heuristic ``h`` counts
  threats with :mod:`gamelib.connect4`) is wrapped with :func:`handed`: while it runs,
  guarded functions run their own code. So the guard tells "the student called the
  reference" (refused) from "what the checker handed called it" (allowed) by who holds
  the call: a handed helper or the student.

The refusal concerns the code the check runs, not the whole process: "while the student's
code runs" is a fact about a thread (:func:`refusing` marks the thread that calls the
student's function, and a thread that the student's code starts while marked is marked
too, through ``threading.Thread.start``, which :func:`checking` watches while the check
runs). Any other thread (a play session's computer thinking in the background, say) runs
the guarded functions' own code while the check runs. The checker computes its expected
values outside the student's calls, where the guard runs the function's own code.

What the guard cannot stop: code re-created from gamelib's source text (copying the
lesson: ``exec`` of the file, ``runpy``; :func:`importlib.reload` is refused), values a
``functools.cache`` returns without running Python code, C code, and a thread started
without ``threading.Thread`` (``_thread.start_new_thread``) or started before the check
and handed work during it (a thread pool made earlier).
"""

from __future__ import annotations

import functools
import gc
import importlib
import pkgutil
import threading
import types
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Final, NoReturn, TypeVar

__all__ = ["DelegationRefused", "Forbidden", "checking", "handed", "refusing",
           "refuse", "refused_calls", "student_running", "SEARCH"]


class DelegationRefused(BaseException):
    """Raised when the student's code calls a reference the exercise asks the student to
    write. A BaseException, so that ``except Exception`` in the student's code does not
    hide it; the log of :func:`refused_calls` keeps it even if a bare ``except`` does."""

    def __init__(self, name: str) -> None:
        super().__init__(f"{name} is out of reach in this exercise: write it yourself")
        self.name = name


class _Thread(threading.local):
    """Who holds the call in one thread (each thread sees its own attributes)."""

    active: int = 0
    """How deep call_student's guard is nested in this thread (0: no student code here)."""
    trusted: int = 0
    """How many handed helpers are running inside the student's call in this thread."""


@dataclass
class _State:
    log: list[str] = field(default_factory=list)
    """The forbidden calls refused since the check began (in any of the student's threads)."""


_STATE: Final = _State()
_THREAD: Final = _Thread()


_SENTINEL: Final = "__gamelib_guard_handler__"


def _guard_code(handler: Callable[[tuple[Any, ...], dict[str, Any]], Any],
                free: int) -> types.CodeType:
    """A code object ``(*args, **kwargs) -> handler(args, kwargs)`` with ``free`` free
    variables (a function's new ``__code__`` must have as many as its closure has cells).
    The handler is a constant of the code, since the code runs with the guarded function's
    globals."""
    code = _guard_template(free)
    consts = tuple(handler if c == _SENTINEL else c for c in code.co_consts)
    return code.replace(co_consts=consts)


@functools.cache
def _guard_template(free: int) -> types.CodeType:
    """The guard's code with ``free`` free variables and a placeholder for the handler
    (compiled once per number of free variables)."""
    names = [f"_gamelib_free{i}" for i in range(free)]
    source = ["def _outer():"]
    source += [f"    {name} = None" for name in names]
    source.append("    def _guard(*args, **kwargs):")
    if names:
        source.append(f"        ({', '.join(names)},)")
    source.append(f"        return {_SENTINEL!r}(args, kwargs)")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)  # "str is not callable": replaced
        outer = compile("\n".join(source) + "\n", "<gamelib guard>", "exec")
    outer_code = next(c for c in outer.co_consts if isinstance(c, types.CodeType))
    return next(c for c in outer_code.co_consts if isinstance(c, types.CodeType))


def _describe(function: types.FunctionType) -> str:
    """``gamelib.search.alphabeta.alphabeta``; ``Solver`` for a class's ``__init__``."""
    qualname = function.__qualname__
    if qualname.endswith(".__init__"):
        qualname = qualname[: -len(".__init__")]
    return f"{function.__module__}.{qualname}"


_CLONE: Final = "_gamelib_guard_clone"
"""The attribute that marks a guard's own copy of a function (:class:`_Swap`'s ``clone``),
which only the guard calls: the walk for closures leaves such copies alone, whichever
check made them."""


@dataclass
class _Swap:
    function: types.FunctionType
    original: types.CodeType
    guard: types.CodeType


def _swap_for(function: types.FunctionType) -> _Swap:
    name = _describe(function)
    original = function.__code__
    clone = types.FunctionType(original, function.__globals__, function.__name__,
                               function.__defaults__, function.__closure__)
    clone.__kwdefaults__ = function.__kwdefaults__
    clone.__dict__[_CLONE] = True  # the guard's own copy: no check guards it again

    def handler(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if _THREAD.trusted or not _THREAD.active:  # a handed helper, or not the student's code
            return clone(*args, **kwargs)
        refuse(name)

    free = len(function.__closure__ or ())
    return _Swap(function, original, _guard_code(handler, free))


def _functions_of_class(cls: type) -> Iterator[types.FunctionType]:
    for value in vars(cls).values():
        if isinstance(value, (staticmethod, classmethod)):
            value = value.__func__
        if isinstance(value, property):
            yield from (f for f in (value.fget, value.fset, value.fdel)
                        if isinstance(f, types.FunctionType))
            continue
        yield from _functions_of(value, cls.__module__)


def _functions_of(value: object, module: str) -> Iterator[types.FunctionType]:
    """The Python functions defined by ``value`` (a function, a cached function, a class)
    in the module named ``module``."""
    wrapped = getattr(value, "__wrapped__", None)  # functools.cache and wraps
    if isinstance(wrapped, types.FunctionType):
        yield from _functions_of(wrapped, module)
    if isinstance(value, types.FunctionType) and value.__module__ == module:
        yield value
    elif isinstance(value, type) and value.__module__ == module:
        yield from _functions_of_class(value)


def _modules(name: str) -> list[types.ModuleType]:
    """The module ``name`` and, for a package, every module inside it (imported now, so that
    an import in the student's code finds the guarded functions); in a check on a fresh copy
    of gamelib, also the kernel's own modules of those names (:data:`SET_ASIDE`)."""
    module = importlib.import_module(name)
    found = [module]
    path = getattr(module, "__path__", None)
    if path is not None:
        for info in pkgutil.walk_packages(path, name + "."):
            found.append(importlib.import_module(info.name))
    found += [kept for key, kept in SET_ASIDE.items() if key == name or key.startswith(name + ".")]
    return found


SET_ASIDE: Final[dict[str, types.ModuleType]] = {}
"""Empty, except in a copy of gamelib read afresh for one check (nbgrader's autograde,
:mod:`gamelib.exercises.afresh`): there, the kernel's own gamelib modules, set aside while
the check runs. The guard covers their functions too, so that a reference the student's
code took from them before the check (``from gamelib.games import ConnectFour`` at the top
of a cell) is refused like the fresh one."""


@dataclass(frozen=True)
class Forbidden:
    """What a checker puts out of reach of the student's code, and what it allows.

    ``modules``: names of modules or packages (every function and class defined there);
    ``objects``: functions and classes; ``allowed``: functions and classes among them that
    the exercise hands the student (e.g. Exercise 5's cache class). :func:`importlib.reload`
    is always refused: it would make fresh, unguarded copies of the references.
    """

    modules: tuple[str, ...] = ()
    objects: tuple[object, ...] = ()
    allowed: tuple[object, ...] = ()

    @functools.cached_property
    def swaps(self) -> tuple[_Swap, ...]:
        """One swap per forbidden function (computed once, on the first check)."""
        allowed: set[tuple[str, str]] = set()  # by name: the set-aside copies are allowed too
        for value in self.allowed:
            allowed.update((f.__module__, f.__qualname__)
                           for f in _functions_of(value, getattr(value, "__module__", "")))
        functions: dict[int, types.FunctionType] = {}
        for name in self.modules:
            for module in _modules(name):
                for value in vars(module).values():
                    for function in _functions_of(value, module.__name__):
                        functions[id(function)] = function
        for value in (*self.objects, importlib.reload):
            for function in _functions_of(value, getattr(value, "__module__", "")):
                functions[id(function)] = function
        return tuple(_swap_for(f) for f in functions.values()
                     if (f.__module__, f.__qualname__) not in allowed)

    @functools.cached_property
    def _nested(self) -> dict[int, types.CodeType]:
        """The code of the functions defined inside the forbidden ones (closures), by id:
        a closure runs that very code object. (Membership by identity: a code object's
        hash reads its whole contents, and a check tests every function that lives.)"""
        found: dict[int, types.CodeType] = {}
        todo = [swap.original for swap in self.swaps]
        while todo:
            for const in todo.pop().co_consts:
                if isinstance(const, types.CodeType) and id(const) not in found:
                    found[id(const)] = const
                    todo.append(const)
        return found

    @functools.cached_property
    def _swapped(self) -> frozenset[int]:
        """The ids of the functions :attr:`swaps` guards, which live as long as this object:
        no closure swap is made for them (the guards' own copies carry ``_CLONE``)."""
        return frozenset(id(swap.function) for swap in self.swaps)

    def closures(self) -> tuple[_Swap, ...]:
        """A swap for each closure that a forbidden function made and that lives now (say
        ``h = connect_four_heuristic(game)`` in an earlier cell): one walk over the
        objects the garbage collector tracks, at the start of a check. The closures that
        :attr:`swaps` already guards (a decorator's wrapper of a module's function) are
        left to it."""
        nested, function = self._nested, types.FunctionType  # no subclasses: `is` will do
        swapped = self._swapped
        functions = [obj for obj in gc.get_objects() if type(obj) is function]  # 2.5x faster
        return tuple(_swap_for(f) for f in functions
                     if id(f.__code__) in nested and id(f) not in swapped
                     and _CLONE not in f.__dict__)


_guarded: dict[int, _Swap] = {}
"""The functions whose ``__code__`` is the guard now, by id."""


def _apply(swaps: tuple[_Swap, ...]) -> None:
    """Make exactly the functions of ``swaps`` guarded: the others get their code back."""
    wanted = {id(swap.function): swap for swap in swaps}
    for key, swap in list(_guarded.items()):
        if wanted.get(key) is not swap:
            swap.function.__code__ = swap.original
            del _guarded[key]
    for key, swap in wanted.items():
        if key not in _guarded:
            swap.function.__code__ = swap.guard
            _guarded[key] = swap


@contextmanager
def checking(forbidden: Forbidden | None) -> Iterator[list[str]]:
    """The checker's side: ``forbidden`` is what :func:`refusing` guards during this check;
    yields the log of refused calls, emptied at the start.

    The guard's code is swapped in once, here, for the whole check (not at each call of the
    student's code, which would cost more than the student's code): a guarded function
    refuses only while :func:`refusing` runs and no handed helper holds the call; the
    checker's own calls, between the student's, run the function's own code."""
    saved = list(_STATE.log)
    _STATE.log.clear()
    outer, outer_start = tuple(_guarded.values()), threading.Thread.start
    try:
        _apply(())  # an outer check's guards off, so that closures() sees the real code
        _apply(() if forbidden is None else forbidden.swaps + forbidden.closures())
        threading.Thread.start = _start  # type: ignore[method-assign, assignment]
        yield _STATE.log
    finally:
        threading.Thread.start = outer_start  # type: ignore[method-assign]
        _apply(outer)
        _STATE.log[:] = saved


_THREAD_START: Final = threading.Thread.start


def _start(thread: threading.Thread) -> None:
    """``threading.Thread.start`` while a check runs: a thread that the student's code
    starts runs its work as the student's code (:func:`refusing`), wherever it is."""
    if student_running():
        work = thread.run

        def run_as_student() -> None:
            with refusing():
                work()

        thread.run = run_as_student  # type: ignore[method-assign]
    _THREAD_START(thread)


def refuse(name: str) -> NoReturn:
    """Log the call ``name`` as refused and raise :class:`DelegationRefused`."""
    _STATE.log.append(name)
    raise DelegationRefused(name)


def student_running() -> bool:
    """True while :func:`refusing` guards a call of the student's code (outside handed
    helpers)."""
    return _THREAD.active > 0 and not _THREAD.trusted


def refused_calls() -> list[str]:
    """The forbidden calls refused since the running check began, in order."""
    return list(_STATE.log)


@contextmanager
def refusing() -> Iterator[None]:
    """Run the student's code inside: the running check's forbidden functions (guarded by
    :func:`checking`) refuse to run (:class:`DelegationRefused`) unless a :func:`handed`
    helper calls them."""
    state = _THREAD
    trusted, state.trusted = state.trusted, 0
    state.active += 1
    try:
        yield
    finally:
        state.active -= 1
        state.trusted = trusted


F = TypeVar("F", bound=Callable[..., Any])


def handed(function: F) -> F:
    """``function`` as handed to the student: while it runs, the forbidden functions run
    their own code (the helper may use gamelib's references; the student may not)."""

    @functools.wraps(function)
    def run_handed(*args: Any, **kwargs: Any) -> Any:
        state = _THREAD
        state.trusted += 1
        try:
            return function(*args, **kwargs)
        finally:
            state.trusted -= 1

    return run_handed  # type: ignore[return-value]



SEARCH: Final = Forbidden(modules=("gamelib.search", "gamelib.connect4"))
"""What the search exercises forbid: every search function, the solver and the Connect
Four player and heuristic."""
