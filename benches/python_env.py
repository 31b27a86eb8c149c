"""The Python package's speed (docs/python.md).

1. Random play through the PettingZoo environment: games a second for
   `tower` on one core (the game runs on Python's thread). Each move is
   drawn from `legal_actions()`, or with `--policy mask` from the
   observation's action mask (`np.flatnonzero`, a scan of every action).
2. A DataFrame of greedy games (`towerlab.simulate`) against the time the
   command line takes for the same run (`towerlab simulate --format json
   --per-game`), on the same threads; `--games 0` skips it.

    python benches/python_env.py [--env-games N] [--policy legal|mask] [--games N] [--threads N] [--towerlab PATH]

Run it with the package installed optimised (`pip install ./python`) and a
release binary (`cargo build --release`, the default --towerlab).
"""

import argparse
import os
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

import towerlab

REPO = Path(__file__).resolve().parents[1]


def random_play(games: int, policy: str) -> float:
    env = towerlab.raw_env("tower")
    rng = np.random.default_rng(1)
    start = time.perf_counter()
    for seed in range(1, games + 1):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            if policy == "mask":
                legal = np.flatnonzero(obs["action_mask"])
            else:
                legal = env.legal_actions()
            env.step(int(legal[rng.integers(len(legal))]))
    return games / (time.perf_counter() - start)


def dataframe_against_cli(binary: Path, games: int, threads: int) -> tuple:
    args = ["--variant", "tower", "--bots", "greedy", "--games", str(games), "--seed", "1",
            "--threads", str(threads)]
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        subprocess.run([str(binary), "simulate", *args, "--format", "json",
                        "--per-game", os.path.join(folder, "games.csv")],
                       check=True, stdout=subprocess.DEVNULL)
        cli = time.perf_counter() - start
    start = time.perf_counter()
    run = towerlab.simulate("tower", bots="greedy", games=games, seed=1, threads=threads)
    python = time.perf_counter() - start
    assert len(run.games) == games
    return cli, python


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env-games", type=int, default=200)
    parser.add_argument("--policy", choices=["legal", "mask"], default="legal")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--towerlab", type=Path, default=REPO / "target" / "release" / "towerlab")
    a = parser.parse_args()
    rate = random_play(a.env_games, a.policy)
    print(f"random play through the environment (tower, moves from {a.policy}): "
          f"{rate:.1f} games/s ({a.env_games} games)")
    if a.games == 0:
        return
    cli, python = dataframe_against_cli(a.towerlab, a.games, a.threads)
    print(f"{a.games} greedy games on {a.threads} threads: command line {cli:.2f} s, "
          f"DataFrame {python:.2f} s ({python / cli:.2f}x)")


if __name__ == "__main__":
    main()
