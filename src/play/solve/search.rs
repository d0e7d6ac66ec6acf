//! The search: alpha-beta to the end of the game over exact values, with
//! the transposition table, the best turn found first, and MTD(f) above
//! it (null-window searches closing in on the value).

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::Ordering::Relaxed;

use super::table::Entry;
use super::{value_of_outcome, Searching, Stop, Unsolvable, INFINITE};
use crate::engine::{Game, Turn};
use crate::ir::Player;
use crate::play::runs;

/// The longest line the search follows, in turns: past it a variant is
/// too deep to solve (and the search's own stack stays bounded).
pub(super) const MAX_LINE: usize = 4_000;

/// Positions searched between two looks at the clock of the whole solve
/// (the shared count, Ctrl-C).
const CHECK_EVERY: u64 = 1 << 12;

/// The deepest the first guess searches, in turns.
const MAX_GUESS_DEPTH: u32 = 60;

/// The levels at which a helper takes its turns in an order of its own
/// (see `Worker::helping`).
const SKEW_LEVELS: usize = 2;

/// The turns the history of cut-offs tells apart: a player's, by pit
/// and letter (see `slot`).
const HISTORY_SLOTS: usize = 2 * 256 * 4;

/// How far a turn that keeps the move ranks above one that does not (see
/// `Worker::rank`): a lead counts up to just below it.
const AGAIN: i64 = 4096;

/// The bits of a turn's rank below its lead, for the seeds it took up,
/// and the most those count there.
const TAKEN_BITS: u32 = 8;
const TAKEN_MOST: i64 = (1 << TAKEN_BITS) - 1;

/// The bits a turn's rank leaves its history (see `Worker::ranked`), and
/// the most a history counts there.
const HISTORY_BITS: u32 = 30;
const HISTORY_MOST: u64 = (1 << HISTORY_BITS) - 1;

/// A turn's slot in the history of cut-offs: its player, its pit, its
/// letter (two turns of a board larger than 256 pits or with more than
/// four letters may share one: a tie broken less well, nothing more).
fn slot(me: Player, turn: Turn) -> usize {
    let (pit, letter) = (usize::from(turn.pit) % 256, usize::from(turn.choice) % 4);
    (usize::from(me & 1) * 256 + pit) * 4 + letter
}

