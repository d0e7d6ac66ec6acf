//! The engine: plays a variant's rules IR. It knows nothing of the syntax,
//! and allocates nothing per turn in its hot path (legal turns, applying a
//! turn and judging the end reuse buffers the [`Game`] owns).

mod eval;
mod position;
mod turn;

use std::sync::Arc;

pub use position::Position;
pub use turn::{TooLong, MAX_SOWINGS};

use crate::ir::{Action, Moment, Player, Rules, Skip, Slot, Who};
use turn::Taken;

/// "No cell": off the track, no opposite pit.
pub(crate) const NONE: u16 = u16::MAX;

/// A variant's rules with the tables the engine plays from.
#[derive(Debug)]
pub struct Engine {
    /// The rules IR.
    pub rules: Rules,
    npits: usize,
    /// Per mover: the next cell along the track, passing skipped stores.
    next: [Vec<u16>; 2],
    /// Per mover: the previous cell along the track.
    prev: [Vec<u16>; 2],
    opposite: Vec<u16>,
    /// Owner of every cell (pits, then the two stores).
    owner: Vec<Player>,
    sides: [Vec<u16>; 2],
    all_pits: Vec<u16>,
    /// Pits in the order turns are listed: labels in natural order.
    move_order: Vec<u16>,
    start: Vec<usize>,
    land: Vec<usize>,
    capture: Vec<usize>,
    turn_rules: Vec<usize>,
    end_rules: Vec<usize>,
    skip_origin: bool,
    /// Some condition asks whether a position repeats.
    tracks_repetition: bool,
    /// Turns must be played out to judge their legality.
    simulate: bool,
}

/// One whole turn: the pit it starts from (and, later, the choices made).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Turn {
    /// The starting pit.
    pub pit: u16,
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Player>,
    /// The name of the end rule that fired.
    pub reason: String,
    /// Each player's final score.
    pub scores: [i64; 2],
}

impl Engine {
    /// Builds the engine's tables from checked rules.
    pub fn new(rules: Rules) -> Engine {
        let npits = rules.pits.len();
        let cells = npits + 2;
        let cell_of = |s: &Slot| match s {
            Slot::Pit(p) => *p,
            Slot::Store(pl) => (npits + *pl as usize) as u16,
        };
        let mut next = [vec![NONE; cells], vec![NONE; cells]];
        let mut prev = [vec![NONE; cells], vec![NONE; cells]];
        for mover in 0..2u8 {
            let skipped: Vec<u16> = rules
                .sowing
                .skip
                .iter()
                .filter_map(|s| match s {
                    Skip::Store(Who::Mover) => Some(mover),
                    Skip::Store(Who::Opponent) => Some(1 - mover),
                    Skip::Store(Who::Player(p)) => Some(*p),
                    _ => None,
                })
                .map(|p| (npits + p as usize) as u16)
                .collect();
            let track: Vec<u16> = rules.tracks[mover as usize]
                .iter()
                .map(cell_of)
                .filter(|c| !skipped.contains(c))
                .collect();
            let n = track.len();
            for (i, &c) in track.iter().enumerate() {
                next[mover as usize][c as usize] = track[(i + 1) % n];
                prev[mover as usize][c as usize] = track[(i + n - 1) % n];
            }
        }
        let nrows = rules.rows.len();
        let mut opposite = vec![NONE; npits];
        for (id, pit) in rules.pits.iter().enumerate() {
            let facing = nrows - 1 - pit.row;
            if facing != pit.row {
                if let Some(&o) = rules.rows[facing].pits.get(pit.column) {
                    opposite[id] = o;
                }
            }
        }
        let mut owner: Vec<Player> = rules.pits.iter().map(|p| p.owner).collect();
        owner.extend([0, 1]);
        let sides = [0u8, 1].map(|p| {
            (0..npits as u16)
                .filter(|&i| rules.pits[i as usize].owner == p)
                .collect::<Vec<u16>>()
        });
        let mut move_order: Vec<u16> = (0..npits as u16).collect();
        move_order.sort_by(|&a, &b| {
            natural(&rules.pits[a as usize].label, &rules.pits[b as usize].label)
        });
        let of = |m: Moment| -> Vec<usize> {
            rules
                .rules
                .iter()
                .enumerate()
                .filter(|(_, r)| r.moment == m)
                .map(|(i, _)| i)
                .collect()
        };
        let (start, land, capture, turn_rules) = (
            of(Moment::Start),
            of(Moment::Land),
            of(Moment::Capture),
            of(Moment::Turn),
        );
        let end_rules = of(Moment::End);
        let skip_origin = rules.sowing.skip.contains(&Skip::Origin);
        let text = format!("{:?}{:?}", rules.rules, rules.ends);
        let tracks_repetition = text.contains("Repeated");
        let simulate = !turn_rules.is_empty()
            || capture
                .iter()
                .any(|&i| rules.rules[i].actions.contains(&Action::Forbid));
        Engine {
            all_pits: (0..npits as u16).collect(),
            rules,
            npits,
            next,
            prev,
            opposite,
            owner,
            sides,
            move_order,
            start,
            land,
            capture,
            turn_rules,
            end_rules,
            skip_origin,
            tracks_repetition,
            simulate,
        }
    }

