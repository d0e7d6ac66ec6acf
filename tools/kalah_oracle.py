#!/usr/bin/env python3
"""Generate random Kalah games from OpenSpiel's `mancala` game as a JSONL fixture.

Run by hand (not by CI); the output is committed as a test fixture:

    pip install open-spiel==2.0.2        # the version the committed fixture used
    python3 tools/kalah_oracle.py        # -> tests/oracles/kalah/openspiel_random_200.jsonl

Options: --games N (default 200), --first-seed S (default 0), --out PATH.
Game i uses seed S+i: `rng = random.Random(seed)` and, before every ply,
`rng.choice(state.legal_actions())` (uniform among the legal actions, which
OpenSpiel returns in increasing index order). Every game is played to the
terminal state.

What OpenSpiel's `mancala` is (checked by this script at run time, see
`verify_openspiel_layout` and `reference_sow`; the run aborts if any fails)
---------------------------------------------------------------------------
* Board: 14 counts, `[north store, south pits 1..6, south store, north pits
  8..13]`. `observation_tensor` has 16 floats: the 14 board counts in that
  order, then the (internal) current player, then the move number.
  Start: every pit 4, both stores 0, player 0 to move.
* Player 0 = South (moves first), player 1 = North. Player 0's store is
  index 7, player 1's store is index 0. `returns()` is `[player 0, player 1]`.
* Actions are board indices: 1..6 for South, 8..13 for North (the
  action string is just the index). `legal_actions()` = the mover's
  non-empty pits, in increasing index order.
* `str(state)` / `observation_string(p)` (identical for both players) is
      -b13-b12-b11-b10-b9-b8-        North's row, index 13 at the LEFT
      b0-----------b7                north store left, south store right
      -b1-b2-b3-b4-b5-b6-           South's row, index 1 at the left
      Current player: <internal player>
      Move number: <plies played>
  i.e. the board as South sees it: South's row at the bottom, left to right,
  its store at the right; North's row at the top running right to left
  (index 8 is top-right, above index 6), North's store at the left.
* Sowing goes to the next index mod 14, skipping the OPPONENT's store (South
  skips 0, North skips 7). On that picture increasing index is
  counter-clockwise: bottom row left->right, up into the south store, top
  row right->left, down into the north store, back to index 1.

Our labels (the mapping used in the fixture)
--------------------------------------------
    South: A B C D E F = board indices 1 2 3 4 5 6, store "south" = index 7
    North: a b c d e f = board indices 8 9 10 11 12 13, store "north" = index 0

so the counter-clockwise sowing order is A B C D E F, south store, a b c d e
f, north store, A ... -- exactly increasing OpenSpiel index, so the mapping
is consistent with how OpenSpiel sows. Each player's pits run left to right
from the owner's side, ending next to the owner's store (F next to the south
store, f next to the north store). Opposite pits: A-f, B-e, C-d, D-c, E-b,
F-a (OpenSpiel: index i faces 14-i). This script re-plays every ply with its
own sowing written in label space (`reference_sow`) and checks that it gives
OpenSpiel's board, mover and end, so the mapping is tested on every ply of
every game, not only asserted.

OpenSpiel's rules as observed (see docs/rules/kalah.md L1-L7)
---------------------------------------------------------------------
* Last seed in the mover's own store: same player moves again (extra turn).
* Capture: the last seed lands in a pit of the mover's row that now holds
  exactly 1 seed (it was empty when the last seed arrived; this includes the
  origin pit after a 13-seed lap) and the opposite pit is non-empty: both go
  to the mover's store. Opposite pit empty: nothing is captured, the single
  seed stays.
* End: after every ply, if EITHER row is empty the game is over (even if the
  mover just earned an extra turn, and even if the player who would move next
  still has seeds). Leftover seeds are NOT swept into the stores: they stay
  on the board, and `returns()` compares (own store + own row) per player:
  +1/-1 or 0/0 on a tie. The fixture's last step therefore still shows the
  leftover seeds in the pits, and `final_scores` = store + own row.
* At a terminal state `current_player()` is -4 (terminal), while the string
  and the observation tensor still carry the internal player (whoever would
  have moved next). The fixture writes `to_move: null` there.
* Length cap: the source has `IsTerminal` true once `move_number > 1000`
  (`max_game_length()` = 1000) and scores such an end by the seed sums like
  any other end (a draw only if they are equal). Random games end long before
  (the longest here is well under 100 plies); not exercised by this fixture.

Fixture format (one game per line, compact JSON)
------------------------------------------------
{"game": i, "seed": s, "engine": "open_spiel <version> pyspiel.load_game('mancala')",
 "initial": {"pits": {"A":4,..,"F":4,"a":4,..,"f":4}, "stores": {"south":0,"north":0},
             "to_move": "south"},
 "moves": [labels],
 "steps": [{"ply", "player", "move", "legal" (before the move, sorted A..F / a..f),
            "pits", "stores" (after the move), "to_move" (null when terminal),
            "terminal"}, ...],
 "num_plies": n, "returns": [south, north],
 "final_scores": {"south": south store + A..F, "north": north store + a..f}}
"""

