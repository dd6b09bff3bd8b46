"""The play session without widgets: a whole game where no widget library can be imported."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

BLOCKED = ("ipywidgets", "ipycanvas", "matplotlib")

SCRIPT = textwrap.dedent(
    """
    import sys

    class Block:
        '''A meta-path finder that refuses the widget and plotting libraries.'''

        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCKED:
                raise ImportError(f"{name} is blocked in this test")
            return None

    sys.meta_path.insert(0, Block())
    for blocked in BLOCKED:
        try:
            __import__(blocked)
        except ImportError:
            pass
        else:
            raise SystemExit(f"{blocked} could still be imported")

    from gamelib.game import replay
    from gamelib.games import ConnectFour, Nim, TicTacToe
    from gamelib.session import PlaySession

    s = PlaySession(TicTacToe(), seed=3, background=False)
    while not s.finished:
        assert s.submit(TicTacToe().format_move(TicTacToe().moves(s.state)[0])), s.message
    assert replay(s.game, s.history) == s.state
    print("tic-tac-toe", len(s.history), s.status[0])

    c = PlaySession(ConnectFour(), mode="computer-computer", depth=2, seed=1)
    assert c.wait(120), c.message
    print("connect-four", len(c.history), c.finished)

    n = PlaySession(Nim(), mode="human-human")
    assert n.submit("1,3") and n.undo() and n.history == []
    loaded = sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)
    print("loaded", loaded)
    """
)


def test_a_whole_game_is_played_where_no_widget_library_can_be_imported() -> None:
    script = f"BLOCKED = {BLOCKED!r}\n" + SCRIPT
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("tic-tac-toe ") and lines[0].endswith(("wins!", "a draw."))
    assert lines[1] == "connect-four " + lines[1].split()[1] + " True"
    assert lines[2] == "loaded []"
