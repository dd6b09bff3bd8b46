"""gamelib: the games, searches and boards behind the game-search notebooks.

``gamelib.games`` and ``gamelib.search`` import no user-interface library; the
ipycanvas boards and ipywidgets controls live in ``gamelib.ui``.
"""

__version__ = "0.1.0"