    /// Number of cells: pits and the two stores.
    pub fn cells(&self) -> usize {
        self.npits + 2
    }

    /// The cell of a player's store.
    pub(crate) fn store_cell(&self, p: Player) -> u16 {
        (self.npits + p as usize) as u16
    }

    /// The starting position.
    pub fn start_position(&self) -> Position {
        let mut cells = self.rules.setup.seeds.clone();
        cells.extend([0, 0]);
        Position {
            cells,
            hands: self.rules.setup.hands,
            to_move: Some(self.rules.setup.first),
        }
    }

    /// Whether the game keeps the positions seen since the last capture.
    pub fn tracks_repetition(&self) -> bool {
        self.tracks_repetition
    }
}

/// Orders labels as a person would: `A2` before `A10`.
pub fn natural(a: &str, b: &str) -> std::cmp::Ordering {
    fn key(s: &str) -> (String, u64) {
        let digits = s.len() - s.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let (head, tail) = s.split_at(s.len() - digits);
        (head.to_string(), tail.parse().unwrap_or(0))
    }
    let (ka, kb) = (key(a), key(b));
    // Upper-case rows (the first player's) before lower-case ones.
    let case = |s: &str| s.chars().next().is_some_and(|c| c.is_lowercase());
    (case(a), ka).cmp(&(case(b), kb))
}

/// A game in progress: a position, the turns legal in it, and the outcome
/// once it is over. Reuses its buffers from turn to turn.
#[derive(Debug)]
pub struct Game {
    engine: Arc<Engine>,
    pos: Position,
    /// Positions since the last capture, the current one last, as flat
    /// records of [`Game::record_len`] numbers.
    seen: Vec<u32>,
    repeated: bool,
    legal: Vec<Turn>,
    outcome: Option<Outcome>,
    plies: u32,
    before: Position,
    sim: Position,
    taken: Vec<Taken>,
    keep: Vec<bool>,
}

impl Clone for Game {
    fn clone(&self) -> Game {
        let mut g = Game::empty(self.engine.clone());
        g.copy_from(self);
        g
    }
}

impl Game {
    fn empty(engine: Arc<Engine>) -> Game {
        Game {
            engine,
            pos: Position::default(),
            seen: Vec::new(),
            repeated: false,
            legal: Vec::new(),
            outcome: None,
            plies: 0,
            before: Position::default(),
            sim: Position::default(),
            taken: Vec::new(),
            keep: Vec::new(),
        }
    }

    /// A new game from the variant's setup.
    pub fn new(engine: Arc<Engine>) -> Result<Game, TooLong> {
        let pos = engine.start_position();
        Game::from_position(engine, pos, Vec::new())
    }

    /// A game from a position, with the positions seen since the last
    /// capture (flat records; see [`Game::seen`]), oldest first.
    pub fn from_position(
        engine: Arc<Engine>,
        pos: Position,
        seen: Vec<u32>,
    ) -> Result<Game, TooLong> {
        let mut g = Game::empty(engine);
        g.before = pos.clone();
        g.sim = pos.clone();
        g.pos = pos;
        g.seen = seen;
        g.settle(false)?;
        Ok(g)
    }

