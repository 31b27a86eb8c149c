"""simulate, compare and arena as DataFrames: the command line's numbers."""

import json

import pandas as pd
import pytest
from conftest import without_timing

import towerlab


def test_simulate_is_the_command_lines_json_and_per_game_csv(cli, tmp_path):
    csv = tmp_path / "games.csv"
    args = ["--games", "40", "--seed", "9", "--bots", "greedy,random", "--threads", "2"]
    printed = cli("simulate", "--variant", "black-tower", *args, "--format", "json", "--per-game", csv).stdout
    run = towerlab.simulate("black-tower", bots=["greedy", "random"], games=40, seed=9, threads=2)
    assert without_timing(run.json) == without_timing(json.loads(printed))
    pd.testing.assert_frame_equal(run.games, pd.read_csv(csv))
    assert len(run.games) == 40
    assert {"score.seat1", "score.seat2", "winner", "captures"} <= set(run.games.columns)
    means = run.metrics.set_index("metric")["mean"]
    assert means["score.seat1"] == pytest.approx(run.games["score.seat1"].mean())
    assert run.differences.empty


def test_compare_has_each_game_and_the_paired_differences(cli, tmp_path):
    csv = tmp_path / "games.csv"
    printed = cli("compare", "tower", "black-tower", "--games", "30", "--seed", "4",
                  "--param", "tower.ransom_cost=2", "--format", "json", "--per-game", csv).stdout
    run = towerlab.compare(["tower", "black-tower"], games=30, seed=4, params={"tower.ransom_cost": 2})
    assert without_timing(run.json) == without_timing(json.loads(printed))
    pd.testing.assert_frame_equal(run.games, pd.read_csv(csv))
    assert sorted(run.games["variant"].unique()) == ["black-tower", "tower"]
    towers = run.differences.set_index("metric").loc["towers"]
    assert towers["variant"] == "black-tower" and towers["baseline"] == "tower"
    assert towers["ci_low"] <= towers["mean"] <= towers["ci_high"]
    paired = (run.games[run.games.variant == "black-tower"]["towers"].to_numpy()
              - run.games[run.games.variant == "tower"]["towers"].to_numpy())
    assert towers["mean"] == pytest.approx(paired.mean())


def test_arena_is_the_command_lines_json(cli):
    printed = cli("arena", "greedy", "random", "--games", "6", "--seed", "2", "--format", "json").stdout
    result = towerlab.arena(["greedy", "random"], games=6, seed=2)
    assert result.json == json.loads(printed)
    assert list(result.bots["bot"]) == ["greedy", "random"]
    assert {"win_share", "ci_low", "ci_high", "margin_ci_low"} <= set(result.bots.columns)
    assert len(result.seats) == 2


def test_an_unknown_variant_raises_bad_input_with_towerlabs_message():
    with pytest.raises(towerlab.BadInput, match="unknown variant `blak-tower`.*black-tower"):
        towerlab.simulate("blak-tower", games=2)


def test_a_bad_parameter_and_a_bad_option_raise_bad_input():
    with pytest.raises(towerlab.BadInput, match="ransom_cost"):
        towerlab.simulate("tower", games=2, params={"tower.ransom_cost": "lots"})
    with pytest.raises(towerlab.BadInput, match="--games"):
        towerlab.simulate(games=0)


def test_wrong_types_raise_type_errors():
    with pytest.raises(TypeError, match="games"):
        towerlab.simulate(games="many")
    with pytest.raises(TypeError, match="bots"):
        towerlab.simulate(bots=3)
    with pytest.raises(TypeError, match="variants"):
        towerlab.compare("tower")


def test_a_broken_pack_file_is_named_with_its_line_and_column(tmp_path):
    pack = tmp_path / "broken"
    pack.mkdir()
    (pack / "pack.toml").write_text('[pack]\nname = "broken"\nrequires = ["tower"\n')
    with pytest.raises(towerlab.BadInput, match=r"pack\.toml:3:\d+"):
        towerlab.simulate(packs=["tower", str(pack)], games=2)


def test_the_errors_are_towerlab_errors():
    assert issubclass(towerlab.BadInput, towerlab.TowerlabError)
    assert issubclass(towerlab.TowerlabError, Exception)
