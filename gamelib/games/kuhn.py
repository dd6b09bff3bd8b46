"""Kuhn poker: three cards, one chip to bet, and a card the opponent cannot see.

H. W. Kuhn's game (1950) is the smallest poker that still needs bluffing. The deck holds a
Jack, a Queen and a King. Each player antes one chip and is dealt one card, seen by its
holder only. Then, with ``p`` (pass: check, or fold when facing a bet) and ``b`` (bet: put in
one more chip, or call a bet):

* A passes or bets;
* after ``p``, B passes (showdown for 1) or bets; after ``pb``, A folds or calls (showdown
  for 2);
* after ``b``, B folds or calls (showdown for 2).

A state is ``(cards, history)``: ``cards`` is ``()`` before the deal and ``(a, b)`` after
(0 = Jack, 1 = Queen, 2 = King), ``history`` the actions so far, e.g. ``"pb"``. The deal is
a *chance state* in the vocabulary of :mod:`gamelib.game` (Lesson 10): ``to_move`` says
:data:`~gamelib.game.CHANCE`, its ``moves`` are the six deals and
:meth:`KuhnPoker.outcome_probabilities` gives each 1/6. What a player knows is its
*information set*: its own card and the history, never the other card
(:meth:`KuhnPoker.information_set`).

Its payoffs are one or two chips, not -1, 0, +1, and a player must act alike in states it
cannot tell apart: the searches of Lessons 2-10 do not apply; :mod:`gamelib.search.cfr` plays
it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Final

from gamelib.errors import GameError, IllegalMoveError, MoveFormatError, describe_text
from gamelib.game import CHANCE, Player

__all__ = ["KuhnPoker", "KuhnState", "CARD_NAMES"]

KuhnState = tuple[tuple[int, ...], str]
"""``(cards, history)``: ``()`` or ``(A's card, B's card)``, and the actions so far."""

CARD_NAMES: Final = ("J", "Q", "K")
"""The cards by rank: 0 is the Jack, 1 the Queen, 2 the King."""

_ENDS: Final = ("pp", "bp", "bb", "pbp", "pbb")
_DEALS: Final = tuple((a, b) for a in range(3) for b in range(3) if a != b)
_ACTIONS: Final = ("p", "b")
_WORDS: Final = {"p": "pass", "b": "bet"}


class KuhnPoker:
    """Kuhn poker for players ``"A"`` (acts first) and ``"B"``.

    >>> game = KuhnPoker()
    >>> state = game.play(game.start, (2, 0))      # chance deals A the King, B the Jack
    >>> game.information_set(state, "B")           # B sees its Jack, not A's King
    'J'
    >>> state = game.play(game.play(state, "b"), "p")   # A bets, B folds
    >>> game.finished(state), game.utility(state, "A")
    (True, 1)
    """

    name: Final = "Kuhn poker"
    players: Final[tuple[Player, Player]] = ("A", "B")
    start: Final[KuhnState] = ((), "")

    def outcome_probabilities(self, state: KuhnState) -> list[Fraction]:
        """The probability of each deal in ``moves(state)`` order: 1/6 each."""
        return [Fraction(1, 6)] * len(_DEALS)

    def finished(self, state: KuhnState) -> bool:
        """True iff the hand is over: a fold or a showdown."""
        return state[1] in _ENDS

    def to_move(self, state: KuhnState) -> Player:
        """The player who acts in ``state`` (A after an even number of actions), or
        :data:`~gamelib.game.CHANCE` before the deal."""
        if state[0] == ():
            return CHANCE
        return self.players[len(state[1]) % 2]

    def moves(self, state: KuhnState) -> list[Any]:
        """The six deals ``(A's card, B's card)`` before the deal, ``["p", "b"]`` while a
        player acts, nothing when the hand is over."""
        if state[0] == ():
            return list(_DEALS)
        if self.finished(state):
            return []
        return list(_ACTIONS)

    def next_states(self, state: KuhnState, player: Player) -> list[KuhnState]:
        """The states after each of ``moves(state)``, in that order."""
        return [self.play(state, move) for move in self.moves(state)]

    def play(self, state: KuhnState, move: object) -> KuhnState:
        """The state after ``move``: a deal ``(a, b)`` at the chance state, else ``p`` or ``b``.

        Raises :class:`IllegalMoveError` for anything else, and leaves ``state`` alone.
        """
        self._check(state)
        cards, history = state
        if cards == ():
            if move not in _DEALS:
                raise IllegalMoveError(
                    f"the deal must be two different cards (a, b) from 0, 1, 2; got "
                    f"{describe_text(move)}")
            return (tuple(move), history)
        if self.finished(state):
            raise IllegalMoveError("the hand is over: no more actions")
        if move not in _ACTIONS:
            raise IllegalMoveError(
                f"an action is 'p' (pass) or 'b' (bet); got {describe_text(move)}")
        return (cards, history + str(move))

    def utility(self, state: KuhnState, player: Player) -> int:
        """The chips ``player`` wins (negative: loses) in the finished ``state``: 1 or 2."""
        if player not in self.players:
            raise GameError(f"the players are 'A' and 'B'; got {describe_text(player)}")
        if not self.finished(state):
            raise GameError("the hand is not over yet")
        cards, history = state
        if history in ("bp", "pbp"):             # a fold: the bettor takes the ante
            winner = self.players[(len(history) - 2) % 2]
            stake = 1
        else:                                    # a showdown, for 1 or 2 chips
            winner = self.players[0] if cards[0] > cards[1] else self.players[1]
            stake = 2 if "b" in history else 1
        return stake if player == winner else -stake

    def information_set(self, state: KuhnState, player: Player) -> str:
        """What ``player`` knows in ``state``: its own card, then the history, e.g. ``"Kpb"``."""
        return CARD_NAMES[state[0][self.players.index(player)]] + state[1]

    def parse_move(self, text: str) -> str:
        """``"p"``/``"pass"``/``"check"``/``"fold"`` or ``"b"``/``"bet"``/``"call"``."""
        word = text.strip().lower() if isinstance(text, str) else None
        for action, names in (("p", ("p", "pass", "check", "fold")),
                              ("b", ("b", "bet", "call"))):
            if word in names:
                return action
        raise MoveFormatError(
            f"write p, pass, check or fold, or b, bet or call; got {describe_text(text)}")

    def format_move(self, move: str) -> str:
        """The action's word: ``"pass"`` or ``"bet"``."""
        return _WORDS[move]

    def render(self, state: KuhnState) -> str:
        """The cards and the actions as text, e.g. ``"A: K  B: J  | bet, pass"``."""
        cards, history = state
        if not cards:
            return "cards not dealt yet"
        dealt = f"A: {CARD_NAMES[cards[0]]}  B: {CARD_NAMES[cards[1]]}"
        return dealt + ("  | " + ", ".join(_WORDS[a] for a in history) if history else "")

    def _check(self, state: object) -> None:
        ok = (isinstance(state, tuple) and len(state) == 2 and isinstance(state[1], str)
              and isinstance(state[0], tuple)
              and (state[0] == () or (len(state[0]) == 2 and set(state[0]) <= {0, 1, 2}
                                       and state[0][0] != state[0][1]))
              and all(c in "pb" for c in state[1])
              and (state[1] == "" or state[0] != ())
              and any(end.startswith(state[1]) for end in _ENDS))
        if not ok:
            raise GameError(f"{describe_text(state, 40)} is not a state of Kuhn poker: pass "
                            "game.start or a state returned by play()")
