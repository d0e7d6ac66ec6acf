//! One turn: lift, sow, judge where the last seed landed (capture, relay,
//! another turn, stop), and judge captures. Nothing here allocates once the
//! scratch buffers have grown to the board's size.

use super::compiled::{CRule, A, V};
use super::eval::Ctx;
use super::position::Position;
use super::{Engine, Turn, NONE};
use crate::ir::{Direction, Player, Take};

/// The most sowings (laps) one turn may make before it is stopped with an
/// error: a resource limit, so that no variant file can make a turn hang.
pub const MAX_SOWINGS: u32 = 100_000;

/// The most seeds one turn may sow, for the same reason (a few hundredths
/// of a second of work).
pub const MAX_SOWN: u64 = 20_000_000;

/// Seeds taken by a capture and not yet put away.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Taken {
    pub from: u16,
    pub seeds: u32,
    pub to: u16,
}

/// What a turn did.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Applied {
    /// A rule forbade the turn.
    pub forbidden: bool,
    /// The mover moves again.
    pub again: bool,
    /// Some seeds were captured.
    pub captured: bool,
    /// Where the last seed of the last sowing landed.
    pub last: u16,
    /// How many seeds were captured.
    pub seeds_captured: i64,
}

/// A turn that did not end within [`MAX_SOWINGS`] sowings or
/// [`MAX_SOWN`] seeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooLong;

impl Engine {
    /// One step along the mover's track, passing over skipped stores.
    #[inline]
    pub(crate) fn step(&self, mover: Player, cell: u16, dir: Direction) -> u16 {
        let table = match dir {
            Direction::Forward => &self.next[mover as usize],
            Direction::Backward => &self.prev[mover as usize],
        };
        table[cell as usize]
    }