/// A hasher for keys on the path: a key is already a number spread over
/// its bits, mixed once.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }

    fn write_u128(&mut self, k: u128) {
        self.0 =
            ((k as u64) ^ ((k >> 64) as u64).rotate_left(17)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// One thread's search: a game a level of the line searched (reused, so
/// that searching allocates only while it goes deeper), and the positions
/// on the line (a position met again on its own line is a cycle).
pub(super) struct Worker<'s> {
    shared: &'s Searching<'s>,
    /// Whether the root's mover is the opponent of the player its values
    /// are for.
    flip: bool,
    stack: Vec<Game>,
    /// A level's other turns, played to be ranked, and their order.
    kids: Vec<Vec<Game>>,
    orders: Vec<Vec<(i64, usize, usize)>>,
    path: HashSet<u128, BuildHasherDefault<KeyHasher>>,
    /// The keys of a level's other turns' positions, while they are
    /// looked up for a cut-off (see `held_cut`; none: known otherwise).
    keys: Vec<Option<u128>>,
    /// The history of cut-offs: for each player's turn (its pit and
    /// letter, see `slot`), the positions searched under the positions
    /// where it was good enough to end the search; a tie between turns
    /// that look as promising goes to the one with more.
    history: Vec<u64>,
    /// Set once another thread has solved what this one searches (a
    /// helper's search then stops).
    done: Option<&'s std::sync::atomic::AtomicBool>,
    /// A helper's own order at the first levels (see `ranked`): its
    /// turns there taken from this one on, so that it searches ahead of
    /// the thread it helps rather than in its steps.
    skew: usize,
    /// Positions searched by this worker, and how many of them the
    /// shared count has.
    searched: u64,
    flushed: u64,
}

impl<'s> Worker<'s> {
    /// A search from `root` (a game not over) for `me`: its values are
    /// what the root is worth to `me`, whoever is to move there.
    pub(super) fn new(shared: &'s Searching<'s>, root: &Game, me: Player) -> Worker<'s> {
        Worker {
            shared,
            flip: root.position().to_move != Some(me),
            stack: vec![root.clone()],
            kids: Vec::new(),
            orders: Vec::new(),
            path: HashSet::default(),
            keys: Vec::new(),
            history: vec![0; HISTORY_SLOTS],
            done: None,
            skew: 0,
            searched: 0,
            flushed: 0,
        }
    }

    /// The same search, stopping once `done` is set (another thread has
    /// solved the root), as the `skew`th helper of a search of the same
    /// root (0: the first, none): at the first levels a helper takes the
    /// ranked turns from the `skew`th on (`SKEW_LEVELS`), so that it
    /// works ahead of the others rather than in their steps, and what it
    /// learns reaches them through the table.
    pub(super) fn helping(mut self, done: &'s std::sync::atomic::AtomicBool, skew: usize) -> Self {
        self.done = Some(done);
        self.skew = skew;
        self
    }

    /// The root searched within alpha..beta (fail-soft), to `me`.
    fn root(&mut self, alpha: i32, beta: i32) -> Result<i32, Stop> {
        self.path.clear();
        if self.flip {
            Ok(-self.search(0, -beta, -alpha)?)
        } else {
            self.search(0, alpha, beta)
        }
    }

    /// The exact value of the root, by null-window searches (MTD(f)) from
    /// `guess`: each asks whether the value is at least some number, and
    /// narrows the bounds; the number tried steps out from the guess,
    /// doubling, until the value is bracketed, then halves the bracket.
    /// A value below `floor()` (asked before each search) is not worth
    /// knowing: the floor is tried first, and if the value is less, the
    /// bounds are all that is found. Stopped, the bounds known so far.
    pub(super) fn exact(
        &mut self,
        guess: i32,
        floor: &dyn Fn() -> i32,
    ) -> Result<(i32, i32), Stop> {
        let (mut lower, mut upper) = (-INFINITE, INFINITE);
        let mut step = 1;
        let mut target = guess.clamp(-INFINITE + 1, INFINITE);
        while lower < upper {
            let floor = floor();
            if upper < floor {
                break;
            }
            if lower < floor {
                target = floor;
            }
            // Is the value at least `target`?
            let g = match self.root(target - 1, target) {
                Ok(g) => g,
                Err(Stop::Interrupted { .. }) => {
                    self.flush();
                    return Err(Stop::Interrupted { lower, upper });
                }
                Err(e) => return Err(e),
            };
            if g >= target {
                lower = g;
                // (Solving for the best turns only, a first turn shown
                // worth at least this much is a floor for the others.)
                if self.shared.best_only {
                    self.shared.best.fetch_max(lower, Relaxed);
                }
            } else {
                upper = g;
            }
            target = match (lower > -INFINITE, upper < INFINITE) {
                (true, true) => lower + (upper - lower + 1) / 2,
                (true, false) => lower.saturating_add(step).min(INFINITE),
                (false, true) => upper.saturating_sub(step - 1).max(-INFINITE + 1),
                // (A search's value is a real one: a side is always bounded.)
                (false, false) => target,
            };
            step = step.saturating_mul(2);
        }
        self.flush();
        Ok((lower, upper))
    }

    /// A first guess at the root's value for [`Worker::exact`]: a search
    /// to a depth, the variant's estimate at its leaves, deepened two
    /// turns at a time while the last depth took fewer than `budget`
    /// positions (a guess near the value saves MTD(f) most of its
    /// null-window searches). Its positions count with the solve's.
    pub(super) fn guess(&mut self, budget: u64) -> Result<i32, Stop> {
        // (A value the table already holds, as a solve stopped short
        // leaves it, needs no guess.)
        let root = self.stack[0].position();
        let held = self.shared.probe(root, self.shared.key(root)?);
        if let Some(v) = held.and_then(|e| e.settles(-INFINITE, INFINITE)) {
            return Ok(if self.flip { -v } else { v });
        }
        let mut guess = 0;
        let mut depth = 2;
        while depth <= MAX_GUESS_DEPTH {
            let before = self.searched;
            guess = self.shallow(0, depth, -INFINITE, INFINITE)?;
            if self.searched - before >= budget {
                break;
            }
            depth += 2;
        }
        self.flush();
        Ok(if self.flip { -guess } else { guess })
    }

    /// The value of `stack[level]` (a game not over) searched `depth`
    /// turns deep, within alpha..beta: where the game ends or the
    /// databases hold a position, its value; at the depth, the variant's
    /// estimate (the mover's lead as a margin). A guess only: no path
    /// (a cycle ends at the depth); the table's exact bounds are read and
    /// its best turns tried first, and each position's best turn is noted
    /// there as a guess's, for the exact search to try first.
    fn shallow(&mut self, level: usize, depth: u32, alpha: i32, beta: i32) -> Result<i32, Stop> {
        let head = &self.stack[level];
        if let Some(v) = self.shared.known(head.position()) {
            return Ok(v);
        }
        let me: Player = head.position().to_move.unwrap_or(0);
        let n = head.legal_turns().len();
        if depth == 0 || level + 1 >= MAX_LINE || n == 0 {
            return Ok(super::margin_value(self.estimated_lead(head, me)));
        }
        let key = self.shared.key(head.position())?;
        let found = self.shared.probe(head.position(), key);
        if let Some(v) = found.and_then(|e| e.settles(alpha, beta)) {
            return Ok(v);
        }
        let hint = found.map(|e| usize::from(e.best));
        let (best, best_i) = self.at_level(level, |w, kids, order| {
            w.shallow_turns(level, depth, hint, (alpha, beta), kids, order)
        })?;
        // (Never over what the exact search learnt.)
        if found.is_none_or(|e| e.shallow) {
            self.shared.store(
                self.stack[level].position(),
                key,
                Entry {
                    lower: -INFINITE as i16,
                    upper: INFINITE as i16,
                    best: best_i.min(usize::from(u8::MAX)) as u8,
                    work: 0,
                    shallow: true,
                },
            );
        }
        Ok(best)
    }

    /// Adds the positions searched to the shared count.
    fn flush(&mut self) {
        self.shared.count(self.searched - self.flushed);
        self.flushed = self.searched;
    }

    /// Counts a position searched; now and then, whether to stop.
    #[inline]
    fn counted(&mut self) -> Result<(), Stop> {
        self.searched += 1;
        if self.searched - self.flushed >= CHECK_EVERY {
            self.flush();
            if self.shared.stopping() || self.done.is_some_and(|d| d.load(Relaxed)) {
                return Err(Stop::Interrupted {
                    lower: -INFINITE,
                    upper: INFINITE,
                });
            }
        }
        Ok(())
    }

    /// The value of `stack[level]` (a game not over) for its player to
    /// move, searched within alpha..beta (fail-soft: a value outside the
    /// window is a bound on the true one, on that side).
    fn search(&mut self, level: usize, mut alpha: i32, mut beta: i32) -> Result<i32, Stop> {
        let head = &self.stack[level];
        // A position the databases hold is known.
        if let Some(v) = self.shared.known(head.position()) {
            return Ok(v);
        }
        let key = self.shared.key(head.position())?;
        let found = self.shared.probe(head.position(), key);
        // A guess's entry gives only a turn to try first.
        let mut hint = found.map(|e| usize::from(e.best));
        let held = found.filter(|e| !e.shallow);
        if let Some(e) = held {
            if let Some(v) = e.settles(alpha, beta) {
                return Ok(v);
            }
            alpha = alpha.max(i32::from(e.lower));
            beta = beta.min(i32::from(e.upper));
        }
        let me: Player = head.position().to_move.unwrap_or(0);
        let n = head.legal_turns().len();
        if n == 0 {
            return Err(Stop::Unsolvable(Unsolvable::new(
                "a position has no legal turn and the game is not over",
            )));
        }
        if level + 1 >= MAX_LINE {
            return Err(Stop::Unsolvable(Unsolvable::new(format!(
                "a line of play runs past {MAX_LINE} turns: too deep to solve"
            ))));
        }
        if !self.path.insert(key) {
            return Err(Stop::Unsolvable(Unsolvable::new(
                "play can come back to a position it was in, and the variant has no rule for \
                 positions that repeat: the value of endless play is not defined",
            )));
        }
        let before = self.searched;
        hint = hint.filter(|&h| h < n);
        // The turn found best before is searched first, as it is; if it
        // does not settle the position, the others are each played once
        // and ranked (see `rank`), then searched in that order.
        let (best, best_i) = self.at_level(level, |w, kids, order| {
            w.moves(level, me, hint, (alpha, beta), kids, order)
        })?;
        self.path.remove(&key);
        // What the search learnt: a bound on the side it failed, else the
        // value; merged with what the table held of it when the search
        // began.
        let (mut lo, mut hi) = (-INFINITE, INFINITE);
        if best <= alpha {
            hi = best;
        } else if best >= beta {
            lo = best;
        } else {
            (lo, hi) = (best, best);
        }
        if let Some(e) = held {
            let (old_lo, old_hi) = (lo.max(i32::from(e.lower)), hi.min(i32::from(e.upper)));
            // (Bounds from another search that do not meet this one's
            // are dropped: what this search found stands.)
            if old_lo <= old_hi {
                (lo, hi) = (old_lo, old_hi);
            }
        }
        let work = (self.searched - before).max(1).ilog2() as u8;
        self.shared.store(
            self.stack[level].position(),
            key,
            Entry {
                lower: lo as i16,
                upper: hi as i16,
                best: best_i.min(usize::from(u8::MAX)) as u8,
                work,
                shallow: false,
            },
        );
        Ok(best)
    }

    /// Runs `f` with the scratch of `stack[level]`: the games its turns
    /// lead to and their order, the level's own, kept from position to
    /// position (made the first time the search comes this deep, so that
    /// searching allocates only while it goes deeper).
    fn at_level<R>(
        &mut self,
        level: usize,
        f: impl FnOnce(&mut Self, &mut Vec<Game>, &mut Vec<(i64, usize, usize)>) -> R,
    ) -> R {
        if self.stack.len() == level + 1 {
            let deeper = self.stack[level].clone();
            self.stack.push(deeper);
        }
        if self.kids.len() == level {
            self.kids.push(Vec::new());
            self.orders.push(Vec::new());
        }
        let mut kids = std::mem::take(&mut self.kids[level]);
        let mut order = std::mem::take(&mut self.orders[level]);
        let found = f(self, &mut kids, &mut order);
        self.kids[level] = kids;
        self.orders[level] = order;
        found
    }

    /// Searches the turns of `stack[level]` `depth` turns deep for a
    /// guess (see `shallow`): ranked, the hint first. The best value and
    /// its turn.
    fn shallow_turns(
        &mut self,
        level: usize,
        depth: u32,
        hint: Option<usize>,
        (alpha, beta): (i32, i32),
        kids: &mut Vec<Game>,
        order: &mut Vec<(i64, usize, usize)>,
    ) -> Result<(i32, usize), Stop> {
        let me: Player = self.stack[level].position().to_move.unwrap_or(0);
        self.ranked(level, me, None, kids, order)?;
        if let Some(at) = order.iter().position(|&(_, i, _)| Some(i) == hint) {
            order[..=at].rotate_right(1);
        }
        let (mut best, mut best_i) = (-INFINITE - 1, 0);
        let mut a = alpha;
        for &(_, i, k) in order.iter() {
            std::mem::swap(&mut kids[k], &mut self.stack[level + 1]);
            let child = &self.stack[level + 1];
            let v = match child.outcome() {
                Some(o) => value_of_outcome(self.shared, o, me).unwrap_or(0),
                None if child.position().to_move == Some(me) => {
                    self.shallow(level + 1, depth - 1, a, beta)?
                }
                None => -self.shallow(level + 1, depth - 1, -beta, -a)?,
            };
            if v > best {
                (best, best_i) = (v, i);
            }
            a = a.max(v);
            if a >= beta {
                break;
            }
        }
        Ok((best, best_i))
    }

    /// Searches the turns of `stack[level]` within the window: the hint
    /// first, then the others ranked. The best value and its turn.
    fn moves(
        &mut self,
        level: usize,
        me: Player,
        hint: Option<usize>,
        (alpha, beta): (i32, i32),
        kids: &mut Vec<Game>,
        order: &mut Vec<(i64, usize, usize)>,
    ) -> Result<(i32, usize), Stop> {
        let (mut best, mut best_i) = (-INFINITE - 1, 0);
        let mut a = alpha;
        if let Some(h) = hint {
            let (head, rest) = self.stack[level..]
                .split_first_mut()
                .expect("a game a level");
            let turn = head.legal_turns()[h];
            rest[0].play_from(head, turn).map_err(|_| too_long())?;
            self.counted()?;
            let v = self.child_value(level + 1, me, a, beta)?;
            best = v;
            best_i = h;
            a = a.max(v);
            if a >= beta {
                return Ok((best, best_i));
            }
        }
        self.ranked(level, me, hint, kids, order)?;
        if let Some(cut) = self.held_cut(me, beta, kids, order)? {
            return Ok(cut);
        }
        for &(_, i, k) in order.iter() {
            std::mem::swap(&mut kids[k], &mut self.stack[level + 1]);
            let before = self.searched;
            let v = self.child_value(level + 1, me, a, beta)?;
            if v > best {
                best = v;
                best_i = i;
                a = a.max(v);
                if a >= beta {
                    let turn = self.stack[level].legal_turns()[i];
                    self.history[slot(me, turn)] += self.searched - before + 1;
                    break;
                }
            }
        }
        Ok((best, best_i))
    }

    /// Plays each turn of `stack[level]` but `skip` into `kids` and ranks
    /// them (see `rank`: ties by the history of cut-offs), the most
    /// promising first: `order` holds each
    /// one's rank, turn and place in `kids`.
    fn ranked(
        &mut self,
        level: usize,
        me: Player,
        skip: Option<usize>,
        kids: &mut Vec<Game>,
        order: &mut Vec<(i64, usize, usize)>,
    ) -> Result<(), Stop> {
        order.clear();
        let n = self.stack[level].legal_turns().len();
        for i in (0..n).filter(|&i| Some(i) != skip) {
            let k = order.len();
            if kids.len() == k {
                kids.push(self.stack[level].clone());
            }
            let head = &self.stack[level];
            kids[k]
                .play_from(head, head.legal_turns()[i])
                .map_err(|_| too_long())?;
            self.counted()?;
            let head = &self.stack[level];
            let turn = head.legal_turns()[i];
            // (The seeds a turn takes up: a pit's, or those it sows from
            // the store.)
            let taken = match turn.seeds() {
                0 => head
                    .position()
                    .cells
                    .get(usize::from(turn.pit))
                    .map_or(0, |&c| c),
                n => n,
            };
            let history = self.history[slot(me, turn)].min(HISTORY_MOST) as i64;
            let rank = self.rank(&kids[k], me, taken);
            order.push(((rank << HISTORY_BITS) + history, i, k));
        }
        order.sort_unstable_by_key(|&(r, i, _)| (std::cmp::Reverse(r), i));
        if self.skew > 0 && level < SKEW_LEVELS && !order.is_empty() {
            let len = order.len();
            order.rotate_left(self.skew % len);
        }
        Ok(())
    }

    /// Enhanced transposition cut-off: a turn already known good enough
    /// for `beta` (a game it ends, a position the databases hold, the
    /// table's lower bound on it: its upper, for the opponent to move)
    /// settles the position before any turn is searched; the turn and
    /// what it is known worth. The ended games and the databases are
    /// looked at first, every turn's key worked out; then the table, its
    /// slots read one after another with nothing between that waits on
    /// memory, so that their misses (each a trip to memory, in a table of
    /// gigabytes) overlap rather than wait in turn.
    fn held_cut(
        &mut self,
        me: Player,
        beta: i32,
        kids: &[Game],
        order: &[(i64, usize, usize)],
    ) -> Result<Option<(i32, usize)>, Stop> {
        self.keys.clear();
        for &(_, i, k) in order {
            let child = &kids[k];
            match self.shared.settled(child, me)? {
                Some(v) if v >= beta => return Ok(Some((v, i))),
                Some(_) => self.keys.push(None),
                None => self.keys.push(Some(self.shared.key(child.position())?)),
            }
        }
        for (&(_, i, k), &key) in order.iter().zip(&self.keys) {
            let Some(key) = key else {
                continue;
            };
            let pos = kids[k].position();
            let Some(e) = self.shared.probe(pos, key).filter(|e| !e.shallow) else {
                continue;
            };
            let v = if pos.to_move == Some(me) {
                i32::from(e.lower)
            } else {
                -i32::from(e.upper)
            };
            if v >= beta {
                return Ok(Some((v, i)));
            }
        }
        Ok(None)
    }

    /// The variant's estimate of `me`'s lead in `game`: `me`'s less the
    /// opponent's (a solitaire's, its one).
    fn estimated_lead(&self, game: &Game, me: Player) -> i64 {
        let e = game.engine().estimates(game.position());
        let m = usize::from(me & 1);
        if self.shared.solo {
            e[0]
        } else {
            e[m].saturating_sub(e[1 - m])
        }
    }

    /// What `stack[level]`, a turn of `me`'s played, is worth to `me`,
    /// searched within alpha..beta.
    fn child_value(&mut self, level: usize, me: Player, a: i32, beta: i32) -> Result<i32, Stop> {
        let child = &self.stack[level];
        match child.outcome() {
            Some(o) => value_of_outcome(self.shared, o, me),
            None if child.position().to_move == Some(me) => self.search(level, a, beta),
            None => Ok(-self.search(level, -beta, -a)?),
        }
    }

    /// How promising a turn of `me`'s that led to `child`, taking up
    /// `taken` seeds, looks before it is searched: a game it ends by its
    /// value; else a turn that keeps the move first, then by `me`'s store
    /// less the opponent's where the stores decide the margin (seeds won
    /// for good; else by the variant's estimate), then the fewer seeds it
    /// took up (of two turns that both play again, the one that spoils
    /// the other's count less).
    fn rank(&self, child: &Game, me: Player, taken: u32) -> i64 {
        if let Some(o) = child.outcome() {
            return match value_of_outcome(self.shared, o, me) {
                Ok(v) => (i64::from(v) * 4) << TAKEN_BITS,
                Err(_) => 0,
            };
        }
        let pos = child.position();
        let again = pos.to_move == Some(me);
        let lead = match self.shared.stores_lead(pos) {
            Some(l) if again => l,
            Some(l) => -l,
            None => self.estimated_lead(child, me),
        };
        let first = if again { AGAIN } else { 0 } + lead.clamp(1 - AGAIN, AGAIN - 1);
        (first << TAKEN_BITS) + TAKEN_MOST - i64::from(taken).min(TAKEN_MOST)
    }
}

/// A turn the engine did not finish, as the search stops for it: asked
/// to stop (the engine stops a turn then too), the bounds known; else
/// past the engine's work limit.
fn too_long() -> Stop {
    match runs::stopped() {
        true => Stop::Interrupted {
            lower: -INFINITE,
            upper: INFINITE,
        },
        false => Stop::Unsolvable(super::too_long()),
    }
}
