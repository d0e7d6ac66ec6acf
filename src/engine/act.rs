//! Carrying out a rule's actions: one routine for every moment, so that an
//! action does the same wherever the moment table (`ir::Moment`) lets a
//! rule use it. What an action leaves to its moment to do (relay, stop,
//! another turn, a resowing, cancelling or forbidding a capture) is noted
//! in [`Effects`]. Actions act in their order: a capture puts the seeds it
//! takes where they go at once (those for a resowing are held), and notes
//! them in the taken list, which `cancel` undoes and the moment then counts
//! ([`Engine::put_away`]).

use super::compiled::{CChain, CRule, Most, Steer, A, N, P, R, V, W};
use super::eval::Ctx;
use super::position::Position;
use super::shown::Shown;
use super::site::Site;
use super::{Engine, Turn, NONE};
use crate::ir::Direction;

/// Seeds a capture took, not yet counted by the moment.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Taken {
    pub from: u16,
    pub seeds: u32,
    /// The store's or pit's cell they went into, or [`NONE`]: held for
    /// the rule's resowing (where the resowing cannot start, they go back
    /// where they were: see [`Engine::give_back`]).
    pub to: u16,
}

/// What a rule's actions left to its moment.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Effects {
    /// Sow on from the landing pit: so many seeds, or (`None`) all.
    /// `stop` takes it back.
    pub relay: Option<Option<u32>>,
    /// The pit a relay lifts, where it is not the landing pit (`relay
    /// from PLACE`; [`NONE`] where that place is none).
    pub relay_from: Option<u16>,
    /// The way a relay goes, where it turns (`relay backward`).
    pub relay_dir: Option<Direction>,
    /// Sow the seeds captured without a destination, the first into this
    /// cell, going this way.
    pub resow: Option<(u16, Direction)>,
    /// The rule resows (`resow`), whether or not its resowing can start.
    pub resows: bool,
    /// The mover moves again.
    pub again: bool,
    /// The turn is not legal.
    pub forbid: bool,
}

impl Effects {
    /// Where the seeds the rule's captures took with no destination of
    /// their own go.
    pub(crate) fn unsent(&self) -> Unsent {
        match self.resow {
            Some(_) => Unsent::Resow,
            None => Unsent::Store,
        }
    }

    /// The rule resows, but its resowing cannot start (its place is none
    /// or off the mover's track, or its heading leads nowhere from there):
    /// nothing is taken for it.
    pub(crate) fn resowing_fails(&self) -> bool {
        self.resows && self.resow.is_none()
    }

    /// Takes what a rule's steering actions say (see [`Steer`]).
    #[inline(always)]
    fn steer(&mut self, s: Steer) {
        if let Some(relay) = s.relay {
            self.relay = relay;
        }
        self.again |= s.again;
        self.forbid |= s.forbid;
    }
}

/// Where seeds a capture took with no destination of their own (see
/// [`Taken::to`]) go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unsent {
    /// Into the mover's store.
    Store,
    /// Kept, for the rule's resowing to sow.
    Resow,
}

/// Buffers the actions reuse.
#[derive(Debug, Default)]
pub(crate) struct Acts {
    /// Seeds taken and not yet put away.
    pub taken: Vec<Taken>,
    /// The variable slots a `set` gives values to, before it gives them.
    writes: Vec<(usize, u32)>,
    /// The pits a `fill` fills, before it fills them.
    filled: Vec<u16>,
    /// The pits a capture's chain walked to and found to hold, before it
    /// takes them.
    walked: Vec<u16>,
    /// Whether the rules run are noted in `fired` (a game traced, see
    /// [`super::Game::trace_rules`]).
    pub tracing: bool,
    /// The rules run while tracing (indices in the rules' `rules`), in the
    /// order they ran.
    pub fired: Vec<u16>,
    /// The turn's steps, while it is shown step by step.
    pub shown: Option<Box<Shown>>,
}

impl Engine {
    /// Carries out a rule's actions on `pos`, whatever the moment:
    /// captures take seeds into `acts.taken`, `set` gives values at once,
    /// and what is left to the moment is noted in `fx`.
    #[inline(always)]
    pub(crate) fn run(
        &self,
        rule: &CRule,
        pos: &mut Position,
        site: &Site,
        acts: &mut Acts,
        fx: &mut Effects,
    ) {
        if acts.tracing {
            acts.fired.push(rule.id);
        }
        fx.steer(rule.steer);
        if rule.acts {
            let before = acts.shown.as_ref().map(|_| pos.cells.clone());
            for a in &rule.actions {
                self.act(a, pos, site, acts, fx);
            }
            if let (Some(shown), Some(before)) = (&mut acts.shown, before) {
                shown.note_rule(&before, self.board.npits, pos);
            }
        }
    }

