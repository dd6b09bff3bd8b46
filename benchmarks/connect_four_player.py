"""Match two versions of the Connect Four player against each other, and time their depth.

The player of :mod:`gamelib.connect4.player` changes over time; this script tells whether
a change made it stronger or weaker. Each version runs in a process of its own (each
imports its own ``gamelib`` from the checkout given), answering the moves of one game
after another::

    git worktree add /tmp/old main            # or: git archive main gamelib | tar -x -C /tmp/old
    python benchmarks/connect_four_player.py --old /tmp/old --new . --games 40 --depth 4
    python benchmarks/connect_four_player.py --old /tmp/old --new . --games 40 --seconds 0.3
    python benchmarks/connect_four_player.py --new . --keep-value 50 --seconds 1

The games open with two random moves (seeded by the game's number), each opening played
twice with the colours swapped, and each move's ``rng`` is seeded by the game and the
ply, so a match at a fixed ``--depth`` gives the same result on every machine.
The match ends with the new player's score and its 95% interval
(:func:`gamelib.search.match_stats.match_score`): a change is shown only when the interval
lies above 1/2 (or, for a loss, below). ``--depth-report`` prints, for each version, the
depth reached in one second on a few positions.

``--keep-value N`` (no match; ``--old`` not needed) asks the ``--new`` player for a move,
within ``--seconds``, in a seeded sample of ``N`` positions of each of the opening sets
``Test_L1_R1``, ``Test_L1_R2`` and ``Test_L1_R3`` that have a win or a draw to keep (the
file gives the exact score), and tells whether the move keeps the value (a win stays a
win, a draw a draw) and whether it is optimal (it keeps the exact score), per set and by
discs on the board (up to 11, 12, 13 or more: the opening book holds 12). The exact solver
of *this* checkout (with its book) scores the position after the move, at most
``--solve-seconds`` each; when it cannot, the player's own proof (``Decision.exact``)
still settles the value, not the score. Scores are cached in ``--cache``, and so are the
positions it could not settle in that time, so a second run over the same moves costs
nothing: a position left unknown is retried only with more ``--solve-seconds``. With
``--depth D`` (and no ``--seconds``) the player skips the solver and searches the
heuristic tree D plies deep: a measure of the search and its heuristic that no clock
disturbs. It prints a report; it asserts nothing. At 1 s a move on a busy machine, the
moves depend on the clock: two runs of the same player differ by a few positions of the
hundred.

``--train FILE`` (no match) asks the ``--new`` player (best with ``--depth D``: no clock)
for a move in each position of FILE, one JSON object a line with ``"moves"`` (columns 1-7)
and ``"keep"`` (the 0-based columns that keep the position's value, labelled offline by an
exact solver), and prints the share of moves in ``keep``: a quick measure for tuning the
heuristic on positions that are not the held-out sets of ``--keep-value``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from typing import Any

from gamelib.search.match_stats import match_score

# The player has lived at other addresses in older checkouts: import whichever exists.
WORKER = """
import json, random, sys
try:
    from gamelib.connect4.player import connect_four_move
except ImportError:
    from gamelib.search.c4player import connect_four_move
from gamelib.games.connect_four import ConnectFour
game = ConnectFour()
for line in sys.stdin:
    ask = json.loads(line)
    state = ConnectFour.from_moves(ask["moves"])
    d = connect_four_move(game, state, seconds=ask["seconds"], depth=ask["depth"],
                          rng=random.Random(ask["seed"]))
    print(json.dumps({"move": d.move, "depth": d.stats.depth, "exact": d.exact,
                      "value": d.value}), flush=True)