import argparse
import importlib.metadata
import json
import os
import random
import sys

import pyspiel

SOUTH_PITS = ["A", "B", "C", "D", "E", "F"]
NORTH_PITS = ["a", "b", "c", "d", "e", "f"]
PLAYER_NAME = {0: "south", 1: "north"}

# OpenSpiel board index -> our label ("south"/"north" for the stores).
INDEX_TO_LABEL = {0: "north", 7: "south"}
for _i, _l in enumerate(SOUTH_PITS):
    INDEX_TO_LABEL[1 + _i] = _l
for _i, _l in enumerate(NORTH_PITS):
    INDEX_TO_LABEL[8 + _i] = _l
LABEL_TO_INDEX = {v: k for k, v in INDEX_TO_LABEL.items()}

# Our counter-clockwise ring, written from the labels alone (not from the
# OpenSpiel indices): South's row, South's store, North's row, North's store.
RING = SOUTH_PITS + ["south"] + NORTH_PITS + ["north"]
OWN_ROW = {"south": SOUTH_PITS, "north": NORTH_PITS}
OTHER = {"south": "north", "north": "south"}


def opposite(label):
    """Pit facing `label`: A-f, B-e, C-d, D-c, E-b, F-a."""
    if label in SOUTH_PITS:
        return NORTH_PITS[5 - SOUTH_PITS.index(label)]
    return SOUTH_PITS[5 - NORTH_PITS.index(label)]


def board_of(state):
    """The 14 board counts, from the observation tensor (board, player, move#)."""
    t = state.observation_tensor(0)
    assert len(t) == 16, len(t)
    return [int(x) for x in t[:14]]


def board_from_string(state):
    """The 14 board counts parsed from str(state), in OpenSpiel index order."""
    lines = str(state).split("\n")
    top = [int(x) for x in lines[0].split("-") if x]
    mid = [int(x) for x in lines[1].split("-") if x]
    bottom = [int(x) for x in lines[2].split("-") if x]
    assert len(top) == 6 and len(mid) == 2 and len(bottom) == 6, lines
    board = [0] * 14
    board[0], board[7] = mid  # north store left, south store right
    for i in range(6):
        board[1 + i] = bottom[i]  # south row, index 1 at the left
        board[13 - i] = top[i]  # north row, index 13 at the left
    assert lines[3].startswith("Current player: "), lines
    assert lines[4] == "Move number: %d" % state.move_number(), lines
    return board


def to_labels(board):
    pits = {l: board[LABEL_TO_INDEX[l]] for l in SOUTH_PITS + NORTH_PITS}
    stores = {"south": board[7], "north": board[0]}
    return pits, stores


def reference_sow(pits, stores, mover, move):
    """Independent Kalah ply in label space. Returns (pits, stores, next, info)."""
    pos = {l: pits[l] for l in SOUTH_PITS + NORTH_PITS}
    pos["south"], pos["north"] = stores["south"], stores["north"]
    assert move in OWN_ROW[mover] and pos[move] > 0
    seeds, pos[move] = pos[move], 0
    k = RING.index(move)
    skipped = 0
    for _ in range(seeds):
        k = (k + 1) % len(RING)
        if RING[k] == OTHER[mover]:  # skip the opponent's store
            k = (k + 1) % len(RING)
            skipped += 1
        pos[RING[k]] += 1
    last = RING[k]
    info = {"extra": last == mover, "capture": 0, "empty_no_capture": False,
            "lap": seeds >= 13, "skipped": skipped}
    if last in OWN_ROW[mover] and pos[last] == 1:
        opp = opposite(last)
        if pos[opp] > 0:
            info["capture"] = pos[opp]
            pos[mover] += pos[opp] + 1
            pos[opp] = pos[last] = 0
        else:
            info["empty_no_capture"] = True
    new_pits = {l: pos[l] for l in SOUTH_PITS + NORTH_PITS}
    new_stores = {"south": pos["south"], "north": pos["north"]}
    ended = (all(new_pits[l] == 0 for l in SOUTH_PITS)
             or all(new_pits[l] == 0 for l in NORTH_PITS))
    nxt = None if ended else (mover if info["extra"] else OTHER[mover])
    return new_pits, new_stores, nxt, info