    /// Carries out one action (see [`Engine::run`]).
    #[inline(always)]
    fn act(&self, a: &A, pos: &mut Position, site: &Site, acts: &mut Acts, fx: &mut Effects) {
        match a {
            // Judged where turns are listed (`game`): they say which
            // turns are legal, and change nothing.
            A::Require(_) | A::Prefer(_) => {}
            A::Capture {
                place,
                chain,
                to,
                most,
            } => {
                let most = self.most(most, pos, site);
                self.capture(place, chain, (to, most), pos, site, acts)
            }
            A::CaptureRegion { region, to, most } => {
                let most = self.most(most, pos, site);
                self.capture_region(region, to, most, pos, site, acts)
            }
            A::Resow { from, heading } => {
                fx.resows = true;
                fx.resow = self.resow(from, *heading, pos, site);
            }
            A::Set { var, value } => self.set(var, *value, pos, site, acts),
            A::SetPlayer { var, who, values } => {
                if let Some(p) = self.who(who, &site.ctx(pos)) {
                    self.set(var, values[p as usize & 1], pos, site, acts);
                }
            }
            A::SetNumber { var, to, low, high } => {
                let n = self.num(to, &site.ctx(pos)).clamp(*low, *high);
                self.set(var, (n - low) as u32, pos, site, acts);
            }
            // Folded into the rule's `Steer` when it was compiled.
            A::Relay(_) | A::Stop | A::Again | A::Forbid => {}
            A::Cancel => self.cancel(pos, site, &mut acts.taken),
            A::Collect => self.collect(pos),
            A::Reset => self.lay_out(pos),
            A::RelayGoing(d) => {
                fx.relay = Some(None);
                fx.relay_dir = Some(*d);
            }
            A::RelayFrom(place) => {
                fx.relay = Some(None);
                fx.relay_from = Some(self.place(place, &site.ctx(pos)));
            }
            A::AgainFrom(place) => {
                fx.again = true;
                let pit = self.place(place, &site.ctx(pos));
                // The next turn goes the way this one was written.
                let choice = site.at.map_or(Turn::NO_LETTER, |s| s.turn.choice);
                self.note_resume(pos, Some(Turn::from_pit(pit, choice)));
            }
            A::Remove(place) => {
                let c = self.place(place, &site.ctx(pos));
                if (c as usize) < self.board.npits {
                    pos.cells[c as usize] = 0;
                }
            }
            A::RemoveRegion(region) => self.remove(region, pos, site),
            A::Divide(region, odd, into) => self.divide(region, odd, *into, pos, site),
            A::Fill(region, n, from) => self.fill(region, n, from, pos, site, &mut acts.filled),
            // Read by the `round` moment, which sets up the next round.
            A::First(_) => {}
        }
    }

    // The actions' work, out of line: `act` stays small where it is
    // inlined, at every sowing's landing.

    /// `fill`: each pit of a region, in its order, brought to `n` seeds
    /// from a place, while the place holds enough for the next.
    #[inline(never)]
    fn fill(
        &self,
        region: &R,
        n: &N,
        from: &P,
        pos: &mut Position,
        site: &Site,
        cells: &mut Vec<u16>,
    ) {
        cells.clear();
        let (n, from) = {
            let f = site.ctx(pos);
            cells.extend(self.pits(region, &f));
            (self.num(n, &f), self.place(from, &f))
        };
        if from == NONE {
            return;
        }
        for &c in cells.iter() {
            let have = pos.cells[c as usize] as i64;
            let need = n.saturating_sub(have);
            if c == from || need <= 0 {
                continue;
            }
            if (pos.cells[from as usize] as i64) < need {
                break;
            }
            pos.cells[from as usize] -= need as u32;
            pos.cells[c as usize] += need as u32;
        }
    }

    /// A capture's `at most N`, judged now where it is read from the
    /// position (below zero: none).
    #[inline(always)]
    fn most(&self, most: &Most, pos: &Position, site: &Site) -> u32 {
        match most {
            Most::Fixed(n) => *n,
            Most::Judged(n) => self.num(n, &site.ctx(pos)).clamp(0, i64::from(u32::MAX)) as u32,
        }
    }

