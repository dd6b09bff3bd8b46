"""Match two versions of the Connect Four player against each other, and time their depth.

The player of :mod:`gamelib.connect4.player` changes over time; this script tells whether
a change made it stronger or weaker. Each version runs in a process of its own (each
imports its own ``gamelib`` from the checkout given), answering the moves of one game
after another::

    git worktree add /tmp/old main            # or: git archive main gamelib | tar -x -C /tmp/old
    python benchmarks/connect_four_player.py --old /tmp/old --new . --games 20 --depth 4
    python benchmarks/connect_four_player.py --old /tmp/old --new . --games 20 --seconds 0.3

The games open with two random moves (seeded by the game's number), each opening played
twice with the colours swapped, and each move's ``rng`` is seeded by the game and the
ply, so a match at a fixed ``--depth`` gives the same result on every machine.
``--depth-report`` prints, for each version, the depth reached in one second on a few
positions. It prints a report; it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys

WORKER = """
import json, random, sys
from gamelib.connect4.player import connect_four_move
from gamelib.games.connect_four import ConnectFour
game = ConnectFour()
for line in sys.stdin:
    ask = json.loads(line)
    state = ConnectFour.from_moves(ask["moves"])
    d = connect_four_move(game, state, seconds=ask["seconds"], depth=ask["depth"],
                          rng=random.Random(ask["seed"]))
    print(json.dumps({"move": d.move, "depth": d.stats.depth}), flush=True)
"""

DEPTH_POSITIONS = ["", "4453", "44444362"]


class Player:
    """One version of the player, in a process that imports gamelib from ``root``."""

    def __init__(self, root: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True, env={"PYTHONPATH": root, "PATH": "/usr/bin:/bin"}, cwd=root,
        )

    def ask(self, moves: str, seconds: float | None, depth: int | None, seed: int) -> dict:
        ask = {"moves": moves, "seconds": seconds, "depth": depth, "seed": seed}
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(ask) + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def play(first: Player, second: Player, opening: str, game_seed: int,
         seconds: float | None, depth: int | None) -> int:
    """Play one game from ``opening``: +1 if ``first`` (X) wins, -1 if ``second`` wins, 0 draw."""
    from gamelib.games.connect_four import ConnectFour

    game, moves = ConnectFour(), opening
    while True:
        state = ConnectFour.from_moves(moves)
        if game.finished(state):
            return int(game.utility(state, "X"))
        player = first if len(moves) % 2 == 0 else second
        answer = player.ask(moves, seconds, depth, 1000 * game_seed + len(moves))
        moves += str(answer["move"] + 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--old", required=True, help="checkout holding the old gamelib")
    parser.add_argument("--new", default=".", help="checkout holding the new gamelib")
    parser.add_argument("--games", type=int, default=20, help="games (even: colours swap)")
    parser.add_argument("--seconds", type=float, default=None)
    parser.add_argument("--depth", type=int, default=None)
    parser.add_argument("--depth-report", action="store_true")
    args = parser.parse_args()
    old, new = Player(args.old), Player(args.new)
    try:
        if args.depth_report:
            for name, player in (("old", old), ("new", new)):
                for moves in DEPTH_POSITIONS:
                    answer = player.ask(moves, 1.0, None, 1)
                    print(f"{name} {moves!r:14} depth in 1 s: {answer['depth']}")
        score = {"new": 0, "old": 0, "draw": 0}
        for number in range(args.games // 2):
            rng = random.Random(number)
            opening = "".join(str(rng.randint(1, 7)) for _ in range(2))
            for new_first in (True, False):
                first, second = (new, old) if new_first else (old, new)
                result = play(first, second, opening, number, args.seconds, args.depth)
                winner = "draw" if result == 0 else ("new" if (result > 0) == new_first else "old")
                score[winner] += 1
                print(f"game {2 * number + (not new_first) + 1}: opening {opening}, "
                      f"new plays {'X' if new_first else 'O'}: {winner}", flush=True)
        print(f"new {score['new']}, old {score['old']}, draws {score['draw']}")
    finally:
        old.close()
        new.close()


if __name__ == "__main__":
    main()
