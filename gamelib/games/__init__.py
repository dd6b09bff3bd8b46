"""The games: one per module, each a stateless object with immutable, hashable states.

>>> from gamelib.games import TicTacToe, TicTacToeBitboard, ConnectFour, Nim, TreeGame
>>> from gamelib.games import RandomTurnTicTacToe, Pig   # games with chance states

:class:`KuhnPoker` is of another kind: chance deals the cards, each player sees only its own
(Lesson 11; it is played by :mod:`gamelib.search.cfr`, not by the searches of Lessons 2-9).
"""

from gamelib.games.connect_four import ConnectFour
from gamelib.games.kuhn import KuhnPoker
from gamelib.games.nim import Nim
from gamelib.games.pig import Pig
from gamelib.games.random_turn_tictactoe import RandomTurnTicTacToe
from gamelib.games.tictactoe import TicTacToe
from gamelib.games.tictactoe_bitboard import TicTacToeBitboard
from gamelib.games.tree import TreeGame

__all__ = ["TicTacToe", "TicTacToeBitboard", "ConnectFour", "Nim", "TreeGame",
           "RandomTurnTicTacToe", "Pig", "KuhnPoker"]
