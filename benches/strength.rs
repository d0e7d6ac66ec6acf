//! The computer players' strength (issue 12): games between two players at
//! their default level, each side taken by each in turn, the first
//! player's share of wins with its Wilson 95% interval. A measurement, not
//! a test: `cargo bench --bench strength` (set `STRENGTH_GAMES` for other
//! game counts than the ones below).

use std::time::Instant;

use sow::ai::{self, Seat};
use sow::{Game, Variant};

/// `games` games of `a` against `b` at the default level (a South in the
/// even ones): a's wins, draws and losses, and the longest a move took.
fn matchup(v: &Variant, a: Seat, b: Seat, games: u32) -> ([u32; 3], f64) {
    let mut tally = [0; 3];
    let mut slowest: f64 = 0.0;
    for g in 0..games {
        let seed = u64::from(g);
        let mut players = [
            ai::computer(a, ai::DEFAULT_LEVEL, seed * 2).unwrap(),
            ai::computer(b, ai::DEFAULT_LEVEL, seed * 2 + 1).unwrap(),
        ];
        // Seat i is played by players[(i + g) % 2].
        let mut game = Game::new(v.engine.clone()).unwrap();
        let mut plies = 0;
        while game.outcome().is_none() && plies < 1000 {
            let seat = game.position().to_move.unwrap_or(0) as u32;
            let who = ((seat + g) % 2) as usize;
            let t0 = Instant::now();
            let turn = players[who]
                .choose(&game)
                .expect("a turn within the limits");
            if who == 0 || b != Seat::Random {
                slowest = slowest.max(t0.elapsed().as_secs_f64());
            }
            game.play(turn).expect("a turn within the limits");
            plies += 1;
        }
        let a_seat = g % 2;
        match game.outcome().and_then(|o| o.winner) {
            Some(w) if u32::from(w) == a_seat => tally[0] += 1,
            Some(_) => tally[2] += 1,
            None => tally[1] += 1,
        }
    }
    (tally, slowest)
}

fn main() {
    let games = |default: u32| {
        std::env::var("STRENGTH_GAMES")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(default)
    };
    let runs = [
        ("oware-abapa", Seat::Mcts, Seat::Random, games(100)),
        ("kalah", Seat::Mcts, Seat::Random, games(100)),
        ("bao-la-kiswahili", Seat::Mcts, Seat::Random, games(40)),
        ("kalah", Seat::Minimax, Seat::Mcts, games(100)),
    ];
    println!(
        "level {} against each other, sides alternating:",
        ai::DEFAULT_LEVEL
    );
    // STRENGTH_ONLY=kalah runs the matchups of that variant only.
    let only = std::env::var("STRENGTH_ONLY").unwrap_or_default();
    for (name, a, b, n) in runs.into_iter().filter(|r| r.0.contains(only.as_str())) {
        let v = Variant::shipped(name).unwrap();
        let t0 = Instant::now();
        let ([w, d, l], slowest) = matchup(&v, a, b, n);
        let (lo, hi) = sow::analyze::wilson(u64::from(w), u64::from(n));
        println!(
            "{name}: {a:?} against {b:?}: {w} wins, {d} draws, {l} losses in {n} games: wins {:.1}% (95% interval {:.1}–{:.1}%); slowest move {:.2} s; {:.0} s in all",
            100.0 * f64::from(w) / f64::from(n),
            100.0 * lo,
            100.0 * hi,
            slowest,
            t0.elapsed().as_secs_f64()
        );
    }
}
