"""A search picture in words (for the search viewer and its static pictures).

:class:`_Words` says what one event of a trace did (the status line), and
:func:`value_format` how a value is written: ``+1``, ``-0.35`` for the games valued -1 to +1,
the number itself for a :class:`~gamelib.games.TreeGame`.

:func:`describe_search` is the sentence of a whole picture (its plain-text form);
:func:`describe_mcts` says what one event of an ``"mcts"`` trace did: which child UCT
selects and with what scores, the new node, the playout's moves and result, and the
values backed up with their signs.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Final

from gamelib.game import CHANCE, Probability
from gamelib.search.trace import (
    Backup,
    CacheRead,
    CacheStore,
    Cutoff,
    Enter,
    Event,
    Expand,
    Leaf,
    Node,
    Playout,
    Return,
    SearchTrace,
    Select,
    Window,
)
from gamelib.session import format_value

__all__ = ["describe_mcts", "describe_search", "ALGORITHM_NAMES", "value_format", "exact",
           "probability_text"]


def describe_mcts(trace: SearchTrace, event: Select | Expand | Playout | Backup, name: str,
                  move: Callable[[Hashable], str]) -> str:
    """The status line of ``event``; ``name`` names its node (``"X's move 1,3"``) and
    ``move`` writes a move in the game's notation."""
    nodes = trace.nodes
    node = nodes[event.node]
    place = "the start position" if node.parent is None else name
    if isinstance(event, Select):
        ranked = sorted(event.scores.items(), key=lambda kv: -kv[1])
        listed = ", ".join(f"{move(nodes[k].move)} {v:.2f}" for k, v in ranked[:4])
        rule = "UCT" if nodes[event.child].prior is None else "PUCT"
        return (f"Select at {place}: {rule} scores for {node.player} "
                f"({listed}{', ...' if len(ranked) > 4 else ''}); go to "
                f"{move(nodes[event.child].move)}.")
    if isinstance(event, Expand):
        return f"Expand: {name} is a new node of the tree."
    if isinstance(event, Playout):
        if event.guided:
            return (f"The guide values {name} at {format_value(event.result)} for "
                    f"{node.player}: no playout.")
        if not event.moves:
            return (f"{name} ends the game: {format_value(event.result)} for "
                    f"{node.player}, no playout needed.")
        shown = " ".join(move(m) for m in event.moves[:8])
        more = " ..." if len(event.moves) > 8 else ""
        plural = "s" if len(event.moves) > 1 else ""
        return (f"Playout from {place}: {shown}{more} ({len(event.moves)} move{plural}): "
                f"{format_value(event.result)} for {node.player}.")
    signs = ", ".join(format_value(a) for a in event.added)
    proven = "; ".join(
        f"{'the start position' if nodes[k].parent is None else move(nodes[k].move)} is "
        f"{format_value(v)} for {nodes[k].player}" for k, v in event.proven)
    return (f"Backpropagate {signs} from the root down (the sign flips at each level): "
            "every node on the path has one visit more."
            + (f" Proven exactly: {proven}." if proven else ""))


ALGORITHM_NAMES: Final = {"minimax": "minimax", "alphabeta": "alpha-beta",
                          "bounded": "alpha-beta with a bound-flagged cache",
                          "depth_limited": "depth-limited minimax",
                          "mcts": "Monte-Carlo tree search", "expectiminimax": "expectiminimax"}
"""The algorithms of :data:`gamelib.search.trace.ALGORITHMS` in words."""


def describe_search(trace: SearchTrace, step: int) -> str:
    """The sentence of a search picture: ``'Search tree: alpha-beta from a Tic-tac-toe
    position with 3 moves, 88 steps.'`` (and ``'; shown at step 5'`` before its end)."""
    name = ALGORITHM_NAMES.get(trace.algorithm, trace.algorithm)
    moves = len(trace.game.moves(trace.state)) if not trace.game.finished(trace.state) else 0
    kind = "outcome" if trace.nodes[0].player == CHANCE else "move"
    steps = len(trace.events) - 1  # as the picture counts them: step 0 is the start
    when = "" if step >= steps else f"; shown at step {step}"
    return (f"Search tree: {name} from a {trace.game.name} position with {moves} "
            f"{kind}{'s' if moves != 1 else ''}, {steps} step{'s' if steps != 1 else ''}{when}.")


def _plain(value: float) -> str:
    """A value of a game whose values are any numbers (a tree's leaves): as it is."""
    return f"{value:g}"


def exact(value: float) -> str:
    """A value of a game with chance: an exact fraction as it is (``'+1/2'``, ``'-3/8'``,
    ``'0'``, ``'+1'``), any other number as :func:`~gamelib.session.format_value` writes it.

    >>> exact(Fraction(-3, 8)), exact(Fraction(1)), exact(0), exact(0.25)
    ('-3/8', '+1', '0', '+0.25')
    """
    if isinstance(value, (Fraction, int)) and value != 0:
        return f"{'+' if value > 0 else '-'}{abs(Fraction(value))}"
    return format_value(value)


