"""sow's variants as PettingZoo AEC environments: PettingZoo's API test
passes, and a game played through the environment is sow's game."""

import random

import numpy as np
import pytest
from pettingzoo.test import api_test  # the test extras install pettingzoo

import sow
import sow.pettingzoo

# Repeat turns (Kalah), four rows with hands (Bao), a match of rounds
# (Dakon), a solitaire, turns of several actions (Omweso).
KINDS = ["kalah", "bao-la-kiswahili", "dakon", "tchuka-ruma-solitaire", "omweso"]


@pytest.mark.parametrize("name", KINDS)
def test_pettingzoos_api_test_passes(name):
    api_test(sow.pettingzoo.env(name, render_mode="ansi"), num_cycles=300)


def test_a_game_through_the_environment_is_sows_game():
    env = sow.pettingzoo.env("kalah")
    env.reset(seed=3)
    game = sow.load("kalah").new_game()
    chooser = random.Random(3)
    repeats = 0
    last = None
    final = {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
            continue
        assert agent == game.to_move
        repeats += agent == last
        last = agent
        mask = observation["action_mask"]
        assert sorted(np.flatnonzero(mask).tolist()) == game.legal_actions()
        assert observation["observation"].tolist() == game.tensor()
        action = chooser.choice(game.legal_actions())
        game.apply_action(action)
        env.step(action)
    assert game.outcome is not None
    winner = game.outcome["winner"]
    expected = {p: 0 if winner is None else (1 if p == winner else -1) for p in ("south", "north")}
    assert final == expected
    assert repeats > 0, "Kalah's repeat turns: the same agent acts again"


def test_render_gives_the_text_board_and_the_svg_picture():
    text = sow.pettingzoo.env("oware-abapa", render_mode="ansi")
    text.reset()
    assert "A" in text.render() and "south" in text.render()
    picture = sow.pettingzoo.env("oware-abapa", render_mode="svg")
    picture.reset()
    assert picture.render().startswith("<svg")
    with pytest.raises(ValueError, match="render_mode"):
        sow.pettingzoo.env("oware-abapa", render_mode="rgb")
