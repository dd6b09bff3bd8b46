"""A session of Kuhn poker against a fixed strategy, hand after hand, without any widget.

A :class:`PokerSession` deals a hand, lets the person act by text (``"bet"``, ``"call"``,
``"check"``, ``"fold"``, ``"p"``, ``"b"``), answers with the computer's strategy (CFR's
average strategy unless another is given), and keeps the running winnings. The seats
alternate from hand to hand, so the person plays first in odd hands and second in even ones
(the first seat is worth -1/18 of a chip a hand in equilibrium).

Input never raises and never loses a hand: a refused action returns False, leaves the
hand as it was and says why in :attr:`PokerSession.message`.

>>> s = PokerSession(seed=3)
>>> s.you, s.cards_text()
('A', 'You: J   Computer: ?')
>>> s.act("raise"), s.message
(False, "'raise' is not an action here: write check or bet.")
>>> s.act("check"), s.message
(True, 'You checked; the computer bet. Your turn: fold or call.')
>>> s.act("fold"), s.message, s.winnings
(True, 'You folded. A fold: the cards stay hidden; you lose 1 chip.', -1)
"""

from __future__ import annotations

import functools
import random
from collections.abc import Hashable, Mapping
from typing import Final

from gamelib.errors import GameError, describe_text
from gamelib.games.kuhn import CARD_NAMES, KuhnPoker, KuhnState
from gamelib.search.cfr import CFR, Strategy

__all__ = ["PokerSession", "cfr_strategy"]

_GAME: Final = KuhnPoker()


@functools.cache
def cfr_strategy(iterations: int = 1000) -> Strategy:
    """CFR's average strategy for Kuhn poker after ``iterations`` (computed once, shared)."""
    return CFR(_GAME).run(iterations).average_strategy()


def _words(action: str, facing_bet: bool) -> str:
    return {("p", False): "checked", ("p", True): "folded",
            ("b", False): "bet", ("b", True): "called"}[(action, facing_bet)]