    /// `capture`: a pit's seeds, and a chain of pits on from it.
    #[inline(never)]
    fn capture(
        &self,
        place: &P,
        chain: &Option<CChain>,
        (to, most): (&Option<P>, u32),
        pos: &mut Position,
        site: &Site,
        acts: &mut Acts,
    ) {
        let (start, to) = match (place, to) {
            // The common capture, of a fixed pit to the mover (or the
            // resowing): no context to build.
            (P::Cell(c), None) => (*c, Some(NONE)),
            _ => {
                let f = site.ctx(pos);
                (self.place(place, &f), self.destination(to, &f))
            }
        };
        let Some(to) = to else {
            return;
        };
        let grab = Grab {
            to,
            most,
            since: acts.taken.len(),
        };
        self.take(pos, site, start, grab, &mut acts.taken);
        if let Some(ch) = chain {
            self.chain(pos, site, start, ch, grab, acts);
        }
    }

    /// `capture` of a region: every pit of it.
    #[inline(never)]
    fn capture_region(
        &self,
        region: &R,
        to: &Option<P>,
        most: u32,
        pos: &mut Position,
        site: &Site,
        acts: &mut Acts,
    ) {
        let (cells, fixed) = {
            let f = site.ctx(pos);
            // Where the seeds go is judged for each pit (`here`), a store
            // by the pit's owner (`to store(owner(here))`), unless it is
            // known already (a cell, or a player's store).
            let fixed = match to {
                None | Some(P::Cell(_)) => Some(self.destination(to, &f)),
                Some(P::StoreOf(w)) if matches!(**w, W::Is(_)) => Some(self.destination(to, &f)),
                Some(_) => None,
            };
            (self.region_cells(region, &f), fixed)
        };
        let since = acts.taken.len();
        for &c in cells.iter() {
            let to = match fixed {
                Some(to) => to,
                None => self.destination(
                    to,
                    &Ctx {
                        here: c,
                        ..site.ctx(pos)
                    },
                ),
            };
            if let Some(to) = to {
                self.take(pos, site, c, Grab { to, most, since }, &mut acts.taken);
            }
        }
    }

    /// `resow`: where the seeds captured are sown from, and which way.
    #[inline(never)]
    fn resow(
        &self,
        from: &P,
        heading: crate::ir::Heading,
        pos: &Position,
        site: &Site,
    ) -> Option<(u16, Direction)> {
        let mover = pos.to_move.unwrap_or(0);
        let place = match from {
            P::Cell(c) => *c,
            other => self.place(other, &site.ctx(pos)),
        };
        self.heading(mover, place, heading).map(|d| (place, d))
    }

    /// `collect`: every pit's seeds into its owner's store.
    #[inline(never)]
    fn collect(&self, pos: &mut Position) {
        for pit in 0..self.board.npits {
            let seeds = std::mem::take(&mut pos.cells[pit]);
            let owner = self.owner_at(pit as u16, pos);
            pos.cells[self.store_cell(owner) as usize] += seeds;
        }
    }

    /// `remove`: a region's seeds leave the game.
    #[inline(never)]
    fn remove(&self, region: &R, pos: &mut Position, site: &Site) {
        let cells = self.region_cells(region, &site.ctx(pos));
        for c in cells.iter() {
            if let Some(seeds) = pos.cells.get_mut(*c as usize) {
                *seeds = 0;
            }
        }
    }

    /// `divide`: a region's seeds shared between the two stores (or the
    /// players' cells `into` gives), the odd one to `odd`'s.
    #[inline(never)]
    fn divide(&self, region: &R, odd: &W, into: Option<[u16; 2]>, pos: &mut Position, site: &Site) {
        let share =
            |p: crate::ir::Player| into.map_or(self.store_cell(p), |cells| cells[p as usize & 1]);
        let (cells, odd) = {
            let f = site.ctx(pos);
            (self.region_cells(region, &f), self.who(odd, &f))
        };
        let mut seeds = 0u64;
        for c in cells.iter() {
            if let Some(s) = pos.cells.get_mut(*c as usize) {
                seeds += std::mem::take(s) as u64;
            }
        }
        // (No more than the seeds of a position, which fit a u32.)
        let half = (seeds / 2) as u32;
        for p in 0..2u8 {
            pos.cells[share(p) as usize] += half;
        }
        if seeds % 2 == 1 {
            // The odd seed: to the player named, or (none named) back into
            // the region's first pit.
            let to = match odd {
                Some(p) => share(p),
                None => cells.iter().next().copied().unwrap_or(NONE),
            };
            if let Some(s) = pos.cells.get_mut(to as usize) {
                *s += 1;
            }
        }
    }

