"""Every sow variant as an OpenSpiel game (``pip install open_spiel``)::

    import sow.openspiel
    game = sow.openspiel.load_game("oware-abapa")      # a pyspiel.Game
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])

The game is registered with OpenSpiel under ``sow_`` and the variant's
name (``pyspiel.load_game("sow_oware_abapa")`` works once loaded), so
OpenSpiel's own algorithms run on it unchanged. Perfect information,
sequential, deterministic; the returns are the variant's outcome at the
end (+1 for the winner, -1 for the loser, 0 each for a draw), or, with
``returns="margin"``, the difference of the scores. Action ids are the
variant's numbered moves (``sow.Variant.num_actions``), written as sow
writes them; where a flag is answered at each sowing (Omweso), a turn is
its pit and letter, then the answers (``<k``, ``end``), the same player
acting until the turn is whole. Repeat turns and passes are as the
variant has them: the player to move is the game's.

Every rule is sow's: this module only adapts the names.
"""

import numpy as np
import pyspiel

import sow

# The variant loaded for each registered short name, and where from.
_LOADED = {}


def short_name(variant_name):
    """The name OpenSpiel knows a variant by: ``sow_`` and its name."""
    return "sow_" + "".join(c if c.isalnum() else "_" for c in variant_name)


def load_game(variant, returns="outcome", max_game_length=10000, **options):
    """A ``pyspiel.Game`` playing ``variant`` (a shipped name or a path to a
    ``.sow`` file), its options given values. ``returns``: ``"outcome"``
    (+1/-1/0) or ``"margin"`` (the score difference). A game still going
    after ``max_game_length`` turns ends there, drawn."""
    if int(max_game_length) < 1:
        raise ValueError(f"max_game_length is a number of turns from 1, not {max_game_length}")
    loaded = sow.load(variant, options or None)
    name = short_name(loaded.name)
    if name not in _LOADED:
        # The parameters' defaults are the variant's own, whatever options
        # this first call gives.
        _register(name, variant, sow.load(variant))
    elif _LOADED[name][0] != variant:
        raise ValueError(
            f"OpenSpiel already knows {name} from {_LOADED[name][0]!r}, not {variant!r}"
        )
    params = {k: _parameter(str(v)) for k, v in options.items()}
    params["returns"] = returns
    params["max_game_length"] = int(max_game_length)
    return pyspiel.load_game(name, params)


def _parameter(value):
    """An option's value as an OpenSpiel parameter: a number option's (a
    variant's size, a threshold) an int, a word option's a string (a word
    never starts with a digit)."""
    return int(value) if value.lstrip("-").isdigit() else value


