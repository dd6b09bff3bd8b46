"""The play session: a game in progress, without any widget library.

A :class:`PlaySession` holds the position, the history, whose turn it is and the computer
player; it takes moves as text, in the game's own form or at a point of a board, and says
in :attr:`~PlaySession.message` what happened or why an input was refused. Every message
of the play board is worded here. :func:`gamelib.ui.play` binds one to a board and its
controls; it also works on its own, in a script or where no widget can be shown:

>>> from gamelib.games import TicTacToe
>>> s = PlaySession(TicTacToe(), seed=1, background=False)
>>> s.submit("2,2"), s.history[0], len(s.history)      # the computer answered at once
(True, (1, 1), 2)
>>> s.submit("2,2"), s.message.startswith("Cell 2,2 is taken by X"), len(s.history)
(False, True, 2)

How it stays responsive and bounded
-----------------------------------
Nothing waits for input. When the computer is to move, its search runs in a daemon thread
(right away with ``background=False``, and wherever threads cannot start, as in Pyodide:
that is detected when a thread fails to start). Without a thread, a computer-versus-computer
game never runs inside one call: :meth:`PlaySession.tick` plays its next move once the delay
has passed (a board's front end ticks several times a second, so Stop answers between
moves) and :meth:`PlaySession.wait` plays it out. Each computer move and each hint gets its
own :class:`~gamelib.search.common.Budget`: ``seconds`` (more than 0, at most
:data:`~gamelib.search.common.MAX_SECONDS`, 30 s; more is refused), else the engine's
default time for the game, so that a search cut short is reported with the time it
really had. The engine's searches never wait for another session's. New game, Undo, Stop, a
change of players and :meth:`PlaySession.close` cancel it, so the search ends within a
moment, and start a new *generation*: a result from an older one is dropped. A search
whose budget ran out plays the best move found so far, and the status line says so.

Input never raises and never loses the game: a refused input returns False (``hint``:
None), leaves the position and history as they were and says why in the message. A game
whose own method raises (a student's game) is reported by the method's name; the move that
triggered it is not played. ``replay(s.game, s.history) == s.state`` always holds.

The interface (details in :class:`PlaySession`)::

    PlaySession(game, *, mode="human-computer", depth=None, seconds=None, seed=None,
                delay=0.8, background=True, labels=None, on_change=None)
    s.submit(text) -> bool, s.play_move(move) -> bool, s.play_at(x, y, locate) -> bool
    s.undo() -> bool, s.new_game() -> bool, s.hint() -> dict | None
    s.run() -> bool, s.stop() -> bool, s.wait(timeout=None) -> bool, s.tick() -> bool
    s.set_mode(mode), s.set_strength(depth=None, seconds=None), s.set_delay(seconds)
    s.refresh(), s.close()
    # read-only: game, labels, state, history, notation, last_move, message, error,
    # thinking, finished, status, status_player, mode, strength, delay, running,
    # decision, hints, threaded, closed

Modules: ``play`` (:class:`PlaySession`: input, settings, the order of events), composed
of ``state`` (what it knows under its lock: the game so far, the turns, the computer's
doing, the message), which holds ``history`` (the positions and moves, a value, and the
game's answers about them) and ``turns`` (who plays which side, whose turn, who won, in
words), and of ``computer`` (the computer player: strength, searches, budgets, threads);
``players`` (the computer player of each kind of game: the search engine, or Connect
Four's own); ``checks`` (the checks at the door), ``words`` (value labels, move lists,
failures in words) and ``readonly`` (:class:`~gamelib.session.readonly.ReadOnly`, the
one-line read-only attributes of the session, the play controller and the search viewer).
"""

from gamelib.session.checks import MAX_DELAY, MODES, check_game
from gamelib.session.play import PlaySession
from gamelib.session.words import (
    MESSAGE_LIMIT,
    Labels,
    format_value,
    strength_label,
    winner,
)

__all__ = [
    "PlaySession", "MODES", "MESSAGE_LIMIT", "MAX_DELAY", "Labels", "check_game",
    "format_value", "strength_label", "winner",
]
