"""Runs as DataFrames: ``simulate``, ``compare`` and ``arena``.

Each call builds the command line's arguments, runs that command in this
process (``towerlab._towerlab.run``, the command line's own code) with
``--format json`` (and ``--per-game`` to a temporary file), and turns what it
printed into pandas DataFrames. The numbers are the command line's: a run with
the same arguments prints the same JSON and writes the same CSV.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, Sequence, Union

import pandas as pd

from ._towerlab import run as _run

Names = Union[str, Sequence[str]]


@dataclass
class Run:
    """A run of ``simulate`` or ``compare``.

    ``games``: one row per game and variant (the ``--per-game`` CSV: variant,
    game, seed, winner, each seat's score, every per-game metric).
    ``metrics``: one row per variant and metric: mean and 95% interval.
    ``differences``: ``compare`` only, one row per metric and variant against
    the baseline: the paired difference, its interval, p-values, stars.
    ``json``: the document ``--format json`` prints.
    """

    games: pd.DataFrame
    metrics: pd.DataFrame
    differences: pd.DataFrame
    json: dict = field(repr=False)


@dataclass
class Arena:
    """An arena: ``bots`` (each bot's win share with its Wilson interval,
    mean score and margin), ``seats`` (each seat's win share), ``json``."""

    bots: pd.DataFrame
    seats: pd.DataFrame
    json: dict = field(repr=False)


def _names(what: str, value: Names) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return ",".join(value)
    raise TypeError(f"{what}: give a name or a list of names, not {type(value).__name__}")


def _number(what: str, value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what}: give a whole number, not {type(value).__name__}")
    return str(value)


def _params(params: Union[None, Mapping[str, Any], Sequence[str]]) -> list:
    if params is None:
        return []
    if isinstance(params, Mapping):
        items = []
        for key, value in params.items():
            if isinstance(value, bool):
                value = "true" if value else "false"
            items.append(f"{key}={value}")
    elif isinstance(params, (list, tuple)) and all(isinstance(p, str) for p in params):
        items = list(params)
    else:
        raise TypeError("params: give a dict {'PACK.NAME': value} or a list of 'PACK.NAME=V'")
    return [a for p in items for a in ("--param", p)]


def _common(
    *,
    home=None,
    games=None,
    seed=None,
    players=None,
    threads=None,
    params=None,
    hook_budget=None,
) -> list:
    args = []
    for flag, value in [
        ("--games", games),
        ("--seed", seed),
        ("--players", players),
        ("--threads", threads),
        ("--hook-budget", hook_budget),
    ]:
        if value is not None:
            args += [flag, _number(flag.lstrip("-"), value)]
    if home is not None:
        args += ["--home", os.fspath(home)]
    return args + _params(params)


def _rules(variant, packs) -> list:
    if variant is not None and packs is not None:
        raise TypeError("give a variant or packs, not both")
    if variant is not None:
        return ["--variant", _names("variant", variant) if isinstance(variant, str) else os.fspath(variant)]
    if packs is not None:
        return ["--packs", _names("packs", packs)]
    return []


def _played(command: list) -> tuple:
    """Run ``command`` with its JSON and per-game CSV: (json, games)."""
    with tempfile.TemporaryDirectory(prefix="towerlab-") as folder:
        path = os.path.join(folder, "per-game.csv")
        printed = _run(command + ["--format", "json", "--per-game", path])
        with open(path, encoding="utf-8") as f:
            games = pd.read_csv(f)
    return json.loads(printed), games


def _metrics(doc: dict) -> pd.DataFrame:
    rows = []
    if "variants" in doc:
        for m in doc["metrics"]:
            for v in m["values"]:
                rows.append(_estimate(v["variant"], m["name"], v))
    else:
        for m in doc["metrics"] + doc.get("by_kind", []):
            rows.append(_estimate(doc["variant"], m["name"], m))
    return pd.DataFrame(rows, columns=["variant", "metric", "mean", "ci_low", "ci_high", "no_interval"])


def _estimate(variant: str, metric: str, e: dict) -> dict:
    low, high = e.get("ci") or (None, None)
    if e.get("no_interval"):
        low = high = None
    return {
        "variant": variant,
        "metric": metric,
        "mean": e["mean"],
        "ci_low": low,
        "ci_high": high,
        "no_interval": e.get("no_interval"),
    }


DIFF_COLUMNS = [
    "variant", "baseline", "metric", "mean", "ci_low", "ci_high", "sd",
    "significant", "p", "p_adjusted", "survives",
]


def _differences(doc: dict) -> pd.DataFrame:
    rows = []
    for m in doc.get("metrics", []):
        values = m.get("values", [])
        for v in values:
            d = v.get("diff")
            if not d:
                continue
            low, high = d.get("ci") or (None, None)
            rows.append({
                "variant": v["variant"],
                "baseline": values[0]["variant"],
                "metric": m["name"],
                "mean": d["mean"],
                "ci_low": low,
                "ci_high": high,
                "sd": d.get("sd"),
                "significant": d.get("significant"),
                "p": d.get("p"),
                "p_adjusted": d.get("p_adjusted"),
                "survives": d.get("survives"),
            })
    return pd.DataFrame(rows, columns=DIFF_COLUMNS)


def simulate(
    variant: Optional[str] = None,
    *,
    packs: Optional[Names] = None,
    bots: Names = "random",
    games: int = 1000,
    seed: int = 1,
    players: Optional[int] = None,
    params=None,
    threads: Optional[int] = None,
    by_kind: bool = False,
    home=None,
    hook_budget: Optional[int] = None,
) -> Run:
    """``towerlab simulate``: many seeded games of one variant (or packs).

    The arguments are the command line's options (``params`` as a dict
    ``{"tower.ransom_cost": 2}`` or ``["tower.ransom_cost=2"]``).
    """
    command = ["simulate", *_rules(variant, packs), "--bots", _names("bots", bots)]
    command += _common(home=home, games=games, seed=seed, players=players,
                       threads=threads, params=params, hook_budget=hook_budget)
    return _run_of(command, by_kind)


def _run_of(command: list, by_kind: bool) -> Run:
    """The run ``command`` plays (with ``--by-kind`` when asked)."""
    doc, per_game = _played(command + (["--by-kind"] if by_kind else []))
    return Run(per_game, _metrics(doc), _differences(doc), doc)


def compare(
    variants: Sequence[str],
    *,
    bots: Names = "random",
    games: int = 1000,
    seed: int = 1,
    players: Optional[int] = None,
    params=None,
    threads: Optional[int] = None,
    baseline: Optional[str] = None,
    by_kind: bool = False,
    home=None,
    hook_budget: Optional[int] = None,
) -> Run:
    """``towerlab compare``: the same seeds under each variant (a name, a
    file, or a pack list ``"tower,house/no-gaps"``), paired differences
    against the first (or ``baseline``)."""
    if isinstance(variants, str) or not all(isinstance(v, (str, os.PathLike)) for v in variants):
        raise TypeError("variants: give a list of at least two variants")
    command = ["compare", *[os.fspath(v) for v in variants], "--bots", _names("bots", bots)]
    command += _common(home=home, games=games, seed=seed, players=players,
                       threads=threads, params=params, hook_budget=hook_budget)
    if baseline is not None:
        command += ["--baseline", _names("baseline", baseline)]
    return _run_of(command, by_kind)


def arena(
    bots: Sequence[str],
    *,
    variant: Optional[str] = None,
    packs: Optional[Names] = None,
    games: int = 1000,
    seed: int = 1,
    players: Optional[int] = None,
    params=None,
    threads: Optional[int] = None,
    home=None,
    hook_budget: Optional[int] = None,
) -> Arena:
    """``towerlab arena``: bots against each other on the same deals, seats
    rotated: win shares with their Wilson intervals."""
    if isinstance(bots, str) or not all(isinstance(b, str) for b in bots):
        raise TypeError("bots: give a list of at least two bot names")
    command = ["arena", *bots, *_rules(variant, packs)]
    command += _common(home=home, games=games, seed=seed, players=players,
                       threads=threads, params=params, hook_budget=hook_budget)
    doc = json.loads(_run(command + ["--format", "json"]))
    bots_df = pd.DataFrame([_flat(r, "margin_ci") for r in doc["results"]])
    seats_df = pd.DataFrame([_flat(s) for s in doc["seats"]])
    return Arena(bots_df, seats_df, doc)


def _flat(row: dict, *intervals: str) -> dict:
    """A result row with its ``ci`` (and other intervals) as two columns."""
    out = {}
    for key, value in row.items():
        if key == "ci" or key in intervals:
            name = "ci" if key == "ci" else key.removesuffix("_ci")
            prefix = "ci" if key == "ci" else f"{name}_ci"
            out[f"{prefix}_low"], out[f"{prefix}_high"] = value
        else:
            out[key] = value
    return out
