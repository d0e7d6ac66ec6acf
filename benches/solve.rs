//! The solver's speed: positions searched a second while solving small
//! Kalahs from the start (Irving, Donkers and Uiterwijk's rules, the
//! empty capture), a fresh solver each time, on one thread; and entries
//! worked out a second while building Kalah(6,4)'s endgame databases.
//!
//! Run with `cargo bench --bench solve`; divan reports the time per solve
//! or build and, with the counter, positions (entries) a second.

use divan::counter::ItemsCount;
use divan::{black_box, Bencher};
use sow::solve::Solver;
use sow::{Game, Variant};

fn main() {
    divan::main();
}

/// Kalah(holes, seeds) with the empty capture, at its start.
fn start(holes: u32, seeds: u32) -> Game {
    let v = Variant::shipped("kalah")
        .unwrap()
        .with_options(&[
            ("holes".into(), holes.to_string()),
            ("pit_seeds".into(), seeds.to_string()),
            ("empty_capture".into(), "yes".into()),
        ])
        .unwrap();
    Game::new(v.engine.clone()).unwrap()
}

/// Solves the start on one thread with a 64 MiB table; the positions
/// searched.
fn solve(game: &Game) -> u64 {
    let solver = Solver::new(game, 64 << 20).unwrap();
    let s = solver.solve(game, 1).unwrap();
    assert!(s.value().is_some());
    s.positions
}

/// Kalah(4,3) and Kalah(4,4): the counter is positions searched.
#[divan::bench(args = [(4, 3), (4, 4)], sample_count = 10)]
fn solve_kalah(bencher: Bencher, size: (u32, u32)) {
    let game = start(size.0, size.1);
    let positions = solve(&game);
    bencher
        .counter(ItemsCount::new(positions))
        .bench_local(|| black_box(solve(&game)));
}

/// Builds Kalah(6,4)'s endgame databases of up to `most` seeds in the
/// pits (nothing read from disk) on `jobs` threads; the entries built.
fn build(game: &Game, most: usize, jobs: usize) -> u64 {
    let solver = Solver::new(game, 1 << 20).unwrap();
    let built = solver
        .build_databases(game, u64::MAX, Some(most), None, jobs)
        .unwrap();
    assert_eq!(built, most);
    (0..=most).map(|n| solver.database_entries(n)).sum()
}

/// Kalah(6,4)'s levels of up to 10 seeds (1.35 M entries), on one thread
/// and on two: the counter is entries.
#[divan::bench(args = [1, 2], sample_count = 5)]
fn build_kalah_databases(bencher: Bencher, jobs: usize) {
    let game = start(6, 4);
    let entries = build(&game, 10, jobs);
    bencher
        .counter(ItemsCount::new(entries))
        .bench_local(|| black_box(build(&game, 10, jobs)));
}
