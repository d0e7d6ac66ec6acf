//! `sow random`: play random games and summarise them.

use std::io::Write;
use std::time::Instant;

use clap::Args;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::args::{Format, Many, RunArgs};
use super::output::{fail_plain, Failed};
use super::pick::{game_of, Pick};
use crate::{json, play, runs};

#[derive(Args, Debug)]
pub(super) struct Random {
    #[command(flatten)]
    pick: Pick,
    #[command(flatten)]
    many: Many,
    /// Stop a game unfinished after this many turns (so that a variant
    /// whose games need not end cannot make this run forever).
    #[arg(long, default_value_t = 10_000)]
    max_plies: u32,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    #[command(flatten)]
    run: RunArgs,
}

impl Random {
    pub(super) fn run(self, out: &mut impl Write) -> Result<(), Failed> {
        let Many { games, seed } = self.many;
        random(
            out,
            &self.pick,
            games,
            seed,
            self.max_plies,
            self.format,
            self.run,
        )
    }
}

fn random(
    out: &mut impl Write,
    pick: &Pick,
    games: u64,
    seed: u64,
    max_plies: u32,
    format: Format,
    run: RunArgs,
) -> Result<(), Failed> {
    let (v, fresh) = game_of(pick, None)?;
    let start = fresh.position().clone();
    let (mut wins, mut draws, mut unfinished, mut turns) = ([0u64; 2], 0u64, 0u64, 0u64);
    // In a match: the rounds played to their end, the last round of a
    // finished match included.
    let mut rounds = 0u64;
    let is_match = v.engine.rules.rounds.is_some();
    let json_out = format == Format::Json;
    let clock = Instant::now();
    runs::catch_interrupt();
    let progress = runs::Progress::new(games, "games", run.quiet);
    let mut failed = None;
    let played = runs::in_order(
        games,
        run.jobs(),
        &progress,
        // Each thread's new game, and the game it plays from it.
        || runs::fresh_games(&v.engine, &start),
        |games, i| {
            let game_seed = seed.wrapping_add(i);
            let mut rng = ChaCha8Rng::seed_from_u64(game_seed);
            // (`game_of` made the same game: this cannot fail.)
            let Some((fresh, game)) = games else {
                return Some(Err((0, "(the start)".to_string())));
            };
            // (The thread's game keeps the turns it found never to end from
            // one game to the next, as one game would: that saves the work
            // of finding them again, and changes no result short of the
            // engine's limit.)
            game.copy_from(fresh);
            let mut moves = Vec::new();
            let record = json_out.then_some(&mut moves);
            let played = play::random_game(game, &mut rng, Some(max_plies), record);
            let ended = (
                game.outcome().cloned(),
                game.rounds().saturating_sub(fresh.rounds()),
            );
            Some(played.map(|plies| (ended, plies, moves)))
        },
        |i, played| {
            let game_seed = seed.wrapping_add(i);
            let ((outcome, rounds_ended), plies, moves) = match played {
                Ok(p) => p,
                Err((ply, turn)) => {
                    failed = Some(format!(
                        "game {i} (seed {game_seed}), ply {ply}: turn `{turn}` did not end within the engine's limit ({})",
                        crate::limits::TOO_LONG
                    ));
                    return false;
                }
            };
            turns += plies as u64;
            let played = rounds_ended as u64 + outcome.is_some() as u64;
            rounds += played;
            match &outcome {
                Some(o) => match o.winner {
                    Some(p) => wins[p as usize] += 1,
                    None => draws += 1,
                },
                None => unfinished += 1,
            }
            if json_out {
                let mut line = serde_json::json!({
                    "game": i, "seed": game_seed, "moves": moves, "plies": plies,
                    "outcome": json::outcome(&v, outcome.as_ref()),
                });
                if is_match {
                    line["rounds"] = played.into();
                }
                let _ = writeln!(out, "{line}");
            }
            true
        },
    );
    drop(progress);
    if let Some(message) = failed {
        return Err(fail_plain(message));
    }
    let interrupted = played < games;
    let games = played;
    let secs = clock.elapsed().as_secs_f64();
    let tps = turns as f64 / secs.max(1e-9);
    let r = &v.engine.rules;
    match format {
        Format::Json => {
            // A solitaire's games the player did not win are lost or drawn.
            let mut tally: serde_json::Map<String, serde_json::Value> = r
                .players
                .iter()
                .zip(wins)
                .map(|(name, n)| (name.clone(), n.into()))
                .collect();
            if r.seats() == 1 {
                tally.insert("lost".into(), wins[1].into());
            }
            tally.insert("draw".into(), draws.into());
            let mut line = serde_json::json!({
                "games": games,
                "wins": tally,
                "unfinished": unfinished, "turns": turns, "seconds": secs, "turns_per_second": tps.round() as u64,
            });
            if is_match {
                line["rounds"] = rounds.into();
            }
            if interrupted {
                line["interrupted"] = true.into();
            }
            let _ = writeln!(out, "{line}");
        }
        Format::Text => {
            if interrupted {
                let _ = writeln!(out, "stopped by Ctrl-C: the games played so far");
            }
            let mut tally: Vec<String> = r
                .players
                .iter()
                .zip(wins)
                .map(|(name, n)| format!("{name} {n} wins"))
                .collect();
            if r.seats() == 1 {
                tally.push(format!("{} losses", wins[1]));
            }
            let _ = writeln!(
                out,
                "{games} games of {}: {}, {draws} draws, {unfinished} unfinished",
                v.name(),
                tally.join(", ")
            );
            if is_match {
                let _ = writeln!(out, "{rounds} rounds played");
            }
            let _ = writeln!(
                out,
                "{turns} turns in {secs:.3} s: {tps:.0} turns per second"
            );
        }
    }
    Ok(())
}
