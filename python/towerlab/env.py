"""Every variant as a PettingZoo AEC environment.

``env(variant="black-tower", players=3)`` plays a game of towerlab one
decision at a time: agents ``seat_1`` … ``seat_N``; the agent to act is the
seat the kernel asks (placing its tile, a ransom, the turn's action, a
capture). Actions are one fixed ``Discrete`` space, in blocks (see
``TowerEnv.blocks`` and docs/python.md):

* place: ``cell * 4 + r``, the drawn tile on ``cell`` turned ``r`` quarter turns;
* pass: no action this turn, no ransom, no capture;
* meeple: ``s``, a meeple on segment ``s`` of the tile just placed;
* top: ``cell``, a meeple on that cell's tower, closing it;
* floor: ``cell * K + k``, a floor of kind ``k`` on that cell's foundation or tower;
* capture: ``cell * (S + 1) + j``, the meeple on segment ``j`` of that cell
  (``j = S``: the one on its tower);
* ransom: ``p``, buy back a meeple seat ``p + 1`` holds;

each block's actions counted from the block's first. ``cell = (y + R) * W + (x + R)``
in a window of ``W = 2R + 1`` cells a side around the start tile (``radius=R``).
The observation is what every seat may know (never the deck's order),
``action_mask`` marks the legal actions and ``legal_actions()`` lists them.
An action outside the mask raises ``BadInput``; a rule pack's error ends the
episode, its message in ``infos``. The game runs on the thread that made it.
"""

from __future__ import annotations

import os
from typing import Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ._towerlab import Host

BOARD_CHANNELS = 7
SEAT_NUMBERS = 4
TURN_NUMBERS = 4
STEPS = ["placement", "ransom", "action", "capture", "over"]
# The host's numbers, little-endian (made once: parsing a dtype's name costs
# more than reading the numbers).
I2, I4, I8, MASK = np.dtype("<i2"), np.dtype("<i4"), np.dtype("<i8"), np.dtype(np.int8)


class Game:
    """One game on towerlab's side, its snapshots as numpy arrays."""

    def __init__(self, variant=None, packs=None, params=None, players=None,
                 seats=None, home=None, radius=20):
        if packs is not None and not isinstance(packs, str):
            packs = list(packs)
        elif isinstance(packs, str):
            packs = packs.split(",")
        if params is None:
            params = []
        elif isinstance(params, dict):
            params = [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in params.items()]
        if seats is None:
            seats = []
        elif isinstance(seats, str):
            seats = [seats]
        self.host = Host(
            variant=None if variant is None else os.fspath(variant),
            packs=packs,
            params=list(params),
            players=players,
            seats=list(seats),
            home=None if home is None else os.fspath(home),
            radius=radius,
        )
        self.players = self.host.players
        self.width = 2 * self.host.radius + 1
        self.kinds = len(self.host.floor_kinds)
        self.size = self.host.action_size
        self.state = None
        self.seed = None
        # Read-only arrays, shared between steps while they do not change.
        self._board = (None, None)
        self._me = [_read_only(np.eye(1, self.players, p, dtype=np.int8)[0]) for p in range(self.players)]
        self.no_mask = _read_only(np.zeros(self.size, dtype=np.int8))

    def take(self, s: dict) -> dict:
        """The host's snapshot with its numbers as read-only numpy arrays."""
        s["legal"] = np.frombuffer(s["legal"], dtype=I8)
        s["mask"] = np.frombuffer(s["mask"], dtype=MASK)
        s["board"] = self._board_of(s["board"])
        s["seats"] = np.frombuffer(s["seats"], dtype=I4).reshape(self.players, SEAT_NUMBERS + self.kinds)
        s["turn"] = np.frombuffer(s["turn"], dtype=I4)
        self.state = s
        return s

    def _board_of(self, data: bytes) -> np.ndarray:
        # The host hands back the same bytes while the board is unchanged.
        if self._board[0] is not data:
            board = np.frombuffer(data, dtype=I2).reshape(self.width, self.width, BOARD_CHANNELS)
            self._board = (data, board)
        return self._board[1]

    def reset(self, seed: Optional[int]) -> dict:
        """A new game dealt by ``seed``; without one, by the seed after the
        last game's (the first: a random one)."""
        if seed is not None:
            self.seed = int(seed)
        elif self.seed is None:
            self.seed = _fresh_seed()
        else:
            self.seed += 1
        return self.take(self.host.reset(self.seed))

    def act(self, action) -> dict:
        return self.take(self.host.act(int(action)))

    def render(self, mode):
        """The game as text (``"ansi"``) or SVG (``"svg"``); None otherwise."""
        if mode == "svg":
            return self.host.svg()
        if mode == "ansi":
            return self.host.text()
        return None

    def mask(self) -> np.ndarray:
        """The legal actions as a mask over the action space (read-only)."""
        return self.state["mask"]

    def legal(self) -> np.ndarray:
        """The legal actions' numbers, ascending (read-only)."""
        return self.state["legal"]

    def observation(self, seat: int) -> dict:
        s = self.state
        return {
            "board": s["board"],
            "seats": s["seats"],
            "turn": s["turn"],
            "me": self._me[seat],
        }

    def observation_space(self) -> spaces.Dict:
        big = np.iinfo(np.int32).max
        return spaces.Dict({
            "board": spaces.Box(0, np.iinfo(np.int16).max, (self.width, self.width, BOARD_CHANNELS), np.int16),
            "seats": spaces.Box(0, big, (self.players, SEAT_NUMBERS + self.kinds), np.int32),
            "turn": spaces.Box(0, big, (TURN_NUMBERS,), np.int32),
            "me": spaces.MultiBinary(self.players),
        })


