"""towerlab from Python.

``simulate``, ``compare`` and ``arena`` run the command line's own code in this
process and return its ``--format json`` and ``--per-game`` output as pandas
DataFrames; ``env`` and ``GymEnv`` play any variant one decision at a time as a
PettingZoo AEC environment or a Gymnasium environment against towerlab's bots.
See docs/python.md in the repository.
"""

from ._towerlab import BadInput, TowerlabError, run
from .env import TowerEnv, env, raw_env
from .gym import GymEnv
from .results import Arena, Run, arena, compare, simulate

__all__ = [
    "Arena",
    "BadInput",
    "GymEnv",
    "Run",
    "TowerEnv",
    "TowerlabError",
    "arena",
    "compare",
    "env",
    "raw_env",
    "run",
    "simulate",
]
