//! Alpha-beta search on the variant's estimate (its `estimate`, else its
//! `score`): the turns looked at to a depth, deepened one turn at a time
//! while a budget of positions lasts, each position at the depth judged by
//! the mover's estimate less the opponent's.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{endgame_turn, searching, to_move, Agent};
use crate::engine::{Game, TooLong, Turn};
use crate::ir::Player;

/// What each position searched counts against the budget beside the
/// engine's own work: the search's cost of it (copying the game, judging
/// the score), which is most of all where turns are cheap, as Kalah's.
const POSITION_WORK: u64 = 200;

/// How many positions apart a search looks whether the work it is part of
/// is asked to stop (`runs::stopped`).
const STOP_EVERY: u64 = 256;

/// What a won game is worth, beyond any score (a win sooner worth more).
const WIN: i64 = 1 << 40;

/// Alpha-beta search on the variant's `estimate` (or `score`), with a budget a turn of the
/// engine's work ([`Game::work`]: counted, not timed, so that a seed gives
/// the same games on any machine).
pub struct AlphaBeta {
    rng: ChaCha8Rng,
    /// The deepest search, in turns.
    depth: u32,
    /// The work one turn's search may do.
    budget: u64,
}

/// A search under way: the player searched for, the work allowed (the
/// games' own count, where they stand at the start, and the budget), one
/// game a level (reused, so that a search allocates only as it deepens).
struct Search {
    me: Player,
    solo: bool,
    start: u64,
    budget: u64,
    /// Positions searched.
    nodes: u64,
    stack: Vec<Game>,
}

/// The budget ran out: the depth under way is dropped.
struct OutOfBudget;

impl AlphaBeta {
    /// A search at most `depth` turns deep, of at most `budget` units of
    /// the engine's work.
    pub fn new(depth: u32, budget: u64, seed: u64) -> AlphaBeta {
        AlphaBeta {
            rng: ChaCha8Rng::seed_from_u64(seed),
            depth: depth.max(1),
            budget: budget.max(1),
        }
    }

    /// The search at a level (1 to 9): deepened while the level's work
    /// lasts ([`super::level_work`]), 8 turns deep at most at level 1 and
    /// 4 more each level up (24 at the default, 5).
    pub fn at_level(level: u8, seed: u64) -> AlphaBeta {
        let up = u32::from(level.saturating_sub(1)).min(8);
        AlphaBeta::new(8 + 4 * up, super::level_work(level), seed)
    }
}

impl Search {
    /// Whether the work allowed is done.
    fn spent(&self) -> bool {
        let engine = self.stack.iter().map(Game::work).sum::<u64>() - self.start;
        engine + self.nodes * POSITION_WORK >= self.budget
            // (Now and then: the work it is part of may be asked to stop.)
            || (self.nodes.is_multiple_of(STOP_EVERY) && crate::runs::stopped())
    }

    /// What a game is worth to the player searched for.
    fn value(&self, game: &Game, depth: u32) -> i64 {
        match game.outcome() {
            Some(o) => match o.winner {
                Some(p) if p == self.me => WIN + i64::from(depth),
                Some(_) => -WIN - i64::from(depth),
                None if self.solo => -WIN,
                None => 0,
            },
            None => {
                let s = game.engine().estimates(game.position());
                if self.solo {
                    s[0]
                } else {
                    s[self.me as usize & 1] - s[1 - (self.me as usize & 1)]
                }
            }
        }
    }

    /// The value of `stack[level]` searched `depth` turns deeper, within
    /// the window alpha..beta.
    fn search(
        &mut self,
        level: usize,
        depth: u32,
        mut alpha: i64,
        mut beta: i64,
    ) -> Result<i64, OutOfBudget> {
        let head = &self.stack[level];
        if depth == 0 || head.outcome().is_some() || head.legal_turns().is_empty() {
            return Ok(self.value(head, depth));
        }
        let maximise = self.solo || to_move(head) == self.me;
        let n = head.legal_turns().len();
        let mut best = if maximise { i64::MIN } else { i64::MAX };
        for i in 0..n {
            if self.spent() {
                return Err(OutOfBudget);
            }
            self.nodes += 1;
            let (head, rest) = self.stack[level..]
                .split_first_mut()
                .expect("a game a level");
            let t = head.legal_turns()[i];
            if rest[0].play_from(head, t).is_err() {
                // Past the search's limit: not looked at.
                continue;
            }
            let v = self.search(level + 1, depth - 1, alpha, beta)?;
            if maximise {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        if best == i64::MIN || best == i64::MAX {
            // No turn could be looked at: judged as it stands.
            return Ok(self.value(&self.stack[level], depth));
        }
        Ok(best)
    }
}

impl Agent for AlphaBeta {
    fn choose(&mut self, root: &Game) -> Result<Turn, TooLong> {
        let mut order: Vec<Turn> = root.legal_turns().to_vec();
        if order.len() == 1 {
            return Ok(order[0]);
        }
        if let Some(t) = endgame_turn(root, &mut self.rng) {
            return Ok(t);
        }
        // Ties go to the first in this order: a seed's own.
        order.shuffle(&mut self.rng);
        let stack = vec![searching(root); self.depth as usize + 1];
        let mut search = Search {
            me: to_move(root),
            solo: root.engine().rules.seats() == 1,
            start: stack.iter().map(Game::work).sum(),
            budget: self.budget,
            nodes: 0,
            stack,
        };
        let mut best = order[0];
        'deepen: for depth in 1..=self.depth {
            let mut scored: Vec<(i64, Turn)> = Vec::with_capacity(order.len());
            let mut alpha = i64::MIN;
            for &t in &order {
                let (head, rest) = search.stack.split_first_mut().expect("a game a level");
                search.nodes += 1;
                if rest[0].play_from(head, t).is_err() {
                    // Past the search's limit: kept last.
                    scored.push((i64::MIN, t));
                    continue;
                }
                match search.search(1, depth - 1, alpha, i64::MAX) {
                    Ok(v) => {
                        alpha = alpha.max(v);
                        scored.push((v, t));
                    }
                    Err(OutOfBudget) => break 'deepen,
                }
            }
            // The best first (ties in the order they were searched): the
            // next depth looks at them first, and prunes more.
            scored.sort_by_key(|&(v, _)| std::cmp::Reverse(v));
            best = scored[0].1;
            order = scored.into_iter().map(|(_, t)| t).collect();
            if search.spent() {
                break;
            }
        }
        if crate::runs::stopped() {
            // (Its work asked to stop: no turn is chosen.)
            return Err(TooLong);
        }
        Ok(best)
    }
}