def _read_only(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


def _fresh_seed() -> int:
    return int.from_bytes(os.urandom(8), "little") >> 1


class TowerEnv(AECEnv):
    """A towerlab game as a PettingZoo AEC environment (see the module's doc).

    ``variant``: a variant's name or file; ``packs``: packs in order instead;
    ``params``: ``{"PACK.NAME": value}``; ``players``: 2 to 8;
    ``opponents``: bots in seats 2… (``"greedy"``, ``["mcts:200", "random"]``):
    they play on their own and are no agents; ``render_mode``: ``"ansi"``
    (text) or ``"svg"``; ``radius``: the board window's cells around the start.
    ``reset(seed=S)`` deals as ``towerlab play --seed S`` does.
    """

    metadata = {"render_modes": ["ansi", "svg"], "name": "towerlab_v0", "is_parallelizable": False}

    def __init__(self, variant=None, *, packs=None, params=None, players=None,
                 opponents=None, home=None, radius=20, render_mode=None):
        super().__init__()
        if render_mode not in (None, "ansi", "svg"):
            raise ValueError(f"render_mode: {render_mode!r}; give 'ansi' or 'svg'")
        self.render_mode = render_mode
        seats = None
        if opponents is not None:
            others = [opponents] if isinstance(opponents, str) else list(opponents)
            n = players if players is not None else 1 + len(others)
            if len(others) == 1:
                others = others * (n - 1)
            seats = ["person"] + others
        self.game = Game(variant, packs, params, players, seats, home, radius)
        self.people = list(range(self.game.players)) if seats is None else [0]
        self.possible_agents = [f"seat_{p + 1}" for p in self.people]
        self._seats = {f"seat_{p + 1}": p for p in range(self.game.players)}
        self._observation_space = spaces.Dict({
            "observation": self.game.observation_space(),
            "action_mask": spaces.Box(0, 1, (self.game.size,), np.int8),
        })
        self._action_space = spaces.Discrete(self.game.size)

    # The action space's blocks: (name, first action, size).
    @property
    def blocks(self):
        return self.game.host.blocks

    def observation_space(self, agent):
        return self._observation_space

    def action_space(self, agent):
        return self._action_space

    def reset(self, seed: Optional[int] = None, options=None):
        state = self.game.reset(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._scores = list(state["scores"])
        self._settle(state)

    def _settle(self, state: dict):
        """Rewards (each seat's points since the last step), the agent to act,
        the end of the game."""
        scores = state["scores"]
        for a in self.agents:
            p = self._seat(a)
            self.rewards[a] = scores[p] - self._scores[p]
        self._scores = list(scores)
        step = state["step"]
        if state["seat"] is not None and len(state["legal"]) > 0:
            self.agent_selection = f"seat_{state['seat'] + 1}"
            for a in self.agents:
                self.infos[a] = {"step": step}
            return
        for a in self.agents:
            self.terminations[a] = step in ("over", "failed")
            self.truncations[a] = not self.terminations[a]
            self.infos[a] = {"step": step, "scores": list(scores)}
            if state["failed"]:
                self.infos[a]["error"] = state["failed"]
            if state["outside"]:
                self.infos[a]["outside"] = "a legal option lies outside the board window (radius)"
        if self.agents:
            self.agent_selection = self.agents[0]

    def _seat(self, agent: str) -> int:
        return self._seats[agent]

    def _to_act(self, agent) -> bool:
        return agent == self.agent_selection and not self.terminations.get(agent) and not self.truncations.get(agent)

    def observe(self, agent):
        return {
            "observation": self.game.observation(self._seat(agent)),
            "action_mask": self.game.mask() if self._to_act(agent) else self.game.no_mask,
        }

    def legal_actions(self, agent=None) -> np.ndarray:
        """The numbers of the actions ``agent`` (the agent to act, by default)
        may take now: the mask's nonzero entries, without scanning it.
        Empty for an agent not to act."""
        agent = self.agent_selection if agent is None else agent
        return self.game.legal() if self._to_act(agent) else self.game.legal()[:0]

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        state = self.game.act(action)
        self._settle(state)
        self._accumulate_rewards()

    def render(self):
        return self.game.render(self.render_mode)

    def log(self) -> str:
        """The game so far as a log (JSON Lines), as ``towerlab play --log``
        writes it: ``towerlab replay`` checks it, ``towerlab render`` draws it."""
        return self.game.host.log()

    def close(self):
        pass


def raw_env(variant=None, **kwargs) -> TowerEnv:
    return TowerEnv(variant, **kwargs)


def env(variant=None, **kwargs):
    """The environment with PettingZoo's order checks around it."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(raw_env(variant, **kwargs))