def probability_text(p: Probability) -> str:
    """An outcome's probability: a fraction as it is (``'1/2'``), a float to 3 digits."""
    return str(p) if isinstance(p, (Fraction, int)) else f"{p:.3g}"


def value_format(game: object) -> Callable[[float], str]:
    """How the viewer writes a value of ``game``: ``format_value`` (+1, -1, +0.35 ...) for
    the games valued -1 to +1, the number itself for a game with a ``value_range`` (a
    :class:`~gamelib.games.TreeGame`, whose leaves are any numbers), and exact fractions
    (:func:`exact`) for a game with chance states."""
    if hasattr(game, "value_range"):
        return _plain
    return exact if hasattr(game, "outcome_probabilities") else format_value


def _number(value: float, fmt: Callable[[float], str] = format_value) -> str:
    if value == math.inf:
        return "+∞"
    if value == -math.inf:
        return "-∞"
    return fmt(value)


def _window_text(window: Window, fmt: Callable[[float], str] = format_value) -> str:
    return f"[{_number(window[0], fmt)}, {_number(window[1], fmt)}]"


_BOUND_WORDS: Final = {"=": "exactly", "≤": "at most", "≥": "at least"}
_COUNT_WORDS: Final = {1: "move", 2: "two moves", 3: "three moves", 4: "four moves"}


