"""What a match shows: a score with its 95% interval, an Elo difference, and a sequential test.

A match between two players gives wins, draws and losses (counted for the first player).
Three questions, each answered here once for the whole course:

* **How well did it score?** :func:`match_score`: the score (a win 1, a draw 1/2, per
  game) with a 95% interval, and the Elo difference that score means, with its interval.
  The interval is the *Wilson score interval* with a draw counted as half a win. For a
  result that lies in [0, 1] with mean ``s`` the variance is at most ``s(1 - s)``, the
  variance of a win-or-loss game, so with draws the interval is conservative (a little
  wider than it need be). Unlike the normal approximation with the sample's own variance,
  which chess engine testers use on thousands of games, it stays honest on the course's
  small matches: 4 wins in 4 games is not "a score of 1 with no doubt" but ``[0.51, 1]``.
* **Does it show a gain?** :attr:`MatchScore.shown`: the whole interval lies above 1/2.
  Otherwise the match does not show that the first player is the stronger; with few games
  that is the usual answer, and then no conclusion may be drawn from it.
* **Play until it is decided:** :func:`sprt`, the sequential probability ratio test that
  engine testing runs (Fishtest, OpenBench): the hypotheses "the gain is ``elo0``" and "the
  gain is ``elo1``", error rates ``alpha`` and ``beta``, games played one at a time until
  the log-likelihood ratio (:func:`sprt_llr`) leaves Wald's bounds (:func:`sprt_bounds`), or
  the game cap is reached and the test says "not shown". By default the ratio is Wald's
  for a score (a draw half a win), whose error bounds hold for any share of draws; the
  trinomial approximation of engine testing is there too, for matches of thousands.

Elo differences are logistic: an expected score ``s`` means ``-400 log10(1/s - 1)`` Elo
(:func:`elo_difference`), and ``d`` Elo means ``1 / (1 + 10^(-d/400))`` (:func:`expected_score`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

from gamelib.game import GameError

__all__ = ["MatchScore", "Model", "SprtResult", "Z_95", "elo_difference", "expected_score",
           "match_score", "sprt", "sprt_bounds", "sprt_llr"]

Z_95: Final = 1.959963984540054
"""The two-sided 95% quantile of the standard normal law."""

MAX_SPRT_GAMES: Final = 100_000
"""The largest game cap :func:`sprt` accepts."""


def expected_score(elo: float) -> float:
    """The expected score per game of a player ``elo`` Elo stronger: ``1 / (1 + 10^(-elo/400))``.

    >>> expected_score(0), round(expected_score(400), 4)
    (0.5, 0.9091)
    """
    return 1 / (1 + 10 ** (-elo / 400))


def elo_difference(score: float) -> float:
    """The logistic Elo difference that an expected ``score`` in [0, 1] means:
    ``-400 log10(1/score - 1)``; ``-inf`` at 0 and ``inf`` at 1.

    >>> round(elo_difference(0.75), 1), elo_difference(0.5), elo_difference(1.0)
    (190.8, 0.0, inf)
    """
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1) + 0.0   # + 0.0: no -0.0 at 1/2


def _counts(wins: object, draws: object, losses: object) -> tuple[int, int, int]:
    """The three counts, checked: whole numbers, not negative."""
    counts = (wins, draws, losses)
    if not all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in counts):
        raise GameError("wins, draws and losses must be whole numbers of at least 0, "
                        f"got {wins!r}, {draws!r}, {losses!r}")
    return wins, draws, losses  # type: ignore[return-value]


@dataclass(frozen=True)
class _Counts:
    """A match's wins, draws and losses for the first player."""

    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        """wins + draws + losses."""
        return self.wins + self.draws + self.losses


