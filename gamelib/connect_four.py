"""``python -m gamelib.connect_four``: the Connect Four command line.

It lives in :mod:`gamelib.connect4.cli` (its docstring and ``--help`` describe the
formats); this module keeps the old address, ``from gamelib.connect_four import main``
and the ``-m`` entry point.
"""

import sys

from gamelib.connect4.cli import (
    EMPTY_BOARD,
    EXIT_OUTPUT_FAILED,
    FULL_COLUMN,
    MAX_COLS,
    build_parser,
    main,
    make_answer,
    read_position,
    run,
)

__all__ = [
    "EMPTY_BOARD",
    "EXIT_OUTPUT_FAILED",
    "FULL_COLUMN",
    "MAX_COLS",
    "build_parser",
    "main",
    "make_answer",
    "read_position",
    "run",
]

if __name__ == "__main__":
    sys.exit(main())
