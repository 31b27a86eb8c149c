"""Shared helpers: the repository, and the `towerlab` binary the Python
results are compared with (TOWERLAB_BIN, else the repository's debug build)."""

import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cli():
    binary = Path(os.environ.get("TOWERLAB_BIN", REPO / "target" / "debug" / "towerlab"))
    if not binary.is_file():
        pytest.fail(f"no towerlab binary at {binary}: run `cargo build` or set TOWERLAB_BIN")

    def run(*args, check=True):
        done = subprocess.run([str(binary), *map(str, args)], capture_output=True, text=True)
        if check and done.returncode != 0:
            raise AssertionError(f"towerlab {' '.join(map(str, args))}: {done.stderr}")
        return done

    return run


@pytest.fixture(scope="session")
def repo():
    return REPO


def without_timing(doc: dict) -> dict:
    """A run's JSON without what depends on the machine: its time and threads."""
    return {k: v for k, v in doc.items() if k not in ("seconds", "games_per_sec", "threads")}


def loads(text: str) -> dict:
    return json.loads(text)
