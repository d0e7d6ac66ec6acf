//! Random games in bulk (`sow random`, Python's `Variant.random_games`):
//! game `i` played from seed `seed + i` on threads, the results taken in
//! order, and what they add up to.

use std::time::Instant;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

use super::runs;
use crate::engine::{Game, Outcome};
use crate::Variant;

/// Which games to play.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    /// How many games.
    pub games: u64,
    /// Game `i` is played from seed `seed + i`.
    pub seed: u64,
    /// A game still going after this many turns is left unfinished.
    pub max_plies: u32,
    /// Keep each game's moves (for [`Played::moves`]).
    pub moves: bool,
}

/// One game played.
#[derive(Debug, Clone)]
pub struct Played {
    /// Its number, from 0.
    pub game: u64,
    /// The seed it was played from.
    pub seed: u64,
    /// Its moves as the notation writes them (empty unless the plan keeps
    /// them).
    pub moves: Vec<String>,
    /// The turns played.
    pub plies: u32,
    /// How it ended (none: unfinished).
    pub outcome: Option<Outcome>,
    /// In a match: the rounds played to their end, its last round
    /// included when the match ended.
    pub rounds: u64,
}

impl Played {
    /// The game as `sow random --format json` writes it, a line a game.
    pub fn json(&self, v: &Variant) -> Value {
        let mut line = json!({
            "game": self.game, "seed": self.seed, "moves": self.moves, "plies": self.plies,
            "outcome": crate::json::outcome(v, self.outcome.as_ref()),
        });
        if v.engine.rules.rounds.is_some() {
            line["rounds"] = self.rounds.into();
        }
        line
    }
}

/// What the games played add up to.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    /// The games played (fewer than planned when interrupted).
    pub games: u64,
    /// Each player's wins (a solitaire's games lost count as the second's).
    pub wins: [u64; 2],
    /// The games drawn.
    pub draws: u64,
    /// The games left unfinished after the plan's most turns.
    pub unfinished: u64,
    /// The turns played in all.
    pub turns: u64,
    /// In a match: the rounds played to their end.
    pub rounds: u64,
    /// Ctrl-C stopped the run.
    pub interrupted: bool,
    /// How long the run took.
    pub seconds: f64,
}

impl Summary {
    /// Turns a second.
    pub fn rate(&self) -> f64 {
        self.turns as f64 / self.seconds.max(1e-9)
    }

    /// As `sow random --format json` writes it, last.
    pub fn json(&self, v: &Variant) -> Value {
        let r = &v.engine.rules;
        let mut line = json!({
            "games": self.games,
            "wins": crate::json::wins(r, self.wins, self.draws),
            "unfinished": self.unfinished, "turns": self.turns, "seconds": self.seconds,
            "turns_per_second": self.rate().round() as u64,
        });
        if r.rounds.is_some() {
            line["rounds"] = self.rounds.into();
        }
        if self.interrupted {
            line["interrupted"] = true.into();
        }
        line
    }

    /// As `sow random` writes it for people.
    pub fn text(&self, v: &Variant) -> String {
        let r = &v.engine.rules;
        let mut out = String::new();
        if self.interrupted {
            out.push_str("stopped by Ctrl-C: the games played so far\n");
        }
        let mut tally: Vec<String> = r
            .players
            .iter()
            .zip(self.wins)
            .map(|(name, n)| format!("{name} {n} wins"))
            .collect();
        if r.seats() == 1 {
            tally.push(format!("{} losses", self.wins[1]));
        }
        out.push_str(&format!(
            "{} games of {}: {}, {} draws, {} unfinished\n",
            self.games,
            v.name(),
            tally.join(", "),
            self.draws,
            self.unfinished
        ));
        if r.rounds.is_some() {
            out.push_str(&format!("{} rounds played\n", self.rounds));
        }
        out.push_str(&format!(
            "{} turns in {:.3} s: {:.0} turns per second\n",
            self.turns,
            self.seconds,
            self.rate()
        ));
        out
    }

    fn add(&mut self, p: &Played) {
        self.turns += p.plies as u64;
        self.rounds += p.rounds;
        match &p.outcome {
            Some(o) => match o.winner {
                Some(w) => self.wins[w as usize & 1] += 1,
                None => self.draws += 1,
            },
            None => self.unfinished += 1,
        }
    }
}

/// Plays the plan's games from `start` on `jobs` threads, handing each
/// game to `each` in order (which may stop the run by returning false),
/// and sums them up. Fails, naming the game, its seed and the turn, if a
/// turn runs past the engine's limit.
pub fn random_games(
    start: &Game,
    plan: Plan,
    jobs: usize,
    quiet: bool,
    mut each: impl FnMut(&Played) -> bool,
) -> Result<Summary, String> {
    let clock = Instant::now();
    let progress = runs::Progress::new(plan.games, "games", quiet);
    let mut summary = Summary::default();
    let mut failed = None;
    let shared = runs::Start::new(start.engine(), start);
    let done = runs::in_order(
        plan.games,
        jobs,
        &progress,
        // Each thread's new game, and the game it plays from it.
        || shared.games(),
        |games, i| {
            let seed = plan.seed.wrapping_add(i);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let Some((fresh, game)) = games else {
                return Some(Err((0, "(the start)".to_string())));
            };
            // (The thread's game keeps the turns it found never to end from
            // one game to the next, as one game would: that saves the work
            // of finding them again, and changes no result short of the
            // engine's limit.)
            game.copy_from(fresh);
            let mut moves = Vec::new();
            let record = plan.moves.then_some(&mut moves);
            let played = super::random_game(game, &mut rng, Some(plan.max_plies), record);
            if runs::stopped() {
                // Stopped: this game is left out, and those after it.
                return None;
            }
            Some(played.map(|plies| {
                let outcome = game.outcome().cloned();
                let rounds =
                    game.rounds().saturating_sub(fresh.rounds()) as u64 + outcome.is_some() as u64;
                Played {
                    game: i,
                    seed,
                    moves,
                    plies,
                    outcome,
                    rounds,
                }
            }))
        },
        |i, played| match played {
            Ok(p) => {
                summary.add(&p);
                each(&p)
            }
            Err((ply, turn)) => {
                failed = Some(format!(
                    "game {i} (seed {}), ply {ply}: turn `{turn}` did not end within the engine's limit ({})",
                    plan.seed.wrapping_add(i),
                    crate::limits::TOO_LONG
                ));
                false
            }
        },
    );
    drop(progress);
    if let Some(message) = failed {
        return Err(message);
    }
    summary.games = done;
    summary.interrupted = done < plan.games;
    summary.seconds = clock.elapsed().as_secs_f64();
    Ok(summary)
}
