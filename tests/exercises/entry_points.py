"""Every checker of the exercise set, each called with one function of the student's: the
table that the tests which try every checker share (test_limits.py, test_no_answer_handed.py).

A checker that takes several of the student's functions gets the same one for each. A new
exercise is one line here, and every such test then tries it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gamelib.exercises as ex
from gamelib.exercises.report import CheckResult

CHECKERS: dict[str, Callable[[Callable[..., Any]], CheckResult]] = {
    "next_states": ex.check_next_states,
    "finished": ex.check_finished,
    "utility": ex.check_utility,
    "nim_values": lambda f: ex.check_nim_values(f, f, f),
    "memo": ex.check_memo_minimax,
    "store": ex.check_store_bound,
    "merge": ex.check_merge_entries,
    "heuristic": ex.check_heuristic,
    "tree_counts": lambda f: ex.check_tree_counts(f, f),
    "symmetry": ex.check_symmetry_count,
    "alphabeta": ex.check_alphabeta,
    "read": ex.check_read_entry,
    "deepening": ex.check_deepening,
    "bitboard": lambda f: ex.check_connect_four_rules(f, f, f),
    "exact_score": ex.check_exact_score,
    "backprop": ex.check_backpropagate,
    "expected_value": ex.check_expected_value,
    "regret": ex.check_regret_matching,
    "gradients": ex.check_gradients,
}
"""Per exercise's checker (a short name): the check of one student function."""
