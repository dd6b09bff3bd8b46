"""``python -m gamelib.connect_four``: the Connect Four command line's entry point.

Everything else lives in :mod:`gamelib.connect4.cli`, whose docstring and ``--help``
describe the formats.
"""

import sys

from gamelib.connect4.cli import main

if __name__ == "__main__":
    sys.exit(main())
