//! Monte Carlo tree search (UCT): a tree of the turns tried, grown one node
//! an iteration along the most promising line, each new node judged by one
//! random game played out from it.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{endgame_turn, rewards, searching, Agent};
use crate::engine::{Game, TooLong, Turn};

/// The exploration constant of UCT (√2: the textbook value for rewards in
/// 0..1).
const EXPLORE: f64 = std::f64::consts::SQRT_2;

/// A random game played out from a node stops after this many turns, and
/// is judged by the variant's score there.
const PLAYOUT_PLIES: u32 = 200;

/// Monte Carlo tree search over the legal turns, with a budget a turn of
/// iterations and of the engine's work ([`Game::work`]: counted, not
/// timed, so that a seed gives the same games on any machine; the work
/// bounds the search where turns are dear, as Bao's are).
pub struct Mcts {
    rng: ChaCha8Rng,
    iterations: u32,
    work: u64,
}

/// A turn tried, and what the games through it were worth.
struct Node {
    /// The turn that leads here from the parent.
    turn: Turn,
    parent: usize,
    children: Vec<usize>,
    /// The turns from here not yet tried.
    untried: Vec<Turn>,
    visits: u32,
    /// The sum of the rewards of the games through here, for the player
    /// who played `turn` (`None`: the root).
    reward: f64,
    mover: Option<u8>,
    /// The game here, kept: a line down the tree is not played again (a
    /// position whose turns are dear to list is listed once).
    game: Game,
}

impl Mcts {
    /// A search of at most `iterations` iterations and `work` units of
    /// the engine's work a turn, from a seed.
    pub fn new(iterations: u32, work: u64, seed: u64) -> Mcts {
        Mcts {
            rng: ChaCha8Rng::seed_from_u64(seed),
            iterations: iterations.max(1),
            work: work.max(1),
        }
    }

    /// The search at a level (1 to 9): 125 iterations at level 1, twice as
    /// many each level up (2,000 at the default, 5), within the level's
    /// work ([`super::level_work`]).
    pub fn at_level(level: u8, seed: u64) -> Mcts {
        let up = level.saturating_sub(1).min(8);
        Mcts::new(125 << up, super::level_work(level), seed)
    }

    /// The child of `n` with the best upper confidence bound.
    fn select(nodes: &[Node], n: usize) -> usize {
        let ln = f64::from(nodes[n].visits.max(1)).ln();
        let bound = |c: usize| {
            let v = f64::from(nodes[c].visits.max(1));
            nodes[c].reward / v + EXPLORE * (ln / v).sqrt()
        };
        let mut best = nodes[n].children[0];
        for &c in &nodes[n].children[1..] {
            if bound(c) > bound(best) {
                best = c;
            }
        }
        best
    }

    /// Plays random turns on `game` to its end, or for [`PLAYOUT_PLIES`].
    fn playout(&mut self, game: &mut Game) {
        for _ in 0..PLAYOUT_PLIES {
            if game.outcome().is_some() {
                return;
            }
            let legal = game.legal_turns();
            if legal.is_empty() {
                return;
            }
            let t = legal[self.rng.gen_range(0..legal.len())];
            if game.play(t).is_err() {
                // A turn past the engine's limit: judged where it stands.
                return;
            }
        }
    }
}

impl Agent for Mcts {
    fn choose(&mut self, root: &Game) -> Result<Turn, TooLong> {
        let legal = root.legal_turns();
        if legal.len() == 1 {
            return Ok(legal[0]);
        }
        if let Some(t) = endgame_turn(root, &mut self.rng) {
            return Ok(t);
        }
        let mut nodes = vec![Node {
            turn: legal[0],
            parent: 0,
            children: Vec::new(),
            untried: legal.to_vec(),
            visits: 0,
            reward: 0.0,
            mover: None,
            game: root.clone(),
        }];
        let mut game = searching(root);
        let start = game.work();
        for i in 0..self.iterations {
            if game.work() - start >= self.work {
                break;
            }
            // (Now and then: the work it is part of may be asked to stop,
            // and then no turn is chosen.)
            if i % 16 == 15 && crate::runs::stopped() {
                return Err(TooLong);
            }
            // Down the tree while every turn of a node has been tried.
            let mut n = 0;
            while nodes[n].untried.is_empty() && !nodes[n].children.is_empty() {
                n = Mcts::select(&nodes, n);
            }
            game.copy_from(&nodes[n].game);
            // One turn more, not tried before.
            if !nodes[n].untried.is_empty() && game.outcome().is_none() {
                let i = self.rng.gen_range(0..nodes[n].untried.len());
                let turn = nodes[n].untried.swap_remove(i);
                let mover = game.position().to_move;
                if game.play(turn).is_err() {
                    // Never tried again: a turn past the engine's limit.
                    continue;
                }
                let untried = match game.outcome() {
                    Some(_) => Vec::new(),
                    None => game.legal_turns().to_vec(),
                };
                nodes.push(Node {
                    turn,
                    parent: n,
                    children: Vec::new(),
                    untried,
                    visits: 0,
                    reward: 0.0,
                    mover,
                    game: game.clone(),
                });
                let child = nodes.len() - 1;
                nodes[n].children.push(child);
                n = child;
            }
            self.playout(&mut game);
            let reward = rewards(&game);
            // Back up to the root.
            loop {
                let node = &mut nodes[n];
                node.visits += 1;
                if let Some(p) = node.mover {
                    node.reward += reward[p as usize & 1];
                }
                if n == 0 {
                    break;
                }
                n = node.parent;
            }
        }
        // The turn tried most often (the first such, in the tree's order).
        let mut best: Option<usize> = None;
        for &c in &nodes[0].children {
            if best.is_none_or(|b| nodes[c].visits > nodes[b].visits) {
                best = Some(c);
            }
        }
        Ok(best.map_or(legal[0], |c| nodes[c].turn))
    }
}
