"""The position and the turns of a play session, and what its messages say.

:class:`Turns` keeps the positions, the history and the facts asked of the game once per
position (finished? who moves? who won?); it decides whose turn it is and words every
message and status line. :class:`~gamelib.session.play.PlaySession` adds the input
methods and the computer player on top.
"""

from __future__ import annotations

import contextlib
import math
import threading
from collections.abc import Callable, Hashable, Mapping
from typing import Any, Final

from gamelib.game import Game, GameError, Move, Player, State
from gamelib.search.common import Budget
from gamelib.search.stats import Decision
from gamelib.session.rules import (
    CLOSED,
    Facts,
    GameFailed,
    Labels,
    TypedMoves,
    format_value,
    is_number,
    join_moves,
    name_of,
    short,
)

__all__ = ["Turns"]


class Turns:
    """The game's positions and turns; every message of the board is worded here."""

    def __init__(self, game: Game[Any, Any], mode: str, labels: Labels | None,
                 on_change: Callable[[], object] | None) -> None:
        """Start at ``game.start``; GameError if the game fails on its own start."""
        self._game: Final = game
        self._labels: Final[Labels] = labels if labels is not None else TypedMoves()
        self._on_change = on_change
        self._mode = mode
        self._lock: Final = threading.RLock()
        self._changed: Final = threading.Condition(self._lock)
        self._generation = 0
        self._budget: Budget | None = None  # of the search under way, to cancel it
        try:
            start = self._facts(game.start)
        except GameFailed as failed:
            raise GameError(f"{name_of(game)} cannot be played: {failed}") from None
        self._states: list[State] = [game.start]
        self._facts_of: list[Facts] = [start]
        self._history: list[Move] = []
        self._texts: list[str] = []  # the moves of the history in the game's notation
        self._busy: str | None = None  # "move" or "hint" while the computer works
        self._running = mode == "computer-computer"
        self._closed = False
        self._decision: Decision | None = None
        self._decision_ply = -1
        self._hints: dict[Hashable, float] | None = None
        self._hints_cut = False
        self._hints_seconds = 0.0  # the budget of the latest hints, for the message
        self._failure: str | None = None
        self._message, self._error = "", False

    # -- the rules of taking turns ------------------------------------------------------

    def _ask(self, method: str, *args: Any, refusal: bool = False) -> Any:
        """Call the game's ``method``; :class:`GameFailed` if it raises (but with
        ``refusal``, a GameError, the game's refusal of an input, passes through)."""
        try:
            return getattr(self._game, method)(*args)
        except Exception as error:
            if refusal and isinstance(error, GameError):
                raise
            raise GameFailed(method, error) from error

    def _facts(self, state: State) -> Facts:
        """Ask the game once whether ``state`` is over, who won or who is to move."""
        players = tuple(self._game.players)
        if self._ask("finished", state):
            score = self._ask("utility", state, players[0])
            if not is_number(score) or math.isnan(score):
                raise GameFailed("utility", GameError(f"it returned {score!r}, not a number"))
            return Facts(True, None, None if score == 0 else players[0 if score > 0 else 1])
        mover = self._ask("to_move", state)
        if mover not in players:
            raise GameFailed("to_move", GameError(f"it returned {mover!r}, not a player"))
        return Facts(False, mover, None)

    def _humans(self) -> set[Player]:
        first, second = self._game.players
        if self._mode == "human-computer":
            return {first}
        if self._mode == "computer-human":
            return {second}
        if self._mode == "computer-computer" and self._running:
            return set()
        return {first, second}

    def _computer_to_move(self) -> bool:
        facts = self._facts_of[-1]
        return (not self._closed and self._failure is None and not facts.finished
                and facts.mover not in self._humans())

    def _pending(self) -> bool:
        return self._busy is not None or self._computer_to_move()

    def _refuse_input(self) -> bool:
        """If no human move may be made now, say why and return True."""
        facts = self._facts_of[-1]
        if self._closed:
            self._refuse(CLOSED)
        elif self._busy == "move":
            self._refuse("Please wait: the computer is thinking.")
        elif self._busy == "hint":
            self._refuse("Please wait: the hints are being computed.")
        elif facts.finished:
            self._refuse(f"The game is over ({self._result()}): press New or Undo.")
        elif self._failure is not None:
            self._refuse(f"{self._failure} Press Undo or New.")
        elif facts.mover not in self._humans():
            self._refuse("It is the computer's turn.")
        else:
            return False
        return True

    def _refuse(self, text: str, keep_case: bool = False) -> bool:
        self._set_message(text, error=True, keep_case=keep_case)
        self._update()
        return False

    def _human_move(self, move: Move) -> bool:
        state, mover = self._states[-1], self._facts_of[-1].mover
        try:
            after = self._ask("play", state, move, refusal=True)
        except GameError as error:
            return self._refuse(str(error), keep_case=str(error).startswith(str(move)))
        text, facts = str(self._ask("format_move", move)), self._facts(after)
        self._push(move, after, facts, text)
        who = "You" if len(self._humans()) == 1 else mover
        self._set_message(f"{who} played {text}." + self._game_over())
        self._update()
        return True

    def _push(self, move: Move, after: State, facts: Facts, text: str) -> None:
        self._history.append(move)
        self._states.append(after)
        self._facts_of.append(facts)
        self._texts.append(text)
        self._hints = None

    def _truncate(self, ply: int) -> None:
        del self._history[ply:], self._texts[ply:]
        del self._states[ply + 1 :], self._facts_of[ply + 1 :]
        self._failure = None
        self._hints = None

    def _fail(self, text: str) -> None:
        self._busy = None
        self._failure = short(text)
        self._set_message(self._failure, error=True)
        self._update()

    def _end_generation(self) -> None:
        """Cancel whatever the computer is doing: its result will be dropped."""
        self._generation += 1
        if self._budget is not None:
            self._budget.cancel()
            self._budget = None
        self._busy = None
        self._changed.notify_all()

    def _update(self) -> None:
        """Tell the board (``on_change``) and the waiters that something changed."""
        if self._on_change is not None:
            # A board that fails to redraw must not break the game: the next change redraws.
            with contextlib.suppress(Exception):
                self._on_change()
        self._changed.notify_all()

    # -- what the board and the message say ---------------------------------------------

    def _welcome(self, fresh: bool) -> str:
        first, second = self._game.players
        label = self._labels.player_label
        how = (f"To move, {self._labels.click_help}, or type a move and press Enter."
               if self._labels.click_help else "Type a move in the game's notation.")
        facts, mode = self._facts_of[-1], self._mode
        if mode == "computer-computer":
            if facts.finished:
                return (f"Computer versus computer: the game is over ({self._result()}); "
                        "press New to watch another.")
            return "Computer versus computer: Stop pauses, Run resumes."
        if fresh:
            return {"human-computer": f"You play {label(first)} and start. {how}",
                    "computer-human": f"You play {label(second)}; the computer starts.",
                    "human-human": f"Two players: {label(first)} starts. {how}"}[mode]
        you, it = (first, second) if mode == "human-computer" else (second, first)
        text = ("Two players: each side moves by hand." if mode == "human-human"
                else f"Now you play {label(you)} and the computer plays {label(it)}.")
        if facts.finished:
            return f"{text} The game is over ({self._result()}): press New to play again."
        return f"{text} {how}" if facts.mover in self._humans() else text

    def _game_over(self) -> str:
        """A closing remark for a move that ended the game, else ``""``."""
        if not self._facts_of[-1].finished:
            return ""
        return f" Game over: {self._result()}. Press New to play again."

    def _result(self) -> str:
        won = self._facts_of[-1].winner
        if won is None:
            return "a draw"
        humans = self._humans()
        if len(humans) == 1 and self._mode != "computer-computer":
            return "you win" if won in humans else "the computer wins"
        return f"{won} wins"

    def _status(self) -> tuple[list[str], Player | None]:
        """The status lines below the board, and whose token to show beside them."""
        facts = self._facts_of[-1]
        if facts.finished:
            token, result = facts.winner, self._result()
            lines = [f"Game over: {result}." if token is None else result.capitalize() + "!"]
        else:
            token = facts.mover
            humans = self._humans()
            if self._busy == "move":
                doing = ": the computer is thinking…"
            elif self._busy == "hint":
                doing = ": computing hints…"
            elif self._failure is not None:
                doing = ": the computer could not move"
            elif token not in humans:
                doing = ": the computer"
            elif self._mode == "computer-computer":
                doing = " (paused)"
            else:
                doing = ": your turn" if len(humans) == 1 else ""
            lines = [f"{token} to move{doing}"]
        decision = self._decision
        if decision is not None and self._decision_ply == len(self._history) and decision.summary:
            mover = self._facts_of[-2].mover
            cut = ", out of time: best so far" if decision.cut_short else ""
            lines.append(f"Computer ({mover}{cut}): {decision.summary}")
        elif self._hints:
            cut = " (out of time: best so far)" if self._hints_cut else ""
            lines.append(f"Hints{cut}: the value of each move for {facts.mover}")
        return lines, token

    def _describe_hints(self, values: Mapping[Hashable, float]) -> str:
        if not values:
            return "No hint: there is no legal move."
        best = max(values.values())
        best_moves = [str(self._ask("format_move", m)) for m, v in values.items() if v == best]
        shown = join_moves(best_moves[:6]) + (" …" if len(best_moves) > 6 else "")
        mover = self._facts_of[-1].mover
        if self._hints_cut:
            # Unfinished: an estimate, never a "value 0" a game without draws cannot have.
            return (f"Best so far for {mover}: {shown} (estimate {format_value(best)}). "
                    f"The search was cut short: its {self._hints_seconds:g} s ran out.")
        return f"Best for {mover}: {shown} (value {format_value(best)})."

    def _set_message(self, text: str, error: bool = False, keep_case: bool = False) -> None:
        text = short(text)
        self._message = text if keep_case else text[:1].upper() + text[1:]
        self._error = error