    /// Plays `turn` on `pos`; `before` is a copy of `pos` the caller keeps.
    pub(crate) fn apply(
        &self,
        pos: &mut Position,
        before: &Position,
        turn: Turn,
        taken: &mut Vec<Taken>,
    ) -> Result<Applied, TooLong> {
        let mover = pos.to_move.unwrap_or(0);
        let plan = &self.plan[mover as usize];
        let Some(mut dir) = self.turn_direction(mover, turn) else {
            // A choice that means no direction here: nothing is sown.
            return Ok(Applied {
                forbidden: true,
                last: turn.pit,
                ..Applied::default()
            });
        };
        let origin = turn.pit;
        let mut out = Applied::default();
        let mut captured: i64 = 0;
        let mut from = origin;
        // The first seed goes past `from` (a sowing) or into it (a resowing).
        let mut into_from = false;
        let mut seeds = self.lift(pos, origin);
        let mut sowings = 0;
        let mut sown: u64 = 0;
        loop {
            sowings += 1;
            sown += seeds as u64;
            if sowings > MAX_SOWINGS || sown > MAX_SOWN {
                return Err(TooLong);
            }
            // Sow.
            let mut cell = from;
            if into_from && seeds > 0 {
                pos.cells[cell as usize] += 1;
                seeds -= 1;
            }
            let mut skipped = 0;
            while seeds > 0 {
                let next = self.step(mover, cell, dir);
                if next == NONE {
                    break;
                }
                cell = next;
                if self.skip_origin && cell == origin {
                    // A track holding only the origin would skip forever.
                    skipped += 1;
                    if skipped > 1 {
                        break;
                    }
                    continue;
                }
                skipped = 0;
                pos.cells[cell as usize] += 1;
                seeds -= 1;
            }
            out.last = cell;
            // Where the last seed landed: the first rule that applies decides.
            fn ctx<'p>(
                pos: &'p Position,
                before: &'p Position,
                origin: u16,
                last: u16,
                captured: i64,
            ) -> Ctx<'p> {
                let mut f = Ctx::new(pos, before, origin, last);
                f.captured = captured;
                f
            }
            let rule = plan
                .land
                .iter()
                .find(|r| self.cond(&r.when, &ctx(pos, before, origin, cell, captured)));
            let mut relay = false;
            let mut resow = None;
            if let Some(rule) = rule {
                taken.clear();
                for action in &rule.actions {
                    match action {
                        A::Capture { place, chain, to } => {
                            let f = ctx(pos, before, origin, cell, captured);
                            let (start, to) = (self.place(place, &f), self.place(to, &f));
                            self.take(pos, start, to, taken);
                            if let Some((chain_dir, while_)) = chain {
                                let walk = if *chain_dir == Direction::Backward {
                                    reverse(dir)
                                } else {
                                    dir
                                };
                                let mut here = start;
                                for _ in 0..self.cells() {
                                    here = self.step(mover, here, walk);
                                    if here == NONE || here == start {
                                        break;
                                    }
                                    let mut f = ctx(pos, before, origin, cell, captured);
                                    f.here = here;
                                    if !self.cond(while_, &f) {
                                        break;
                                    }
                                    self.take(pos, here, to, taken);
                                }
                            }
                        }
                        A::CaptureRegion { region, to } => {
                            self.take_region(pos, before, origin, cell, region, to, taken)
                        }
                        A::Resow { from, heading } => {
                            let at = self.place(from, &ctx(pos, before, origin, cell, captured));
                            resow = self.heading(mover, at, *heading).map(|d| (at, d));
                        }
                        A::Set { var, value } => self.set(pos, before, origin, cell, var, *value),
                        A::Relay => relay = true,
                        A::Again => out.again = true,
                        A::Stop => relay = false,
                        _ => {}
                    }
                }
                if !taken.is_empty() {
                    let kept = resow.is_some();
                    let n = self.judge_capture(
                        &plan.capture,
                        pos,
                        before,
                        origin,
                        cell,
                        taken,
                        kept,
                        &mut out,
                    );
                    captured += n as i64;
                    if let (Some((at, d)), true) = (resow, n > 0) {
                        // The captured seeds are sown on from `at`, the first into it.
                        from = at;
                        dir = d;
                        seeds = n;
                        into_from = true;
                        continue;
                    }
                }
            }
            if !relay || out.forbidden {
                break;
            }
            from = cell;
            into_from = false;
            seeds = self.lift(pos, cell);
        }
        out.seeds_captured = captured;
        for rule in &plan.after {
            let mut f = Ctx::new(pos, before, origin, out.last);
            f.captured = captured;
            if !self.cond(&rule.when, &f) {
                continue;
            }
            for a in &rule.actions {
                if let A::Set { var, value } = a {
                    self.set(pos, before, origin, out.last, var, *value);
                }
            }
        }
        Ok(out)
    }

    /// Gives a variable's instance a value.
    pub(crate) fn set(
        &self,
        pos: &mut Position,
        before: &Position,
        origin: u16,
        last: u16,
        var: &V,
        value: u32,
    ) {
        let slot = self.slot(var, &Ctx::new(pos, before, origin, last));
        if let Some(v) = pos.vars.get_mut(slot) {
            *v = value;
        }
    }

    /// Lifts the seeds a sowing takes from a pit.
    fn lift(&self, pos: &mut Position, cell: u16) -> u32 {
        let have = pos.cells[cell as usize];
        let n = match self.rules.sowing.take {
            Take::All => have,
            Take::Count(k) => k.min(have),
        };
        pos.cells[cell as usize] -= n;
        n
    }

    /// Takes a place's seeds into the capture being made.
    fn take(&self, pos: &mut Position, from: u16, to: u16, taken: &mut Vec<Taken>) {
        if from == NONE || to == NONE || from == to {
            return;
        }
        let seeds = std::mem::take(&mut pos.cells[from as usize]);
        if seeds > 0 {
            taken.push(Taken { from, seeds, to });
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn take_region(
        &self,
        pos: &mut Position,
        before: &Position,
        origin: u16,
        last: u16,
        region: &super::compiled::R,
        to: &super::compiled::P,
        taken: &mut Vec<Taken>,
    ) {
        let f = Ctx::new(pos, before, origin, last);
        let to = self.place(to, &f);
        let cells = self.region(region, &f);
        for &c in cells {
            self.take(pos, c, to, taken);
        }
    }

    /// Runs the `capture` rules on seeds just taken, then puts them away
    /// (or back, if a rule cancels the capture).
    #[allow(clippy::too_many_arguments)]
    fn judge_capture(
        &self,
        rules: &[CRule],
        pos: &mut Position,
        before: &Position,
        origin: u16,
        last: u16,
        taken: &mut Vec<Taken>,
        kept: bool,
        out: &mut Applied,
    ) -> u32 {
        let mut cancel = false;
        for rule in rules {
            if !self.cond(&rule.when, &Ctx::new(pos, before, origin, last)) {
                continue;
            }
            for action in &rule.actions {
                match action {
                    A::Cancel => cancel = true,
                    A::Set { var, value } => self.set(pos, before, origin, last, var, *value),
                    A::Forbid => out.forbidden = true,
                    A::CaptureRegion { region, to } => {
                        self.take_region(pos, before, origin, last, region, to, taken)
                    }
                    A::Capture { place, to, .. } => {
                        let f = Ctx::new(pos, before, origin, last);
                        let (c, to) = (self.place(place, &f), self.place(to, &f));
                        self.take(pos, c, to, taken);
                    }
                    _ => {}
                }
            }
        }
        let mut n = 0;
        for t in taken.iter() {
            if cancel {
                pos.cells[t.from as usize] += t.seeds;
            } else {
                // Seeds to be resown stay out of the stores.
                if !kept {
                    pos.cells[t.to as usize] += t.seeds;
                }
                n += t.seeds;
                out.captured = true;
            }
        }
        taken.clear();
        n
    }
}

fn reverse(d: Direction) -> Direction {
    match d {
        Direction::Forward => Direction::Backward,
        Direction::Backward => Direction::Forward,
    }
}
