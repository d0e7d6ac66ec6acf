//! Perfect play: the turn the solver ([`crate::solve`]) proves best, for a
//! variant small enough to solve. Ties among the best turns go to the
//! seed; the solver's table is kept from turn to turn, so that a game
//! solved once is played on at once.

use std::sync::Arc;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::Agent;
use crate::engine::{Engine, Game, TooLong, Turn};
use crate::solve::Solver;

/// The table a perfect player keeps: 64 MiB.
const MEMORY: usize = 64 << 20;

/// The most positions the solve of a start may take for a variant to be
/// played perfectly (some 10 to 20 s here): past it, the variant is too
/// large for `perfect` (and `sow solve` solves it without a limit).
pub const MAX_POSITIONS: u64 = 50_000_000;

/// A player that plays a proven best turn.
pub struct Perfect {
    rng: ChaCha8Rng,
    /// The solver, and the variant it was made for.
    solver: Option<(Arc<Engine>, Solver)>,
}

impl Perfect {
    /// A perfect player, breaking ties by `seed`.
    pub fn new(seed: u64) -> Perfect {
        Perfect {
            rng: ChaCha8Rng::seed_from_u64(seed),
            solver: None,
        }
    }
}

/// Why `perfect` cannot play `game`'s variant, if it cannot: the solver
/// refuses it, or does not solve its position within [`MAX_POSITIONS`].
/// Each face that seats a perfect player asks before the game starts.
pub fn refusal(game: &Game) -> Option<String> {
    if game.outcome().is_some() {
        // (Over before any turn: there is no turn to play.)
        return None;
    }
    let why = |e: crate::solve::Unsolvable| format!("`perfect` cannot play this variant: it {e}");
    let solver = match Solver::new(game, MEMORY) {
        Ok(s) => s.best_only().with_limit(MAX_POSITIONS),
        Err(e) => return Some(why(e)),
    };
    match solver.solve(game, 1) {
        Ok(s) if s.value().is_some() => None,
        Ok(_) => Some(format!(
            "`perfect` plays only a variant solved within {} positions, and this one is \
             not (`sow solve` solves it without a limit, given the time)",
            crate::render::thousands(MAX_POSITIONS)
        )),
        Err(e) => Some(why(e)),
    }
}

impl Agent for Perfect {
    fn choose(&mut self, game: &Game) -> Result<Turn, TooLong> {
        let same = matches!(&self.solver, Some((e, _)) if Arc::ptr_eq(e, game.engine()));
        if !same {
            // (A variant the solver refuses was refused before the game:
            // see `refusal`.)
            let solver = Solver::new(game, MEMORY).map_err(|_| TooLong)?.best_only();
            self.solver = Some((game.engine().clone(), solver));
        }
        let (_, solver) = self.solver.as_ref().expect("a solver");
        let solved = solver.solve(game, 1).map_err(|_| TooLong)?;
        let best = solved.best();
        best.choose(&mut self.rng).copied().ok_or(TooLong)
    }
}
