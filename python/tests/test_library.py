"""The package's library against the command line: the same variants, moves,
positions, outcomes, counts and reports; errors with their places."""

import json
import os
import pickle
import random
import signal
import threading
import time

import pytest

import sow
from conftest import ROOT, json_lines

# Sowing games of several kinds: two rows with stores, a relay game on four
# rows with hands and phases, a match of rounds, a solitaire, a game whose
# players choose the sowing's direction.
VARIANTS = ["oware-abapa", "kalah", "bao-la-kiswahili", "dakon", "tchuka-ruma-solitaire", "omweso"]


def test_variants_are_the_shipped_ones(cli):
    listed = [line.split()[0] for line in cli("list").splitlines()]
    assert sow.variants() == listed
    assert len(listed) >= 36


@pytest.mark.parametrize("name", VARIANTS)
def test_random_games_agree_with_the_command_line(cli, name):
    variant = sow.load(name)
    chooser = random.Random(name)
    for _ in range(3):
        game = variant.new_game()
        moves, positions, legal = [], [game.position], [game.legal_moves()]
        while game.outcome is None and len(moves) < 300:
            move = chooser.choice(game.legal_moves())
            game.play(move)
            moves.append(move)
            positions.append(game.position)
            legal.append(game.legal_moves())
        # The command line plays the same moves to the same positions...
        plies = json_lines(cli("play", name, "--moves", " ".join(moves), "--format", "json"))
        assert [p["position"] for p in plies] == positions
        assert plies[-1]["outcome"] == game.outcome
        # ...and lists the same legal moves in each (the conversation mode;
        # a finished game's last position, which it does not resume, has
        # none).
        going = positions[:-1] if game.outcome is not None else positions
        asked = "".join(json.dumps(p) + "\n" for p in going)
        answers = json_lines(cli("moves", name, "--from", "-", "--format", "json", input=asked))
        assert [[m["move"] for m in a["moves"]] for a in answers] == legal[: len(going)]
        if game.outcome is not None:
            assert legal[-1] == []


def test_a_game_from_a_position_goes_on_as_the_game_did():
    variant = sow.load("kalah")
    game = variant.new_game()
    for move in ["A", "b", "C"]:
        game.play(move)
    again = variant.game_from(game.position)
    assert again.position == game.position
    assert again.legal_moves() == game.legal_moves()
    assert variant.game_from(json.dumps(game.position)).position == game.position


def test_a_clone_plays_on_its_own():
    game = sow.load("oware-abapa").new_game()
    copy = game.clone()
    copy.play("A")
    assert game.plies == 0 and copy.plies == 1
    assert game.to_move == "south" and copy.to_move == "north"


def test_an_illegal_move_raises_with_the_command_lines_message():
    game = sow.load("oware-abapa").new_game()
    with pytest.raises(sow.MoveError, match="`a` is not a legal turn for south here"):
        game.play("a")
    with pytest.raises(sow.MoveError):
        game.play("")
    assert game.plies == 0


def test_first_names_who_starts_where_the_rules_leave_it():
    azigo = sow.load("azigo")
    assert azigo.new_game(first="north").to_move == "north"
    with pytest.raises(ValueError, match="say who moves first"):
        sow.load("oware-abapa").new_game(first="north")


def test_board_is_the_variant_as_data_as_the_cli_gives_it(cli):
    board = sow.load("oware-abapa").board
    assert board["players"] == ["south", "north"]
    assert board["rows"][0] == {"owner": "north", "group": None, "pits": ["f", "e", "d", "c", "b", "a"]}
    assert board["rows"][1]["pits"] == ["A", "B", "C", "D", "E", "F"]
    assert board == json.loads(cli("show", "oware-abapa", "--format", "json"))


def test_options_take_values_and_a_wrong_one_is_an_error():
    variant = sow.load("oware-abapa", options={"grand_slam": "forbidden"})
    assert variant.options == {"grand_slam": "forbidden"}
    with pytest.raises(sow.VariantError) as e:
        sow.load("oware-abapa", options={"grand_slam": "sometimes"})
    assert e.value.diagnostics
    assert "sometimes" in str(e.value)


