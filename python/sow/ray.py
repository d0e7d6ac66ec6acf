"""sow's long runs on a Ray cluster.

A run of games is split by game number into parts, each part a Ray task
(``Variant.analyze_part``: game ``i`` is played from seed ``seed + i``
wherever it runs), and the parts' sums are put together by the library
(``Variant.merge_analysis``): the report is the one ``sow analyze`` makes
of the same games on one machine, whatever the number of workers or
parts::

    import sow.ray
    report = sow.ray.analyze("oware-abapa", games=100_000, seed=1)
    table = sow.ray.tournament("kalah", ["random", "mcts:2", "mcts:5"], games=200)

With no ``address``, Ray starts (or joins) a cluster on this machine; give
the address of a running cluster (``"auto"``, ``"ray://host:10001"``) to
use it. A variant written in a file is sent to the workers by its path:
the file must be at that path on every machine. Install with ``pip install
"sow[ray]"``.
"""

from __future__ import annotations

import itertools
from typing import Any, Optional, Sequence, Union

import ray

from ._sow import Variant, load, tournament_table

#: Parts a run is split into for each CPU of the cluster, unless told.
PARTS_PER_CPU = 4


def _connect(address: Optional[str]) -> None:
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)


def _variant(variant: Union[str, Variant], options: Optional[dict]) -> Variant:
    if isinstance(variant, Variant):
        if options:
            raise ValueError("give options to sow.load, not with a loaded variant")
        return variant
    return load(variant, options)


def _cuts(games: int, parts: Optional[int]) -> list[tuple[int, int]]:
    """The game ranges of a run's parts: contiguous, in order, covering
    ``0..games``."""
    if parts is None:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        parts = max(1, cpus) * PARTS_PER_CPU
    if parts < 1:
        raise ValueError(f"a run is split into at least one part, not {parts}")
    parts = min(parts, max(games, 1))
    edges = [games * k // parts for k in range(parts + 1)]
    return list(zip(edges, edges[1:]))


@ray.remote
def _part(variant: Variant, games: int, start: int, stop: int, kwargs: dict) -> dict:
    # One core a task: Ray runs as many tasks as the cluster has CPUs.
    return variant.analyze_part(games, start, stop, jobs=1, **kwargs)


def _submit(variant: Variant, games: int, parts: Optional[int], kwargs: dict) -> list:
    # The arguments are checked here, by a part of no games, before any
    # task is sent: a mistake is one error, not one a task.
    variant.analyze_part(games, 0, 0, **kwargs)
    ref = ray.put(variant)
    return [
        _part.remote(ref, games, start, stop, kwargs)
        for start, stop in _cuts(games, parts)
    ]


def analyze(
    variant: Union[str, Variant],
    games: int,
    seed: int = 0,
    players: Optional[Sequence[str]] = None,
    level: int = 5,
    max_plies: int = 10_000,
    first: Optional[str] = None,
    options: Optional[dict] = None,
    address: Optional[str] = None,
    parts: Optional[int] = None,
) -> dict[str, Any]:
    """Measures a variant over ``games`` games on a Ray cluster: the report
    ``sow analyze --format json`` makes with the same seed, players, level
    and limit (its figures and JSON; ``Variant.analyze`` in one process).

    ``variant``: a loaded ``sow.Variant``, or a shipped name or a path
    (with ``options``). ``players``: one computer player for both seats or
    two (``random``, ``mcts``, ``minimax``; ``mcts:3`` at level 3), taking
    the first seat in turn. ``parts``: how many tasks the games are split
    into (by default four for each CPU of the cluster)."""
    _connect(address)
    v = _variant(variant, options)
    kwargs = dict(
        seed=seed,
        players=list(players) if players is not None else None,
        level=level,
        max_plies=max_plies,
        first=first,
    )
    return v.merge_analysis(ray.get(_submit(v, games, parts, kwargs)))


def tournament(
    variant: Union[str, Variant],
    players: Sequence[str],
    games: int,
    seed: int = 0,
    level: int = 5,
    max_plies: int = 10_000,
    first: Optional[str] = None,
    options: Optional[dict] = None,
    address: Optional[str] = None,
    parts: Optional[int] = None,
) -> dict[str, Any]:
    """Plays each pair of ``players`` (``mcts:2``, ``mcts:6``, ``minimax``,
    ``random``, …) ``games`` games on a Ray cluster, each taking the first
    seat in half of them, and tables the results: ``players``, each with
    games, wins, draws, losses, score and an Elo-scale rating (best first);
    ``meetings``, each pair's results with the first named player's share
    of the decided games and its 95% Wilson interval; ``reports``, each
    pair's ``sow analyze`` report. The same seed gives the same table."""
    if isinstance(players, str):
        raise TypeError(f"players is a list of players' names, not the string {players!r}")
    names = list(players)
    if len(names) < 2:
        raise ValueError(f"a tournament has two players or more, not {len(names)}")
    if len(set(names)) < len(names):
        raise ValueError(f"a player is named twice in {names}")
    _connect(address)
    v = _variant(variant, options)
    pairs = list(itertools.combinations(names, 2))
    shared = dict(seed=seed, level=level, max_plies=max_plies, first=first)
    for a, b in pairs:
        v.analyze_part(games, 0, 0, players=[a, b], **shared)  # checked before any task
    submitted = [
        _submit(v, games, parts, dict(shared, players=[a, b])) for a, b in pairs
    ]
    reports = [v.merge_analysis(ray.get(refs)) for refs in submitted]
    meetings = []
    for (a, b), report in zip(pairs, reports):
        results = report["results"]
        meetings.append(
            dict(
                players=[a, b],
                wins=report["players_won"],
                draws=results["draw"],
                unfinished=results["unfinished"] + results["too_long"],
            )
        )
    table = tournament_table(meetings)
    table["variant"] = v.name
    table["games"] = games
    table["seed"] = seed
    table["reports"] = reports
    return table
