"""gamelib.search.match_stats against values computed by hand from the published formulas."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest

from gamelib.game import GameError
from gamelib.search.match_stats import (
    Z_95,
    elo_difference,
    expected_score,
    match_score,
    sprt,
    sprt_bounds,
    sprt_llr,
)


def test_the_wilson_interval_of_the_textbook_example() -> None:
    # 8 successes in 10: the Wilson 95% interval is (0.4902, 0.9433).
    m = match_score(8, 0, 2)
    assert (m.games, m.score) == (10, 0.8)
    assert (round(m.low, 4), round(m.high, 4)) == (0.4902, 0.9433)
    assert not m.shown


def test_no_win_and_every_win_end_at_the_edge() -> None:
    # With s = 0 the upper end is z² / (n + z²); with s = 1 the lower end is n / (n + z²).
    z2 = Z_95 ** 2
    nothing, everything = match_score(0, 0, 10), match_score(10, 0, 0)
    assert nothing.low == 0 and nothing.high == pytest.approx(z2 / (10 + z2))
    assert everything.high == 1 and everything.low == pytest.approx(10 / (10 + z2))
    assert everything.shown and not nothing.shown
    assert (everything.elo, nothing.elo) == (math.inf, -math.inf)
    assert "Elo +inf [+" in everything.summary


def test_a_draw_counts_half_a_win() -> None:
    drawn, split = match_score(0, 10, 0), match_score(5, 0, 5)
    assert (drawn.score, drawn.low, drawn.high) == (split.score, split.low, split.high)
    assert drawn.elo == 0.0 and str(drawn.elo) == "0.0"


def test_the_lessons_matches() -> None:
    # Lesson 7's stacking step, +22 -9 =9: score 0.6625, the interval just above 1/2.
    stacking = match_score(22, 9, 9)
    assert stacking.score == 0.6625 and stacking.shown and 0.5 < stacking.low < 0.51
    # Its row-parity step, +20 -14 =6, does not show a gain.
    parity = match_score(20, 6, 14)
    assert parity.summary == ("+20 -14 =6: score 0.57 [0.42, 0.71], Elo +53 [-55, +160]: "
                              "not shown at this size")
    assert stacking.verdict == "gain shown"
    # A loss is shown too when the whole interval lies below 1/2: +8 -25 =7.
    worse = match_score(8, 7, 25)
    assert worse.high < 0.5 and not worse.shown and worse.summary.endswith(": loss shown")


def test_elo_and_the_expected_score_are_inverse() -> None:
    assert elo_difference(0.75) == pytest.approx(400 * math.log10(3))
    assert expected_score(400) == pytest.approx(10 / 11)
    for elo in (-300, -35.5, 0, 12, 191):
        assert elo_difference(expected_score(elo)) == pytest.approx(elo)
    m = match_score(3, 2, 1)
    assert (m.elo_low, m.elo, m.elo_high) == tuple(map(elo_difference, (m.low, m.score, m.high)))


def test_wald_bounds() -> None:
    assert sprt_bounds() == pytest.approx((math.log(1 / 19), math.log(19)))
    assert sprt_bounds(0.1, 0.2) == pytest.approx((math.log(0.2 / 0.9), math.log(8)))


def test_the_binomial_log_likelihood_ratio_by_hand() -> None:
    # Wald: P log(s1/s0) + (n - P) log((1 - s1)/(1 - s0)), a draw half a point.
    s1 = 1 / (1 + 10 ** -0.25)                            # 100 Elo
    assert sprt_llr(6, 1, 0, 0, 100) == pytest.approx(
        6.5 * math.log(s1 / 0.5) + 0.5 * math.log((1 - s1) / 0.5))
    assert sprt_llr(10, 0, 10, 0, 100) == pytest.approx(10 * math.log(4 * s1 * (1 - s1)))
    # A draw counts as a win and a loss, halved: two draws are one win and one loss.
    assert sprt_llr(0, 2, 0, -30, 40) == pytest.approx(sprt_llr(1, 0, 1, -30, 40))
    assert sprt_llr(0, 0, 0, 0, 10) == 0


def test_the_trinomial_log_likelihood_ratio_by_hand() -> None:
    # 10 wins, 10 losses: s = 1/2, v = 1/4, n = 20; s0 = 1/2, s1 = 1/(1 + 10^(-1/4)).
    s1 = 1 / (1 + 10 ** -0.25)
    assert sprt_llr(10, 0, 10, 0, 100, "trinomial") == pytest.approx(
        20 * (s1 - 0.5) * (0.5 - s1) / 0.5)
    # 3 wins, 1 draw: s = 7/8, v = (3 (1/8)² + (3/8)²) / 4 = 3/64.
    s0, s1 = expected_score(-10), expected_score(10)
    assert sprt_llr(3, 1, 0, -10, 10, "trinomial") == pytest.approx(
        4 * (s1 - s0) * (2 * 7 / 8 - s0 - s1) / (2 * 3 / 64))
    # Every game alike: no spread known yet, no evidence.
    assert sprt_llr(5, 0, 0, 0, 50, "trinomial") == sprt_llr(0, 7, 0, 0, 50, "trinomial") == 0
    # A result exactly halfway between the hypotheses' scores is no evidence either way.
    assert sprt_llr(1, 0, 1, -20, 20, "trinomial") == pytest.approx(0)
    # On few games it runs ahead of the binomial ratio: 6 wins and a draw.
    assert sprt_llr(6, 1, 0, 0, 100, "trinomial") > sprt_bounds()[1] > sprt_llr(6, 1, 0, 0, 100)


def pattern(results: str) -> tuple[list[int], Callable[[int], int]]:
    """The games played, and a player whose results repeat ``results`` (w, d, l)."""
    played: list[int] = []

    def play(number: int) -> int:
        played.append(number)
        return {"w": 1, "d": 0, "l": -1}[results[number % len(results)]]
    return played, play


def test_the_sequential_test_stops_where_the_ratio_leaves_the_bounds() -> None:
    played, play = pattern("wwwl")            # score 3/4 against hypotheses 0 and 50 Elo
    result = sprt(play, 0, 50)
    assert result.verdict == "accepted" and played == list(range(result.games))
    low, high = sprt_bounds()
    assert result.llr >= high
    # The first game at which the ratio crosses: recomputed independently.
    counts = [0, 0]
    first = None
    for number in range(1000):
        counts[0 if "wwwl"[number % 4] == "w" else 1] += 1
        if sprt_llr(counts[0], 0, counts[1], 0, 50) >= high:
            first = number + 1
            break
    assert result.games == first and result.summary.endswith(": accepted")

    _, even = pattern("wl")
    assert sprt(even, 0, 50).verdict == "rejected"
    _, drawn = pattern("d")                   # the trinomial ratio cannot start on draws alone
    assert sprt(drawn, 0, 50, model="trinomial", max_games=30).verdict == "not shown"
    _, close = pattern("wl")
    capped = sprt(close, -5, 5, max_games=40)
    assert capped.verdict == "not shown" and capped.games == 40
    assert low < capped.llr < high


@pytest.mark.parametrize("arguments", [
    {"elo0": 5, "elo1": 5}, {"elo0": 10, "elo1": 0}, {"elo0": math.nan, "elo1": 5},
    {"alpha": 0}, {"alpha": 0.5}, {"beta": "0.05"}, {"max_games": 0}, {"max_games": 2.0},
    {"max_games": 10 ** 9}, {"model": "pentanomial"},
])
def test_bad_arguments_are_refused(arguments: dict[str, object]) -> None:
    options: dict[str, object] = {"elo0": 0, "elo1": 10, **arguments}
    with pytest.raises(GameError):
        sprt(lambda i: 1, **options)  # type: ignore[arg-type]


def test_a_bad_game_result_is_named() -> None:
    with pytest.raises(GameError, match=r"play\(0\) must return 1 .* got 0.5"):
        sprt(lambda i: 0.5, 0, 10)  # type: ignore[arg-type, return-value]
    with pytest.raises(GameError, match="got True"):
        sprt(lambda i: True, 0, 10)


@pytest.mark.parametrize("counts", [(-1, 0, 0), (1.5, 0, 0), (True, 0, 0), (0, 0, 0)])
def test_bad_counts_are_refused(counts: tuple[int, int, int]) -> None:
    with pytest.raises(GameError):
        match_score(*counts)
