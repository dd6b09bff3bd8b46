"""Checkers for the exercise notebooks: precise, friendly feedback on a student's code.

Each exercise notebook ends a task with a check cell such as ``check_next_states(next_states)``.
A checker calls the student's function on many positions, compares every answer with the
reference in :mod:`gamelib.games` and :mod:`gamelib.search`, and returns a
:class:`CheckResult`: a report with one line per check (``✔`` passed, ``✘`` failed,
``…`` not done yet) that Jupyter shows as HTML and ``print`` shows as text. A failed check
names the position, the expected answer, the answer returned and a hint. ``result.passed``
is True when every check passed.

========================================  =========================================================
checker                                   the exercise
========================================  =========================================================
:func:`check_next_states`                 1: Nim's ``next_states(state, player)``
:func:`check_finished`                    1: Nim's ``finished(state)``
:func:`check_utility`                     1: Nim's ``utility(state, player)``
:func:`check_nim_values`                  1: solving Nim with the three functions above
:func:`check_memo_minimax`                2: ``memo_value(game, state, player, cache)``, a
                                          cache of (value, best move) that plays perfectly
:func:`check_tree_counts`                 3: the game tree and the states of simplified
                                          tic-tac-toe, m squares a turn, ``tree_size(n, m)``,
                                          ``state_count(n, m)``
:func:`check_symmetry_count`              3: the states up to the square's 8 symmetries,
                                          ``symmetric_state_count(side)`` (Burnside's lemma)
:func:`check_alphabeta`                   4: ``alphabeta(game, state, player, alpha, beta,
                                          order)`` returning the value and a principal
                                          variation: the three cases and the call counts
:func:`check_store_bound`                 5: the store rule for a cache of (lower, upper) pairs,
                                          ``store_interval(cache, state, alpha, beta, v)``,
                                          inside Lesson 5's search
:func:`check_merge_entries`               5: ``merge(old, new)``, two entries for one state
                                          combined into one (two bounds that meet: exact)
:func:`check_read_entry`                  6: ``read(entry, alpha, beta)`` of a pair of bounds
:func:`check_deepening`                   7: ``deepening(game, state, h, max_depth,
                                          out_of_time)``: iterative deepening in a budget
:func:`check_heuristic`                   8: ``make_heuristic(rows, cols)``, a Connect Four
                                          heuristic for any board size, judged by a match
                                          of depth-limited players on 5 x 6 and 7 x 8
:func:`check_connect_four_rules`          9: bitboard ``next_states``, ``finished``,
                                          ``utility`` for Connect Four of any size, packed
                                          by rows
:func:`check_exact_score`                 10: ``exact_score(game, state, at_least, guess)``
                                          from null-window questions, starting at a guess
:func:`check_backpropagate`               11: MCTS's ``backpropagate(path, result)``, the
                                          negamax sign included, against seeded searches
:func:`check_expected_value`              12: ``expected_value(game, state, cache)``:
                                          expectiminimax with a coin, memoized
:func:`check_regret_matching`             13: ``regret_matching(regrets)``, then CFR on Kuhn
                                          poker with it
:func:`check_gradients`                   14: ``gradients(weights, bias, x, y)`` of logistic
                                          regression, then training with them
========================================  =========================================================

How a checker treats the student's code:

* A stub is "not done yet", never an error: a function that raises ``NotImplementedError``
  or whose first answer is ``...`` gives a result with ``done`` False. A function that
  returns None is told so and asked whether a ``return`` is missing.
* Any other exception is caught and reported in one line, with the line of the *student's*
  code where it happened (never a traceback into gamelib).
* Each call of the student's code may compute for :func:`time_limit` seconds of CPU time
  (5 by default), and all its calls in one check 60 s (:func:`set_time_limit` changes
  both): the work the code does, so a busy machine changes no verdict; a call that waits
  instead (``time.sleep``, ``input()``) is stopped at ten times the limit. A call that
  takes longer is stopped and reported with the position it was working on, even one that
  catches the exception that stops it. What it returns, and what it writes into the cache
  or the nodes it is handed, is read under the limit into plain values, at most 100,000
  items a container (an endless generator or iterable is reported, not read); an object
  whose ``__eq__`` or ``__hash__`` raises is named. The stop button ends a check with a
  report.
* Nothing the student's function is handed holds an expected value, and the checkers'
  cached expected values refuse to be read while the student's code runs.
* Delegation is refused: while the student's code runs, the references the exercise asks
  the student to write (gamelib's searches and solver, Nim's rules in Exercise 1, Connect
  Four's in Exercise 9, ...) refuse to run, however they are reached
  (:mod:`gamelib.exercises.guard`); the check then fails with one line naming the call.
  What the exercise hands over (the game, the cache, ``h``, ``at_least``) works.
* Values compare as numbers: ints, floats and numpy numbers alike; a wrong type is named.
* ``check_x(f).require()`` is the assert form for autograded cells (nbgrader, otter).
* Bad arguments to a checker itself (e.g. something that is not a function) raise
  :class:`~gamelib.game.GameError`.

Every checker is deterministic: positions come from breadth-first search or from
``random.Random`` with a fixed seed, so a report is the same on every run.

This module imports no user-interface library; ``_repr_html_`` builds plain HTML strings.
"""


