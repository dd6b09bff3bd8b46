"""Exercise 13's checker: right code passes, the usual mistakes fail with a hint."""

from __future__ import annotations

from typing import Any

import pytest

from gamelib.exercises import check_regret_matching
from gamelib.exercises.ex13_regret import CASES, ITERATIONS
from gamelib.game import GameError


def mine(regrets: list[float]) -> list[float]:
    """Written without gamelib's: the positive parts, normalised; uniform without any."""
    positive = [r if r > 0 else 0.0 for r in regrets]
    total = sum(positive)
    if total == 0:
        return [1 / len(regrets) for _ in regrets]
    return [p / total for p in positive]


def test_right_code_passes_with_the_facts() -> None:
    result = check_regret_matching(mine)
    assert result.passed, repr(result)
    assert result.facts["cases"] == len(CASES) == 10 and result.facts["infosets"] == 12
    assert 0.01 < result.facts["exploitability"] < 0.05
    assert f"after {ITERATIONS} iterations" in repr(result)


def negatives_kept(regrets: list[float]) -> list[float]:
    total = sum(regrets)
    return [r / total for r in regrets]


def no_uniform(regrets: list[float]) -> list[float]:
    positive = [max(r, 0.0) for r in regrets]
    total = sum(positive) or 1.0
    return [p / total for p in positive]


def not_normalised(regrets: list[float]) -> list[float]:
    return [max(r, 0.0) for r in regrets] if any(r > 0 for r in regrets) else \
        [1 / len(regrets)] * len(regrets)


def one_short(regrets: list[float]) -> list[float]:
    return mine(regrets)[:-1]


def remembers(regrets: list[float], seen: list[int] = []) -> list[float]:  # noqa: B006
    seen.append(1)
    return mine(regrets) if len(seen) <= len(CASES) else [1 / len(regrets)] * len(regrets)


@pytest.mark.parametrize(("wrong", "hint"), [
    (negatives_kept, "a probability is never negative"),
    (no_uniform, "when no regret is positive, play every action with the same probability"),
    (not_normalised, "must add up to 1"),
    (one_short, "one probability per action: 3 numbers, not 2"),
    (remembers, "right on the hand-made lists but not inside CFR"),
])
def test_the_usual_mistakes_fail_with_their_hint(wrong: Any, hint: str) -> None:
    result = check_regret_matching(wrong)
    assert not result.passed and hint in repr(result), repr(result)


def test_a_stub_is_not_done_and_a_non_function_is_refused() -> None:
    def stub(regrets: list[float]) -> list[float]:
        raise NotImplementedError

    result = check_regret_matching(stub)
    assert not result.done and "not done yet" in repr(result)
    with pytest.raises(GameError):
        check_regret_matching([0.5, 0.5])  # type: ignore[arg-type]
