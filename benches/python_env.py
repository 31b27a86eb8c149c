"""The Python package's speed (docs/python.md).

1. Random play through the PettingZoo environment: games a second for
   `tower` on one core (the game runs on Python's thread). Each move is
   drawn from `legal_actions()`, or with `--policy mask` from the
   observation's action mask (`np.flatnonzero`, a scan of every action).
2. A DataFrame of greedy games (`towerlab.simulate`) against the time the
   command line takes for the same run (`towerlab simulate --format json
   --per-game`), on the same threads: `--runs` pairs of runs, interleaved,
   each with the games' own seconds (what the run printed); `--games 0`
   skips it, as `--env-games 0` skips the first.

    python benches/python_env.py [--env-games N] [--policy legal|mask]
        [--games N] [--runs N] [--threads N] [--towerlab PATH]

Run it with the package installed optimised (`pip install ./python`) and a
release binary (`cargo build --release`, the default --towerlab).
"""

import argparse
import json
import os
import resource
import statistics
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
        for _agent in env.agent_iter():
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


def cpu_seconds(who: int) -> float:
    used = resource.getrusage(who)
    return used.ru_utime + used.ru_stime


def cli_run(binary: Path, args: list) -> tuple:
    """The command line's run: (wall seconds, CPU seconds, the games' own
    seconds)."""
    with tempfile.TemporaryDirectory() as folder:
        cpu, start = cpu_seconds(resource.RUSAGE_CHILDREN), time.perf_counter()
        printed = subprocess.run([str(binary), "simulate", *args, "--format", "json",
                                  "--per-game", os.path.join(folder, "games.csv")],
                                 check=True, capture_output=True).stdout
        return (time.perf_counter() - start, cpu_seconds(resource.RUSAGE_CHILDREN) - cpu,
                json.loads(printed)["seconds"])


def dataframe_run(games: int, threads: int) -> tuple:
    """The DataFrame's run, as `cli_run` measures it (CPU: this process's)."""
    cpu, start = cpu_seconds(resource.RUSAGE_SELF), time.perf_counter()
    run = towerlab.simulate("tower", bots="greedy", games=games, seed=1, threads=threads)
    wall, cpu = time.perf_counter() - start, cpu_seconds(resource.RUSAGE_SELF) - cpu
    assert len(run.games) == games
    return wall, cpu, run.json["seconds"]


def dataframe_against_cli(binary: Path, games: int, threads: int, runs: int) -> tuple:
    """`runs` pairs, interleaved, the first of each pair alternating (a
    shared machine's load drifts): each pair's ratios of wall and of CPU
    time (CPU time is the steadier on a machine others load)."""
    args = ["--variant", "tower", "--bots", "greedy", "--games", str(games), "--seed", "1",
            "--threads", str(threads)]
    walls, cpus = [], []
    for i in range(runs):
        if i % 2 == 0:
            cli, python = cli_run(binary, args), dataframe_run(games, threads)
        else:
            python, cli = dataframe_run(games, threads), cli_run(binary, args)
        walls.append(python[0] / cli[0])
        cpus.append(python[1] / cli[1])
        print(f"  run {i + 1}: command line {cli[0]:.2f} s ({cli[1]:.2f} s CPU, games {cli[2]:.2f} s), "
              f"DataFrame {python[0]:.2f} s ({python[1]:.2f} s CPU, games {python[2]:.2f} s): "
              f"{walls[-1]:.2f}x wall, {cpus[-1]:.2f}x CPU", flush=True)
    return walls, cpus


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env-games", type=int, default=200)
    parser.add_argument("--policy", choices=["legal", "mask"], default="legal")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--towerlab", type=Path, default=REPO / "target" / "release" / "towerlab")
    a = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}")
    if a.env_games > 0:
        rate = random_play(a.env_games, a.policy)
        print(f"random play through the environment (tower, moves from {a.policy}): "
              f"{rate:.1f} games/s ({a.env_games} games)")
    if a.games > 0:
        print(f"{a.games} greedy games on {a.threads} threads, the DataFrame's time against "
              "the command line's:")
        walls, cpus = dataframe_against_cli(a.towerlab, a.games, a.threads, a.runs)
        print(f"  median over {a.runs} runs: {statistics.median(walls):.2f}x wall, "
              f"{statistics.median(cpus):.2f}x CPU")


if __name__ == "__main__":
    main()