def test_check_places_each_problem_at_its_line_and_column():
    text = (
        "variant tiny\n"
        "players south north\n"
        "board {\n"
        "  row north: b a\n"
        "  row south: A B\n"
        "}\n"
        "setup {\n"
        "  seeds 2\n"
        "}\n"
        "track: A B C a b\n"
    )
    problems = sow.check(text)
    # The same problems, in the same order, as `sow check` reports them.
    assert [p.message for p in problems] == [
        "the file has no `end` rule: the game could never end",
        "no pit is labelled `C`",
    ]
    nowhere, label = problems
    assert (nowhere.line, nowhere.column) == (0, 0)  # a file's whole, no place
    assert (label.file, label.line, label.column) == ("<text>", 10, 12)
    assert label.hint == "labels are declared by the `row` lines of `board`"
    assert label.severity == "error"
    assert sow.check(open(sow_file("kalah")).read()) == []
    # A warning: the variant loads, and `check` says where it may not do
    # what it reads as.
    warned = (
        "extends kalah\n"
        "variant warned\n"
        "rule give at end {\n"
        "  capture side(last_mover) to store(south)\n"
        "}\n"
    )
    [warning] = sow.check(warned)
    assert (warning.severity, warning.line, warning.column) == ("warning", 4, 16)
    assert warning.message == "`last_mover` can be `none` here, naming no player"


def test_a_file_that_does_not_load_raises_with_every_problem(tmp_path):
    path = tmp_path / "broken.sow"
    path.write_text("variant broken\nplayers a b\nboard {\n  row a: A\n  row b: a\n}\nrule r at strat {\n  stop\n}\n")
    with pytest.raises(sow.VariantError) as e:
        sow.load(str(path))
    places = [(d.file, d.line, d.column) for d in e.value.diagnostics]
    assert (str(path), 7, 11) in places
    assert "unknown moment" in str(e.value)


def test_perft_counts_as_the_command_line(cli):
    for name, depth in [("oware-abapa", 5), ("kalah", 4)]:
        assert sow.load(name).perft(depth) == int(cli("perft", name, str(depth)).split()[-1])


def test_analyze_reports_as_the_command_line(cli):
    report = sow.load("kalah").analyze(60, seed=7, jobs=2)
    assert report == json.loads(cli("analyze", "kalah", "--games", "60", "--seed", "7", "--format", "json"))
    players = sow.load("wari").analyze(4, seed=1, players=["minimax", "random"], level=1)
    expected = cli("analyze", "wari", "--games", "4", "--seed", "1", "--players", "minimax,random",
                   "--level", "1", "--format", "json")
    assert players == json.loads(expected)
    with pytest.raises(ValueError, match="not a computer player"):
        sow.load("wari").analyze(4, players=["human"])
    # Players of one kind at levels of their own.
    levels = sow.load("kalah").analyze(4, seed=2, players=["minimax:1", "minimax:2"])
    expected = cli("analyze", "kalah", "--games", "4", "--seed", "2", "--players", "minimax:1,minimax:2",
                   "--format", "json")
    assert levels == json.loads(expected)
    assert levels["players"] == ["minimax:1", "minimax:2"] and levels["level"] == [1, 2]


def sow_file(name):
    return ROOT / "variants" / f"{name}.sow"


@pytest.mark.parametrize("name", ["oware-abapa", "dakon", "tchuka-ruma-solitaire"])
def test_random_games_sum_up_as_the_command_line(cli, name):
    lines = json_lines(cli("random", name, "--games", "40", "--seed", "5", "--format", "json", "--jobs", "1"))
    summary = sow.load(name).random_games(40, seed=5, jobs=2, moves=True)
    timing = ("seconds", "turns_per_second")
    assert {k: v for k, v in summary.items() if k not in timing + ("played",)} == {
        k: v for k, v in lines[-1].items() if k not in timing
    }
    assert summary["played"] == lines[:-1]
    # The games are the seeds' own: replayed one by one, each ends the same.
    variant = sow.load(name)
    for played in summary["played"][:5]:
        game = variant.new_game()
        for move in played["moves"]:
            game.play(move)
        assert game.outcome == played["outcome"]


