//! The engine: plays a variant's rules IR. It knows nothing of the syntax.
//! It compiles the IR once per variant ([`compiled`]) and allocates nothing
//! per turn in its hot path: legal turns, applying a turn and judging the
//! end reuse buffers the [`Game`] owns.

mod compiled;
mod eval;
mod game;
mod position;
mod turn;

pub use game::Game;
pub use position::Position;
pub use turn::{TooLong, MAX_SOWINGS};

use crate::ir::{Action, Cond, Moment, Num, Player, Rules, Skip, Slot, Who};
use compiled::{CRule, Compiler, C, N, W};

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
    /// The rules compiled for each mover.
    plan: [Plan; 2],
    /// Each player's score.
    scores: [N; 2],
    skip_origin: bool,
    /// Some condition asks whether a position repeats.
    tracks_repetition: bool,
    /// Turns must be played out to judge their legality.
    simulate: bool,
    /// Some `capture` rule forbids the turn.
    forbids: bool,
    /// Some rule reads `before(…)` while a turn is played.
    reads_before: bool,
}

/// The rules as one player plays them.
#[derive(Debug)]
struct Plan {
    /// The pits that may start a turn, in the order turns are listed
    /// (labels in natural order), each with the `start` rules specialised
    /// for it. A pit whose rules can never allow it is left out.
    candidates: Vec<Candidate>,
    land: Vec<CRule>,
    capture: Vec<CRule>,
    turn: Vec<CRule>,
    at_end: Vec<CRule>,
    ends: Vec<(C, Option<W>)>,
}

#[derive(Debug)]
struct Candidate {
    pit: u16,
    /// Every `require` of the `start` rules, folded into one condition.
    allowed: C,
    /// The `start` rules, for their preferences.
    start: Vec<CRule>,
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
    /// Builds the engine's tables from checked rules and compiles the rules
    /// for each player.
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
        let all: Vec<u16> = (0..npits as u16).collect();
        let mut move_order = all.clone();
        move_order.sort_by(|&a, &b| {
            natural(&rules.pits[a as usize].label, &rules.pits[b as usize].label)
        });
        let at = |m: Moment| -> Vec<usize> {
            (0..rules.rules.len())
                .filter(|&i| rules.rules[i].moment == m)
                .collect()
        };
        let compiler = Compiler {
            rules: &rules,
            npits,
            opposite: &opposite,
            owner: &owner,
            sides: &sides,
            all: &all,
        };
        let plan = [0u8, 1].map(|mover| {
            let rules_at = |m: Moment| {
                at(m)
                    .into_iter()
                    .map(|i| compiler.rule(i, mover, None))
                    .collect::<Vec<_>>()
            };
            let candidates = move_order
                .iter()
                .filter(|&&pit| next[mover as usize][pit as usize] != NONE)
                .map(|&pit| {
                    let start: Vec<CRule> = at(Moment::Start)
                        .into_iter()
                        .map(|i| compiler.rule(i, mover, Some(pit)))
                        .collect();
                    Candidate {
                        pit,
                        allowed: requirements(&start),
                        start,
                    }
                })
                .filter(|c| c.allowed != C::Const(false))
                .collect();
            Plan {
                candidates,
                land: rules_at(Moment::Land),
                capture: rules_at(Moment::Capture),
                turn: rules_at(Moment::Turn),
                at_end: rules_at(Moment::End),
                ends: rules
                    .ends
                    .iter()
                    .map(|e| {
                        (
                            compiler.cond_for(&e.when, mover),
                            e.winner.as_ref().map(|w| compiler.who_for(w, mover)),
                        )
                    })
                    .collect(),
            }
        });
        let scores = [compiler.score(0), compiler.score(1)];
        let tracks_repetition = rules_mention(&rules, &|c| *c == Cond::Repeated, &|_| false);
        let reads_before = rules_mention(&rules, &|_| false, &|n| matches!(n, Num::Before(_)));
        let forbids = at(Moment::Capture)
            .iter()
            .any(|&i| rules.rules[i].actions.contains(&Action::Forbid));
        let simulate = !at(Moment::Turn).is_empty() || forbids;
        let skip_origin = rules.sowing.skip.contains(&Skip::Origin);
        Engine {
            rules,
            npits,
            next,
            prev,
            opposite,
            owner,
            sides,
            plan,
            scores,
            skip_origin,
            tracks_repetition,
            simulate,
            forbids,
            reads_before,
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

/// Whether some rule has a condition node `pc` accepts or a number node
/// `pn` accepts.
fn rules_mention(rules: &Rules, pc: &dyn Fn(&Cond) -> bool, pn: &dyn Fn(&Num) -> bool) -> bool {
    fn num(n: &Num, pn: &dyn Fn(&Num) -> bool) -> bool {
        pn(n)
            || match n {
                Num::Before(inner) => num(inner, pn),
                Num::Arith(_, a, b) => num(a, pn) || num(b, pn),
                _ => false,
            }
    }
    fn cond(c: &Cond, pc: &dyn Fn(&Cond) -> bool, pn: &dyn Fn(&Num) -> bool) -> bool {
        pc(c)
            || match c {
                Cond::Not(inner) => cond(inner, pc, pn),
                Cond::And(v) | Cond::Or(v) => v.iter().any(|c| cond(c, pc, pn)),
                Cond::Compare(_, a, b) => num(a, pn) || num(b, pn),
                Cond::InRange(a, b, c) => num(a, pn) || num(b, pn) || num(c, pn),
                _ => false,
            }
    }
    let action = |a: &Action| match a {
        Action::Require(c) | Action::Prefer(c) => cond(c, pc, pn),
        Action::Capture {
            chain: Some((_, c)),
            ..
        } => cond(c, pc, pn),
        _ => false,
    };
    rules.ends.iter().any(|e| cond(&e.when, pc, pn))
        || rules
            .rules
            .iter()
            .any(|r| cond(&r.when, pc, pn) || r.actions.iter().any(action))
}

/// What the `start` rules require of a pit, as one condition: for each
/// rule, `not when or (every require)`, constant parts folded.
fn requirements(rules: &[CRule]) -> C {
    let mut all = Vec::new();
    for r in rules {
        let mut needs: Vec<C> = r
            .actions
            .iter()
            .filter_map(|a| match a {
                compiled::A::Require(c) => Some(c.clone()),
                _ => None,
            })
            .collect();
        let need = match needs.len() {
            0 => continue,
            1 => needs.pop().expect("one"),
            _ => C::And(needs.into()),
        };
        let part = match &r.when {
            C::Const(true) => need,
            C::Const(false) => continue,
            when => C::Or(vec![C::Not(Box::new(when.clone())), need].into()),
        };
        match part {
            C::Const(true) => {}
            C::Const(false) => return C::Const(false),
            p => all.push(p),
        }
    }
    match all.len() {
        0 => C::Const(true),
        1 => all.pop().expect("one"),
        _ => C::And(all.into()),
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