def verify_openspiel_layout(game):
    """Check the board/action facts in the docstring on a few fixed moves."""
    assert game.get_type().short_name == "mancala"
    assert game.num_distinct_actions() == 14
    assert game.observation_tensor_shape() == [16]
    assert game.max_game_length() == 1000
    s = game.new_initial_state()
    assert board_of(s) == [0] + [4] * 6 + [0] + [4] * 6
    assert board_from_string(s) == board_of(s)
    assert s.observation_string(0) == s.observation_string(1) == str(s)
    assert s.current_player() == 0 and s.legal_actions() == [1, 2, 3, 4, 5, 6]
    # C (index 3, 4 seeds) -> D E F + south store (index 7): extra turn.
    s.apply_action(3)
    assert board_of(s) == [0, 4, 4, 0, 5, 5, 5, 1, 4, 4, 4, 4, 4, 4]
    assert str(s).split("\n")[:3] == ["-4-4-4-4-4-4-", "0-----------1",
                                      "-4-4-0-5-5-5-"]
    assert s.current_player() == 0
    # F (index 6, 5 seeds) -> south store, then North's 8 9 10 11: the sowing
    # continues from the south store into index 8 (a), drawn top-right.
    s.apply_action(6)
    assert board_of(s) == [0, 4, 4, 0, 5, 5, 0, 2, 5, 5, 5, 5, 4, 4]
    assert str(s).split("\n")[:3] == ["-4-4-5-5-5-5-", "0-----------2",
                                      "-4-4-0-5-5-0-"]
    assert s.current_player() == 1 and s.legal_actions() == list(range(8, 14))
    # North f (index 13, 4 seeds) -> north store (index 0), then 1 2 3: the
    # sowing wraps 13 -> 0 -> 1, and C (index 3) was empty but is North's
    # opponent's pit, so no capture; North sows into A B C.
    s.apply_action(13)
    assert board_of(s) == [1, 5, 5, 1, 5, 5, 0, 2, 5, 5, 5, 5, 4, 0]
    assert s.current_player() == 0
    # South A (index 1, 5 seeds) -> B C D E F: last in F (index 6), empty,
    # own row, opposite a (index 8) holds 5: capture 5 + 1 into index 7.
    s.apply_action(1)
    assert board_of(s) == [1, 0, 6, 2, 6, 6, 0, 8, 0, 5, 5, 5, 4, 0]
    assert s.current_player() == 1
    assert s.legal_actions() == [9, 10, 11, 12]
    assert [s.action_to_string(1, a) for a in s.legal_actions()] == \
        ["9", "10", "11", "12"]


