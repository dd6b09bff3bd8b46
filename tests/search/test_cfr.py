"""CFR on Kuhn poker, checked against the game's known solution (Kuhn, 1950).

The equilibria of Kuhn poker form a one-parameter family: A bets the Jack with probability
alpha in [0, 1/3], the King with 3 alpha, never the Queen, and calls a bet after passing with
the Queen with alpha + 1/3; B bets a Jack after a pass and calls with a Queen with 1/3 each.
A's value is -1/18 a hand.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from gamelib.errors import GameError
from gamelib.games.kuhn import KuhnPoker
from gamelib.search.cfr import (
    CFR,
    Strategy,
    best_response_value,
    expected_value,
    exploitability,
    regret_matching,
)

GAME = KuhnPoker()
VALUE = -1 / 18


def equilibrium(alpha: Fraction) -> Strategy:
    """The member ``alpha`` of Kuhn's family of equilibria."""
    third = Fraction(1, 3)
    table = {"J": alpha, "Q": 0, "K": 3 * alpha, "Jpb": 0, "Qpb": alpha + third, "Kpb": 1,
             "Jp": third, "Qp": 0, "Kp": 1, "Jb": 0, "Qb": third, "Kb": 1}
    return {infoset: {"p": float(1 - bet), "b": float(bet)} for infoset, bet in table.items()}


def test_regret_matching() -> None:
    assert regret_matching([1.0, 3.0]) == [0.25, 0.75]
    assert regret_matching([-2.0, 4.0, 0.0]) == [0.0, 1.0, 0.0]
    assert regret_matching([0.0, -1.0, -5.0]) == [1 / 3] * 3


@pytest.mark.parametrize("alpha", [Fraction(0), Fraction(1, 6), Fraction(1, 3)])
def test_kuhns_equilibria_are_worth_minus_one_eighteenth_and_unexploitable(alpha: Fraction
                                                                         ) -> None:
    strategy = equilibrium(alpha)
    assert expected_value(GAME, strategy) == pytest.approx(VALUE, abs=1e-12)
    assert exploitability(GAME, strategy) == pytest.approx(0, abs=1e-12)
    assert best_response_value(GAME, strategy, "A") == pytest.approx(VALUE, abs=1e-12)


def test_a_strategy_outside_the_family_is_exploitable() -> None:
    strategy = equilibrium(Fraction(1, 3))
    strategy["J"] = {"p": 0.5, "b": 0.5}           # bluffs too often
    assert exploitability(GAME, strategy) == pytest.approx(1 / 36, abs=1e-12)
    assert exploitability(GAME, {}) == pytest.approx(11 / 24, abs=1e-12)   # uniform play


def test_every_pure_strategy_of_a_loses_at_least_a_sixth_to_a_best_reply() -> None:
    infosets = ["J", "Q", "K", "Jpb", "Qpb", "Kpb"]
    worst_cases = []
    for bets in itertools.product("pb", repeat=len(infosets)):
        pure = {i: {"p": float(a == "p"), "b": float(a == "b")}
                for i, a in zip(infosets, bets, strict=True)}
        worst_cases.append(-best_response_value(GAME, pure, "B"))
    assert len(worst_cases) == 64
    assert max(worst_cases) == pytest.approx(-1 / 6, abs=1e-12)
    assert max(worst_cases) < VALUE


@pytest.mark.parametrize(("variant", "nodes", "bound"), [("vanilla", 55_000, 0.0066),
                                                         ("plus", 110_000, 0.0049)])
def test_cfr_converges_to_the_family(variant: str, nodes: int, bound: float) -> None:
    solver = CFR(GAME, variant).run(1000)  # type: ignore[arg-type]
    assert (solver.iterations, solver.nodes) == (1000, nodes)
    average = solver.average_strategy()
    assert sorted(average) == sorted(equilibrium(Fraction(0)))
    assert exploitability(GAME, average) < bound
    assert expected_value(GAME, average) == pytest.approx(VALUE, abs=0.002)
    alpha = average["J"]["b"]
    assert 0 <= alpha <= 1 / 3 + 0.02
    assert average["K"]["b"] == pytest.approx(3 * alpha, abs=0.05)
    assert average["Qpb"]["b"] == pytest.approx(alpha + 1 / 3, abs=0.05)
    assert average["Jp"]["b"] == pytest.approx(1 / 3, abs=0.03)
    assert average["Qb"]["b"] == pytest.approx(1 / 3, abs=0.03)


def test_exploitability_falls_with_iterations() -> None:
    solver = CFR(GAME)
    measured = []
    for total in (10, 100, 1000):
        solver.run(total - solver.iterations)
        measured.append(exploitability(GAME, solver.average_strategy()))
    assert measured == sorted(measured, reverse=True)
    assert measured[0] > 0.05 > measured[1] > 0.01 > measured[2] > 0


@pytest.mark.parametrize("iterations", [-1, 1.5, "10", True, 10**8])
def test_run_refuses_a_bad_count(iterations: object) -> None:
    solver = CFR(GAME)
    with pytest.raises(GameError, match="iterations must be a whole number"):
        solver.run(iterations)  # type: ignore[arg-type]
    assert solver.iterations == solver.nodes == 0


def test_bad_games_variants_and_strategies_are_named() -> None:
    with pytest.raises(GameError, match="it has no players, start, finished"):
        CFR(object())  # type: ignore[arg-type]
    with pytest.raises(GameError, match="variant is 'vanilla' or 'plus'"):
        CFR(GAME, "minus")  # type: ignore[arg-type]
    with pytest.raises(GameError, match="a strategy is a dict"):
        exploitability(GAME, [0.5, 0.5])  # type: ignore[arg-type]
    with pytest.raises(GameError, match="the players are"):
        best_response_value(GAME, {}, "C")
