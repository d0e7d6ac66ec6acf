//! The solver's speed: positions searched a second while solving small
//! Kalahs from the start (Irving, Donkers and Uiterwijk's rules, the
//! empty capture), a fresh solver each time, on one thread.
//!
//! Run with `cargo bench --bench solve`; divan reports the time per solve
//! and, with the counter, positions a second.

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
