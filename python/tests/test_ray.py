"""sow on Ray: a run split into parts over a local cluster's workers
reports what `sow analyze` reports on one machine, whatever the number
of parts; a tournament tables each pair's report."""

import json

import pytest

ray = pytest.importorskip("ray")

import sow  # noqa: E402
import sow.ray  # noqa: E402

from conftest import ROOT  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.mark.parametrize("parts", [None, 1, 2, 7])
def test_analyze_on_ray_is_the_command_lines_report(cli, parts):
    expected = json.loads(cli("analyze", "kalah", "--games", "60", "--seed", "7", "--format", "json"))
    assert sow.ray.analyze("kalah", 60, seed=7, parts=parts) == expected


def test_computer_players_and_a_file_split_over_workers(cli):
    # Two different players swap seats game by game: a part that starts
    # at an odd game must play them as the whole run does.
    path = str(ROOT / "variants" / "wari.sow")
    expected = cli("analyze", path, "--games", "7", "--seed", "1", "--players", "minimax,random",
                   "--level", "1", "--format", "json")
    report = sow.ray.analyze(path, 7, seed=1, players=["minimax", "random"], level=1, parts=3)
    assert report == json.loads(expected)


def test_options_go_with_the_variant(cli):
    expected = cli("analyze", "oware-abapa", "--option", "grand_slam=take_all", "--games", "20",
                   "--seed", "2", "--format", "json")
    report = sow.ray.analyze("oware-abapa", 20, seed=2, options={"grand_slam": "take_all"}, parts=3)
    assert report == json.loads(expected)


def test_a_tournament_tables_every_pair():
    kalah = sow.load("kalah")
    players = ["random", "minimax:1", "mcts:1"]
    table = sow.ray.tournament(kalah, players, games=6, seed=4, parts=2)
    assert table["variant"] == "kalah" and table["games"] == 6
    assert sorted(p["name"] for p in table["players"]) == sorted(players)
    pairs = [m["players"] for m in table["meetings"]]
    assert pairs == [["random", "minimax:1"], ["random", "mcts:1"], ["minimax:1", "mcts:1"]]
    for meeting, report in zip(table["meetings"], table["reports"]):
        # Each pair's report is the one analysing that pair makes.
        assert report == kalah.analyze(6, seed=4, players=meeting["players"])
        assert meeting["wins"] == report["players_won"]
        assert meeting["games"] == 6
        low, high = meeting["interval"]
        assert 0 <= low <= high <= 1
    ratings = [p["rating"] for p in table["players"]]
    assert ratings == sorted(ratings, reverse=True)
    assert abs(sum(ratings)) < 0.5
    for p in table["players"]:
        assert p["games"] == 12
        assert p["wins"] + p["draws"] + p["losses"] + p["unfinished"] == 12


def test_levels_name_players_of_one_kind():
    report = sow.ray.analyze("kalah", 4, seed=1, players=["minimax:1", "minimax:2"], parts=2)
    assert report["players"] == ["minimax:1", "minimax:2"]
    assert report["level"] == [1, 2]
    assert sum(report["players_won"]) + report["results"]["draw"] == 4


def test_bad_calls_say_what_is_wrong():
    with pytest.raises(ValueError, match="two players or more"):
        sow.ray.tournament("kalah", ["random"], games=2)
    with pytest.raises(ValueError, match="named twice"):
        sow.ray.tournament("kalah", ["random", "random"], games=2)
    with pytest.raises(ValueError, match="at least one part"):
        sow.ray.analyze("kalah", 2, parts=0)
    # Checked before any task is sent: the error is sow's own, not a task's.
    with pytest.raises(ValueError, match="not a computer player") as raised:
        sow.ray.analyze("kalah", 2, players=["human"])
    assert type(raised.value) is ValueError
    with pytest.raises(ValueError, match="`mcts:x`: a level is 1 to 9") as raised:
        sow.ray.tournament("kalah", ["random", "mcts:x"], games=2)
    assert type(raised.value) is ValueError
    with pytest.raises(TypeError, match="not the string"):
        sow.ray.tournament("kalah", "random", games=2)
    with pytest.raises(ValueError, match="the number of games is a whole number from 0"):
        sow.ray.analyze("kalah", -1)
