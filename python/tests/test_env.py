"""The PettingZoo and Gymnasium environments."""

import numpy as np
import pytest
from pettingzoo.test import api_test

import towerlab


def acting_pack(repo):
    return ["tower", str(repo / "docs" / "examples" / "tithe")]


@pytest.mark.parametrize("rules", ["tower", "black-tower", "acting"])
def test_pettingzoo_api(rules, repo):
    if rules == "acting":
        env = towerlab.env(packs=acting_pack(repo), players=3)
    else:
        env = towerlab.env(rules)
    api_test(env, num_cycles=300)


def random_episode(env, seed, rng):
    env.reset(seed=seed)
    actions = []
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        actions.append(action)
        env.step(action)
    return actions


def test_a_seeded_episode_replays_to_the_same_log(cli, tmp_path):
    env = towerlab.raw_env("black-tower", players=3)
    actions = random_episode(env, 11, np.random.default_rng(1))
    log = env.log()
    # The same seed and choices give the same game.
    env.reset(seed=11)
    for action in actions:
        env.step(action)
    assert env.log() == log
    assert all(env.terminations.values())
    # The referee accepts it.
    path = tmp_path / "game.jsonl"
    path.write_text(log)
    cli("replay", path)


def test_bots_in_every_seat_play_towerlab_plays_game(cli, tmp_path):
    from towerlab.env import Game

    game = Game("tower", seats=["greedy", "random", "greedy"])
    state = game.reset(5)
    assert state["step"] == "over"
    path = tmp_path / "play.jsonl"
    cli("play", "--variant", "tower", "--seed", "5", "--players", "3", "--bots", "greedy,random,greedy", "--log", path)
    assert game.host.log() == path.read_text()


def test_the_observation_never_holds_the_deck_order():
    # Two deals whose first drawn tile is the same kind: before any tile is
    # placed, every seat sees the same, though the decks differ.
    env = towerlab.raw_env("tower")
    first = {}
    for seed in range(1, 60):
        env.reset(seed=seed)
        obs = env.observe(env.agent_selection)["observation"]
        drawn = int(obs["turn"][0])
        if drawn in first:
            break
        first[drawn] = (seed, {k: v.copy() for k, v in obs.items()})
    else:
        pytest.fail("no two deals drew the same first tile")
    earlier_seed, earlier = first[drawn]
    assert env.log() != "" and earlier_seed != seed
    assert set(obs) == {"board", "seats", "turn", "me"}
    for key in obs:
        np.testing.assert_array_equal(obs[key], earlier[key])
    assert obs["turn"][3] == 88  # the tiles left: a count, not an order


def test_an_action_outside_the_mask_raises_and_changes_nothing():
    env = towerlab.raw_env("tower", render_mode="ansi")
    env.reset(seed=3)
    before = env.render()
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(towerlab.BadInput, match=f"action {illegal} is not legal now"):
        env.step(illegal)
    with pytest.raises(towerlab.BadInput):
        env.step(-1)
    assert env.render() == before


def test_a_placement_maps_to_its_cell_and_rotation():
    env = towerlab.raw_env("tower", radius=5)
    env.reset(seed=3)
    blocks = dict((name, (start, size)) for name, start, size in env.blocks)
    assert blocks["place"] == (0, 11 * 11 * 4)
    legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
    text = env.game.host.text()
    for action in legal:
        cell, rot = divmod(int(action), 4)
        y, x = divmod(cell, 11)
        assert f"{action}: " in text and f"at ({x - 5}, {y - 5}) turned {rot * 90}°" in text


def test_a_pack_error_ends_the_episode_with_its_message(tmp_path):
    pack = tmp_path / "broken-floor"
    pack.mkdir()
    (pack / "pack.toml").write_text(
        '[pack]\nname = "broken-floor"\nrequires = ["tower"]\nscript = "broken-floor.rhai"\n')
    (pack / "broken-floor.rhai").write_text('fn may_place_floor(tower, kind) {\n    throw "the floor broke";\n}\n')
    env = towerlab.raw_env(packs=["tower", str(pack)])
    random_episode(env, 1, np.random.default_rng(0))
    # The agents are gone once the episode ended; the game says why.
    assert env.game.state["step"] == "failed"
    assert "the floor broke" in env.game.state["failed"]
    assert "broken-floor" in env.game.state["failed"]


def test_render_as_text_and_svg():
    env = towerlab.raw_env("tower", render_mode="svg")
    env.reset(seed=2)
    assert env.render().lstrip().startswith("<svg")
    env = towerlab.raw_env("tower", render_mode="ansi")
    env.reset(seed=2)
    assert "player 1 to decide (placement)" in env.render()


def test_gym_env_against_greedy():
    env = towerlab.GymEnv("tower", opponents="greedy")
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(0)
    total, done, steps = 0.0, False, 0
    while not done:
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        done = terminated or truncated
        steps += 1
    assert terminated and info["step"] == "over"
    assert total == info["scores"][0]
    assert steps > 40


def test_bad_environment_arguments_raise_bad_input():
    with pytest.raises(towerlab.BadInput, match="unknown variant"):
        towerlab.raw_env("towr")
    with pytest.raises(towerlab.BadInput, match="2 to 8"):
        towerlab.raw_env("tower", players=9)
    with pytest.raises(towerlab.BadInput, match="bot"):
        towerlab.GymEnv("tower", opponents="grandmaster")


