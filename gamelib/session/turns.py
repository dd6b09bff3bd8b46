"""Who plays which side, and how the session says whose turn it is and who won.

:class:`Turns` is a value composed into :class:`~gamelib.session.play.PlaySession`: the
players, the mode, whether a computer-versus-computer game runs, and the board's labels.
Changing the mode or pausing gives a new one.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from gamelib.game import CHANCE, Player
from gamelib.search.stats import Decision
from gamelib.session.history import Facts, History
from gamelib.session.words import Labels

__all__ = ["Turns"]


@dataclass(frozen=True)
class Turns:
    """The two players (first mover first), the mode (one of
    :data:`~gamelib.session.checks.MODES`), ``running`` (a computer-versus-computer game
    that is not paused) and the labels that name the players in messages."""

    players: tuple[Player, Player]
    mode: str
    running: bool
    labels: Labels

    @classmethod
    def begin(cls, players: Any, mode: str, labels: Labels) -> Turns:
        """The turns of a new game in ``mode`` (a computer game starts running)."""
        first, second = players
        return cls((first, second), mode, mode == "computer-computer", labels)

    def with_mode(self, mode: str) -> Turns:
        """These turns in another mode, running if it is computer versus computer."""
        return replace(self, mode=mode, running=mode == "computer-computer")

    def with_running(self, running: bool) -> Turns:
        """These turns with the computer game running or paused."""
        return replace(self, running=running)

    def humans(self) -> set[Player]:
        """The players moved by hand (both while a computer game is paused)."""
        first, second = self.players
        if self.mode == "human-computer":
            return {first}
        if self.mode == "computer-human":
            return {second}
        if self.mode == "computer-computer" and self.running:
            return set()
        return {first, second}

    def computer_to_move(self, facts: Facts) -> bool:
        """Whether the computer is to move in a position with these ``facts``."""
        return not facts.finished and facts.mover not in self.humans()

    def refusal(self, facts: Facts, busy: str | None, failure: str | None) -> str | None:
        """Why no human move may be made now (``busy``: ``"move"`` or ``"hint"`` while
        the computer works; ``failure``: why it could not move), or None."""
        if busy == "move":
            return "Please wait: the computer is thinking."
        if busy == "hint":
            return "Please wait: the hints are being computed."
        if facts.finished:
            return f"The game is over ({self.result(facts)}): press New or Undo."
        if failure is not None:
            return f"{failure} Press Undo or New."
        if facts.mover not in self.humans():
            return "It is the computer's turn."
        return None

    def result(self, facts: Facts) -> str:
        """The result of a finished game: ``"you win"``, ``"a draw"``, ``"X wins"``..."""
        if facts.winner is None:
            return "a draw"
        humans = self.humans()
        if len(humans) == 1 and self.mode != "computer-computer":
            return "you win" if facts.winner in humans else "the computer wins"
        return f"{facts.winner} wins"

    def played(self, mover: Player | None, text: str, how: str, before: str) -> str:
        """The message after the computer's move ``text`` (``how``: what it searched,
        ending in a full stop): ``"O (computer) played 2,1 after ..."``; for chance (the
        die rolled, the coin tossed) ``before``, the message so far, then ``"Chance: X."``."""
        if mover == CHANCE:
            return f"{before} Chance: {text}.".lstrip()
        return f"{mover} (computer) played {text}{how}"

    def game_over(self, facts: Facts) -> str:
        """A closing remark for a move that ended the game, else ``""``."""
        if not facts.finished:
            return ""
        return f" Game over: {self.result(facts)}. Press New to play again."

    def welcome(self, facts: Facts, fresh: bool) -> str:
        """The greeting of a new game (``fresh``) or of a change of mode at ``facts``."""
        first, second = self.players
        label = self.labels.player_label
        how = (f"To move, {self.labels.click_help}, or type a move and press Enter."
               if self.labels.click_help else "Type a move in the game's notation.")
        mode = self.mode
        if mode == "computer-computer":
            if facts.finished:
                return (f"Computer versus computer: the game is over ({self.result(facts)}); "
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
            return f"{text} The game is over ({self.result(facts)}): press New to play again."
        return f"{text} {how}" if facts.mover in self.humans() else text

    def status(self, history: History, busy: str | None, failure: str | None,
               decision: Decision | None, hints_cut: bool | None,
               priors: bool = False) -> tuple[list[str], Player | None]:
        """The status lines below the board, and whose token to show beside them.

        ``busy`` is ``"move"`` or ``"hint"`` while the computer works, ``failure`` why it
        could not move, ``decision`` its move that led to the current position (or None),
        ``hints_cut`` None without hints shown, else whether they were cut short;
        ``priors`` True when the hints shown are a guide's priors, not values.
        """
        facts = history.now
        if facts.finished:
            token, result = facts.winner, self.result(facts)
            lines = [f"Game over: {result}." if token is None else result.capitalize() + "!"]
        else:
            token = facts.mover
            humans = self.humans()
            if busy == "move":
                doing = ": the computer is thinking…"
            elif busy == "hint":
                doing = ": computing hints…"
            elif failure is not None:
                doing = ": the computer could not move"
            elif token not in humans:
                doing = ": the computer"
            elif self.mode == "computer-computer":
                doing = " (paused)"
            else:
                doing = ": your turn" if len(humans) == 1 else ""
            lines = [f"{token} to move{doing}"]
        if decision is not None and decision.summary:
            mover = history.facts[-2].mover
            cut = ", out of time: best so far" if decision.cut_short else ""
            lines.append(f"Computer ({mover}{cut}): {decision.summary}")
        elif hints_cut is not None:
            cut = " (out of time: best so far)" if hints_cut else ""
            what = "the guide's prior of each move" if priors else "the value of each move"
            lines.append(f"Hints{cut}: {what} for {facts.mover}")
        return lines, token
