"""gamelib.connect4.table: entries by flag, two generations, keys, and what the solver stores."""

from __future__ import annotations

from gamelib.connect4.solver import Solver
from gamelib.connect4.table import Table, counts_by_flag, key_of
from gamelib.games import ConnectFour
from gamelib.search.bounded import EXACT, LOWER, UPPER


def test_table_entries_are_written_and_read_by_flag() -> None:
    table = Table(capacity=8)
    table.store(1, UPPER, -3)
    table.store(2, LOWER, 5, move=2)
    assert table.get(1) == (UPPER, -3, 0)
    assert table.get(2) == (LOWER, 5, 2)
    assert table.get(3) is None
    assert counts_by_flag(table) == {EXACT: 0, UPPER: 1, LOWER: 1}
    table.store(2, UPPER, 4, move=1)  # the newer entry replaces the older one
    assert table.get(2) == (UPPER, 4, 1) and len(table) == 2


def test_the_table_keeps_two_generations_and_prefers_the_recent_one() -> None:
    table = Table(capacity=4)  # a generation holds 2 entries
    table.store(1, LOWER, 1)
    table.store(2, LOWER, 2)
    assert table.age()  # full: a new generation begins
    assert not table.age()  # empty: nothing to do
    table.store(1, UPPER, 0)
    assert table.get(1) == (UPPER, 0, 0)  # recent first
    assert table.get(2) == (LOWER, 2, 0)  # still in the older generation
    table.store(3, UPPER, 0)
    assert table.age()
    assert table.get(2) is None  # dropped with its generation
    assert counts_by_flag(table) == {EXACT: 0, UPPER: 2, LOWER: 0}
    table.clear()
    assert len(table) == 0 and table.get(1) is None


def test_keys_tell_positions_apart() -> None:
    game = ConnectFour(4, 4)
    seen: dict[int, tuple[int, int]] = {}
    level = [game.start]
    for _ in range(6):
        level = list({child for state in level for child in game.next_states(state, "X")})
        for first, second in level:
            mask = first | second
            for cur in (first, second):
                key = key_of(cur, mask)
                assert seen.setdefault(key, (cur, mask)) == (cur, mask)


def test_the_solver_stores_only_bounds() -> None:
    solver = Solver(ConnectFour(4, 5), table_bits=12)
    assert solver.solve(ConnectFour(4, 5).start) == 0
    counts = counts_by_flag(solver.table)
    assert counts[EXACT] == 0 and counts[UPPER] > 0 and counts[LOWER] > 0
    assert sum(counts.values()) <= solver.table_size
