"""gamelib.connect4.benchmarks: the six benchmark sets read back with their facts.

(That every line replays to an unfinished position is checked in tests/games/test_connect_four.py.)
"""

from __future__ import annotations

import pytest

from gamelib.connect4 import BENCHMARK_SETS, benchmark_positions
from gamelib.game import GameError

SET_FACTS = {  # moves played: fewest, most
    "L3_R1": (29, 41),
    "L2_R1": (15, 28),
    "L2_R2": (15, 27),
    "L1_R1": (4, 14),
    "L1_R2": (4, 14),
    "L1_R3": (1, 13),
}


@pytest.mark.parametrize("name", BENCHMARK_SETS)
def test_benchmark_positions_reads_every_set(name: str) -> None:
    positions = benchmark_positions(name)
    assert positions == benchmark_positions(f"Test_{name}")
    lengths = [len(moves) for moves, _ in positions]
    assert (len(positions), min(lengths), max(lengths)) == (1000, *SET_FACTS[name])
    assert all(isinstance(score, int) and -21 <= score <= 21 for _, score in positions)
    positions.clear()  # a new list each time: the caller may change it
    assert len(benchmark_positions(name)) == 1000


def test_benchmark_positions_first_line() -> None:
    assert benchmark_positions("L3_R1")[0] == ("2252576253462244111563365343671351441", -1)


@pytest.mark.parametrize("name", ["L4_R1", "", "test_L3_R1", "../data/Test_L3_R1", 3, None])
def test_an_unknown_set_is_a_game_error_naming_the_sets(name: object) -> None:
    with pytest.raises(GameError) as caught:
        benchmark_positions(name)  # type: ignore[arg-type]
    assert "L3_R1, L2_R1, L2_R2, L1_R1, L1_R2, L1_R3" in str(caught.value)