class _Words:
    """The phrases of the status line for one trace."""

    def __init__(self, trace: SearchTrace) -> None:
        self.trace = trace
        self.game = trace.game
        self.bounded = trace.algorithm == "bounded"
        self.chance = trace.algorithm == "expectiminimax"
        self.value = value_format(self.game)
        # What each node returned (every node returns once): the sums at chance nodes.
        self.returned = {e.node: e.value for e in trace.events if isinstance(e, Return)}
        self.children: dict[int, list[int]] = {}
        for n in trace.nodes:
            if n.parent is not None:
                self.children.setdefault(n.parent, []).append(n.id)
        low, high = getattr(self.game, "value_range", (-1, 1))
        # The depth-limited scale has no end at +-1 (proven results lie beyond it).
        # (Nor has the Monte Carlo search's scale: its values are means of playouts.)
        self.ends = ((-math.inf, math.inf) if trace.algorithm in ("depth_limited", "mcts")
                     else (low, high))

    def bound(self, value: float, bound: str) -> str:
        """``bound``, or ``'='`` when the bound lies at the end of the value scale: a value
        at most the lowest value (or at least the highest) is exactly that value."""
        if (bound == "≤" and value <= self.ends[0]) or (bound == "≥" and value >= self.ends[1]):
            return "="
        return bound

    def owner(self, node: Node) -> str:
        """Whose value a node's numbers are (:meth:`SearchTrace.owner`)."""
        return self.trace.owner(node)

    def move(self, move: Hashable) -> str:
        try:
            return str(self.game.format_move(move))
        except Exception:  # a game without notation for this move: show it as it is
            return repr(move)

    def name(self, node: Node) -> str:
        if node.parent is None:
            return "The start position"
        mover = self.trace.nodes[node.parent].player
        if mover == CHANCE:
            return f"Outcome {self.move(node.move)}"
        kind = "move" if node.depth == 1 or self.chance else "reply"
        return f"{mover}'s {kind} {self.move(node.move)}"

    def back_to(self, parent: Node) -> str:
        """``parent`` named in the middle of a sentence."""
        if parent.parent is None:
            return "the start position"
        name = self.name(parent)
        return name[0].lower() + name[1:] if name.startswith("Outcome") else name

    def expectation(self, node: Node, upto: int) -> tuple[str, float]:
        """The sum ``p × (v) + ...`` over the outcomes of the chance ``node`` that have
        returned by the time its child ``upto`` returned, and its value."""
        terms: list[str] = []
        total: float = 0
        for k in self.children.get(node.id, []):
            if k > upto or k not in self.returned:
                break
            p: Probability = self.trace.nodes[k].probability or 0
            v = self.returned[k]
            terms.append(f"{probability_text(p)} × ({self.value(v)})")
            total += p * v
        return " + ".join(terms), total

    def describe_chance(self, event: Event, node: Node, name: str) -> str | None:
        """The words of an expectiminimax step that differ from minimax's: a chance node
        entered or returned, an outcome returned (the sum so far), a state the memo
        answers. None for the others."""
        owner = self.owner(node)
        parent = None if node.parent is None else self.trace.nodes[node.parent]
        if isinstance(event, Enter):
            if node.player == CHANCE:
                n = len(self.game.moves(node.state))
                return (f"{name} leads to a chance node: nobody moves, chance does; its value "
                        f"is the expectation over its {n} outcomes.")
            best = "largest" if node.player == owner else "smallest"
            return f"{name}: search it, {node.player} to move ({best} value for {owner})."
        if isinstance(event, CacheRead):
            return (f"{name}: solved before, so the memo gives "
                    f"{self.value(event.entry[1] if event.entry else 0)} for {owner} at once.")
        if isinstance(event, Return) and node.player == CHANCE and node.id in self.children:
            sum_text, _ = self.expectation(node, max(self.children[node.id]))
            back = "the search is done" if parent is None else f"back to {self.back_to(parent)}"
            return (f"{name}, a chance node, is worth {sum_text} = {self.value(event.value)} "
                    f"for {owner}; {back}.")
        if isinstance(event, Return) and parent is not None and parent.player == CHANCE:
            sum_text, total = self.expectation(parent, node.id)
            return (f"{name} is worth {self.value(event.value)} for {owner}. Chance node: "
                    f"{sum_text} = {self.value(total)} so far.")
        return None

    def describe(self, event: Event) -> str:
        nodes = self.trace.nodes
        node = nodes[event.node]
        name = self.name(node)
        owner = self.owner(node)
        if isinstance(event, (Select, Expand, Playout, Backup)):
            return describe_mcts(self.trace, event, name, self.move)
        if self.chance:
            words = self.describe_chance(event, node, name)
            if words is not None:
                return words
        if isinstance(event, Enter):
            where = f"{name}: search it, {node.player} to move"
            if self.trace.algorithm == "minimax":
                return f"{where}."
            return f"{where}, window {_window_text(event.window, self.value)} for {owner}."
        if isinstance(event, Leaf):
            if event.heuristic:
                return (f"{name}: the depth limit is reached; the heuristic estimates it at "
                        f"{self.value(event.value)} for {owner}.")
            return f"{name} ends the game: worth {self.value(event.value)} for {owner}."
        if isinstance(event, CacheRead):
            if event.entry is None:
                return f"{name}: not in the cache, so search it."
            flag, v = event.entry
            entry = f"{flag} {self.value(v)}"
            if event.used:
                return (f"{name}: the cache entry {entry} (case {event.case}) answers at once, "
                        "no search.")
            return (f"{name}: the cache entry {entry} (case {event.case}) does not answer; "
                    f"search it in the window {_window_text(event.window, self.value)}.")
        if isinstance(event, Cutoff):
            child = nodes[event.child]
            alpha, beta = event.window
            text = self.value(event.value)
            at_end = self.bound(event.value, "≥" if event.value >= beta else "≤") == "="
            if event.value >= beta:
                worth, test = f"at least {text}", f"{text} ≥ β = {_number(beta, self.value)}"
            elif event.value <= alpha:
                worth, test = f"at most {text}", f"{text} ≤ α = {_number(alpha, self.value)}"
            else:
                window = _window_text(event.window, self.value)
                worth, test = text, f"{text} lies outside {window}"
            if at_end and worth != text:
                worth = text   # at the end of the scale the bound is the exact value
            n = len(event.pruned)
            head = f"{self.name(child)} is worth {worth} for {owner}, and {test}: cutoff"
            if not n:
                return f"{head}, though no move is left to skip."
            skipped = "; ".join(self.move(m) for m in event.pruned)
            last = "the last move" if n == 1 else f"the last {_COUNT_WORDS.get(n, f'{n} moves')}"
            return f"{head}, {last} here ({skipped}) {'is' if n == 1 else 'are'} skipped."
        if isinstance(event, CacheStore):
            meaning = {"=": "exact", "≤": "an upper bound", "≥": "a lower bound"}[event.flag]
            return (f"{name}: stored in the cache as {event.flag} {self.value(event.value)} "
                    f"({meaning}).")
        flag = self.bound(event.value, event.bound)
        worth = f"{_BOUND_WORDS[flag]} " if flag != "=" else ""
        if node.parent is None:
            return (f"{name} is worth {worth}{self.value(event.value)} for {owner}: "
                    "the search is done.")
        parent = self.back_to(nodes[node.parent])
        return (f"{name} is worth {worth}{self.value(event.value)} for {owner}; back to "
                f"{parent}.")


_LAST_WORDS: list[_Words] = []
"""The :class:`_Words` of the trace drawn last (one entry): a picture draws every node with
the same trace's words, and a viewer draws many pictures of one trace."""


def _words_for(trace: SearchTrace) -> _Words:
    """``_Words(trace)``, made once for a run of calls with the same trace (a _Words is
    never changed after it is made, and a trace is frozen): making it reads every event
    and node of the trace, which each node of each picture paid for."""
    last = _LAST_WORDS[0] if _LAST_WORDS else None
    if last is not None and last.trace is trace:
        return last
    words = _Words(trace)
    _LAST_WORDS[:] = [words]
    return words
