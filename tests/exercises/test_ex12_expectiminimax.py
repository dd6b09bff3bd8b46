"""Exercise 12's checker: right code passes, the usual mistakes fail with a hint, delegation
is refused."""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import Any

import pytest

from gamelib.exercises import check_expected_value
from gamelib.exercises.ex12_expectiminimax import POSITIONS, BiasedCoinTicTacToe
from gamelib.game import CHANCE, GameError, chance_outcomes


def solve(game: Any, state: Hashable, cache: dict[Hashable, Any], *,
          weighted: bool = True) -> Any:
    """Expectiminimax written for these tests; ``weighted=False`` averages the outcomes."""
    if state in cache:
        return cache[state]
    mover = game.to_move(state)
    if mover == CHANCE:
        outcomes = chance_outcomes(game, state)
        values = [solve(game, n, cache, weighted=weighted) for _, n in outcomes]
        value = (sum(p * v for (p, _), v in zip(outcomes, values, strict=True)) if weighted
                 else sum(values) / len(values))
    elif game.finished(state):
        value = game.utility(state, game.players[0])
    else:
        values = [solve(game, n, cache, weighted=weighted) for n in game.next_states(state, mover)]
        value = max(values) if mover == game.players[0] else min(values)
    cache[state] = value
    return value


def test_right_code_passes_with_the_values_in_the_facts() -> None:
    result = check_expected_value(solve)
    assert result.passed, repr(result)
    values = result.facts["values"]
    assert [values[name] for name, _, _ in POSITIONS] == [
        Fraction(11, 128), Fraction(-21, 64), Fraction(1229, 2187), Fraction(-17, 64), 0]
    assert result.facts["cache_sizes"][POSITIONS[0][0]] == 3984


def unweighted(game: Any, state: Hashable, cache: dict[Hashable, Any]) -> Any:
    return solve(game, state, cache, weighted=False)


def own_cache(game: Any, state: Hashable, cache: dict[Hashable, Any]) -> Any:
    return solve(game, state, {})


def for_the_mover(game: Any, state: Hashable, cache: dict[Hashable, Any]) -> Any:
    value = solve(game, state, cache)
    return -value if game.to_move(state) == game.players[1] else value


@pytest.mark.parametrize(("wrong", "hint"), [
    (unweighted, "weight each outcome by its probability"),
    (own_cache, "store every state's value in cache[state]"),
    (for_the_mover, "the value is for the first player, whoever moves"),
])
def test_mistakes_fail_with_a_hint(wrong: Any, hint: str) -> None:
    result = check_expected_value(wrong)
    assert not result.passed and hint in repr(result), repr(result)


def test_delegation_a_stub_and_a_non_function() -> None:
    def delegates(game: Any, state: Hashable, cache: dict[Hashable, Any]) -> Any:
        from gamelib.search.expectiminimax import expectiminimax
        return expectiminimax(game, state, cache=cache)

    result = check_expected_value(delegates)
    assert not result.passed and "gamelib.search.expectiminimax.expectiminimax" in repr(result)

    def stub(game: Any, state: Hashable, cache: dict[Hashable, Any]) -> Any:
        raise NotImplementedError

    assert not check_expected_value(stub).done
    assert "returned None" in repr(check_expected_value(lambda g, s, c: None))
    with pytest.raises(GameError):
        check_expected_value(3)  # type: ignore[arg-type]


def test_the_biased_coin_is_a_coin_of_two_thirds() -> None:
    game = BiasedCoinTicTacToe()
    assert [p for p, _ in chance_outcomes(game, game.start)] == [Fraction(2, 3), Fraction(1, 3)]
