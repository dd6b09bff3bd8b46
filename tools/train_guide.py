"""Regenerate the tic-tac-toe guide shipped with gamelib, by self-play (AlphaZero's loop in
miniature: :func:`gamelib.learn.selfplay.self_play_training`)::

    OPENBLAS_NUM_THREADS=1 python tools/train_guide.py          # writes the shipped file
    python tools/train_guide.py --out /tmp/guide.json           # somewhere else
    python tools/train_guide.py --check                         # the same bytes as shipped?

The settings below are the shipped network's; training is seeded, so the same settings
give the same weights, to the last bit, on the same machine and numpy (another numpy or
BLAS may round differently: ``--check`` says whether this one does). It takes about
two minutes of CPU. Each round prints its games' results and the training loss.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Final

from gamelib.learn.guide import GUIDE_FILE, save_net
from gamelib.learn.selfplay import RoundReport, self_play_training

SETTINGS: Final = {"rounds": 15, "games": 40, "iterations": 50, "epochs": 200, "seed": 1,
                   "hidden": 64, "rate": 0.2, "sampled_plies": 9}
"""The shipped network's training: see self_play_training for each setting."""

SHIPPED: Final = Path(__file__).resolve().parent.parent / "gamelib" / "learn" / "data" / GUIDE_FILE


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=SHIPPED, help="where to write the weights")
    parser.add_argument("--check", action="store_true",
                        help="train into a temporary file and compare it with the shipped one")
    args = parser.parse_args(argv)
    start = time.process_time()

    def progress(k: int, report: RoundReport) -> None:
        print(f"round {k + 1:2}: X won {report.x_wins}, drew {report.draws}, lost "
              f"{report.x_losses}; {report.positions:,} positions; loss "
              f"{report.loss_before:.3f} -> {report.loss_after:.3f} "
              f"({time.process_time() - start:.0f} s CPU)", flush=True)

    run = self_play_training(SETTINGS["rounds"], SETTINGS["games"], SETTINGS["iterations"],
                             SETTINGS["epochs"], seed=SETTINGS["seed"],
                             hidden=SETTINGS["hidden"], rate=SETTINGS["rate"],
                             sampled_plies=SETTINGS["sampled_plies"], progress=progress)
    if args.check:
        with tempfile.TemporaryDirectory() as folder:
            made = Path(folder) / GUIDE_FILE
            save_net(run.net, made)
            same = made.read_bytes() == SHIPPED.read_bytes()
        print("the same weights as shipped" if same else "DIFFERENT weights from the shipped")
        return 0 if same else 1
    save_net(run.net, args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
