"""What the play widget's controls show: the status line as HTML, the Strength dropdown's
choices and an example move for the Move box (:mod:`gamelib.ui.controller` builds them)."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from gamelib.game import Game
from gamelib.games import ConnectFour
from gamelib.session import strength_label

__all__ = ["status_html", "example_move", "strength_options"]


def status_html(lines: Sequence[str], token: tuple[str | None, str | None]) -> str:
    """The status band's lines as HTML: the token, the first line in bold, the second below
    it; in CSS pixels (``--gamelib-status-size``), which grow with the page's zoom."""
    fill, rim = token
    dot = "" if fill is None else (
        f'<span style="display:inline-block;width:0.8em;height:0.8em;border-radius:50%;'
        f'vertical-align:-0.1em;margin-right:0.35em;background:{fill};'
        f'border:0.12em solid {rim or fill};box-sizing:border-box"></span>')
    first = f"<b>{html.escape(lines[0])}</b>" if lines else ""
    second = (f'<div style="font-size:0.85em">{html.escape(lines[1])}</div>'
              if len(lines) > 1 else "")
    return (f'<div style="font-size:var(--gamelib-status-size, 20px);line-height:1.3;'
            f'height:100%;box-sizing:border-box;padding:0.3em 0.6em;display:flex;'
            f'flex-direction:column;justify-content:center">'
            f"<div>{dot}{first}</div>{second}</div>")


def example_move(game: Game[Any, Any]) -> str:
    """A move of ``game``'s first position in its notation, for the Move box's placeholder
    ("?" where the game cannot say)."""
    try:
        moves = game.moves(game.start)
        return str(game.format_move(moves[len(moves) // 2])) if moves else "?"
    except Exception:  # pragma: no cover - a student's game may raise anything
        return "?"


def strength_options(
    game: Game[Any, Any], depth: int | None, seconds: float | None
) -> list[tuple[str, tuple[int | None, float | None]]]:
    """The Strength dropdown's choices for ``game``, as (label, (depth, seconds)), with the
    strength ``(depth, seconds)`` among them."""
    if isinstance(game, ConnectFour):
        choices: list[tuple[int | None, float | None]] = [
            (2, None), (4, None), (6, None), (None, 0.3), (None, None), (None, 3.0),
        ]
    else:
        choices = [(None, None), (1, None), (2, None), (3, None), (4, None)]
    if (depth, seconds) not in choices:
        choices.append((depth, seconds))
    return [(strength_label(game, d, s), (d, s)) for d, s in choices]
