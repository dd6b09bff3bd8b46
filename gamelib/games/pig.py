"""Pig: roll a die as often as you dare; a 1 loses the turn's points; first to the target wins.

The rules (Neller and Presser, 2004): on your turn you roll a die again and again. A 1
ends your turn and you score nothing for it; any other face is added to the *turn
total*. At any time you may *hold*: the turn total is added to your score and the turn
passes. Whoever reaches the target (100 in the classic game) first wins; here the game
ends the moment a player's score and turn total together reach it (holding then is the
only sensible move, and ending there keeps the set of states finite).

A state is ``(scores, turn_total, turn, rolling)``: both players' scores (``"A"``'s
first), the turn total, the index (0 or 1) of the player whose turn it is, and whether
the die is in the air. While it is, ``to_move`` is :data:`~gamelib.game.CHANCE` and the
six faces are the outcomes, each with probability ``Fraction(1, 6)``. Otherwise the
player's moves are ``"roll"`` and ``"hold"``.

States repeat: a 1 rolled, or a hold with turn total 0, hands the opponent the same
scores, and the same can happen back, so no tree search reaches the end of every line.
Its exact value needs value iteration (:func:`gamelib.search.value_iteration.value_iteration`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final

from gamelib.errors import GameError, IllegalMoveError, MoveFormatError, describe_text
from gamelib.game import CHANCE, Player, Probability, check_game_over, check_player, state_checked

__all__ = ["Pig", "PigState", "PigMove", "FACES"]

PigState = tuple[tuple[int, int], int, int, bool]
"""``(scores, turn_total, turn, rolling)``: see the module docstring."""

PigMove = str | int
"""``"roll"`` or ``"hold"`` for a player; a face 1 to 6 for the die."""

FACES: Final = (1, 2, 3, 4, 5, 6)
SIXTH: Final = Fraction(1, 6)
MAX_TARGET: Final = 100
_NOTATION: Final = "a move is 'roll' or 'hold' (the die's outcome: a face 1 to 6)"


class Pig:
    """Two-player Pig to ``target`` points; ``"A"`` moves first.

    >>> game = Pig(target=20)
    >>> state = game.play(game.start, "roll")
    >>> game.to_move(state), game.moves(state)
    ('chance', [1, 2, 3, 4, 5, 6])
    >>> game.play(state, 5), game.play(state, 1)
    (((0, 0), 5, 0, False), ((0, 0), 0, 1, False))
    """

    name: Final = "Pig"
    players: Final[tuple[Player, Player]] = ("A", "B")
    text_round_trips: Final = True

    def __init__(self, target: int = MAX_TARGET) -> None:
        """A game to ``target`` points: a whole number from 1 to 100.

        Raises :class:`GameError` otherwise.
        """
        if not isinstance(target, int) or isinstance(target, bool) or not 1 <= target <= MAX_TARGET:
            raise GameError(f"target must be a whole number of points from 1 to {MAX_TARGET}; "
                            f"got {describe_text(target)}")
        self.target: Final[int] = target
        """The score that wins."""
        self.start: Final[PigState] = ((0, 0), 0, 0, False)

    # -- the six-tuple -------------------------------------------------------------

    @state_checked
    def next_states(self, state: PigState, player: Player) -> list[PigState]:
        """The states after each of :meth:`moves`: ``roll`` then ``hold``, or the six
        faces when ``player`` is ``CHANCE``. Precondition: ``player == to_move(state)``."""
        scores, total, turn, rolling = state
        if rolling:
            return [self._face(scores, total, turn, face) for face in FACES]
        if player != "A" and player != "B":
            check_player(self, player)
        if max(scores) >= self.target:
            return []
        return [(scores, total, turn, True), self._hold(scores, total, turn)]

    @state_checked
    def finished(self, state: PigState) -> bool:
        """True iff a player has reached the target."""
        return max(state[0]) >= self.target

    @state_checked
    def utility(self, state: PigState, player: Player) -> int:
        """+1 if ``player`` reached the target, else -1 (Pig has no draws).

        Raises :class:`GameError` when ``state`` is not finished or ``player`` unknown.
        """
        check_game_over(self, state, player)
        winner = 0 if state[0][0] >= self.target else 1
        return 1 if self.players[winner] == player else -1

    @state_checked
    def to_move(self, state: PigState) -> Player:
        """``CHANCE`` while the die is in the air, else the player whose turn it is."""
        return CHANCE if state[3] else self.players[state[2]]

    @state_checked
    def outcome_probabilities(self, state: PigState) -> list[Probability]:
        """Six times 1/6: the die is fair (precondition: a chance state)."""
        return [SIXTH] * 6

    @state_checked
    def moves(self, state: PigState) -> list[PigMove]:
        """``["roll", "hold"]`` for a player, the faces 1 to 6 for the die; none once
        the game is over."""
        if state[3]:
            return list(FACES)
        return [] if self.finished(state) else ["roll", "hold"]

    @state_checked
    def play(self, state: PigState, move: PigMove) -> PigState:
        """The state after ``move``: a face while the die is in the air, else ``"roll"``
        or ``"hold"``.

        Raises :class:`IllegalMoveError` for anything else, or any move once the game is over.
        """
        scores, total, turn, rolling = state
        if rolling:
            if move not in FACES or isinstance(move, bool):
                raise IllegalMoveError(f"{describe_text(move)} is not a face of the die: "
                                       "the die shows 1 to 6")
            return self._face(scores, total, turn, move)
        if self.finished(state):
            raise IllegalMoveError("the game is over: no more moves are allowed")
        if move == "roll":
            return scores, total, turn, True
        if move == "hold":
            return self._hold(scores, total, turn)
        raise IllegalMoveError(f"{describe_text(move)} is not a move: {_NOTATION}")

    def parse_move(self, text: str) -> PigMove:
        """``'roll'``, ``'hold'`` or a face ``'1'`` to ``'6'``; raise MoveFormatError otherwise."""
        if not isinstance(text, str):
            raise MoveFormatError(f"expected text, got {type(text).__name__}: {_NOTATION}")
        word = text.strip().lower()
        if word in ("roll", "hold"):
            return word
        if word in {str(face) for face in FACES}:
            return int(word)
        raise MoveFormatError(f"{describe_text(text)} is not a move: {_NOTATION}")

    def format_move(self, move: PigMove) -> str:
        """The move as :meth:`parse_move` reads it."""
        return str(move)

    @state_checked
    def render(self, state: PigState) -> str:
        """Both scores, the turn total and who rolls, e.g. ``'A 12 | B 7 | turn total 5 | A to
        move'``; :meth:`from_text` reads it back."""
        (a, b), total, turn, rolling = state
        mover = self.players[turn]
        what = ("game over" if self.finished(state)
                else f"{mover} rolls the die" if rolling else f"{mover} to move")
        return f"A {a} | B {b} | turn total {total} | {what}"

    def from_text(self, text: str) -> PigState:
        """The state that :meth:`render` drew as ``text``.

        Raises :class:`GameError` unless ``text`` is such a picture of a state of this game.
        """
        picture = "a position reads like 'A 12 | B 7 | turn total 5 | A to move'"
        parts = text.split(" | ") if isinstance(text, str) else []
        try:
            a_text, b_text, total_text, what = parts
            a, b = int(a_text.removeprefix("A ")), int(b_text.removeprefix("B "))
            total = int(total_text.removeprefix("turn total "))
        except ValueError:
            raise GameError(f"{describe_text(text)} is not a Pig position: {picture}") from None
        if what == "game over":
            return (a, b), total, (0 if a >= self.target else 1), False
        for turn, mover in enumerate(self.players):
            for rolling, words in ((False, f"{mover} to move"), (True, f"{mover} rolls the die")):
                if what == words:
                    state = (a, b), total, turn, rolling
                    self.validate(state)
                    return state
        raise GameError(f"{describe_text(what)} does not say who moves: {picture}")

    def validate(self, state: object) -> None:
        """Raise :class:`GameError` unless ``state`` is a state of this game that play can
        reach: scores and turn total whole numbers from 0, the mover's score and turn
        total together below the target while the game goes on."""
        allowed = (f"a state is ((score A, score B), turn total, turn 0 or 1, rolling), with "
                   f"scores from 0 and a score plus turn total below the target {self.target}")
        if not (isinstance(state, tuple) and len(state) == 4 and isinstance(state[0], tuple)
                and len(state[0]) == 2
                and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0
                        for x in (*state[0], state[1]))
                and state[2] in (0, 1) and isinstance(state[3], bool)):
            raise GameError(f"{describe_text(state, limit=40)} is not a Pig state: {allowed}")
        scores, total, turn, _ = state
        if max(scores) < self.target and scores[turn] + total >= self.target:
            raise GameError(f"{describe_text(state, limit=40)} cannot arise: {allowed}")

    def lead(self, state: PigState, player: Player) -> float:
        """A heuristic for depth-limited search, ``h(state, player)``: ``player``'s lead in
        points (the mover's turn total counted as half banked) as a share of the target,
        squashed into (-1, 1) by ``x / (1 + |x|)``.

        >>> Pig(target=20).lead(((10, 0), 0, 1, False), "A")
        0.3333333333333333
        """
        (a, b), total, turn, _ = state
        lead = a - b + (total / 2 if turn == 0 else -total / 2)
        x = (lead if player == "A" else -lead) / self.target
        return x / (1 + abs(x))

    def __repr__(self) -> str:
        return f"Pig(target={self.target})"

    # -- the rules of a turn ------------------------------------------------------------

    def _face(self, scores: tuple[int, int], total: int, turn: int, face: int) -> PigState:
        """The state after the die shows ``face``: a 1 passes the turn with nothing
        scored; another face adds to the turn total, and wins once the target is reached."""
        if face == 1:
            return scores, 0, 1 - turn, False
        total += face
        if scores[turn] + total >= self.target:
            return self._hold(scores, total, turn)
        return scores, total, turn, False

    def _hold(self, scores: tuple[int, int], total: int, turn: int) -> PigState:
        """The state after holding: the turn total is banked and the turn passes (or the
        game is won, and the winner keeps the turn)."""
        banked = (scores[0] + total, scores[1]) if turn == 0 else (scores[0], scores[1] + total)
        if banked[turn] >= self.target:
            return banked, 0, turn, False
        return banked, 0, 1 - turn, False