def test_actions_are_numbered_moves():
    bao = sow.load("bao-la-kiswahili")
    assert bao.num_actions == 32 * 3 * 2
    game = bao.new_game()
    by_number = {bao.action_to_string(a): a for a in game.legal_actions()}
    assert sorted(by_number) == sorted(game.legal_moves())
    move, action = sorted(by_number.items())[0]
    copy = game.clone()
    game.apply_action(action)
    copy.play(move)
    assert game.position == copy.position
    with pytest.raises(sow.MoveError, match="not a legal action"):
        game.apply_action(bao.num_actions + 5)


def test_a_turn_of_answers_at_each_sowing_is_chosen_action_by_action():
    # Omweso: a turn's pit and direction, then `<k` (clockwise after
    # sowing k) or `end` while more than one turn is open. The pieces,
    # written one after another, are the move the notation writes.
    omweso = sow.load("omweso")
    assert omweso.num_actions == 32 * 3 + 32 and omweso.max_actions_per_turn == 33
    chooser = random.Random(5)
    by_actions, by_moves = omweso.new_game(), omweso.new_game()
    pieces, answered, half_chosen = [], 0, None
    while by_actions.outcome is None and by_actions.plies < 300:
        plies = by_actions.plies
        action = chooser.choice(by_actions.legal_actions())
        by_actions.apply_action(action)
        pieces.append(omweso.action_to_string(action))
        if by_actions.plies == plies:
            # Half chosen: the same player to move, the same position, the
            # turn so far in the tensor; a move by name is refused.
            assert by_actions.position == by_moves.position
            assert by_actions.pending_actions
            assert by_actions.tensor() != by_moves.tensor()
            half_chosen = by_actions.clone()
            with pytest.raises(sow.MoveError, match="half chosen"):
                by_actions.clone().play(by_moves.legal_moves()[0])
            continue
        move = "".join(p for p in pieces if p != "end")
        assert move in by_moves.legal_moves()
        by_moves.play(move)
        answered += len(pieces) > 1
        assert by_actions.position == by_moves.position
        assert by_actions.pending_actions == []
        pieces = []
    assert answered > 0 and half_chosen is not None
    # A game half way through a turn pickles with the turn so far.
    again = pickle.loads(pickle.dumps(half_chosen))
    assert again.pending_actions == half_chosen.pending_actions
    assert again.legal_actions() == half_chosen.legal_actions()
    assert again.tensor() == half_chosen.tensor()


def test_parts_of_an_analysis_put_together(cli):
    kalah = sow.load("kalah")
    whole = kalah.analyze(30, seed=9)
    parts = [kalah.analyze_part(30, a, b, seed=9) for a, b in [(11, 30), (0, 5), (5, 11)]]
    assert kalah.merge_analysis(parts) == whole
    with pytest.raises(ValueError, match="games 5..11 are in no part"):
        kalah.merge_analysis([parts[0], parts[1]])
    with pytest.raises(ValueError, match="not a part of 30 games"):
        kalah.analyze_part(30, 20, 31)
    with pytest.raises(ValueError, match="not a part of an analysis"):
        kalah.merge_analysis([{"plan": 1}])
    with pytest.raises(ValueError, match="are of wari, not kalah"):
        kalah.merge_analysis([sow.load("wari").analyze_part(30, 0, 30, seed=9)])
    with pytest.raises(ValueError, match="a level is 1 to 9"):
        kalah.analyze(2, players=["mcts:0"])


