//! The engine allocates nothing per turn once its buffers have grown: a
//! counting allocator watches random games of every shipped variant, after
//! the same games have been played to warm the buffers up.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sow::{Game, Variant};

struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// Whether this thread's allocations are counted: the test's thread
    /// only, not the test harness's own (it allocates now and then while
    /// it waits).
    static COUNTED: Cell<bool> = const { Cell::new(false) };
}

fn count() {
    if COUNTED.with(Cell::get) {
        ALLOCATIONS.fetch_add(1, Relaxed);
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Plays `games` random games (at most `cap` turns each) on one game
/// object; returns the turns played.
fn playouts(start: &Game, game: &mut Game, games: u64, cap: u32) -> u64 {
    let mut turns = 0;
    for seed in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        game.copy_from(start);
        while game.outcome().is_none() && game.plies() < cap {
            let legal = game.legal_turns();
            let t = legal[rng.gen_range(0..legal.len())];
            game.play(t).unwrap();
            turns += 1;
        }
    }
    turns
}

#[test]
fn random_games_allocate_nothing_once_warm() {
    COUNTED.with(|c| c.set(true));
    // What the warm-ups allocated (some variant's must count: the
    // counter works).
    let mut warmed = 0;
    for name in sow::variants::names() {
        let v = Variant::shipped(name).unwrap();
        let start = Game::new(v.engine.clone()).unwrap();
        let mut game = start.clone();
        // The same games three times: the first two grow every buffer they
        // need (twenty games, or more where games are short). Twice,
        // because the engine swaps pairs of buffers (the turns tried, and
        // those tried again), so a buffer's part at a given turn depends on
        // how many swaps came before: each must meet the largest need.
        let cold = ALLOCATIONS.load(Relaxed);
        let mut games = 20;
        while playouts(&start, &mut game, games, 300) < 300 && games < 200 {
            games *= 2;
        }
        playouts(&start, &mut game, games, 300);
        let before = ALLOCATIONS.load(Relaxed);
        warmed += before - cold;
        let turns = playouts(&start, &mut game, games, 300);
        let allocations = ALLOCATIONS.load(Relaxed) - before;
        assert!(turns >= 300, "{name}: {turns} turns");
        assert_eq!(
            allocations, 0,
            "{name}: {allocations} allocations in {turns} turns"
        );
    }
    assert!(warmed > 0, "the warm-ups were not counted");
}