    /// Copies another game of the same variant without allocating when the
    /// buffers are large enough.
    pub fn copy_from(&mut self, other: &Game) {
        self.engine = other.engine.clone();
        self.pos.copy_from(&other.pos);
        self.seen.clone_from(&other.seen);
        self.repeated = other.repeated;
        self.legal.clone_from(&other.legal);
        self.outcome.clone_from(&other.outcome);
        self.plies = other.plies;
        if self.before.cells.len() != other.pos.cells.len() {
            self.before = other.pos.clone();
            self.sim = other.pos.clone();
        }
    }

    /// The engine this game is played by.
    pub fn engine(&self) -> &Arc<Engine> {
        &self.engine
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// Turns played since this game object was started.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// The legal turns, in the documented order (starting pits by label in
    /// natural order, `A` before `a`, `A2` before `A10`). Empty once the
    /// game is over.
    pub fn legal_turns(&self) -> &[Turn] {
        &self.legal
    }

    /// Length of one record in [`Game::seen`]: the player to move, every
    /// cell, both hands.
    pub fn record_len(&self) -> usize {
        self.engine.cells() + 3
    }

    /// Positions seen since the last capture, before the current one, as
    /// flat records (empty when the variant has no repetition rule).
    pub fn seen(&self) -> &[u32] {
        let n = self.seen.len().saturating_sub(self.record_len());
        &self.seen[..n]
    }

    /// Plays a legal turn. Returns an error only when a variant's turn runs
    /// past the engine's resource limit.
    pub fn play(&mut self, turn: Turn) -> Result<(), TooLong> {
        let e = self.engine.clone();
        self.before.copy_from(&self.pos);
        let mover = self.pos.to_move.unwrap_or(0);
        let applied = e.apply(&mut self.pos, &self.before, turn, &mut self.taken)?;
        self.pos.to_move = Some(if applied.again { mover } else { 1 - mover });
        self.plies += 1;
        self.settle(applied.captured)
    }

    /// After a turn (or on loading): repetition bookkeeping, the legal
    /// turns, and the end rules.
    fn settle(&mut self, captured: bool) -> Result<(), TooLong> {
        let e = self.engine.clone();
        self.outcome = None;
        if e.tracks_repetition {
            if captured {
                self.seen.clear();
            }
            let len = self.record_len();
            let mover = self.pos.to_move.map_or(2, u32::from);
            self.repeated = self.seen.chunks_exact(len).any(|r| {
                r[0] == mover
                    && r[1..1 + e.cells()] == self.pos.cells[..]
                    && r[1 + e.cells()..] == self.pos.hands[..]
            });
            self.seen.push(mover);
            self.seen.extend_from_slice(&self.pos.cells);
            self.seen.extend_from_slice(&self.pos.hands);
        }
        let Some(mover) = self.pos.to_move else {
            self.legal.clear();
            return Ok(());
        };
        self.generate(mover)?;
        for i in 0..e.rules.ends.len() {
            let end = &e.rules.ends[i];
            let mut f = e.frame(&self.pos, &self.pos, mover, NONE, NONE);
            f.no_legal_turn = self.legal.is_empty();
            f.repeated = self.repeated;
            if e.cond(&end.when, &f) {
                let winner = end.winner.as_ref().and_then(|w| e.who(w, &f));
                self.finish(i, winner);
                break;
            }
        }
        Ok(())
    }

    fn finish(&mut self, end: usize, winner: Option<Player>) {
        let e = self.engine.clone();
        let mover = self.pos.to_move.unwrap_or(0);
        for &i in &e.end_rules {
            let rule = &e.rules.rules[i];
            let f = e.frame(&self.pos, &self.pos, mover, NONE, NONE);
            if !e.cond(&rule.when, &f) {
                continue;
            }
            for a in &rule.actions {
                if *a == Action::Collect {
                    for pit in 0..e.npits {
                        let owner = e.owner[pit];
                        let seeds = std::mem::take(&mut self.pos.cells[pit]);
                        self.pos.cells[e.store_cell(owner) as usize] += seeds;
                    }
                }
            }
        }
        let scores = [0u8, 1].map(|p| {
            let mut f = e.frame(&self.pos, &self.pos, mover, NONE, NONE);
            f.each = p;
            e.num(&e.rules.score, &f)
        });
        let winner = match e.rules.ends[end].winner {
            Some(_) => winner,
            None => match scores[0].cmp(&scores[1]) {
                std::cmp::Ordering::Greater => Some(0),
                std::cmp::Ordering::Less => Some(1),
                std::cmp::Ordering::Equal => None,
            },
        };
        self.pos.to_move = None;
        self.legal.clear();
        self.outcome = Some(Outcome {
            winner,
            reason: e.rules.ends[end].name.clone(),
            scores,
        });
    }

    /// Fills `self.legal` with the turns the rules allow `mover`.
    fn generate(&mut self, mover: Player) -> Result<(), TooLong> {
        let e = self.engine.clone();
        self.legal.clear();
        for &pit in &e.move_order {
            if e.next[mover as usize][pit as usize] == NONE {
                continue;
            }
            let f = e.frame(&self.pos, &self.pos, mover, pit, NONE);
            let ok = e.start.iter().all(|&i| {
                let r = &e.rules.rules[i];
                !e.cond(&r.when, &f)
                    || r.actions.iter().all(|a| match a {
                        Action::Require(c) => e.cond(c, &f),
                        _ => true,
                    })
            });
            if ok {
                self.legal.push(Turn { pit });
            }
        }
        // Preferences among starting pits, in file order.
        for &i in &e.start {
            let r = &e.rules.rules[i];
            for a in &r.actions {
                if let Action::Prefer(c) = a {
                    let pos = &self.pos;
                    let holds = |t: &Turn| {
                        let f = e.frame(pos, pos, mover, t.pit, NONE);
                        e.cond(&r.when, &f) && e.cond(c, &f)
                    };
                    if self.legal.iter().any(holds) {
                        self.legal.retain(holds);
                    }
                }
            }
        }
        if e.simulate {
            self.judge_turns(mover)?;
        }
        Ok(())
    }

    /// Plays each candidate turn on a scratch position and keeps those the
    /// `turn` rules (and forbidding `capture` rules) allow.
    fn judge_turns(&mut self, mover: Player) -> Result<(), TooLong> {
        let e = self.engine.clone();
        self.keep.clear();
        self.keep.resize(self.legal.len(), true);
        let mut any_judged = false;
        for &i in &e.turn_rules {
            let r = &e.rules.rules[i];
            let f = e.frame(&self.pos, &self.pos, mover, NONE, NONE);
            if e.cond(&r.when, &f) {
                any_judged = true;
            }
        }
        let forbids = e
            .capture
            .iter()
            .any(|&i| e.rules.rules[i].actions.contains(&Action::Forbid));
        if !any_judged && !forbids {
            return Ok(());
        }
        // Each rule filters in file order; `prefer` only when something is left.
        let mut verdicts: Vec<(usize, usize, bool)> = Vec::new();
        for (k, t) in self.legal.clone().into_iter().enumerate() {
            self.sim.copy_from(&self.pos);
            let applied = e.apply(&mut self.sim, &self.pos, t, &mut self.taken)?;
            if applied.forbidden {
                self.keep[k] = false;
                continue;
            }
            for &i in &e.turn_rules {
                let r = &e.rules.rules[i];
                let fb = e.frame(&self.pos, &self.pos, mover, t.pit, NONE);
                if !e.cond(&r.when, &fb) {
                    continue;
                }
                let fa = e.frame(&self.sim, &self.pos, mover, t.pit, applied.last);
                for (j, a) in r.actions.iter().enumerate() {
                    match a {
                        Action::Require(c) if !e.cond(c, &fa) => self.keep[k] = false,
                        Action::Forbid => self.keep[k] = false,
                        Action::Prefer(c) => verdicts.push((k, i * 64 + j, e.cond(c, &fa))),
                        _ => {}
                    }
                }
            }
        }
        let mut k = 0;
        let keep = &self.keep;
        // Preferences: among the turns still kept, if any satisfies, drop the others.
        let mut prefs: Vec<usize> = verdicts.iter().map(|v| v.1).collect();
        prefs.sort_unstable();
        prefs.dedup();
        let mut keep = keep.clone();
        for p in prefs {
            let sat: Vec<usize> = verdicts
                .iter()
                .filter(|v| v.1 == p && v.2 && keep[v.0])
                .map(|v| v.0)
                .collect();
            if !sat.is_empty() {
                for v in verdicts.iter().filter(|v| v.1 == p && !v.2) {
                    keep[v.0] = false;
                }
            }
        }
        self.legal.retain(|_| {
            let r = keep[k];
            k += 1;
            r
        });
        Ok(())
    }
}