from gamelib.exercises.ex01_nim import (
    NIM_SAMPLE,
    NIM_STARTS,
    check_finished,
    check_next_states,
    check_nim_values,
    check_utility,
)
from gamelib.exercises.ex02_memo import check_memo_minimax
from gamelib.exercises.ex03_counting import (
    BRUTE_FORCE_SIZES,
    FORMULA_SIZES,
    check_symmetry_count,
    check_tree_counts,
    state_count_by_enumeration,
    symmetric_state_count_by_enumeration,
    tree_size_by_enumeration,
)
from gamelib.exercises.ex04_alphabeta import check_alphabeta, corners_first, outside_in
from gamelib.exercises.ex05_store import check_merge_entries, check_store_bound
from gamelib.exercises.ex06_read import check_read_entry
from gamelib.exercises.ex07_deepening import check_deepening
from gamelib.exercises.ex08_heuristic import (
    BASELINES,
    centre_heuristic,
    check_heuristic,
    triples_heuristic,
)
from gamelib.exercises.ex09_bitboard import check_connect_four_rules
from gamelib.exercises.ex10_null_windows import check_exact_score
from gamelib.exercises.ex11_backprop import check_backpropagate
from gamelib.exercises.ex12_expectiminimax import check_expected_value
from gamelib.exercises.ex13_regret import check_regret_matching
from gamelib.exercises.ex14_training import check_gradients
from gamelib.exercises.report import FAIL, INFO, PASS, TODO, CheckResult, Line
from gamelib.exercises.run import (
    DEFAULT_TIME_LIMIT,
    MAX_TIME_LIMIT,
    set_time_limit,
    time_limit,
)

__all__ = [
    "PASS",
    "FAIL",
    "TODO",
    "INFO",
    "Line",
    "CheckResult",
    "set_time_limit",
    "time_limit",
    "DEFAULT_TIME_LIMIT",
    "MAX_TIME_LIMIT",
    "check_next_states",
    "check_finished",
    "check_utility",
    "check_nim_values",
    "NIM_SAMPLE",
    "NIM_STARTS",
    "check_memo_minimax",
    "check_store_bound",
    "check_merge_entries",
    "check_heuristic",
    "centre_heuristic",
    "triples_heuristic",
    "BASELINES",
    "check_tree_counts",
    "check_symmetry_count",
    "symmetric_state_count_by_enumeration",
    "BRUTE_FORCE_SIZES",
    "FORMULA_SIZES",
    "tree_size_by_enumeration",
    "state_count_by_enumeration",
    "check_alphabeta",
    "corners_first",
    "outside_in",
    "check_read_entry",
    "check_deepening",
    "check_connect_four_rules",
    "check_exact_score",
    "check_backpropagate",
    "check_expected_value",
    "check_regret_matching",
    "check_gradients",
]