    /// Gives a variable's instance (or every pit of a region's) a value:
    /// every instance first, then the values.
    #[inline(never)]
    fn set(&self, var: &V, value: u32, pos: &mut Position, site: &Site, acts: &mut Acts) {
        let slot = match var {
            V::Slot(slot) => *slot,
            V::PlayerOf(..) | V::PitOf(..) => self.slot(var, &site.ctx(pos)),
            V::PitsOf(..) => {
                acts.writes.clear();
                self.slots(var, &site.ctx(pos), value, &mut acts.writes);
                for &(slot, value) in &acts.writes {
                    write(pos, site, slot, value);
                }
                return;
            }
        };
        write(pos, site, slot, value);
    }

    /// A capture's destination: a store's or a pit's cell, or [`NONE`]
    /// when it names none (see [`Taken::to`]); `None` when it names a place
    /// that is not there (`first(…)` of no pit): then nothing is taken.
    fn destination(&self, to: &Option<P>, f: &Ctx) -> Option<u16> {
        match to {
            Some(p) => Some(self.place(p, f)).filter(|&c| c != NONE),
            None => Some(NONE),
        }
    }

    /// The cells of a region, copied out of the context that found them.
    fn region_cells(&self, r: &R, f: &Ctx) -> smallcells::Cells {
        smallcells::Cells::of(self.pits(r, f))
    }

    /// Walks the track from `start` (or the chain's `from`) while the
    /// chain's condition holds for each pit (`here`) it steps to (every
    /// pit, or every N-th), then takes each (or the place its `taking`
    /// names), and the place its `with` names: every pit is judged on the
    /// board as it was before the chain took any. Stores are passed over,
    /// and a walk goes round the track once at most.
    fn chain(
        &self,
        pos: &mut Position,
        site: &Site,
        start: u16,
        ch: &CChain,
        grab: Grab,
        acts: &mut Acts,
    ) {
        let mover = pos.to_move.unwrap_or(0);
        let walk = match ch.direction {
            Direction::Forward => site.going(),
            Direction::Backward => reverse(site.going()),
        };
        let start = match &ch.from {
            Some(p) => self.place(p, &site.ctx(pos)),
            None => start,
        };
        if start as usize >= self.cells() {
            return;
        }
        acts.walked.clear();
        let mut here = start;
        // Places counted towards the next step (`every N`).
        let mut counted = 0;
        for _ in 0..self.cells() {
            here = self.board.step(mover, here, walk);
            if here == NONE || here == start {
                break;
            }
            if here as usize >= self.board.npits {
                // A store is not a pit: the chain passes over it.
                continue;
            }
            if let Some(skip) = &self.plan[mover as usize & 1].walk_skip {
                // Nor does it stop at a place the sowing passes over
                // (`skip when`, Bechi BE13's blocked holes).
                let mut f = site.ctx(pos);
                f.here = here;
                if self.cond(skip, &f) {
                    continue;
                }
            }
            counted += 1;
            if counted < ch.every {
                // Between two steps (Olinda OL14's gap).
                continue;
            }
            counted = 0;
            let mut f = site.ctx(pos);
            f.here = here;
            if !self.cond(&ch.holds, &f) {
                break;
            }
            acts.walked.push(here);
        }
        for i in 0..acts.walked.len() {
            let here = acts.walked[i];
            let (pit, with) = {
                let mut f = site.ctx(pos);
                f.here = here;
                let pit = ch.taking.as_ref().map_or(here, |p| self.place(p, &f));
                let with = ch.with.as_ref().map_or(NONE, |p| self.place(p, &f));
                (pit, with)
            };
            self.take(pos, site, pit, grab, &mut acts.taken);
            if with != NONE {
                self.take(pos, site, with, grab, &mut acts.taken);
            }
        }
    }

    /// Takes a pit's seeds (as many as `grab` says) and puts them where
    /// the capture sends them, at once: a store or pit, the mover's store,
    /// or held for the rule's resowing (a store is never taken from).
    #[inline(always)]
    fn take(&self, pos: &mut Position, site: &Site, from: u16, grab: Grab, taken: &mut Vec<Taken>) {
        let Grab { to, most, since } = grab;
        if from as usize >= self.board.npits || from == to {
            return;
        }
        let most = if most == u32::MAX {
            most
        } else {
            // At most N from each pit by this action, however often it
            // comes back to it (a chain walking over it again, a region
            // listing it twice).
            let already: u32 = taken[since..]
                .iter()
                .filter(|t| t.from == from)
                .map(|t| t.seeds)
                .sum();
            most.saturating_sub(already)
        };
        let pit = &mut pos.cells[from as usize];
        let seeds = (*pit).min(most);
        if seeds == 0 {
            return;
        }
        *pit -= seeds;
        let to = match (to, site.hold) {
            (NONE, true) => NONE,
            (NONE, false) => self.store_cell(pos.to_move.unwrap_or(0)),
            (cell, _) => cell,
        };
        if to != NONE {
            pos.cells[to as usize] += seeds;
        }
        taken.push(Taken { from, seeds, to });
        site.pending.set(site.pending.get() + seeds);
    }

