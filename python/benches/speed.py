"""How fast sow plays from Python (a benchmark, not a test): turns a second
of random games played move by move through `sow.Game`, through sow's
OpenSpiel game and through OpenSpiel's native `oware`, all in this run; and
`Variant.random_games` against the command line's `sow random`.

    python python/benches/speed.py [--games N] [--sow PATH-TO-SOW-BINARY]
"""

import argparse
import pathlib
import random
import subprocess
import time

import pyspiel

import sow
import sow.openspiel

ROOT = pathlib.Path(__file__).resolve().parents[2]


def by_move(new_game, games, seed=1):
    """Turns a second of `games` random games, move by move."""
    chooser = random.Random(seed)
    turns, start = 0, time.perf_counter()
    for _ in range(games):
        play = new_game()
        while not play.done():
            play.move(chooser)
            turns += 1
    return turns / (time.perf_counter() - start)


class SowGame:
    def __init__(self, variant):
        self.game = variant.new_game()

    def done(self):
        return self.game.outcome is not None

    def move(self, chooser):
        self.game.apply_action(chooser.choice(self.game.legal_actions()))


class SpielGame:
    def __init__(self, game):
        self.state = game.new_initial_state()

    def done(self):
        return self.state.is_terminal()

    def move(self, chooser):
        self.state.apply_action(chooser.choice(self.state.legal_actions()))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--sow", default=str(ROOT / "target" / "release" / "sow"))
    args = parser.parse_args()
    oware = sow.load("oware-abapa")
    ours = sow.openspiel.load_game("oware-abapa")
    native = pyspiel.load_game("oware")
    print(f"oware-abapa, {args.games} random games move by move, turns a second:")
    print(f"  sow.Game (apply_action)         {by_move(lambda: SowGame(oware), args.games):>12,.0f}")
    print(f"  sow's OpenSpiel game            {by_move(lambda: SpielGame(ours), args.games):>12,.0f}")
    print(f"  OpenSpiel's native oware (C++)  {by_move(lambda: SpielGame(native), args.games):>12,.0f}")
    many = 20 * args.games * 10
    py = oware.random_games(many, seed=1, jobs=1)
    # (The text summary: the JSON one writes every game's moves too.)
    cli = subprocess.run(
        [args.sow, "random", "oware-abapa", "--games", str(many), "--seed", "1", "--jobs", "1",
         "--quiet"],
        capture_output=True, text=True, check=True,
    )
    rate = int(cli.stdout.split(": ")[-1].split()[0])
    print(f"oware-abapa, {many} random games in bulk on one thread, turns a second:")
    print(f"  Variant.random_games            {py['turns_per_second']:>12,}")
    print(f"  sow random (command line)       {rate:>12,}")


if __name__ == "__main__":
    main()
