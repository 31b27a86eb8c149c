"""One learning seat against towerlab's bots, as a Gymnasium environment."""

from __future__ import annotations

from typing import Optional

import numpy as np
import gymnasium
from gymnasium import spaces

from .env import Game


class GymEnv(gymnasium.Env):
    """Seat 1 learns; the other seats are towerlab bots (``opponents``:
    ``"greedy"``, ``"mcts"``, ``"mcts:200"``, or one name per other seat).

    The reward of a step is the points seat 1 scored since its last step
    (its opponents' turns included); the episode ends with the game. The
    observation and actions are those of ``TowerEnv``; ``action_masks()``
    gives the legal actions as a mask (as sb3-contrib's maskable algorithms
    ask), ``legal_actions()`` as numbers.
    """

    metadata = {"render_modes": ["ansi", "svg"]}

    def __init__(self, variant=None, *, opponents="greedy", packs=None, params=None,
                 players=None, home=None, radius=20, render_mode=None):
        others = [opponents] if isinstance(opponents, str) else list(opponents)
        n = players if players is not None else 1 + len(others)
        if len(others) == 1:
            others = others * (n - 1)
        self.game = Game(variant, packs, params, players, ["person"] + others, home, radius)
        self.render_mode = render_mode
        self.observation_space = spaces.Dict({
            "observation": self.game.observation_space(),
            "action_mask": spaces.Box(0, 1, (self.game.size,), np.int8),
        })
        self.action_space = spaces.Discrete(self.game.size)

    def _observation(self):
        return {"observation": self.game.observation(0), "action_mask": self.game.mask()}

    def _info(self, state):
        info = {"step": state["step"], "scores": list(state["scores"])}
        if state["failed"]:
            info["error"] = state["failed"]
        return info

    def reset(self, *, seed: Optional[int] = None, options=None):
        super().reset(seed=seed)
        state = self.game.reset(seed)
        self._score = state["scores"][0]
        return self._observation(), self._info(state)

    def step(self, action):
        state = self.game.act(action)
        reward = state["scores"][0] - self._score
        self._score = state["scores"][0]
        over = state["seat"] is None or len(state["legal"]) == 0
        terminated = over and state["step"] in ("over", "failed")
        truncated = over and not terminated
        return self._observation(), float(reward), terminated, truncated, self._info(state)

    def action_masks(self) -> np.ndarray:
        return self.game.mask().astype(bool)

    def legal_actions(self) -> np.ndarray:
        """The numbers of the legal actions now, ascending (the mask's
        nonzero entries, without scanning it)."""
        return self.game.legal()

    def render(self):
        return self.game.render(self.render_mode)

    def log(self) -> str:
        return self.game.host.log()