def test_a_pickle_keeps_the_turns_played():
    game = sow.load("kalah").new_game()
    for _ in range(5):
        game.apply_action(game.legal_actions()[0])
    again = pickle.loads(pickle.dumps(game))
    assert again.plies == game.plies == 5
    assert again.position == game.position


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda g, v: g.apply_action(-1), ValueError, "an action is a whole number from 0, not -1"),
        (lambda g, v: g.apply_action(2**70), ValueError, "an action is a whole number from 0"),
        (lambda g, v: g.apply_action("a"), TypeError, "an action is a whole number, not str"),
        (lambda g, v: v.action_to_string(-2), ValueError, "an action is a whole number from 0, not -2"),
        (lambda g, v: g.play(None), sow.MoveError, "a move is text"),
        (lambda g, v: g.play(""), sow.MoveError, "not nothing"),
        (lambda g, v: g.play("A" * 100), sow.MoveError, "a move is at most 64 characters"),
        (lambda g, v: v.perft(-1), ValueError, "a perft depth is 0 to 64, not -1"),
        (lambda g, v: v.random_games(-5), ValueError, "the number of games is a whole number from 0"),
        (lambda g, v: v.random_games(2, jobs=0), ValueError, "jobs is 1 to 256, not 0"),
        (lambda g, v: v.analyze(2, level=256), ValueError, "a level is 1 to 9, not 256"),
        (lambda g, v: v.analyze(-1), ValueError, "the number of games is a whole number from 0"),
        (lambda g, v: v.analyze_part(10, -1, 3), ValueError, "start is a whole number from 0"),
    ],
)
def test_a_bad_argument_is_named_with_what_it_takes(call, error, message):
    kalah = sow.load("kalah")
    with pytest.raises(error, match=message.replace("(", r"\(")):
        call(kalah.new_game(), kalah)


def test_ctrl_c_stops_a_long_run():
    # The run is asked to stop, and KeyboardInterrupt raised once it has;
    # the next run goes to its end.
    kalah = sow.load("kalah")
    timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        kalah.perft(30)
    assert time.monotonic() - started < 30
    assert kalah.perft(3) == 185


def test_parts_of_other_variants_or_options_are_refused():
    oware = sow.load("oware-abapa")
    forbidden = sow.load("oware-abapa", {"grand_slam": "forbidden"})
    with pytest.raises(ValueError, match="are of oware-abapa under other rules or options"):
        oware.merge_analysis([oware.analyze_part(10, 0, 5), forbidden.analyze_part(10, 5, 10)])
    with pytest.raises(ValueError, match="are of kalah, not oware-abapa"):
        oware.merge_analysis([sow.load("kalah").analyze_part(10, 0, 10)])
    with pytest.raises(ValueError, match="different runs: seed 1 and 2"):
        oware.merge_analysis([oware.analyze_part(10, 0, 5, seed=1), oware.analyze_part(10, 5, 10, seed=2)])


def test_a_half_chosen_turn_lists_the_moves_still_open():
    omweso = sow.load("omweso")
    game, chooser = omweso.new_game(), random.Random(1)
    while True:
        plies = game.plies
        game.apply_action(chooser.choice(game.legal_actions()))
        if game.plies == plies:
            break
    first = omweso.action_to_string(game.pending_actions[0])
    assert len(game.legal_moves()) >= 2
    assert all(m.startswith(first) for m in game.legal_moves())


def test_a_perfect_player_plays_a_variant_small_enough_to_solve():
    small = sow.load("kalah", {"holes": 3, "pit_seeds": 3})
    report = small.analyze(4, seed=1, players=["perfect", "random"])
    # Kalah(3,3) is a first-player win: perfect play wins every game it starts.
    assert report["players"] == ["perfect", "random"]
    assert report["players_won"][0] >= 2
    with pytest.raises(ValueError, match="cannot be solved: its rule on repeated positions"):
        sow.load("oware-abapa").analyze(2, players=["perfect"])


