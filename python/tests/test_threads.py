"""Python threads and sow (issue 42): one object shared by several threads,
and a run on one thread while another is interrupted."""

import os
import signal
import subprocess
import sys
import threading
import textwrap

import pytest

import sow

# Threads sharing one game, each calling a mix of its methods in its own
# order for a while; run in a process of its own, so that a deadlock fails
# the test (at its time limit) rather than hanging the suite.
SHARED_GAME = textwrap.dedent(
    """
    import pickle, random, threading, sys
    import sow

    variant = sow.load(sys.argv[1])
    game = variant.new_game()
    errors = []

    def hammer(seed):
        rng = random.Random(seed)
        calls = [
            lambda: game.position,
            lambda: game.legal_moves(),
            lambda: game.legal_actions(),
            lambda: game.outcome,
            lambda: game.to_move,
            lambda: game.plies,
            lambda: game.tensor(),
            lambda: game.text(),
            lambda: game.clone().legal_moves(),
            lambda: pickle.loads(pickle.dumps(game)).position,
            lambda: repr(game),
        ]
        for _ in range(400):
            try:
                if rng.random() < 0.2:
                    moves = game.legal_moves()
                    if moves:
                        game.play(rng.choice(moves))
                else:
                    rng.choice(calls)()
            except sow.MoveError:
                pass  # another thread moved first: the move is not legal now
            except Exception as e:
                errors.append(repr(e))

    threads = [threading.Thread(target=hammer, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[:5]
    print("done", game.plies)
    """
)


@pytest.mark.parametrize("name", ["kalah", "bao-la-kiswahili", "omweso"])
def test_a_game_shared_by_threads_neither_deadlocks_nor_breaks(name):
    # Before, one thread reading `position` while another called
    # `legal_moves()` could deadlock the process.
    done = subprocess.run(
        [sys.executable, "-c", SHARED_GAME, name],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("done"), done.stdout


def test_a_variant_shared_by_threads_runs_each_threads_work_whole():
    kalah = sow.load("kalah")
    expected = kalah.perft(7)
    counts = []

    def count():
        counts.append(kalah.perft(7))
        counts.append(kalah.new_game().legal_moves())

    threads = [threading.Thread(target=count) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert counts.count(expected) == 4
    assert counts.count(["A", "B", "C", "D", "E", "F"]) == 4


def test_ctrl_c_on_the_main_thread_stops_only_its_own_run():
    # Before, Ctrl-C on the main thread stopped every run in the process:
    # a perft on another thread returned 0 or 2,654,017 for 13,519,608.
    kalah = sow.load("kalah")
    counted = []
    worker = threading.Thread(target=lambda: counted.append(kalah.perft(10)))
    worker.start()
    # (The worker's count takes about a second: it is under way when
    # Ctrl-C comes, or the test shows nothing.)
    running_at_ctrl_c = []

    def ctrl_c():
        running_at_ctrl_c.append(worker.is_alive() and not counted)
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(0.2, ctrl_c)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        kalah.perft(30)
    worker.join()
    assert running_at_ctrl_c == [True]
    assert counted == [13_519_608]