class PokerSession:
    """Kuhn poker, the person against ``strategy``, with seeded deals and seeded mixing."""

    def __init__(self, strategy: Mapping[str, Mapping[Hashable, float]] | None = None,
                 seed: int | None = None) -> None:
        """``strategy``: information set -> {action: probability} for the computer's seat
        (default: :func:`cfr_strategy`); ``seed``: a whole number for a repeatable session, or
        None. Raises :class:`GameError` for anything else."""
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise GameError(f"seed must be a whole number or None; got {describe_text(seed)}")
        if strategy is not None and not isinstance(strategy, Mapping):
            raise GameError("strategy must be a dict: information set -> {action: "
                            f"probability}}; got {describe_text(strategy, 40)}")
        self.game: Final = _GAME
        self.strategy: Final = cfr_strategy() if strategy is None else strategy
        self._rng = random.Random(seed)
        self.hands = 0
        """Hands dealt so far (the current one included)."""
        self.winnings = 0
        """Chips the person has won over the finished hands (negative: lost)."""
        self.state: KuhnState = _GAME.start
        self.message = ""
        """What happened last, and what the person may do now (or why an input was refused)."""
        self.status = ""
        """The last sentence of a turn: what the person may do now, or the hand's result."""
        self.new_hand()

    @property
    def you(self) -> str:
        """The person's seat in this hand: ``"A"`` (acts first) in odd hands, else ``"B"``."""
        return _GAME.players[(self.hands - 1) % 2]

    @property
    def finished(self) -> bool:
        """True iff the current hand is over (then :meth:`new_hand` deals the next)."""
        return _GAME.finished(self.state)

    @property
    def pot(self) -> int:
        """Chips in the pot: the two antes and every bet or call."""
        return 2 + self.state[1].count("b")

    def allowed(self) -> list[str]:
        """The words for the person's two actions now, e.g. ``["check", "bet"]``; empty when
        it is not the person's turn."""
        if self.finished or _GAME.to_move(self.state) != self.you:
            return []
        return ["fold", "call"] if self.state[1].endswith("b") else ["check", "bet"]

    def new_hand(self) -> None:
        """Deal the next hand (the seats change); the computer acts first if it sits first."""
        if self.hands and not self.finished:
            self.message = "Finish this hand first: " + " or ".join(self.allowed()) + "."
            return
        self.hands += 1
        deals = _GAME.moves(_GAME.start)
        self.state = _GAME.play(_GAME.start, self._rng.choice(deals))
        said = [f"Hand {self.hands}: you sit {'first' if self.you == 'A' else 'second'}."]
        if _GAME.to_move(self.state) != self.you:
            said.append(self._computer().capitalize())
        said.append(self._after())
        self.message = " ".join(said)

    def act(self, text: object) -> bool:
        """Play the person's action written as ``text``; the computer answers at once.
        Returns False, with the reason in :attr:`message`, when the hand is over, or the
        text is no action allowed now."""
        if self.finished:
            self.message = "This hand is over: press New hand (or call new_hand()) to deal."
            return False
        allowed = self.allowed()
        word = text.strip().lower() if isinstance(text, str) else None
        if word in ("p", "pass", "b"):
            action = word[0]
        elif word in allowed:
            action = "p" if word == allowed[0] else "b"
        else:
            self.message = (f"{describe_text(text)} is not an action here: write "
                            f"{' or '.join(allowed)}.")
            return False
        facing = self.state[1].endswith("b")
        self.state = _GAME.play(self.state, action)
        said = [f"You {_words(action, facing)}."]
        if not self.finished:
            said = [f"You {_words(action, facing)};", self._computer()]
        said.append(self._after())
        self.message = " ".join(said)
        return True

    def cards_text(self) -> str:
        """The cards as the person may see them: the computer's only after a showdown."""
        cards = self.state[0]
        mine, theirs = (cards[0], cards[1]) if self.you == "A" else (cards[1], cards[0])
        shown = CARD_NAMES[theirs] if self.showdown else "?"
        return f"You: {CARD_NAMES[mine]}   Computer: {shown}"

    @property
    def showdown(self) -> bool:
        """True iff the hand ended with the cards shown (nobody folded)."""
        return self.finished and self.state[1] not in ("bp", "pbp")

    def _computer(self) -> str:
        """The computer acts by its strategy, with the session's seeded random source."""
        player = _GAME.to_move(self.state)
        infoset = _GAME.information_set(self.state, player)
        moves = _GAME.moves(self.state)
        chosen = self.strategy.get(infoset, {})
        weights = [float(chosen.get(move, 0.0)) for move in moves]
        if sum(weights) <= 0:
            weights = [1.0] * len(moves)
        action = self._rng.choices(moves, weights)[0]
        facing = self.state[1].endswith("b")
        self.state = _GAME.play(self.state, action)
        return f"the computer {_words(action, facing)}."

    def history_text(self) -> str:
        """The actions of this hand in words, e.g. ``"you checked, the computer bet"``."""
        history, said = self.state[1], []
        for k, action in enumerate(history):
            who = "you" if _GAME.players[k % 2] == self.you else "the computer"
            said.append(f"{who} {_words(action, k > 0 and history[k - 1] == 'b')}")
        return ", ".join(said)

    def _after(self) -> str:
        """What the person may do now; at the end of a hand, the result (and it is counted).
        Sets :attr:`status` to the same sentence."""
        self.status = self._outcome()
        return self.status

    def _outcome(self) -> str:
        if not self.finished:
            return "Your turn: " + " or ".join(self.allowed()) + "."
        won = _GAME.utility(self.state, self.you)
        self.winnings += won
        cards = self.state[0]
        mine, theirs = (cards[0], cards[1]) if self.you == "A" else (cards[1], cards[0])
        if self.showdown:
            how = f"Showdown: your {CARD_NAMES[mine]} against its {CARD_NAMES[theirs]}: "
        else:
            how = "A fold: the cards stay hidden; "
        result = f"you win {won} chip{'s' if won != 1 else ''}." if won > 0 else \
            f"you lose {-won} chip{'s' if won != -1 else ''}."
        return how + result