    /// `cancel`: the seeds taken so far go back where they were, the last
    /// taken first (as many as are still where they went).
    #[cold]
    #[inline(never)]
    fn cancel(&self, pos: &mut Position, site: &Site, taken: &mut Vec<Taken>) {
        for t in taken.iter().rev() {
            let back = match t.to {
                NONE => t.seeds,
                cell => {
                    let c = &mut pos.cells[cell as usize];
                    let back = (*c).min(t.seeds);
                    *c -= back;
                    back
                }
            };
            pos.cells[t.from as usize] += back;
        }
        taken.clear();
        site.pending.set(0);
    }

    /// Counts the seeds the moment's captures took, and lets go of the
    /// list: those held for a resowing are kept to be sown where `unsent`
    /// says so, else they go to the mover's store now. Returns the seeds
    /// captured and those kept, and the pit first emptied.
    pub(crate) fn put_away(
        &self,
        pos: &mut Position,
        taken: &mut Vec<Taken>,
        unsent: Unsent,
    ) -> PutAway {
        let mover = pos.to_move.unwrap_or(0);
        let mut out = PutAway {
            first: taken.first().map_or(NONE, |t| t.from),
            ..PutAway::default()
        };
        for t in taken.iter() {
            out.captured += t.seeds;
            match (t.to, unsent) {
                (NONE, Unsent::Resow) => out.kept += t.seeds,
                (NONE, Unsent::Store) => {
                    pos.cells[self.store_cell(mover) as usize] += t.seeds;
                    out.stored = true;
                }
                // (A pit they went into may lose them again.)
                (cell, _) => out.stored |= cell as usize >= self.board.npits,
            }
        }
        taken.clear();
        out
    }

    /// Puts the seeds taken with no destination of their own back where
    /// they were, before anything judges the capture: a rule whose
    /// resowing cannot start takes nothing for it.
    #[cold]
    #[inline(never)]
    pub(crate) fn give_back(&self, pos: &mut Position, site: &Site, taken: &mut Vec<Taken>) {
        taken.retain(|t| {
            if t.to == NONE {
                pos.cells[t.from as usize] += t.seeds;
                site.pending.set(site.pending.get() - t.seeds);
            }
            t.to != NONE
        });
    }
}

/// Where a capture's seeds go, the most it takes of each pit, and where
/// its own takings start in the taken list.
#[derive(Clone, Copy)]
struct Grab {
    to: u16,
    most: u32,
    since: usize,
}

/// Gives one variable slot a value (none when `slot` stands for no
/// instance), noting a change in the turn.
fn write(pos: &mut Position, site: &Site, slot: usize, value: u32) {
    if let Some(v) = pos.vars.get_mut(slot) {
        if *v != value {
            if let Some(at) = site.at {
                at.note_change();
            }
        }
        *v = value;
    }
}

/// What putting a capture away did.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct PutAway {
    /// Seeds captured (none when cancelled).
    pub captured: u32,
    /// Of them, seeds kept to be sown.
    pub kept: u32,
    /// Some went into a store.
    pub stored: bool,
    /// The pit the capture first emptied, or [`NONE`].
    pub first: u16,
}

pub(crate) fn reverse(d: Direction) -> Direction {
    match d {
        Direction::Forward => Direction::Backward,
        Direction::Backward => Direction::Forward,
    }
}

/// A region's cells, held without allocating (a board has at most
/// [`crate::limits::MAX_PITS`] pits).
mod smallcells {
    pub(crate) struct Cells {
        cells: [u16; crate::limits::MAX_PITS],
        len: usize,
    }

    impl Cells {
        pub(crate) fn of(cells: impl Iterator<Item = u16>) -> Cells {
            let mut c = Cells {
                cells: [0; crate::limits::MAX_PITS],
                len: 0,
            };
            for cell in cells.take(crate::limits::MAX_PITS) {
                c.cells[c.len] = cell;
                c.len += 1;
            }
            c
        }

        pub(crate) fn iter(&self) -> std::slice::Iter<'_, u16> {
            self.cells[..self.len].iter()
        }
    }
}
