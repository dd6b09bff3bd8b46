"""``python -m gamelib.connect_four``: the Connect Four command line's entry point.

Everything else lives in :mod:`gamelib.connect4.cli`, whose docstring and ``--help``
describe the formats. The import of the command line is inside the guard too: Ctrl-C
while it loads exits with status 130 and no traceback, as Ctrl-C later does.
"""

import sys

if __name__ == "__main__":
    try:
        from gamelib.connect4.cli import main

        status = main()
    except KeyboardInterrupt:
        status = 130
    sys.exit(status)