"""

KEEP_VALUE_SETS = ("L1_R1", "L1_R2", "L1_R3")

DEPTH_POSITIONS = ["", "4453", "44444362"]


class Player:
    """One version of the player, in a process that imports gamelib from ``root``; a
    context manager that ends the process on the way out."""

    def __init__(self, root: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True, env={"PYTHONPATH": root, "PATH": "/usr/bin:/bin"}, cwd=root,
        )

    def ask(
        self, moves: str, seconds: float | None, depth: int | None, seed: int
    ) -> dict[str, Any]:
        ask = {"moves": moves, "seconds": seconds, "depth": depth, "seed": seed}
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(ask) + "\n")
        self.process.stdin.flush()
        answer: dict[str, Any] = json.loads(self.process.stdout.readline())
        return answer

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()

    def __enter__(self) -> Player:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


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


def keep_value(player: Player, sample: int, seconds: float | None, depth: int | None,
               solve_seconds: float, cache_path: str) -> None:
    """Print, per opening set and disc count, the share of positions whose value the
    player's move keeps (a win stays a win, a draw a draw) and the share whose move is
    optimal (it keeps the exact score), the player asked with ``seconds`` and ``depth``."""
    from gamelib.connect4 import Solver, benchmark_positions
    from gamelib.connect4.score import winner_score
    from gamelib.games.connect_four import ConnectFour
    from gamelib.search.common import SearchTimeout

    # The cache: the exact score of each position after a move ({moves: score}), and for
    # a position the solver could not settle, the most seconds it was given
    # ({"unsettled": {moves: s}}), so that a later run retries it only with more time.
    cache: dict[str, int] = {}
    unsettled: dict[str, float] = {}
    if os.path.exists(cache_path):
        with open(cache_path) as file:
            stored = json.load(file)
        unsettled = stored.pop("unsettled", {})
        cache = stored
    solver, game = Solver(table_bits=22), ConnectFour()
    print(f"load average {os.getloadavg()[0]:.1f}; seconds {seconds}, depth {depth}", flush=True)
    totals: dict[str, dict[str, int]] = {}
    for name in KEEP_VALUE_SETS:
        keepable = [(m, s) for m, s in benchmark_positions(name) if s >= 0]
        counts: dict[str, dict[str, int]] = {}
        for number, (moves, score) in enumerate(random.Random(name).sample(keepable, sample)):
            answer = player.ask(moves, seconds, depth, number)
            child = moves + str(answer["move"] + 1)
            state = ConnectFour.from_moves(child)
            after: int | None   # the exact score after the move, for the opponent
            if game.finished(state):
                lost = game.utility(state, game.to_move(state)) < 0
                after = -winner_score(42, len(child)) if lost else 0
            else:
                if child not in cache and unsettled.get(child, 0.0) < solve_seconds:
                    try:
                        cache[child] = solver.solve(
                            state, deadline=time.perf_counter() + solve_seconds)
                        unsettled.pop(child, None)
                    except SearchTimeout:
                        unsettled[child] = solve_seconds
                after = cache.get(child)
            if after is not None:
                kept = "kept" if sign(-after) == sign(score) else "lost"
                optimal = -after == score
            else:   # the player's own proof settles the value (not the exact score)
                kept = "kept" if answer["exact"] else "unknown"
                optimal = None
            group = "<=11" if len(moves) <= 11 else "12" if len(moves) == 12 else ">=13"
            for table in (counts, totals):
                keys = (f"{name} {group}", f"{name} all") if table is counts else (group, "all")
                for key in keys:
                    row = table.setdefault(key, {"n": 0, "kept": 0, "lost": 0, "unknown": 0,
                                                 "optimal": 0, "scored": 0})
                    row["n"] += 1
                    row[kept] += 1
                    row["scored"] += optimal is not None
                    row["optimal"] += bool(optimal)
            print(f"{name} {moves:14} score {score:+d}: plays {answer['move'] + 1}, {kept}"
                  f"{', optimal' if optimal else ', not optimal' if optimal is False else ''}",
                  flush=True)
        with open(cache_path, "w") as file:
            json.dump({**cache, "unsettled": unsettled}, file)
        for key, row in sorted(counts.items()):
            print(report_line(key, row), flush=True)
    for key, row in sorted(totals.items()):
        print(report_line(f"every set {key}", row), flush=True)


def report_line(label: str, row: dict[str, int]) -> str:
    """One line of the keep-value report: kept of known, optimal of scored."""
    known = row["kept"] + row["lost"]
    share = 100 * row["optimal"] / max(row["scored"], 1)
    return (f"{label}: {row['n']} positions, kept {row['kept']}/{known} "
            f"({100 * row['kept'] / max(known, 1):.1f}%), unknown {row['unknown']}; optimal "
            f"{row['optimal']}/{row['scored']} ({share:.1f}%)")


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def train(player: Player, path: str, seconds: float | None, depth: int | None) -> None:
    """Print the share of the positions of ``path`` (JSON lines with ``moves`` and ``keep``)
    where the player's move is one of ``keep``."""
    with open(path) as file:
        positions = [json.loads(line) for line in file if line.strip()]
    kept = 0
    for number, position in enumerate(positions):
        answer = player.ask(position["moves"], seconds, depth, number)
        kept += answer["move"] in position["keep"]
    print(f"{path}: kept {kept}/{len(positions)} ({100 * kept / max(len(positions), 1):.1f}%)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--old", help="checkout holding the old gamelib (for a match)")
    parser.add_argument("--new", default=".", help="checkout holding the new gamelib")
    parser.add_argument("--games", type=int, default=20, help="games (even: colours swap)")
    parser.add_argument("--seconds", type=float, default=None)
    parser.add_argument("--depth", type=int, default=None)
    parser.add_argument("--depth-report", action="store_true")
    parser.add_argument("--keep-value", type=int, metavar="N", default=None,
                        help="positions per opening set for the value-keeping report")
    parser.add_argument("--train", metavar="FILE", default=None,
                        help="JSON lines of positions with the columns that keep the value")
    parser.add_argument("--solve-seconds", type=float, default=120.0)
    parser.add_argument("--cache", default="/tmp/connect_four_keep_value_scores.json")
    args = parser.parse_args()
    if args.train is not None:
        with Player(args.new) as player:
            train(player, args.train, args.seconds, args.depth)
        return
    if args.keep_value is not None:
        seconds = args.seconds if args.seconds or args.depth else 1.0
        with Player(args.new) as player:
            keep_value(player, args.keep_value, seconds, args.depth, args.solve_seconds,
                       args.cache)
        return
    if args.old is None:
        parser.error("a match needs --old")
    with Player(args.old) as old, Player(args.new) as new:
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
        print("new against old:", match_score(score["new"], score["draw"], score["old"]).summary)


if __name__ == "__main__":
    main()
