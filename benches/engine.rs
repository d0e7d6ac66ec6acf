//! Benchmarks through the public library API: random playouts (turns per
//! second) and perft (leaves per second) on the shipped variants.
//!
//! Run with `cargo bench --bench engine`; divan reports the time per call
//! and, with the counters set here, turns or leaves per second.

use divan::counter::ItemsCount;
use divan::{black_box, Bencher};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sow::{Game, Variant};

fn main() {
    divan::main();
}

const VARIANTS: &[&str] = &["oware-abapa", "kalah", "wari"];
const BAO: &[&str] = &[
    "bao-la-kiswahili",
    "bao-la-kujifunza",
    "bao-zanzibar",
    "bao-east-africa",
];
const GAMES: u64 = 200;

/// Plays `games` random games from the start, reusing one game object;
/// returns the number of turns played.
fn playouts(start: &Game, game: &mut Game, games: u64) -> u64 {
    let mut turns = 0;
    for seed in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        game.copy_from(start);
        while game.outcome().is_none() {
            let legal = game.legal_turns();
            let t = legal[rng.gen_range(0..legal.len())];
            game.play(t).unwrap();
            turns += 1;
        }
    }
    turns
}

/// Random playouts: the counter is turns, so divan reports turns per second.
#[divan::bench(args = VARIANTS)]
fn random_playouts(bencher: Bencher, name: &str) {
    let v = Variant::shipped(name).unwrap();
    let start = Game::new(v.engine.clone()).unwrap();
    let mut game = start.clone();
    let turns = playouts(&start, &mut game, GAMES);
    bencher
        .counter(ItemsCount::new(turns))
        .bench_local(|| black_box(playouts(&start, &mut game, GAMES)));
}

/// Perft from the start: the counter is leaves.
#[divan::bench(args = VARIANTS, consts = [5, 7])]
fn perft<const DEPTH: u32>(bencher: Bencher, name: &str) {
    let v = Variant::shipped(name).unwrap();
    let start = Game::new(v.engine.clone()).unwrap();
    let leaves = sow::play::perft(&start, DEPTH).unwrap();
    bencher
        .counter(ItemsCount::new(leaves))
        .bench_local(|| black_box(sow::play::perft(&start, DEPTH).unwrap()));
}

/// Bao random playouts (20 games an iteration: a Bao game is long, and
/// every candidate turn is played out before it is listed).
#[divan::bench(args = BAO, sample_count = 20)]
fn bao_random_playouts(bencher: Bencher, name: &str) {
    let v = Variant::shipped(name).unwrap();
    let start = Game::new(v.engine.clone()).unwrap();
    let mut game = start.clone();
    let turns = playouts(&start, &mut game, 20);
    bencher
        .counter(ItemsCount::new(turns))
        .bench_local(|| black_box(playouts(&start, &mut game, 20)));
}

/// Bao perft from the start (depth 5 for the full game, 3 for the
/// learner's, whose 16 first turns branch more).
#[divan::bench(args = BAO, sample_count = 20)]
fn bao_perft(bencher: Bencher, name: &str) {
    let v = Variant::shipped(name).unwrap();
    let start = Game::new(v.engine.clone()).unwrap();
    let depth = if name == "bao-la-kujifunza" { 3 } else { 5 };
    let leaves = sow::play::perft(&start, depth).unwrap();
    bencher
        .counter(ItemsCount::new(leaves))
        .bench_local(|| black_box(sow::play::perft(&start, depth).unwrap()));
}
