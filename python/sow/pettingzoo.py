"""Every sow variant as a PettingZoo AEC environment (``pip install
pettingzoo``)::

    import sow.pettingzoo
    env = sow.pettingzoo.env("kalah", render_mode="ansi")
    env.reset(seed=1)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            action = None
        else:
            mask = observation["action_mask"]
            action = env.action_space(agent).sample(mask)
        env.step(action)

The agents are the variant's players. The agent to act is the player to
move, so a repeat turn is the same agent again. An observation is the
position as numbers (``sow.Game.tensor``) with a mask of the legal
actions (the variant's numbered moves; where a flag is answered at each
sowing, as in Omweso, a turn is several actions, the same agent acting
until it is whole). The rewards come at the end: +1 for
the winner, -1 for the loser, 0 each for a draw. A game still going after
``max_plies`` turns is truncated. ``render()`` gives the board as text
(``render_mode="ansi"``) or as an SVG picture (``"svg"``).

Every rule is sow's: this module only adapts the names.
"""

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import sow


def env(variant, render_mode=None, max_plies=10000, **options):
    """An AEC environment playing ``variant`` (a shipped name or a path to a
    ``.sow`` file), its options given values."""
    return SowEnv(variant, render_mode=render_mode, max_plies=max_plies, **options)


class SowEnv(AECEnv):
    """A sow variant as a PettingZoo AEC environment (see the module)."""

    metadata = {"render_modes": ["ansi", "svg"], "is_parallelizable": False}

    def __init__(self, variant, render_mode=None, max_plies=10000, **options):
        super().__init__()
        if render_mode not in (None, "ansi", "svg"):
            raise ValueError(f"render_mode is 'ansi' or 'svg', not {render_mode!r}")
        self.variant = sow.load(variant, options or None)
        self.metadata = dict(SowEnv.metadata, name=f"sow_{self.variant.name}")
        self.render_mode = render_mode
        self.max_plies = max_plies
        self.possible_agents = list(self.variant.players)
        actions = self.variant.num_actions
        size = self.variant.tensor_size
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, np.inf, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (actions,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.game = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        # The game has no chance: the seed seeds only the spaces' sampling.
        if seed is not None:
            for a in self.possible_agents:
                self.action_spaces[a].seed(seed)
        first = (options or {}).get("first")
        self.game = self.variant.new_game(first=first)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.game.to_move

    def observe(self, agent):
        mask = np.zeros(self.variant.num_actions, np.int8)
        if self.game is not None and agent == self.game.to_move:
            mask[self.game.legal_actions()] = 1
        tensor = self.game.tensor() if self.game is not None else [0.0] * self.variant.tensor_size
        return {"observation": np.asarray(tensor, np.float32), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        self._cumulative_rewards[agent] = 0
        self.game.apply_action(int(action))
        self.rewards = dict.fromkeys(self.agents, 0)
        outcome = self.game.outcome
        if outcome is not None:
            winner = outcome["winner"]
            for a in self.agents:
                if outcome.get("lost"):  # a solitaire lost
                    self.rewards[a] = -1
                else:
                    self.rewards[a] = 0 if winner is None else (1 if a == winner else -1)
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.game.plies >= self.max_plies:
            self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        # The next to act: the player to move, or (the game over) each agent
        # in turn, to be told.
        if self.game.to_move is not None:
            self.agent_selection = self.game.to_move
        else:
            self.agent_selection = self._next_agent(agent)
        if self.render_mode is not None:
            self.render()

    def _next_agent(self, agent):
        i = self.agents.index(agent) if agent in self.agents else -1
        return self.agents[(i + 1) % len(self.agents)]

    def render(self):
        if self.render_mode is None or self.game is None:
            return None
        if self.render_mode == "svg":
            return self.game.svg()
        return self.game.text()

    def close(self):
        pass