def play_game(game, seed, engine, stats):
    rng = random.Random(seed)
    state = game.new_initial_state()
    pits, stores = to_labels(board_of(state))
    record = {
        "game": None, "seed": seed, "engine": engine,
        "initial": {"pits": pits, "stores": stores, "to_move": "south"},
        "moves": [], "steps": [],
    }
    to_move = "south"
    while not state.is_terminal():
        player = state.current_player()
        assert PLAYER_NAME[player] == to_move, (seed, player, to_move)
        legal = state.legal_actions()
        legal_labels = [INDEX_TO_LABEL[a] for a in legal]
        assert legal == sorted(legal)
        assert legal_labels == [l for l in OWN_ROW[to_move] if pits[l] > 0]
        action = rng.choice(legal)
        move = INDEX_TO_LABEL[action]
        state.apply_action_with_legality_check(action)
        board = board_of(state)
        assert board == board_from_string(state), (seed, str(state))
        assert sum(board) == 48
        new_pits, new_stores = to_labels(board)
        terminal = state.is_terminal()
        nxt = None if terminal else PLAYER_NAME[state.current_player()]
        # Cross-check with our own sowing in label space.
        r_pits, r_stores, r_next, info = reference_sow(pits, stores, to_move,
                                                      move)
        assert (r_pits, r_stores, r_next) == (new_pits, new_stores, nxt), (
            seed, len(record["steps"]) + 1, move, r_pits, new_pits, r_stores,
            new_stores, r_next, nxt)
        stats["plies"] += 1
        stats["extra"] += info["extra"]
        stats["extra_then_end"] += info["extra"] and terminal
        stats["captures"] += info["capture"] > 0
        stats["captured_seeds"] += info["capture"]
        stats["empty_no_capture"] += info["empty_no_capture"]
        stats["laps"] += info["lap"]
        stats["skips"] += info["skipped"] > 0
        record["moves"].append(move)
        record["steps"].append({
            "ply": len(record["steps"]) + 1, "player": to_move, "move": move,
            "legal": legal_labels, "pits": new_pits, "stores": new_stores,
            "to_move": nxt, "terminal": terminal,
        })
        if info["extra"]:
            stats["games_with_extra"].add(seed)
        if info["capture"]:
            stats["games_with_capture"].add(seed)
        pits, stores, to_move = new_pits, new_stores, nxt
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.legal_actions() == []
    returns = [float(x) for x in state.returns()]
    final = {"south": stores["south"] + sum(pits[l] for l in SOUTH_PITS),
             "north": stores["north"] + sum(pits[l] for l in NORTH_PITS)}
    diff = final["south"] - final["north"]
    assert returns == [float((diff > 0) - (diff < 0)),
                       float((diff < 0) - (diff > 0))], (seed, returns, final)
    left = {s: sum(pits[l] for l in OWN_ROW[s]) for s in ("south", "north")}
    if left["south"] == 0 and left["north"] == 0:
        stats["end_both_empty"] += 1
    elif left["south"] == 0:
        stats["end_south_empty"] += 1
    else:
        stats["end_north_empty"] += 1
    if left["south"] or left["north"]:
        stats["games_leftover"] += 1
        stats["leftover_seeds"] += left["south"] + left["north"]
    last_mover = record["steps"][-1]["player"]
    if left[last_mover] == 0:
        stats["end_mover_emptied_own"] += 1
    if final["south"] > final["north"]:
        stats["south_wins"] += 1
    elif final["south"] < final["north"]:
        stats["north_wins"] += 1
    else:
        stats["draws"] += 1
    stats["max_plies"] = max(stats["max_plies"], len(record["steps"]))
    stats["min_plies"] = min(stats["min_plies"], len(record["steps"]))
    record["num_plies"] = len(record["steps"])
    record["returns"] = returns
    record["final_scores"] = final
    return record


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--out", default=os.path.join(
        root, "tests", "oracles", "kalah", "openspiel_random_200.jsonl"))
    args = ap.parse_args()

    version = importlib.metadata.version("open-spiel")
    engine = "open_spiel %s pyspiel.load_game('mancala')" % version
    game = pyspiel.load_game("mancala")
    verify_openspiel_layout(game)

    stats = {k: 0 for k in (
        "plies", "extra", "extra_then_end", "captures", "captured_seeds",
        "empty_no_capture", "laps", "skips", "end_south_empty",
        "end_north_empty", "end_both_empty", "end_mover_emptied_own",
        "games_leftover", "leftover_seeds", "south_wins", "north_wins",
        "draws", "max_plies")}
    stats["min_plies"] = 10 ** 9
    stats["games_with_extra"] = set()
    stats["games_with_capture"] = set()

    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", encoding="utf-8", newline="\n") as f:
        for i in range(args.games):
            rec = play_game(game, args.first_seed + i, engine, stats)
            rec["game"] = i
            f.write(json.dumps(rec, separators=(",", ":")) + "\n")

    n = args.games
    print("engine: %s (python %s)" % (engine, sys.version.split()[0]))
    print("wrote %s (%d bytes)" % (args.out, os.path.getsize(args.out)))
    print("games: %d (seeds %d..%d)" % (n, args.first_seed,
                                        args.first_seed + n - 1))
    print("plies: %d total, %d..%d per game, mean %.1f" % (
        stats["plies"], stats["min_plies"], stats["max_plies"],
        stats["plies"] / n))
    print("extra turns: %d plies in %d games (%d of them ended the game)" % (
        stats["extra"], len(stats["games_with_extra"]),
        stats["extra_then_end"]))
    print("captures: %d plies in %d games, %d seeds taken from opposite pits;"
          " %d plies ended in an own empty pit facing an empty pit" % (
              stats["captures"], len(stats["games_with_capture"]),
              stats["captured_seeds"], stats["empty_no_capture"]))
    print("sowings of 13+ seeds: %d; sowings past the opponent's store: %d" % (
        stats["laps"], stats["skips"]))
    print("ends: south row empty %d, north row empty %d, both %d; "
          "the last mover emptied its own row in %d" % (
              stats["end_south_empty"], stats["end_north_empty"],
              stats["end_both_empty"], stats["end_mover_emptied_own"]))
    print("leftover seeds on the final board (counted, not swept): "
          "%d games, %d seeds" % (stats["games_leftover"],
                                  stats["leftover_seeds"]))
    print("results: south wins %d, north wins %d, draws %d" % (
        stats["south_wins"], stats["north_wins"], stats["draws"]))


if __name__ == "__main__":
    main()
