//! What running on several threads (`--jobs`) gains: the same random
//! games of Oware abapa analysed on one thread and on every core, games
//! and turns per second. A measurement, not a test: `cargo bench --bench
//! jobs` (`JOBS_GAMES` sets the number of games).

use std::time::Instant;

use sow::ai::Seat;
use sow::analyze::{self, Plan};
use sow::Variant;

fn main() {
    let games = std::env::var("JOBS_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_000);
    let v = Variant::shipped("oware-abapa").expect("shipped");
    let start = sow::Game::new(v.engine.clone()).expect("a start");
    let plan = Plan {
        games,
        seed: 0,
        players: [Seat::Random; 2],
        levels: [1; 2],
        max_plies: 10_000,
        keep: false,
    };
    let mut first = None;
    for jobs in [1, sow::runs::all_cores()] {
        let t0 = Instant::now();
        let report = analyze::analyze(&v, &start, plan.clone(), jobs, true);
        let secs = t0.elapsed().as_secs_f64();
        let turns = report.json()["turns"].as_u64().unwrap_or(0);
        let base = *first.get_or_insert(secs);
        println!(
            "{jobs} job(s): {games} games of oware-abapa analysed in {secs:.2} s: {:.0} games per second, {:.0} turns per second ({:.2}× one job)",
            games as f64 / secs,
            turns as f64 / secs,
            base / secs
        );
    }
}
