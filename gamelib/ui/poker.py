"""A Kuhn poker table: the cards on an ipycanvas drawing, the actions on buttons.

:func:`poker_table` shows a :class:`~gamelib.session.poker.PokerSession` (the hands, the
computer's strategy, the running winnings, every message) with two action buttons whose
words follow the hand (check and bet, or fold and call), New hand, and the message under
the table. The computer's card stays face down until a showdown. Every display also carries
a picture of the table (PNG and SVG) that says it is a picture, for a notebook opened without
its kernel.

>>> table = poker_table(seed=3, display=False)
>>> table.session.cards_text()
'You: J   Computer: ?'
>>> table.press("bet"), table.session.message
(True, 'You bet; the computer called. Showdown: your J against its K: you lose 2 chips.')
>>> table.press("bet"), table.session.message[:18]
(False, 'This hand is over:')
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Mapping
from typing import Any, Final

from gamelib.games.kuhn import CARD_NAMES
from gamelib.session.poker import PokerSession
from gamelib.ui.canvas import CanvasLike, LiveCanvas, RecordingCanvas
from gamelib.ui.picture import BoardPicture, attach_picture

__all__ = ["PokerTable", "poker_table", "draw_table"]

WIDTH: Final = 520
HEIGHT: Final = 300
_FELT: Final = "#1e6b3a"
_INK: Final = "#1b1b1b"
PICTURE_WORDS: Final = "A picture of the table: run the lesson to play."


def _card(canvas: CanvasLike, x: float, y: float, rank: int | None) -> None:
    """A card 64 x 90 at (x, y): its rank, or its back when ``rank`` is None."""
    canvas.fill_style = "#ffffff" if rank is not None else "#8c1d18"
    canvas.fill_rect(x, y, 64, 90)
    canvas.stroke_style = _INK
    canvas.line_width = 2
    canvas.stroke_rect(x, y, 64, 90)
    canvas.text_align = "center"
    canvas.text_baseline = "middle"
    if rank is None:
        canvas.fill_style = "#f3d9d6"
        canvas.font = "bold 28px sans-serif"
        canvas.fill_text("?", x + 32, y + 45)
    else:
        canvas.fill_style = _INK
        canvas.font = "bold 40px sans-serif"
        canvas.fill_text(CARD_NAMES[rank], x + 32, y + 47)


def draw_table(canvas: CanvasLike, session: PokerSession, status: str) -> None:
    """Draw the hand of ``session`` on ``canvas`` (``WIDTH`` x ``HEIGHT``), ``status`` at
    the bottom: the felt, both cards, the pot, the actions so far and the winnings."""
    canvas.clear()
    canvas.fill_style = _FELT
    canvas.fill_rect(0, 0, WIDTH, HEIGHT)
    cards, history = session.state
    you = session.game.players.index(session.you)
    _card(canvas, 60, 20, cards[1 - you] if session.showdown else None)
    _card(canvas, 60, 150, cards[you])
    canvas.fill_style = "#ffffff"
    canvas.text_align = "left"
    canvas.text_baseline = "middle"
    canvas.font = "18px sans-serif"
    canvas.fill_text("Computer", 140, 40)
    canvas.fill_text(f"You ({'first' if session.you == 'A' else 'second'} to act)", 140, 170)
    canvas.font = "bold 20px sans-serif"
    canvas.fill_text(f"Pot: {session.pot} chips", 300, 105)
    canvas.font = "16px sans-serif"
    canvas.fill_text(session.history_text() or "no action yet", 300, 135, WIDTH - 310)
    canvas.fill_text(f"Hand {session.hands}; your winnings: {session.winnings:+d}", 300, 190)
    canvas.fill_style = "#fff7c2"
    canvas.font = "bold 16px sans-serif"
    canvas.text_align = "center"
    canvas.fill_text(status, WIDTH / 2, HEIGHT - 22, WIDTH - 20)


class PokerTable:
    """The table's widgets bound to ``session``; :meth:`press` is what a button does."""

    def __init__(self, session: PokerSession) -> None:
        """Build the canvas, the buttons and the message for ``session`` (shown later)."""
        import ipywidgets as w

        self.session: Final = session
        self._lock = threading.Lock()
        self.canvas: Final = LiveCanvas(WIDTH, HEIGHT, self._paint, css_width=f"{WIDTH}px")
        self.buttons: Final = [w.Button(description="", layout=w.Layout(width="120px"))
                               for _ in range(2)]
        self.deal: Final = w.Button(description="New hand", layout=w.Layout(width="120px"))
        self.message: Final = w.HTML()
        for button in self.buttons:
            button.on_click(lambda b: self.press(b.description.lower()))
        self.deal.on_click(lambda _: self.press("new hand"))
        self.widget: Final[Any] = w.VBox(
            [self.canvas.widget, w.HBox([*self.buttons, self.deal]), self.message])
        attach_picture(self.widget, lambda: self.picture(PICTURE_WORDS),
                       note=" (a saved picture: run the lesson's cells to play)")
        self._show()

    def _paint(self, canvas: CanvasLike) -> None:
        draw_table(canvas, self.session, self.session.status)

    def picture(self, status: str) -> BoardPicture:
        """The table as a still picture, ``status`` in its bottom line."""
        drawing = RecordingCanvas(WIDTH, HEIGHT)  # type: ignore[abstract]
        draw_table(drawing, self.session, status)
        return BoardPicture(drawing, f"Kuhn poker table: {self.session.cards_text()}; "
                                     f"{self.session.message}")

    def press(self, action: str) -> bool:
        """Do what a button named ``action`` does: an action word, or ``"new hand"``.
        Returns False (the reason in the message) when it is not allowed now."""
        with self._lock:
            if action == "new hand":
                hands = self.session.hands
                self.session.new_hand()
                done = self.session.hands > hands
            else:
                done = self.session.act(action)
            self._show()
        return done

    def _show(self) -> None:
        allowed = self.session.allowed()
        for button, word in zip(self.buttons, allowed or ["check", "bet"], strict=True):
            button.description = word.capitalize()
            button.disabled = not allowed
        self.message.value = f"<span style='font-size:16px'>{self.session.message}</span>"
        self.canvas.redraw()


def poker_table(strategy: Mapping[str, Mapping[Hashable, float]] | None = None,
                seed: int | None = None, display: bool = True) -> PokerTable:
    """Show a Kuhn poker table against ``strategy`` (default: CFR's) and return it.

    ``seed`` makes the deals and the computer's mixing repeatable. Bad arguments raise
    :class:`~gamelib.errors.GameError` saying what is allowed.
    """
    table = PokerTable(PokerSession(strategy, seed))
    if display:
        from IPython.display import display as show

        show(table.widget)  # type: ignore[no-untyped-call]
    return table
