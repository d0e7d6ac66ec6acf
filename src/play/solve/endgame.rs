//! Perfect play in the endgame, for a player that otherwise searches (the
//! computer players `minimax` and `mcts`): where the endgame databases
//! hold the value of every turn of a position, the turns they prove best.
//!
//! The databases are small ones (as many levels as fit in the bytes
//! given) and are built the first time a game comes within their reach,
//! so that a game that never gets there costs nothing.

use std::sync::{Arc, Mutex};

use super::{db, Solver, MIN_MEMORY};
use crate::engine::{Engine, Game, Turn};

/// The bytes the databases a computer player consults may take: 2 MiB
/// (Kalah's, every position of up to 10 seeds in the pits, built in
/// about half a second).
pub const PLAYERS_BYTES: u64 = 2 << 20;

/// The variants whose databases a process keeps for its computer
/// players, the last met.
const KEPT: usize = 4;

/// A variant's databases kept for the computer players: the engine last
/// seen with them, the variant's rules as the databases read them, and
/// the databases (`None`: it can have none).
type Kept = (Arc<Engine>, String, Option<Arc<Endgame>>);

static FOR_PLAYERS: Mutex<Vec<Kept>> = Mutex::new(Vec::new());

/// A variant's endgame databases, built when first needed.
pub struct Endgame {
    /// The bytes they may take, and the most seeds in the pits they hold.
    bytes: u64,
    reach: usize,
    /// Once built, a solver holding them (`None`: they could not be
    /// built). A build stopped (a request's time limit, Ctrl-C) is not
    /// kept: the next call builds them again, whole.
    built: Mutex<Option<Option<Arc<Solver>>>>,
}

impl Endgame {
    /// The endgame databases of `game`'s variant in at most `bytes`, if it
    /// can have them: the solver takes it, the stores decide only the
    /// margin, and a level of at least one seed fits.
    pub fn new(game: &Game, bytes: u64) -> Option<Endgame> {
        let solver = Solver::new(game, MIN_MEMORY).ok()?;
        solver.shared.margin_only.as_ref().ok()?;
        let reach = db::reach(game.engine(), bytes, usize::MAX).ok()?;
        (reach > 0).then_some(Endgame {
            bytes,
            reach,
            built: Mutex::new(None),
        })
    }

    /// The databases of `game`'s variant the computer players consult
    /// (of [`PLAYERS_BYTES`]), kept once a process for the variants last
    /// met: every game of a variant, whatever its setup, shares them.
    pub fn for_players(game: &Game) -> Option<Arc<Endgame>> {
        let engine = game.engine();
        let mut kept = FOR_PLAYERS.lock().ok()?;
        if let Some((_, _, e)) = kept.iter().find(|(k, _, _)| Arc::ptr_eq(k, engine)) {
            return e.clone();
        }
        let name = db::fingerprint(engine);
        let endgame = match kept.iter().position(|(_, n, _)| *n == name) {
            Some(i) => kept.remove(i).2,
            None => Endgame::new(game, PLAYERS_BYTES).map(Arc::new),
        };
        if kept.len() >= KEPT {
            kept.remove(0);
        }
        kept.push((engine.clone(), name, endgame.clone()));
        endgame
    }

    /// The solver holding the databases, built now if they are not yet
    /// (under what the call runs under: a stop leaves them unbuilt, and
    /// this call none). A call that finds them being built waits: every
    /// game sees them built, whatever the threads, so that its play does
    /// not depend on their timing.
    fn solver(&self, game: &Game) -> Option<Arc<Solver>> {
        let mut built = self.built.lock().ok()?;
        if let Some(kept) = &*built {
            return kept.clone();
        }
        let made = Solver::new(game, MIN_MEMORY).ok().and_then(|solver| {
            solver
                .databases(game.engine(), self.bytes, self.reach + 1, None, 1)
                .ok()
                .map(|_| Arc::new(solver))
        });
        if crate::play::runs::stopped() {
            return None;
        }
        *built = Some(made.clone());
        made
    }

    /// The most seeds in the pits of a position the databases hold.
    pub fn reach(&self) -> usize {
        self.reach
    }

    /// The best turns of `game`'s position (a game not over), where the
    /// databases (built now, the first time) hold what every turn leads
    /// to; else `None`.
    pub fn best_turns(&self, game: &Game) -> Option<Vec<Turn>> {
        let pos = game.position();
        let me = pos.to_move?;
        let seeds = db::seeds(game.engine().cells() - 2, pos)?;
        if seeds > self.reach || game.outcome().is_some() {
            return None;
        }
        let solver = self.solver(game)?;
        let mut best: (i32, Vec<Turn>) = (i32::MIN, Vec::new());
        for &t in game.legal_turns() {
            let mut child = game.clone();
            child.play(t).ok()?;
            let v = solver.shared.settled(&child, me).ok()??;
            if v > best.0 {
                best = (v, Vec::new());
            }
            if v == best.0 {
                best.1.push(t);
            }
        }
        (!best.1.is_empty()).then_some(best.1)
    }
}
