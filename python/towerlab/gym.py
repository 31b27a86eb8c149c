"""One learning seat against towerlab's bots, as a Gymnasium environment."""

from __future__ import annotations

from typing import Optional

import gymnasium
import numpy as np
from gymnasium import spaces

from ._towerlab import BadInput
from .env import Game

ILLEGAL = ("ignore", "raise")


class GymEnv(gymnasium.Env):
    """Seat 1 learns; the other seats are towerlab bots (``opponents``:
    ``"greedy"``, ``"mcts"``, ``"mcts:200"``, or one name per other seat).

    The reward of a step is the points seat 1 scored since its last step
    (its opponents' turns included); the episode ends with the game. The
    observation and actions are those of ``TowerEnv``; ``action_masks()``
    gives the legal actions as a mask (as sb3-contrib's maskable algorithms
    ask), ``legal_actions()`` as numbers.

    Every action of the action space may be stepped, as Gymnasium asks: one
    outside the mask changes nothing (reward 0, the same observation, the
    reason in ``info["illegal"]``); with ``illegal="raise"`` it raises
    ``BadInput`` instead. Each observation is new arrays of its own.
    """

    metadata = {"render_modes": ["ansi", "svg"]}

    def __init__(self, variant=None, *, opponents="greedy", packs=None, params=None,
                 players=None, home=None, radius=20, render_mode=None, illegal="ignore"):
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode: {render_mode!r}; give 'ansi' or 'svg'")
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal: {illegal!r}; give 'ignore' or 'raise'")
        others = [opponents] if isinstance(opponents, str) else list(opponents)
        n = players if players is not None else 1 + len(others)
        if len(others) == 1:
            others = others * (n - 1)
        self.game = Game(variant, packs, params, players, ["person"] + others, home, radius)
        self.render_mode = render_mode
        self.illegal = illegal
        self.observation_space = spaces.Dict({
            "observation": self.game.observation_space(),
            "action_mask": spaces.Box(0, 1, (self.game.size,), np.int8),
        })
        self.action_space = spaces.Discrete(self.game.size)

    def _observation(self):
        seen = {k: v.copy() for k, v in self.game.observation(0).items()}
        return {"observation": seen, "action_mask": self.game.mask().copy()}

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
        try:
            state = self.game.act(action)
        except BadInput as refused:
            if not self._ignored(action):
                raise
            info = self._info(self.game.state)
            info["illegal"] = str(refused)
            return self._observation(), 0.0, False, False, info
        reward = state["scores"][0] - self._score
        self._score = state["scores"][0]
        over = state["seat"] is None or len(state["legal"]) == 0
        terminated = over and state["step"] in ("over", "failed")
        truncated = over and not terminated
        return self._observation(), float(reward), terminated, truncated, self._info(state)

    def _ignored(self, action) -> bool:
        """An action of the space, outside the mask, while seat 1 is to
        act, and ignoring is asked for."""
        waiting = self.game.state is not None and len(self.game.legal()) > 0
        return self.illegal == "ignore" and waiting and self.action_space.contains(action)

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


# Steps of the learning seat after which a made environment's episode is cut
# short (truncated): a seat has at most some 45 turns of a few decisions each,
# so only a learner stepping actions outside the mask (ignored) gets there.
MAX_EPISODE_STEPS = 1000

# `gymnasium.make("towerlab/GymEnv-v0", variant="black-tower", opponents="mcts")`.
gymnasium.register(
    id="towerlab/GymEnv-v0",
    entry_point="towerlab.gym:GymEnv",
    max_episode_steps=MAX_EPISODE_STEPS,
)