def _register(name, source, loaded):
    players = len(loaded.players)
    parameters = {k: _parameter(v) for k, v in loaded.options.items()}
    parameters["returns"] = "outcome"
    parameters["max_game_length"] = 10000
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"sow: {loaded.title or loaded.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM
            if players == 2
            else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )

    class Game(pyspiel.Game):
        def __init__(self, params=None):
            params = dict(params or {})
            self.returns_by = params.pop("returns", "outcome")
            if self.returns_by not in ("outcome", "margin"):
                raise ValueError(f"returns is 'outcome' or 'margin', not {self.returns_by!r}")
            self.length = int(params.pop("max_game_length", 10000))
            given = {k: v for k, v in params.items() if loaded.options.get(k) != str(v)}
            self.variant = sow.load(source, given or None) if given else loaded
            total = _seeds(self.variant)
            margin = self.returns_by == "margin"
            info = pyspiel.GameInfo(
                num_distinct_actions=self.variant.num_actions,
                max_chance_outcomes=0,
                num_players=players,
                min_utility=-float(total) if margin else -1.0,
                max_utility=float(total) if margin else 1.0,
                utility_sum=0.0 if players == 2 else None,
                # (In actions: a turn may take several, see
                # `sow.Variant.max_actions_per_turn`.)
                max_game_length=self.length * self.variant.max_actions_per_turn,
            )
            super().__init__(game_type, info, params_with(params, self))

        def new_initial_state(self):
            return State(self)

        def __reduce__(self):
            return (_game_from, (source, dict(self.get_parameters())))

        def make_py_observer(self, iig_obs_type=None, params=None):
            return Observer(self, params)

    class State(pyspiel.State):
        # (OpenSpiel copies a state by copying its attributes: each is one
        # that copies so, the game's settings among them.)
        def __init__(self, game):
            super().__init__(game)
            self.settings = Settings(game.variant, game.length, game.returns_by)
            self.sow = game.variant.new_game()

        def __setattr__(self, name, value):
            # A state read back (`game.deserialize_state`) is given its
            # history first, then its attributes: its game must be the one
            # the history leads to, or the state would say one thing and
            # play another. (A clone is given its history after: nothing
            # to look at then.)
            if name == "sow" and self.history():
                replayed = self.get_game().variant.new_game()
                try:
                    for action in self.history():
                        replayed.apply_action(action)
                except sow.MoveError as e:
                    raise ValueError(f"this state's history is not a line of legal actions: {e}") from e
                if (replayed.position, replayed.pending_actions) != (value.position, value.pending_actions):
                    raise ValueError(
                        "this state's history leads to another position than the one it holds: "
                        "it is not a state of this game"
                    )
            super().__setattr__(name, value)

        def current_player(self):
            if self.is_terminal():
                return pyspiel.PlayerId.TERMINAL
            return self.settings.variant.players.index(self.sow.to_move)

        def _legal_actions(self, player):
            return self.sow.legal_actions()

        def _apply_action(self, action):
            self.sow.apply_action(action)

        def _action_to_string(self, player, action):
            return self.settings.variant.action_to_string(action)

        def is_terminal(self):
            return self.sow.outcome is not None or self.sow.plies >= self.settings.length

        def returns(self):
            outcome = self.sow.outcome
            players = self.settings.variant.players
            if outcome is None:
                return [0.0] * len(players)
            if self.settings.returns_by == "margin" and len(players) == 2:
                scores = [outcome["scores"].get(p, 0) for p in players]
                return [float(scores[0] - scores[1]), float(scores[1] - scores[0])]
            winner = outcome["winner"]
            if outcome.get("lost"):  # a solitaire lost
                return [-1.0] * len(players)
            if winner is None:
                return [0.0] * len(players)
            return [1.0 if p == winner else -1.0 for p in players]

        def __str__(self):
            return self.sow.text()

        def __reduce__(self):
            # A pickle names the game and the actions taken: loaded again,
            # anywhere, and replayed.
            params = dict(self.get_game().get_parameters())
            return (_state_from, (source, params, self.history()))

    class Observer:
        """The position as numbers (``sow.Game.tensor``), the same for both
        players (perfect information); the information state is the same,
        the position being all there is to know but the repetition rule's
        history."""

        def __init__(self, game, params):
            if params:
                raise ValueError(f"observation parameters are not supported: {params}")
            size = game.variant.tensor_size
            self.tensor = np.zeros(size, np.float32)
            self.dict = {"observation": self.tensor}

        def set_from(self, state, player):
            self.tensor[:] = state.sow.tensor()

        def string_from(self, state, player):
            return state.sow.text()

    _LOADED[name] = (source, Game)
    pyspiel.register_game(game_type, Game)


def _game_from(source, params):
    """The game a pickle names: ``load_game`` with its parameters."""
    return load_game(source, **params)


def _state_from(source, params, history):
    """The state a pickle names: its game's start, the actions replayed."""
    state = _game_from(source, params).new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


class Settings:
    """What a state needs of its game: the variant, the longest game, how
    returns are counted."""

    def __init__(self, variant, length, returns_by):
        self.variant = variant
        self.length = length
        self.returns_by = returns_by


def params_with(params, game):
    """The game's parameters as OpenSpiel keeps them."""
    out = dict(params)
    out["returns"] = game.returns_by
    out["max_game_length"] = game.length
    return out


def _seeds(variant):
    """The seeds in play at the start, bounding a score margin."""
    position = variant.new_game().position
    return (
        sum(position["pits"].values())
        + sum(position.get("stores", {}).values())
        + sum(position.get("hands", {}).values())
    )
