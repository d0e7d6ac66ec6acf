//! Where a rule is judged: the turn as it stands between its steps
//! ([`Step`]), and the site a moment's rules see ([`Site`]): the position
//! the turn started from, the look ahead, the pit `here` stands for. What
//! the words of the rules mean there is [`Site::ctx`]. A `Step` is made and
//! moved on by the turn (`turn`), whose fields it shares with this module;
//! the actions read it only through a `Site`.

use std::cell::Cell;

use super::eval::{Ctx, Foresight};
use super::position::Position;
use super::{Turn, NONE};
use crate::ir::Direction;

/// Where a turn stands between its steps: what the words of its rules mean.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Step {
    /// The phase at the start of the turn (0 when the rules are not staged;
    /// at most `limits::MAX_PHASES`).
    pub(super) phase: u16,
    pub(super) origin: u16,
    pub(super) last: u16,
    /// The pit last lifted to be sown: the origin, then each relay's.
    pub(super) lifted: u16,
    pub(super) dir: Direction,
    pub(super) sowings: i64,
    pub(super) captured: i64,
    pub(super) turn: Turn,
    /// The flags the turn's rules have read (a bit per flag), and from
    /// bit 32 on the sowings at which they read the per-sowing flag.
    pub(super) asked: Cell<u64>,
    /// Whether a rule has changed a variable since the last sowing.
    pub(super) changed: Cell<bool>,
    /// The work done so far (see `Scratch::work` in `turn`).
    pub(super) spent: Cell<u64>,
    /// The most allowed (see `Scratch::limit` in `turn`).
    pub(super) budget: u64,
    /// The work at which the turn next looks whether it is over its
    /// budget or asked to stop ([`Step::past_check`]).
    pub(super) check: Cell<u64>,
}

/// How often a turn looks whether the work it is part of is asked to stop
/// (`runs::stopped`): every so many units of its work, some milliseconds.
const POLL: u64 = 1 << 24;

impl Step {
    /// The step kept for the `after` rules: what the turn did, without
    /// what it cost (the caller's, not part of what it did).
    pub(crate) fn kept(&self) -> Step {
        Step {
            spent: Cell::new(0),
            check: Cell::new(0),
            ..self.clone()
        }
    }

    /// The way the sowing now going on runs.
    pub(crate) fn dir(&self) -> Direction {
        self.dir
    }

    /// Notes that a rule changed a variable.
    pub(crate) fn note_change(&self) {
        self.changed.set(true);
    }

    /// Adds to the work done.
    #[inline(always)]
    pub(super) fn charge(&self, work: u64) {
        self.spent.set(self.spent.get() + work);
    }

    /// Whether the turn is to stop now: past its budget, or past its next
    /// check ([`Step::check`]) and the work it is part of is asked to
    /// stop (a deadline passed, a call interrupted: see
    /// `runs::Cancel`). A turn so stopped fails as one past the engine's
    /// limit; the caller that asked knows better.
    #[inline(always)]
    pub(super) fn over(&self) -> bool {
        self.spent.get() > self.check.get() && self.past_check()
    }

    #[cold]
    #[inline(never)]
    fn past_check(&self) -> bool {
        let spent = self.spent.get();
        if spent > self.budget || crate::runs::stopped() {
            return true;
        }
        self.check.set(Step::next_check(spent, self.budget));
        false
    }

    /// The first check of a turn that has spent `spent` of `budget`.
    pub(super) fn next_check(spent: u64, budget: u64) -> u64 {
        budget.min(spent.saturating_add(POLL))
    }

    pub(crate) fn ctx<'p>(&'p self, pos: &'p Position, before: &'p Position) -> Ctx<'p> {
        let mut f = Ctx::new(pos, before, self.origin, self.last);
        f.asked = Some(&self.asked);
        f.captured = self.captured;
        f.sowings = self.sowings;
        f.lifted = self.lifted;
        f.dir = self.dir;
        f.choice = self.turn.choice;
        f.flags = self.turn.flags;
        f.marks = self.turn.marks();
        f.phase = Some(self.phase);
        f
    }
}

/// Where a moment's rules are judged: the position the turn started from,
/// the turn as it stands (none at the `end` moment), the look ahead (at
/// `after`), and the pit `here` stands for (at `lift`).
pub(crate) struct Site<'a> {
    pub before: &'a Position,
    pub at: Option<&'a Step>,
    pub look: Option<&'a dyn Foresight>,
    pub here: u16,
    /// Seeds are being lifted to be sown (at `lift`): `sowings` counts the
    /// sowing they begin.
    pub lifting: bool,
    /// Seeds the moment's captures have taken and the turn has not yet
    /// counted: `captured` reads them too.
    pub pending: std::cell::Cell<u32>,
    /// Captures to the mover hold their seeds for a resowing (the `land`
    /// rule that took them resows, and its resowing can start).
    pub hold: bool,
}

impl<'a> Site<'a> {
    /// A site during a turn.
    pub(crate) fn turn(before: &'a Position, at: &'a Step) -> Site<'a> {
        Site {
            before,
            at: Some(at),
            look: None,
            here: NONE,
            lifting: false,
            pending: std::cell::Cell::new(0),
            hold: false,
        }
    }

    /// A site after a turn (at `end` and `round`).
    pub(crate) fn after_play(before: &'a Position) -> Site<'a> {
        Site {
            before,
            at: None,
            look: None,
            here: NONE,
            lifting: false,
            pending: std::cell::Cell::new(0),
            hold: false,
        }
    }

    /// What the words of the rules mean on `pos`.
    #[inline]
    pub(crate) fn ctx<'p>(&'p self, pos: &'p Position) -> Ctx<'p> {
        let mut f = match self.at {
            Some(at) => at.ctx(pos, self.before),
            None => Ctx::new(pos, self.before, NONE, NONE),
        };
        f.here = self.here;
        f.look = self.look;
        f.sowings += self.lifting as i64;
        f.captured += self.pending.get() as i64;
        f
    }

    /// The sowing now going on (forward when there is none).
    pub(super) fn going(&self) -> Direction {
        self.at.map_or(Direction::Forward, Step::dir)
    }
}
