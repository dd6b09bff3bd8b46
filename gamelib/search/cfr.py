"""Counterfactual regret minimization (CFR): equilibrium strategies for hidden-card games.

Minimax chooses one move per state; with hidden cards a player does not know the state,
only its *information set* (what it has seen), and a good strategy must often be mixed: a
probability for each action. CFR (Zinkevich, Johanson, Bowling and Piccione, 2007) finds one
by playing the game against itself many times:

* **regret matching** (Hart and Mas-Colell, 2000): in each information set, play each action
  in proportion to its positive cumulative regret (how much better it would have done than
  the strategy played), uniformly when no regret is positive (:func:`regret_matching`);
* **counterfactual** regret: an action's regret in an information set is weighted by the
  probability that the *other* player and chance reach it;
* the **average** strategy over the iterations, weighted by the player's own reach
  probability, converges to a Nash equilibrium in two-person zero-sum games; the current one
  need not.

:class:`CFR` runs vanilla CFR (both players updated on each pass) or CFR+ (Tammelin, 2014:
regrets floored at zero, alternating updates, later iterations weighted more), the variant
behind Cepheus and, refined, Libratus. :func:`exploitability` measures a strategy exactly by
a best response (:func:`best_response_value`): 0 at an equilibrium.

A game for this module (:class:`ExtensiveGame`) has chance states in the vocabulary of
:mod:`gamelib.game` (``to_move`` says ``CHANCE``; ``outcome_probabilities``, read through the
checked door :func:`~gamelib.game.chance_outcomes`), information sets and any numeric
payoffs; :class:`~gamelib.games.kuhn.KuhnPoker` is one. CFR draws no random numbers: every
count is exact and every run the same.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal, Protocol

from gamelib.errors import GameError, describe_text
from gamelib.game import Player, chance_outcomes, is_chance

__all__ = [
    "CFR",
    "ExtensiveGame",
    "Strategy",
    "best_response_value",
    "exploitability",
    "expected_value",
    "regret_matching",
]

Strategy = dict[str, dict[Hashable, float]]
"""A behaviour strategy: information set -> {action: probability}. An information set that
is missing is played uniformly at random."""


class ExtensiveGame(Protocol):
    """A two-person zero-sum game with chance and hidden information, move by move."""

    @property
    def players(self) -> tuple[Player, Player]: ...
    @property
    def start(self) -> Any: ...
    def outcome_probabilities(self, state: Any) -> Sequence[Fraction | float]: ...
    def next_states(self, state: Any, player: Player) -> list[Any]: ...
    def finished(self, state: Any) -> bool: ...
    def to_move(self, state: Any) -> Player: ...
    def moves(self, state: Any) -> list[Any]: ...
    def play(self, state: Any, move: Any) -> Any: ...
    def utility(self, state: Any, player: Player) -> float: ...
    def information_set(self, state: Any, player: Player) -> str: ...


_MEMBERS = ("players", "start", "finished", "to_move", "moves", "play", "next_states",
            "outcome_probabilities", "utility", "information_set")


def _check_game(game: object) -> None:
    missing = [name for name in _MEMBERS if not hasattr(game, name)]
    if missing:
        raise GameError(f"{describe_text(game, 40)} is not a game with chance and hidden "
                        f"information: it has no {', '.join(missing)}")


def _outcomes(game: ExtensiveGame, state: Any) -> list[tuple[float, Any]]:
    """Each outcome's probability, as a float, with the state after it, through the checked
    door of :mod:`gamelib.game`."""
    return [(float(p), after) for p, after in chance_outcomes(game, state)]  # type: ignore[arg-type]


def regret_matching(regrets: Sequence[float]) -> list[float]:
    """A mixed strategy proportional to the positive parts of ``regrets``; uniform when none
    is positive.

    >>> regret_matching([2.0, -1.0, 6.0])
    [0.25, 0.0, 0.75]
    >>> regret_matching([-1.0, 0.0])
    [0.5, 0.5]
    """
    positive = [max(r, 0.0) for r in regrets]
    total = sum(positive)
    if total > 0:
        return [r / total for r in positive]
    return [1.0 / len(regrets)] * len(regrets)


def _policy(strategy: Mapping[str, Mapping[Hashable, float]], infoset: str,
            moves: list[Any]) -> list[float]:
    chosen = strategy.get(infoset)
    if chosen is None:
        return [1.0 / len(moves)] * len(moves)
    return [float(chosen.get(move, 0.0)) for move in moves]


@dataclass
class CFR:
    """Counterfactual regret minimization on ``game``, run with :meth:`run`.

    ``variant`` is ``"vanilla"`` (Zinkevich et al.: both players' regrets updated on each
    pass, a uniform average) or ``"plus"`` (CFR+: regrets floored at 0 after each update,
    the players updated in turn, iteration t weighted by t in the average).

    >>> from gamelib.games.kuhn import KuhnPoker
    >>> solver = CFR(KuhnPoker()).run(1000)
    >>> abs(expected_value(solver.game, solver.average_strategy()) + 1 / 18) < 0.002
    True
    """

    game: ExtensiveGame
    variant: Literal["vanilla", "plus"] = "vanilla"
    matching: Callable[[list[float]], Sequence[float]] = regret_matching
    """The rule that turns an information set's regrets into its strategy (Exercise 13 plugs
    in its own)."""
    regrets: dict[str, list[float]] = field(default_factory=dict)
    """Cumulative counterfactual regret of each action, by information set."""
    strategy_sums: dict[str, list[float]] = field(default_factory=dict)
    """Reach-weighted sum of the strategies played, by information set (the average's)."""
    actions: dict[str, list[Any]] = field(default_factory=dict)
    """The actions of each information set met, in the game's order."""
    iterations: int = 0
    """Iterations run so far (a pass for each player counts as one in CFR+)."""
    nodes: int = 0
    """States visited by all passes so far: an exact count of the work done."""

    def __post_init__(self) -> None:
        _check_game(self.game)
        if self.variant not in ("vanilla", "plus"):
            raise GameError(f"variant is 'vanilla' or 'plus'; got {describe_text(self.variant)}")

    def run(self, iterations: int) -> CFR:
        """Run ``iterations`` more iterations (a whole number from 0 to 10,000,000); returns
        ``self``, so that ``CFR(game).run(n).average_strategy()`` reads in one line."""
        if (not isinstance(iterations, int) or isinstance(iterations, bool)
                or not 0 <= iterations <= 10_000_000):
            raise GameError("iterations must be a whole number from 0 to 10,000,000; got "
                            f"{describe_text(iterations)}")
        for _ in range(iterations):
            self.iterations += 1
            if self.variant == "vanilla":
                self._walk(self.game.start, 1.0, 1.0, 1.0, None)
            else:
                for player in self.game.players:
                    self._walk(self.game.start, 1.0, 1.0, 1.0, player)
        return self

    def current_strategy(self) -> Strategy:
        """The strategy regret matching plays now, in every information set met."""
        return {infoset: dict(zip(self.actions[infoset], self.matching(list(regrets)),
                                  strict=True))
                for infoset, regrets in self.regrets.items()}

    def average_strategy(self) -> Strategy:
        """The average strategy: the one that converges to an equilibrium."""
        result: Strategy = {}
        for infoset, sums in self.strategy_sums.items():
            total = sum(sums)
            probabilities = ([s / total for s in sums] if total > 0
                             else [1.0 / len(sums)] * len(sums))
            result[infoset] = dict(zip(self.actions[infoset], probabilities, strict=True))
        return result

    def _walk(self, state: Any, reach_a: float, reach_b: float, reach_chance: float,
              updating: Player | None) -> float:
        """The value of ``state`` for the first player under the current strategies; updates
        the regrets and strategy sums of ``updating`` (both players when None)."""
        game = self.game
        self.nodes += 1
        if game.finished(state):
            return float(game.utility(state, game.players[0]))
        if is_chance(game, state):
            return sum(p * self._walk(after, reach_a, reach_b, reach_chance * p, updating)
                       for p, after in _outcomes(game, state))
        player = game.to_move(state)
        first = player == game.players[0]
        infoset = game.information_set(state, player)
        moves = self.actions.get(infoset)
        if moves is None:
            moves = self.actions[infoset] = game.moves(state)
            self.regrets[infoset] = [0.0] * len(moves)
            self.strategy_sums[infoset] = [0.0] * len(moves)
        sigma = [float(p) for p in self.matching(list(self.regrets[infoset]))]
        values = [
            self._walk(game.play(state, move),
                       reach_a * p if first else reach_a,
                       reach_b if first else reach_b * p, reach_chance, updating)
            for move, p in zip(moves, sigma, strict=True)
        ]
        value = sum(p * v for p, v in zip(sigma, values, strict=True))
        if updating is None or updating == player:
            sign = 1.0 if first else -1.0
            own, others = (reach_a, reach_b) if first else (reach_b, reach_a)
            weight = own * (self.iterations if self.variant == "plus" else 1)
            regrets = self.regrets[infoset]
            sums = self.strategy_sums[infoset]
            for i, v in enumerate(values):
                regrets[i] += others * reach_chance * sign * (v - value)
                if self.variant == "plus" and regrets[i] < 0:
                    regrets[i] = 0.0
                sums[i] += weight * sigma[i]
        return value


def _check_strategy(strategy: object) -> None:
    if not isinstance(strategy, Mapping) or not all(
            isinstance(k, str) and isinstance(v, Mapping) for k, v in strategy.items()):
        raise GameError("a strategy is a dict: information set -> {action: probability}; got "
                        f"{describe_text(strategy, 40)}")


def expected_value(game: ExtensiveGame, strategy: Mapping[str, Mapping[Hashable, float]]
                   ) -> float:
    """The first player's expected payoff when both players follow ``strategy``."""
    _check_game(game)
    _check_strategy(strategy)

    def value(state: Any) -> float:
        if game.finished(state):
            return float(game.utility(state, game.players[0]))
        if is_chance(game, state):
            return sum(p * value(after) for p, after in _outcomes(game, state))
        moves = game.moves(state)
        infoset = game.information_set(state, game.to_move(state))
        return sum(p * value(game.play(state, move))
                   for move, p in zip(moves, _policy(strategy, infoset, moves), strict=True)
                   if p > 0)

    return value(game.start)


def best_response_value(game: ExtensiveGame, strategy: Mapping[str, Mapping[Hashable, float]],
                        responder: Player) -> float:
    """What ``responder`` wins in expectation by the best reply to the other player's part of
    ``strategy``, knowing that strategy but not the hidden cards.

    The reply chooses one action per information set of ``responder``: the one whose value,
    summed over the set's states weighted by how likely chance and the opponent are to reach
    each, is highest (the first in the game's order on a tie). Perfect recall makes this
    well defined: the choice in a set depends only on choices in later sets.
    """
    _check_game(game)
    _check_strategy(strategy)
    if responder not in game.players:
        raise GameError(f"the players are {game.players}; got {describe_text(responder)}")
    members: dict[str, list[tuple[Any, float]]] = {}

    def collect(state: Any, reach: float) -> None:
        if game.finished(state):
            return
        if is_chance(game, state):
            for p, after in _outcomes(game, state):
                collect(after, reach * p)
            return
        player = game.to_move(state)
        moves = game.moves(state)
        if player == responder:
            members.setdefault(game.information_set(state, player), []).append((state, reach))
            for move in moves:
                collect(game.play(state, move), reach)
        else:
            infoset = game.information_set(state, player)
            for move, p in zip(moves, _policy(strategy, infoset, moves), strict=True):
                collect(game.play(state, move), reach * p)

    collect(game.start, 1.0)
    choice: dict[str, Any] = {}

    def choose(infoset: str) -> Any:
        if infoset not in choice:
            states = members[infoset]
            moves = game.moves(states[0][0])
            totals = [sum(w * value(game.play(s, move)) for s, w in states) for move in moves]
            choice[infoset] = moves[totals.index(max(totals))]
        return choice[infoset]

    def value(state: Any) -> float:
        if game.finished(state):
            return float(game.utility(state, responder))
        if is_chance(game, state):
            return sum(p * value(after) for p, after in _outcomes(game, state))
        player = game.to_move(state)
        infoset = game.information_set(state, player)
        if player == responder:
            return value(game.play(state, choose(infoset)))
        moves = game.moves(state)
        return sum(p * value(game.play(state, move))
                   for move, p in zip(moves, _policy(strategy, infoset, moves), strict=True)
                   if p > 0)

    return value(game.start)


def exploitability(game: ExtensiveGame, strategy: Mapping[str, Mapping[Hashable, float]]
                   ) -> float:
    """How much a best response gains against ``strategy``, averaged over the two seats:
    ``(best_response_value(A) + best_response_value(B)) / 2``, exactly 0 at an equilibrium
    of a zero-sum game and positive elsewhere (half of what the literature calls NashConv)."""
    first, second = game.players
    return (best_response_value(game, strategy, first)
            + best_response_value(game, strategy, second)) / 2
