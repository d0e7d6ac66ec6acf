"""sow's variants as OpenSpiel games: OpenSpiel's own checks pass for every
shipped variant, Oware abapa agrees with OpenSpiel's native `oware` move by
move, and OpenSpiel's algorithms play them unchanged."""

import pickle
import random

import pyspiel  # the test extras install open_spiel
import pytest

import sow
import sow.openspiel

@pytest.mark.parametrize("name", sow.variants())
def test_openspiels_random_simulation_test_passes(name):
    # Random play can go round a match for the default 10000 turns, where
    # OpenSpiel's checks take some 8 s a game: 1000 turns check the same
    # (games cut at the length among them) in a tenth of the time.
    game = sow.openspiel.load_game(name, max_game_length=1000)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_a_turn_of_several_actions_stays_with_its_player():
    # Omweso's turns are a pit and direction, then answers at each sowing:
    # the player to move keeps acting until the turn is whole, and the game
    # is long enough in actions for its turns.
    game = sow.openspiel.load_game("omweso", max_game_length=500)
    assert game.max_game_length() == 500 * 33
    chooser = random.Random(3)
    state, steps = game.new_initial_state(), 0
    while not state.is_terminal() and state.sow.plies < 200:
        player, plies = state.current_player(), state.sow.plies
        state.apply_action(chooser.choice(state.legal_actions()))
        if state.sow.plies == plies:
            steps += 1
            assert state.current_player() == player
            clone = game.deserialize_state(state.serialize())
            assert clone.legal_actions() == state.legal_actions()
    assert steps > 0


def test_oware_agrees_with_openspiels_native_oware_move_by_move():
    ours = sow.openspiel.load_game("oware-abapa")
    native = pyspiel.load_game("oware")
    chooser = random.Random(2024)
    for _ in range(300):
        a, b = ours.new_initial_state(), native.new_initial_state()
        while not b.is_terminal():
            names = sorted(b.action_to_string(x) for x in b.legal_actions())
            assert sorted(a.action_to_string(x) for x in a.legal_actions()) == names
            assert a.current_player() == b.current_player()
            move = chooser.choice(names)
            a.apply_action(next(x for x in a.legal_actions() if a.action_to_string(x) == move))
            b.apply_action(next(x for x in b.legal_actions() if b.action_to_string(x) == move))
        # OpenSpiel's oware stops a game at 1000 plies; none of these games
        # comes near (sow's repetition rule ends a cycling game).
        assert b.move_number() < native.max_game_length()
        assert a.is_terminal()
        assert a.returns() == b.returns()


def test_openspiels_mcts_plays_a_catalogue_game_through():
    from open_spiel.python.algorithms import mcts

    game = sow.openspiel.load_game("bohnenspiel")
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=None)
    bots = [mcts.MCTSBot(game, 1.4, 20, evaluator, random_state=None) for _ in range(2)]
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_returns_can_be_the_score_margin():
    game = sow.openspiel.load_game("kalah", returns="margin")
    state = game.new_initial_state()
    chooser = random.Random(3)
    while not state.is_terminal():
        state.apply_action(chooser.choice(state.legal_actions()))
    outcome = state.sow.outcome
    south, north = outcome["scores"]["south"], outcome["scores"]["north"]
    assert state.returns() == [south - north, north - south]
    assert game.max_utility() == 48.0


def test_options_are_game_parameters():
    game = sow.openspiel.load_game("oware-abapa", grand_slam="forbidden")
    assert game.get_parameters()["grand_slam"] == "forbidden"
    assert pyspiel.load_game("sow_oware_abapa").get_parameters()["grand_slam"] == "capture_nothing"


def test_a_state_and_a_game_pickle():
    game = sow.openspiel.load_game("kalah")
    state = game.new_initial_state()
    for _ in range(6):
        state.apply_action(state.legal_actions()[-1])
    again = pickle.loads(pickle.dumps(state))
    assert again.history() == state.history() and str(again) == str(state)
    assert again.sow.plies == state.sow.plies
    assert str(pickle.loads(pickle.dumps(game))) == str(game)


def test_the_parameters_defaults_are_the_variants_own():
    # Whatever options the first call gives, a game loaded without them
    # has the variant's defaults.
    sow.openspiel.load_game("oware-abapa", grand_slam="forbidden")
    plain = sow.openspiel.load_game("oware-abapa")
    assert plain.variant.options["grand_slam"] == "capture_nothing"
    with pytest.raises(ValueError, match="max_game_length"):
        sow.openspiel.load_game("kalah", max_game_length=0)


def test_a_number_option_is_an_int_parameter():
    # A board's size given as a parameter: Dakon on 8 holes is dakon-8.
    game = sow.openspiel.load_game("dakon", holes=8)
    assert game.get_parameters()["holes"] == 8
    eight = sow.openspiel.load_game("dakon-8").new_initial_state()
    assert game.new_initial_state().legal_actions() == eight.legal_actions()
    assert str(game.new_initial_state()) == str(eight)


def test_a_state_whose_history_contradicts_its_position_is_refused():
    # Issue 42, item 10: `deserialize_state` took a history that leads
    # elsewhere than the position the state holds.
    game = sow.openspiel.load_game("kalah")
    state = game.new_initial_state()
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    text = state.serialize()
    back = game.deserialize_state(text)
    assert back.history() == state.history()
    assert back.sow.position == state.sow.position
    history, rest = text.split("\n", 1)
    player, action = history[len("history="):].split(",")[0].split(":")
    other = next(a for a in game.new_initial_state().legal_actions() if a != int(action))
    forged = history.replace(f"{player}:{action}", f"{player}:{other}", 1) + "\n" + rest
    with pytest.raises(ValueError, match="history leads to another position"):
        game.deserialize_state(forged)


def test_a_solitaire_lost_returns_a_loss():
    # A solitaire lost has `winner: None`, as a draw has: its returns were
    # 0, a draw's. The outcome's `lost` tells them apart.
    game = sow.openspiel.load_game("tchuka-ruma-solitaire")
    returns = set()
    for seed in range(40):
        chooser = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(chooser.choice(state.legal_actions()))
        lost = state.sow.outcome["lost"]
        returns.add((lost, tuple(state.returns())))
    assert (True, (-1.0,)) in returns
    assert all((r == (-1.0,)) == lost for lost, r in returns)
