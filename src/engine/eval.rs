//! Evaluates the IR's conditions and numbers against a position.

use super::position::Position;
use super::{Engine, NONE};
use crate::ir::{ArithOp, CmpOp, Cond, Num, Place, Player, Region, Who};

/// What the turn words mean while a condition is judged.
pub(crate) struct Frame<'a> {
    pub pos: &'a Position,
    /// The position at the start of the turn (`before(…)`).
    pub before: &'a Position,
    pub mover: Player,
    pub origin: u16,
    pub last: u16,
    pub here: u16,
    pub each: Player,
    pub no_legal_turn: bool,
    pub repeated: bool,
}

impl Engine {
    pub(crate) fn who(&self, w: &Who, f: &Frame) -> Option<Player> {
        match w {
            Who::Mover => Some(f.mover),
            Who::Opponent => Some(1 - f.mover),
            Who::Player(p) => Some(*p),
            Who::Each => Some(f.each),
            Who::Owner(place) => {
                let c = self.place(place, f);
                (c != NONE).then(|| self.owner[c as usize])
            }
        }
    }

    /// The cell a place stands for, or [`NONE`].
    pub(crate) fn place(&self, p: &Place, f: &Frame) -> u16 {
        match p {
            Place::Pit(id) => *id,
            Place::Last => f.last,
            Place::Origin => f.origin,
            Place::Here => f.here,
            Place::Store(w) => match self.who(w, f) {
                Some(pl) => self.store_cell(pl),
                None => NONE,
            },
            Place::Named(i, w) => match self.who(w, f) {
                Some(pl) => self.rules.named_pits[*i].pits[pl as usize],
                None => NONE,
            },
            Place::Opposite(inner) => {
                let c = self.place(inner, f);
                if (c as usize) < self.npits {
                    self.opposite[c as usize]
                } else {
                    NONE
                }
            }
        }
    }

    pub(crate) fn region<'e>(&'e self, r: &Region, f: &Frame) -> &'e [u16] {
        match r {
            Region::Board => &self.all_pits,
            Region::Side(w) => match self.who(w, f) {
                Some(p) => &self.sides[p as usize],
                None => &[],
            },
            Region::Named(i, w) => match self.who(w, f) {
                Some(p) => &self.rules.regions[*i].pits[p as usize],
                None => &[],
            },
        }
    }

    fn seeds_of(pos: &Position, c: u16) -> i64 {
        pos.cells.get(c as usize).map_or(0, |&s| s as i64)
    }

    pub(crate) fn num(&self, n: &Num, f: &Frame) -> i64 {
        match n {
            Num::Int(k) => *k,
            Num::Seeds(p) => Self::seeds_of(f.pos, self.place(p, f)),
            Num::SeedsIn(r) => self
                .region(r, f)
                .iter()
                .map(|&c| f.pos.cells[c as usize] as i64)
                .sum(),
            Num::Hand(w) => self.who(w, f).map_or(0, |p| f.pos.hands[p as usize] as i64),
            Num::Total => f.pos.total() as i64,
            Num::Before(inner) => {
                let g = Frame {
                    pos: f.before,
                    ..*f
                };
                self.num(inner, &g)
            }
            Num::Arith(op, a, b) => {
                let (x, y) = (self.num(a, f), self.num(b, f));
                match op {
                    ArithOp::Add => x.saturating_add(y),
                    ArithOp::Sub => x.saturating_sub(y),
                    ArithOp::Mul => x.saturating_mul(y),
                    ArithOp::Div => x.checked_div(y).unwrap_or(0),
                    ArithOp::Rem => x.checked_rem(y).unwrap_or(0),
                }
            }
        }
    }

    pub(crate) fn cond(&self, c: &Cond, f: &Frame) -> bool {
        match c {
            Cond::True => true,
            Cond::Not(inner) => !self.cond(inner, f),
            Cond::And(v) => v.iter().all(|c| self.cond(c, f)),
            Cond::Or(v) => v.iter().any(|c| self.cond(c, f)),
            Cond::Compare(op, a, b) => {
                let (x, y) = (self.num(a, f), self.num(b, f));
                match op {
                    CmpOp::Eq => x == y,
                    CmpOp::Ne => x != y,
                    CmpOp::Lt => x < y,
                    CmpOp::Le => x <= y,
                    CmpOp::Gt => x > y,
                    CmpOp::Ge => x >= y,
                }
            }
            Cond::InRange(n, lo, hi) => {
                let x = self.num(n, f);
                self.num(lo, f) <= x && x <= self.num(hi, f)
            }
            Cond::SamePlace(a, b) => {
                let x = self.place(a, f);
                x != NONE && x == self.place(b, f)
            }
            Cond::SamePlayer(a, b) => match (self.who(a, f), self.who(b, f)) {
                (Some(x), Some(y)) => x == y,
                _ => false,
            },
            Cond::PlaceIn(p, r) => {
                let x = self.place(p, f);
                x != NONE && self.region(r, f).contains(&x)
            }
            Cond::NoLegalTurn => f.no_legal_turn,
            Cond::Repeated => f.repeated,
        }
    }
}