def test_a_game_over_at_its_start_is_analysed_as_games_of_no_turns():
    # Issue 42, item 2: `analyze` raised "the run failed" for a variant
    # whose end holds before the first turn.
    over = sow.load(str(ROOT / "tests" / "cases" / "over-at-start" / "over-at-start.sow"))
    report = over.analyze(4, seed=1)
    assert report["results"]["draw"] == 4
    assert report["turns"] == 0
    assert over.random_games(3)["wins"]["draw"] == 3
    assert over.new_game().outcome["reason"] == "over"
    warnings = sow.check((ROOT / "tests" / "cases" / "over-at-start" / "over-at-start.sow").read_text())
    assert [w.severity for w in warnings] == ["warning"]


def test_parts_that_contradict_themselves_are_refused():
    # Issue 42, item 10: `merge_analysis` took parts whose sums contradict
    # themselves or the games they cover, and reported them.
    import copy

    kalah = sow.load("kalah")
    part = kalah.analyze_part(10, 0, 10, seed=1)
    assert kalah.merge_analysis([part])["games"] == 10
    edits = {
        "played": lambda p: p["figures"].__setitem__("played", 11),
        "a win more": lambda p: p["figures"]["wins"].__setitem__(0, p["figures"]["wins"][0] + 1),
        "turns past the most": lambda p: p["figures"].__setitem__("turns", 10**12),
        "a rule fired more": lambda p: p["figures"]["fired"].__setitem__(0, 10**12),
        "past the run": lambda p: p.__setitem__("to", 11),
        "backwards": lambda p: p.update({"from": 7, "to": 3}),
    }
    for name, edit in edits.items():
        bad = copy.deepcopy(part)
        edit(bad)
        with pytest.raises(ValueError, match="contradicts itself|are not a part of 10 games"):
            kalah.merge_analysis([bad])
            pytest.fail(name)


def test_a_finished_game_pickles_with_its_result():
    # A finished game's position says no one is to move: a pickle keeps
    # its result beside it (it was refused: "a finished game cannot be
    # resumed").
    kalah = sow.load("kalah")
    game = kalah.new_game()
    chooser = random.Random(5)
    while game.outcome is None:
        game.play(chooser.choice(game.legal_moves()))
    again = pickle.loads(pickle.dumps(game))
    assert again.outcome == game.outcome
    assert again.position == game.position
    assert again.plies == game.plies
    assert again.legal_moves() == [] and again.to_move is None
    with pytest.raises(ValueError, match="is not an end of kalah"):
        kalah.game_from(game.position, {**game.outcome, "reason": "boredom"})
    with pytest.raises(ValueError, match="a finished game cannot be resumed"):
        kalah.game_from(game.position)
    # A result beside a game still in play is refused, not ignored.
    with pytest.raises(ValueError, match="south is to move"):
        kalah.game_from(kalah.new_game().position, game.outcome)


def test_a_solitaire_lost_is_not_read_back_as_drawn():
    # Found by fuzzing (the `python` target): a solitaire lost is won by
    # the seat no one sits in, written `winner: null` as a draw is; its
    # pickle came back drawn. The outcome says `lost`.
    ruma = sow.load("tchuka-ruma-solitaire")
    outcomes = set()
    for seed in range(40):
        game = ruma.new_game()
        chooser = random.Random(seed)
        while game.outcome is None:
            game.play(chooser.choice(game.legal_moves()))
        outcomes.add(game.outcome["lost"])
        again = pickle.loads(pickle.dumps(game))
        assert again.outcome == game.outcome
    assert True in outcomes


def test_a_pickle_of_a_turn_count_past_the_limit_is_refused():
    # Issue 42, item 10: a pickled game's turn count could be set where
    # counting on wraps it round to 0.
    game = sow.load("kalah").new_game()
    make, args, state = game.__reduce__()
    again = make(*args)
    again.__setstate__((2**31 - 1, []))
    assert again.plies == 2**31 - 1
    with pytest.raises(ValueError, match="turns played are at most 2147483647, not 2147483648"):
        make(*args).__setstate__((2**31, []))