def test_eight_players_and_bots_per_seat():
    env = towerlab.raw_env("tower", players=8)
    env.reset(seed=1)
    assert env.agents == [f"seat_{p}" for p in range(1, 9)]
    assert env.blocks[-1] == ("ransom", env.action_space("seat_1").n - 8, 8)
    gym = towerlab.GymEnv("black-tower", opponents=["greedy", "mcts:20", "random"])
    obs, info = gym.reset(seed=2)
    assert obs["observation"]["seats"].shape == (4, 4 + 3)
    assert info["step"] == "placement" and gym.action_masks().any()


def test_legal_actions_are_the_masks_nonzero_entries():
    env = towerlab.raw_env("black-tower", players=3)
    env.reset(seed=6)
    rng = np.random.default_rng(2)
    kept = []
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            assert len(env.legal_actions()) == 0
            env.step(None)
            continue
        legal = env.legal_actions()
        np.testing.assert_array_equal(legal, np.flatnonzero(obs["action_mask"]))
        for other in env.agents:
            if other != agent:
                assert len(env.legal_actions(other)) == 0
                assert not env.observe(other)["action_mask"].any()
        kept.append((obs, {k: v.copy() for k, v in obs["observation"].items()}, obs["action_mask"].copy()))
        env.step(int(legal[rng.integers(len(legal))]))
    # Arrays shared between steps are never written: what an earlier step
    # observed is still what it was.
    assert len(kept) > 100
    for obs, copies, mask in kept:
        np.testing.assert_array_equal(obs["action_mask"], mask)
        for key, value in copies.items():
            np.testing.assert_array_equal(obs["observation"][key], value)
        assert not obs["observation"]["board"].flags.writeable
    gym = towerlab.GymEnv("tower", opponents="random")
    gym.reset(seed=3)
    np.testing.assert_array_equal(gym.legal_actions(), np.flatnonzero(gym.action_masks()))


def test_a_game_is_played_on_the_thread_that_made_it():
    import threading

    env = towerlab.raw_env("tower")
    env.reset(seed=1)
    caught = []

    def elsewhere():
        try:
            env.step(int(env.legal_actions()[0]))
        except towerlab.TowerlabError as e:
            caught.append(str(e))

    worker = threading.Thread(target=elsewhere)
    worker.start()
    worker.join()
    assert caught and "thread that made it" in caught[0]
    env.step(int(env.legal_actions()[0]))  # still fine here


def test_gym_env_passes_gymnasiums_checker():
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    check_env(towerlab.GymEnv("tower", opponents="greedy"))
    # Made from its registration, the environment has a spec, and the
    # checker renders each of its render modes too.
    made = gymnasium.make("towerlab/GymEnv-v0", variant="black-tower", opponents="random")
    check_env(made.unwrapped)


def test_a_made_gym_env_ends_an_episode_of_ignored_actions():
    import gymnasium

    made = gymnasium.make("towerlab/GymEnv-v0", variant="tower", opponents="random")
    made.reset(seed=3)
    illegal = int(np.flatnonzero(made.unwrapped.action_masks() == 0)[0])
    steps, truncated = 0, False
    while not truncated:
        _, reward, terminated, truncated, info = made.step(illegal)
        steps += 1
        assert not terminated and reward == 0.0 and "illegal" in info
        assert steps <= towerlab.gym.MAX_EPISODE_STEPS
    assert steps == towerlab.gym.MAX_EPISODE_STEPS


def test_gym_env_ignores_or_refuses_an_action_outside_the_mask():
    env = towerlab.GymEnv("tower", opponents="greedy")
    obs, _ = env.reset(seed=5)
    illegal = int(np.flatnonzero(env.action_masks() == 0)[0])
    again, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (0.0, False, False)
    assert f"action {illegal} is not legal now" in info["illegal"]
    for key in obs["observation"]:
        np.testing.assert_array_equal(again["observation"][key], obs["observation"][key])
    np.testing.assert_array_equal(again["action_mask"], obs["action_mask"])
    with pytest.raises(towerlab.BadInput):
        env.step(env.action_space.n)  # not an action of the space
    strict = towerlab.GymEnv("tower", opponents="greedy", illegal="raise")
    strict.reset(seed=5)
    with pytest.raises(towerlab.BadInput, match=f"action {illegal} is not legal now"):
        strict.step(illegal)
    with pytest.raises(ValueError, match="illegal"):
        towerlab.GymEnv("tower", illegal="sometimes")


def test_a_runaway_recursion_in_a_pack_ends_the_episode_not_the_interpreter(tmp_path):
    # The game's stack is the hooks' own: the sandbox's depth limit ends the
    # script before the stack does.
    pack = tmp_path / "deep"
    pack.mkdir()
    (pack / "pack.toml").write_text('[pack]\nname = "deep"\nrequires = ["tower"]\nscript = "deep.rhai"\n')
    (pack / "deep.rhai").write_text(
        "fn down(n) { if n > 0 { 1 + down(n - 1) } else { 0 } }\n"
        "fn may_place_floor(tower, kind) {\n    down(100000) > 0\n}\n")
    env = towerlab.raw_env(packs=["tower", str(pack)])
    random_episode(env, 1, np.random.default_rng(0))
    assert env.game.state["step"] == "failed"
    assert "nested calls" in env.game.state["failed"] and "may_place_floor" in env.game.state["failed"]