@dataclass(frozen=True)
class MatchScore(_Counts):
    """A match's result for the first player, its score with a 95% interval, and the Elo
    difference the score means (``-inf``/``inf`` where an end of the interval is 0 or 1)."""

    score: float
    """Points per game: (wins + draws / 2) / games."""
    low: float
    """The lower end of the 95% Wilson interval of the score."""
    high: float
    """The upper end of the 95% Wilson interval of the score."""

    @property
    def elo(self) -> float:
        """The Elo difference of the score."""
        return elo_difference(self.score)

    @property
    def elo_low(self) -> float:
        """The Elo difference of the interval's lower end."""
        return elo_difference(self.low)

    @property
    def elo_high(self) -> float:
        """The Elo difference of the interval's upper end."""
        return elo_difference(self.high)

    @property
    def shown(self) -> bool:
        """True when the whole interval lies above 1/2: the match shows that the first
        player scores more than half."""
        return self.low > 0.5

    @property
    def verdict(self) -> str:
        """``"gain shown"`` when the interval lies above 1/2, ``"loss shown"`` when it lies
        below, else ``"not shown at this size"``."""
        if self.shown:
            return "gain shown"
        return "loss shown" if self.high < 0.5 else "not shown at this size"

    @property
    def summary(self) -> str:
        """One line: ``+W -L =D: score S [low, high], Elo E [low, high]: verdict``."""
        def elo(value: float) -> str:
            return f"{value:+.0f}" if math.isfinite(value) else ("-inf" if value < 0 else "+inf")

        return (f"+{self.wins} -{self.losses} ={self.draws}: score {self.score:.2f} "
                f"[{self.low:.2f}, {self.high:.2f}], Elo {elo(self.elo)} "
                f"[{elo(self.elo_low)}, {elo(self.elo_high)}]: {self.verdict}")


