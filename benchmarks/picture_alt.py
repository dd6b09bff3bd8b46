"""What alt text costs a displayed chart or picture: CPU per display, and bytes per output.

Displays the same figure (Lesson 2's chart of calls per algorithm, drawn by
:func:`gamelib.plots.plot_search_counts`) and a search-tree picture
(:func:`gamelib.ui.search_svg`) through IPython's display formatter, as a notebook does, with
matplotlib's inline backend: first as IPython shows them without ``load_style()`` (the PNG
alone for a chart), then with it (the PNG, its alt, and the HTML ``<img>`` of
:func:`gamelib.alt_text.figure_forms`; for the tree, its forms with and without the HTML).
Prints the median CPU time of ``--repeat`` displays and the size of each output's data::

    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/picture_alt.py --repeat 9
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Any


def cpu(action: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The median CPU seconds of ``repeat`` calls of ``action``, and its last result."""
    times, result = [], None
    for _ in range(repeat):
        started = time.process_time()
        result = action()
        times.append(time.process_time() - started)
    return statistics.median(times), result


def main(argv: list[str] | None = None) -> int:
    """Measure and print; return 0."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=9, help="displays per measurement")
    args = parser.parse_args(argv)
    import matplotlib

    matplotlib.use("module://matplotlib_inline.backend_inline")
    from IPython.core.interactiveshell import InteractiveShell
    from matplotlib_inline.backend_inline import configure_inline_support

    from gamelib import plots
    from gamelib.game import replay
    from gamelib.games import TicTacToe
    from gamelib.search.trace import trace_search
    from gamelib.style import load_style
    from gamelib.ui import search_svg

    shell = InteractiveShell.instance()
    configure_inline_support(shell, "module://matplotlib_inline.backend_inline")  # type: ignore[no-untyped-call]
    ax = plots.plot_search_counts([
        {"algorithm": "minimax", "calls": 549_946, "states": 5_478},
        {"algorithm": "memo", "calls": 16_168, "states": 5_478, "cache_entries": 5_478},
    ])
    formatter = shell.display_formatter
    assert formatter is not None
    show: Callable[[Any], tuple[dict[str, Any], dict[str, Any]]] = formatter.format
    before, (plain, _) = cpu(lambda: show(ax.figure), args.repeat)
    load_style()
    after, (forms, metadata) = cpu(lambda: show(ax.figure), args.repeat)
    print(f"chart: {before * 1000:.1f} ms CPU per display without alt, {after * 1000:.1f} ms "
          f"with; data {len(json.dumps(plain))} -> {len(json.dumps(forms))} bytes; "
          f"alt: {metadata['image/png']['alt']!r}")
    game = TicTacToe()  # Lesson 2's position: four moves left
    state = replay(game, [(0, 0), (1, 1), (0, 1), (0, 2), (2, 0)])
    tree = search_svg(trace_search(game, state, "minimax"))
    tree.png  # noqa: B018 - made once, as in a notebook, and cached
    with_html, forms = cpu(tree.forms, args.repeat)
    without = {k: v for k, v in forms.items() if k != "text/html"}
    print(f"tree picture: {with_html * 1000:.2f} ms CPU for its forms (PNG made already); "
          f"data {len(json.dumps(without))} -> {len(json.dumps(forms))} bytes with the HTML")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