def match_score(wins: int, draws: int, losses: int) -> MatchScore:
    """The score of a match (``wins``, ``draws``, ``losses`` of the first player, whole
    numbers, at least one game) with its 95% Wilson interval, a draw counted as half a win.

    With ``n`` games, score ``s`` and ``z`` = :data:`Z_95`, the interval is
    ``(s + z²/2n ± z √(s(1-s)/n + z²/4n²)) / (1 + z²/n)``. Raises :class:`GameError` for
    counts that are not whole numbers of at least 0, or no game at all.

    >>> m = match_score(8, 0, 2)
    >>> m.score, round(m.low, 4), round(m.high, 4), m.shown
    (0.8, 0.4902, 0.9433, False)
    """
    wins, draws, losses = _counts(wins, draws, losses)
    n = wins + draws + losses
    if n == 0:
        raise GameError("a match score needs at least one game, got 0 wins, draws and losses")
    s = (wins + draws / 2) / n
    z2 = Z_95 ** 2
    centre = (s + z2 / (2 * n)) / (1 + z2 / n)
    half = Z_95 * math.sqrt(s * (1 - s) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    low = 0.0 if s == 0 else centre - half     # the ends at s = 0 and s = 1 are exact
    high = 1.0 if s == 1 else centre + half
    return MatchScore(wins, draws, losses, s, low, high)


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Wald's bounds ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``: the test
    accepts ``elo1`` when the log-likelihood ratio reaches the upper one, ``elo0`` at the
    lower. ``alpha`` is the chance of accepting ``elo1`` when ``elo0`` is true, ``beta`` of
    the opposite error.

    >>> [round(b, 3) for b in sprt_bounds()]
    [-2.944, 2.944]
    """
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


Model = Literal["binomial", "trinomial"]
"""The likelihood of :func:`sprt_llr`: ``"binomial"``, Wald's SPRT on the score (a draw half a
win), or ``"trinomial"``, the normal approximation of the generalized SPRT."""


def sprt_llr(wins: int, draws: int, losses: int, elo0: float, elo1: float,
             model: Model = "binomial") -> float:
    """The log-likelihood ratio of "the gain is ``elo1``" against "the gain is ``elo0``"
    after ``wins``, ``draws`` and ``losses``; ``s0`` and ``s1`` are the expected scores of
    ``elo0`` and ``elo1``, ``n`` the games and ``P`` the points (a draw 1/2).

    * ``"binomial"`` (the default): ``P log(s1/s0) + (n - P) log((1 - s1)/(1 - s0))``,
      Wald's ratio for games that are won or lost, a draw counted as half of each. Its
      error bounds hold whatever the share of draws: replacing a draw by a coin toss
      between a win and a loss can only raise the ratio's expected growth under the wrong
      hypothesis (the ratio's exponential is convex in the score), so with draws the test
      is conservative: it needs more games, never makes more errors.
    * ``"trinomial"``: ``n (s1 - s0) (2s - s0 - s1) / (2v)`` with ``s = P/n`` and ``v`` the
      sample variance of a game's score: the normal approximation of the generalized SPRT
      that Fishtest and OpenBench run on thousands of games (M. Van den Bergh). It uses the
      draws to decide sooner, but on a few dozen games ``v`` is a poor estimate: 6 wins and a
      draw give 11.5 for 0 against 100 Elo, far past the bound 2.94 after 7 games. It is 0
      while ``v`` is 0 (every game had the same result).

    Counts are not checked here (:func:`match_score` and :func:`sprt` check theirs).

    >>> round(sprt_llr(6, 1, 0, 0, 100), 2), round(sprt_llr(6, 1, 0, 0, 100, "trinomial"), 2)
    (1.44, 11.48)
    """
    n = wins + draws + losses
    if n == 0:
        return 0.0
    points = wins + draws / 2
    s0, s1 = expected_score(elo0), expected_score(elo1)
    if model == "binomial":
        return points * math.log(s1 / s0) + (n - points) * math.log((1 - s1) / (1 - s0))
    s = points / n
    v = (wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s * s) / n
    if v == 0:
        return 0.0
    return n * (s1 - s0) * (2 * s - s0 - s1) / (2 * v)


@dataclass(frozen=True)
class SprtResult(_Counts):
    """The end of a sequential test: the counts, the verdict and the last ratio."""

    verdict: Literal["accepted", "rejected", "not shown"]
    """``"accepted"``: the gain ``elo1`` (H1); ``"rejected"``: the gain ``elo0`` (H0);
    ``"not shown"``: the game cap came first, and nothing may be concluded."""
    llr: float
    """The log-likelihood ratio after the last game (:func:`sprt_llr`)."""
    bounds: tuple[float, float]
    """Wald's bounds the ratio was compared with (:func:`sprt_bounds`)."""
    elo0: float
    elo1: float

    @property
    def summary(self) -> str:
        """One line: the hypotheses, the counts, the ratio and its bounds, the verdict."""
        low, high = self.bounds
        return (f"SPRT [{self.elo0:g}, {self.elo1:g}] Elo: +{self.wins} -{self.losses} "
                f"={self.draws} in {self.games} games, LLR {self.llr:+.2f} "
                f"({low:+.2f}, {high:+.2f}): {self.verdict}")


def sprt(play: Callable[[int], int], elo0: float, elo1: float, *, alpha: float = 0.05,
         beta: float = 0.05, max_games: int = 1000, model: Model = "binomial") -> SprtResult:
    """Play games until a gain of ``elo1`` Elo is accepted or one of ``elo0`` is, or
    ``max_games`` games have been played (then the verdict is ``"not shown"``).

    ``play(i)`` plays game ``i`` (0, 1, 2, ...) and returns its result for the tested
    player: 1 a win, 0 a draw, -1 a loss. After each game the ratio :func:`sprt_llr` (of
    ``model``) is compared with :func:`sprt_bounds`. Raises :class:`GameError` when
    ``elo0 >= elo1``, ``alpha`` or ``beta`` lies outside (0, 1/2), ``max_games`` is not a
    whole number from 1 to :data:`MAX_SPRT_GAMES`, ``model`` is not one of :data:`Model`,
    or ``play`` returns anything but 1, 0 or -1.
    """
    if not all(isinstance(e, (int, float)) and not isinstance(e, bool) and math.isfinite(e)
               for e in (elo0, elo1)) or not elo0 < elo1:
        raise GameError(f"elo0 must be a number below elo1, got {elo0!r} and {elo1!r}")
    for name, error in (("alpha", alpha), ("beta", beta)):
        if not isinstance(error, (int, float)) or isinstance(error, bool) or not 0 < error < 0.5:
            raise GameError(f"{name} must be a number strictly between 0 and 0.5, got {error!r}")
    if (not isinstance(max_games, int) or isinstance(max_games, bool)
            or not 1 <= max_games <= MAX_SPRT_GAMES):
        raise GameError(f"max_games must be a whole number from 1 to {MAX_SPRT_GAMES:,}, "
                        f"got {max_games!r}")
    if model not in ("binomial", "trinomial"):
        raise GameError(f"model must be 'binomial' or 'trinomial', got {model!r}")
    low, high = sprt_bounds(alpha, beta)
    counts = {1: 0, 0: 0, -1: 0}
    llr = 0.0
    for number in range(max_games):
        result = play(number)
        if result not in counts or isinstance(result, bool):
            raise GameError(f"play({number}) must return 1 (a win), 0 (a draw) or -1 (a loss), "
                            f"got {result!r}")
        counts[result] += 1
        llr = sprt_llr(counts[1], counts[0], counts[-1], elo0, elo1, model)
        if llr >= high or llr <= low:
            verdict: Literal["accepted", "rejected", "not shown"] = (
                "accepted" if llr >= high else "rejected")
            return SprtResult(counts[1], counts[0], counts[-1], verdict, llr, (low, high),
                              elo0, elo1)
    return SprtResult(counts[1], counts[0], counts[-1], "not shown", llr, (low, high),
                      elo0, elo1)
