//! One turn: lift, sow, judge where the last seed landed (capture, relay,
//! another turn, stop), and judge captures. Nothing here allocates once the
//! scratch buffers have grown to the board's size.

use std::cell::Cell;

use super::act::{Acts, Effects, PutAway, Unsent};
use super::compiled::{CRule, PlainAt, C};
use super::cycle::{Memo, Watch, ANCHOR};
use super::eval::Ctx;
use super::plan::Kept;
use super::position::Position;
use super::shown::{Shown, StepKind};
use super::site::{Site, Step};
use super::{Engine, Turn, NONE};
use crate::ir::{Direction, Player, Skip, Take};

/// The work of a sowing beside its seeds and the rules it meets, in the
/// units of [`crate::limits::MAX_TURN_WORK`].
const SOWING_COST: u64 = 16;

/// What a turn did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Applied {
    /// A rule forbade the turn.
    pub forbidden: bool,
    /// The mover moves again.
    pub again: bool,
    /// Some seeds were captured.
    pub captured: bool,
    /// Some captured seeds went into a store.
    pub stored: bool,
    /// The turn was stopped by `sowings at most N`: the seeds lifted for
    /// the sowing it would have begun left the game.
    pub cut: bool,
    /// Where the last seed of the last sowing landed.
    pub last: u16,
    /// How many seeds were captured.
    pub seeds_captured: i64,
    /// The way the last sowing ran (`going` in the `turn` rules).
    pub dir: Direction,
    /// An end rule judged during the turn fired: the index of its compiled
    /// form in the mover's ends.
    pub ended: Option<usize>,
    /// The pit the turn's first capture emptied, or [`NONE`].
    pub first_taken: u16,
    /// Where the turn stood when it ended, for the `after` rules.
    pub at: Option<Step>,
}

/// A sowing about to be made: from where, how many seeds, whether the
/// first falls into `from`, and the place it passes over.
#[derive(Debug, Clone, Copy)]
struct Sown {
    from: u16,
    seeds: u32,
    into_from: bool,
    skip: u16,
}

/// A turn that did not end within the engine's work limit
/// ([`crate::limits::MAX_TURN_WORK`]: a few seconds, for a turn or for listing a
/// position's turns), or, played anyway, a turn that never ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooLong;

impl std::fmt::Display for TooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a turn ran past the engine's limit")
    }
}

impl std::error::Error for TooLong {}

/// Sowings after which a turn counts as long: a long turn found endless is
/// remembered (`cycle::Memo`), so that judging it again from the same
/// position is quick.
const LONG: i64 = 10_000;

/// Why a turn stopped without ending.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Halt {
    /// It ran past the engine's limits.
    TooLong,
    /// It came back to a state it was in before: it would never end.
    Endless,
    /// Asked to stop once settled, it has captured nothing and never will
    /// (see `Staged::settled`); the rest of it was not played.
    Settled,
}

impl From<Halt> for TooLong {
    fn from(_: Halt) -> TooLong {
        TooLong
    }
}

/// Buffers a turn reuses: seeds being captured, and the states kept to
/// find a turn that never ends.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    pub acts: Acts,
    watch: Watch,
    /// The long turns this game found never to end.
    pub memo: Memo,
    /// The flags the last turn played read (bits 0–7, a bit per flag),
    /// and from bit 32 on the sowings at which it read the per-sowing flag.
    pub asked: u64,
    /// The work done since the caller last set it to 0: the turns played
    /// to list a position's legal turns share one budget.
    pub work: u64,
    /// The most work allowed ([`crate::limits::turn_work`], or less where
    /// a game sets it lower: 0 is the process's).
    pub limit: u64,
}

impl Engine {
    /// Plays `turn` on `pos`; `before` is a copy of `pos` the caller keeps.
    /// Afterwards `scratch.asked` holds the flags the turn's rules read.
    /// `in_phase` is `before`'s phase ([`Engine::phase`]), judged once for
    /// all the turns tried from it. With `settle`, a turn that has captured
    /// nothing and never will stops there ([`Halt::Settled`]).
    #[inline(always)]
    pub(crate) fn apply(
        &self,
        pos: &mut Position,
        before: &Position,
        in_phase: Option<usize>,
        turn: Turn,
        settle: bool,
        scratch: &mut Scratch,
    ) -> Result<Applied, Halt> {
        if self.can.plain_turns {
            self.apply_as::<false>(pos, before, in_phase, turn, settle, scratch)
        } else {
            self.apply_as::<true>(pos, before, in_phase, turn, settle, scratch)
        }
    }

    /// [`Engine::apply`], compiled for every variant (`FULL`) or for
    /// variants of plain turns (see [`Engine::sow_turn`]).
    #[inline(never)]
    fn apply_as<const FULL: bool>(
        &self,
        pos: &mut Position,
        before: &Position,
        in_phase: Option<usize>,
        turn: Turn,
        settle: bool,
        scratch: &mut Scratch,
    ) -> Result<Applied, Halt> {
        scratch.asked = 0;
        let mover = pos.to_move.unwrap_or(0);
        let unsown = FULL && turn.sows_nothing();
        // A put's seeds go in (a take's go out) judged on the position its
        // turn was listed on (the pit to go on from not yet cleared).
        if unsown {
            let shown = scratch.acts.shown.as_deref_mut();
            let allowed = if turn.is_put() {
                self.put_into(pos, turn, shown)
            } else {
                self.take_from(pos, turn, shown)
            };
            if !allowed {
                return Ok(Applied {
                    forbidden: true,
                    last: turn.pit,
                    ..Applied::default()
                });
            }
        }
        // (Judged on `pos`, not yet changed: `before` is kept up to date
        // only where the rules read it.)
        let dir = if unsown {
            // (A put or a take sows nothing: no way is judged.)
            Direction::Forward
        } else {
            let Some(dir) = self.turn_direction(mover, pos, turn) else {
                // A choice that means no direction here: nothing is sown.
                return Ok(Applied {
                    forbidden: true,
                    last: turn.pit,
                    ..Applied::default()
                });
            };
            dir
        };
        // A pit the turn before said to go on from is gone by.
        self.note_resume(pos, None);
        let origin = turn.pit;
        let budget = match scratch.limit {
            0 => crate::limits::turn_work(),
            lower => lower.min(crate::limits::turn_work()),
        };
        let mut at = Step {
            phase: in_phase.unwrap_or(0) as u16,
            origin,
            last: origin,
            lifted: origin,
            dir,
            sowings: 0,
            captured: 0,
            turn,
            asked: Cell::new(0),
            changed: Cell::new(false),
            spent: Cell::new(scratch.work),
            budget,
            check: Cell::new(Step::next_check(scratch.work, budget)),
        };
        if unsown {
            // Nothing is sown: the `after` rules judge the turn with the
            // pit as its last place (the pit a take's seeds were moved
            // into, where the mover chose one).
            let last = turn.destination().unwrap_or(origin);
            at.last = last;
            let after = !self.plan[mover as usize].after.is_empty();
            return Ok(Applied {
                last,
                first_taken: NONE,
                at: after.then(|| at.kept()),
                ..Applied::default()
            });
        }
        let played = self.sow_turn::<FULL>(pos, before, &mut at, in_phase, settle, scratch);
        scratch.asked = at.asked.get();
        scratch.work = at.spent.get();
        played
    }

    /// Plays a turn from its first sowing on, `at` saying where it stands.
    /// (Inlined into `apply`, its one caller: the turn's loop is the hot
    /// path, and whether the compiler would inline it changes with any
    /// action added.)
    ///
    /// Compiled twice from this one text: with `FULL` for every variant,
    /// and without for variants of plain turns ([`Abilities::plain_turns`]:
    /// one sowing from a pit, no `lift`, `drop` or `after` rule, no
    /// entry), where the parts such turns never reach are left out: the
    /// loop is smaller, and faster.
    ///
    /// [`Abilities::plain_turns`]: super::abilities::Abilities::plain_turns
    #[inline(always)]
    fn sow_turn<const FULL: bool>(
        &self,
        pos: &mut Position,
        before: &Position,
        at: &mut Step,
        in_phase: Option<usize>,
        settle: bool,
        scratch: &mut Scratch,
    ) -> Result<Applied, Halt> {
        let Scratch {
            acts, watch, memo, ..
        } = scratch;
        let (mover, origin, turn, phase) = (
            pos.to_move.unwrap_or(0),
            at.origin,
            at.turn,
            at.phase as usize,
        );
        let plan = &self.plan[mover as usize];
        let mut out = Applied {
            first_taken: NONE,
            ..Applied::default()
        };
        // The first sowing: seeds from the hand into the starting pit (an
        // entry), or the starting pit's seeds lifted and sown on.
        let entry = plan
            .entry
            .as_ref()
            .filter(|(_, during)| FULL && (during.is_none() || *during == in_phase));
        let (mut from, mut seeds, mut into_from) = match entry {
            // A turn from the store: the seeds named, the first into the
            // place the rules say.
            _ if FULL && turn.seeds() > 0 => {
                let store = origin as usize;
                let into = plan.from_store.as_ref().map_or(NONE, |(_, p)| {
                    self.place(p, &Ctx::new(pos, before, origin, NONE))
                });
                if pos.cells.get(store).is_none_or(|&s| s < turn.seeds()) || into == NONE {
                    return Ok(Applied {
                        forbidden: true,
                        last: origin,
                        ..Applied::default()
                    });
                }
                pos.cells[store] -= turn.seeds();
                (into, turn.seeds(), true)
            }
            Some(&(n, _)) => {
                if pos.hands[mover as usize] < n {
                    return Ok(Applied {
                        forbidden: true,
                        last: origin,
                        ..Applied::default()
                    });
                }
                pos.hands[mover as usize] -= n;
                (origin, n, true)
            }
            None => {
                let (n, put) = self.lift(plan, pos, before, at, origin, None, acts);
                took_at_lift(at, &mut out, put);
                (origin, n, false)
            }
        };
        // Cycle detection (see `cycle.rs`), from sowing `ANCHOR` on. A
        // hash of the cells and hands, kept up to date seed by seed, makes
        // most comparisons one number.
        watch.start();
        let mut h: u64 = 0;
        // The one cell seeds have left since the end rules were last
        // judged, the pit a relay lifted (`NONE`: they may have left any,
        // judge every end).
        let mut lifted = NONE;
        // The sowing going on is a resowing that ends the turn (its rule
        // said `stop` or `again`): where it ends is not judged.
        let mut last_sowing = false;
        loop {
            at.sowings += 1;
            // Whole laps are sown at once: a sowing costs at most three laps.
            let track = self.board.cycle[mover as usize].len() as u64;
            at.charge(SOWING_COST + (seeds as u64).min(3 * track));
            if at.over() {
                return Err(Halt::TooLong);
            }
            if settle && at.captured == 0 {
                let st = self.stage(phase, at.sowings, 0);
                if st.is_some_and(|i| plan.stages[i].settled) {
                    return Err(Halt::Settled);
                }
            }
            if FULL && self.can.detect_cycles && at.sowings >= ANCHOR {
                let sown = Sown {
                    from,
                    seeds,
                    into_from,
                    skip: NONE,
                };
                self.watch_cycle(pos, before, at, sown, &mut h, watch, memo)?;
            }
            // Sow.
            // The pit passed over: the turn's origin, or the pit this
            // sowing started from.
            let skip = match self.board.skip_start {
                Some(Skip::Origin) => origin,
                Some(Skip::Lifted) => from,
                Some(Skip::Store(_)) | None => NONE,
            };
            let cell = if FULL && self.can.judges_drops {
                // Seed by seed, each judged where it falls.
                let sown = Sown {
                    from,
                    seeds,
                    into_from,
                    skip,
                };
                let cell = self.sow_judged(pos, before, at, acts, sown, &mut out)?;
                if !plan.drop.is_empty() {
                    // Seeds the `drop` rules took left other cells.
                    lifted = NONE;
                }
                if self.can.detect_cycles && at.sowings >= ANCHOR {
                    // The rules changed the board outside the hash.
                    h = self.state_hash(pos);
                }
                cell
            } else if let Some(shown) = &mut acts.shown {
                let sown = Sown {
                    from,
                    seeds,
                    into_from,
                    skip,
                };
                self.sow_shown(pos, mover, at.dir, sown, &mut h, shown)
            } else {
                self.sow_fast(pos, mover, at.dir, from, seeds, into_from, skip, &mut h)
            };
            at.last = cell;
            out.last = cell;
            if let Some(end) = self.ended_now(plan, pos, before, at, lifted) {
                out.ended = Some(end);
                break;
            }
            if last_sowing {
                break;
            }
            lifted = NONE;
            // A `land` rule's actions (not only a relay) ran.
            let mut acted = false;
            // Where the last seed landed: the first rule that applies decides.
            let staged = self
                .stage(phase, at.sowings, at.captured)
                .map(|i| &plan.stages[i]);
            let (land, capture) = match staged {
                Some(st) => (
                    st.landing.get(cell as usize).unwrap_or(&st.land),
                    &st.capture[..],
                ),
                None => (&plan.land, &plan.capture[..]),
            };
            // (A traced turn names the rule that decides: the quick form
            // decides as the rules do, but does not say which.)
            let (rule, mut relay) = match &land.quick {
                Some(q) if !acts.tracing => {
                    at.charge(land.cost);
                    (None, q.decide(&pos.cells, &pos.vars))
                }
                Some(_) | None => match &land.plain {
                    Some(p) => {
                        at.charge(land.cost);
                        let at = PlainAt {
                            cells: &pos.cells,
                            dir: at.dir,
                            before: &before.cells,
                            origin,
                        };
                        (p.first(at).and_then(|i| land.rules.get(i)), None)
                    }
                    None => {
                        let mut judged = 0;
                        let rule = self.first_of(land, &at.ctx(pos, before), &mut judged);
                        at.charge(judged);
                        (rule, None)
                    }
                },
            };
            // The pit a relay lifts: where the sowing landed, or another.
            let mut relayed = cell;
            if let Some(rule) = rule {
                at.charge(rule.act_cost);
                acts.taken.clear();
                let mut fx = Effects::default();
                let site = Site {
                    hold: rule.resows,
                    ..Site::turn(before, at)
                };
                self.run(rule, pos, &site, acts, &mut fx);
                if fx.resowing_fails() {
                    self.give_back(pos, &site, &mut acts.taken);
                }
                let taken = site.pending.get();
                acted = rule.acts;
                relay = fx.relay;
                if let (true, Some(c)) = (FULL, fx.relay_from) {
                    relayed = c;
                }
                if let (true, Some(d)) = (FULL, fx.relay_dir) {
                    at.dir = d;
                }
                out.again |= fx.again;
                out.forbidden |= fx.forbid;
                if !acts.taken.is_empty() {
                    let put = self.judge_capture(
                        capture,
                        pos,
                        (before, at),
                        acts,
                        (taken, fx.unsent()),
                        &mut out,
                    );
                    at.captured += put.captured as i64;
                    if put.captured > 0 {
                        if let Some(end) = self.ended_now(plan, pos, before, at, NONE) {
                            // Seeds captured but not yet sown stay in the capturer's hand.
                            pos.hands[mover as usize] += put.kept;
                            out.ended = Some(end);
                            break;
                        }
                    }
                    if !FULL {
                        // (Plain turns sow once.)
                        break;
                    }
                    if self.can.detect_cycles && at.sowings >= ANCHOR {
                        // The board changed outside the hash.
                        h = self.state_hash(pos);
                    }
                    // The next relay's state is the anchor.
                    watch.cannot_undo(at.sowings + 2);
                    if let (Some((place, d)), true) = (fx.resow, put.kept > 0) {
                        if at.sowings >= self.board.most_sowings {
                            // No more sowings: the seeds kept leave the game.
                            out.cut = true;
                            break;
                        }
                        // The captured seeds are sown on from `place`, the first into it.
                        last_sowing = rule.resow_ends;
                        from = place;
                        at.dir = d;
                        seeds = put.kept;
                        into_from = true;
                        continue;
                    }
                }
            }
            let Some(count) = relay else { break };
            if !FULL {
                // (Plain turns sow once: no rule relays.)
                break;
            }
            let cell = relayed;
            // A store is not a pit: a relay lifts nothing from it, and the
            // turn ends there (stores only grow).
            if out.forbidden || cell as usize >= self.board.npits {
                break;
            }
            from = cell;
            into_from = false;
            let (n, put) = self.lift(plan, pos, before, at, cell, count, acts);
            if at.sowings >= self.board.most_sowings {
                // No more sowings: the seeds lifted leave the game.
                out.cut = true;
                break;
            }
            seeds = n;
            // (Seeds a rule moved, or a `lift` rule took, may have left
            // other cells.)
            lifted = if acted { NONE } else { cell };
            at.lifted = cell;
            h = h.wrapping_sub(self.board.zobrist[cell as usize].wrapping_mul(seeds as u64));
            if took_at_lift(at, &mut out, put) {
                lifted = NONE;
                if self.can.detect_cycles && at.sowings >= ANCHOR {
                    // The board changed outside the hash.
                    h = self.state_hash(pos);
                }
                watch.cannot_undo(at.sowings + 1);
            }
            if at.changed.replace(false) {
                // A variable changed: the next sowing's state is the anchor.
                watch.cannot_undo(at.sowings + 1);
            }
        }
        out.seeds_captured = at.captured;
        out.dir = at.dir;
        if FULL && !plan.after.is_empty() {
            out.at = Some(at.kept());
        }
        Ok(out)
    }

    /// Whether the turn has come back to a state it was in before this
    /// sowing (`Halt::Endless`), from sowing [`ANCHOR`] on; `h` is the
    /// hash of the cells and hands the turn keeps. (Not inlined: most
    /// turns never get here, and the turn's loop stays small.)
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn watch_cycle(
        &self,
        pos: &Position,
        before: &Position,
        at: &Step,
        sown: Sown,
        h: &mut u64,
        watch: &mut Watch,
        memo: &mut Memo,
    ) -> Result<(), Halt> {
        let (
            turn,
            Sown {
                from,
                seeds,
                into_from,
                ..
            },
        ) = (at.turn, sown);
        // A long turn may have been found endless before, from the same
        // position (the same turn is judged again when looking ahead).
        if at.sowings == LONG && memo.knows(before, turn) {
            return Err(Halt::Endless);
        }
        if at.sowings == ANCHOR {
            *h = self.state_hash(pos);
        }
        let hk = *h ^ mix(at, from, seeds, into_from, self.can.counter_caps);
        let fill = |key: &mut Vec<u32>| self.state_key(key, pos, at, from, seeds, into_from);
        if watch.repeats(at.sowings, hk, fill) {
            if at.sowings > LONG {
                memo.remember(before, turn);
            }
            return Err(Halt::Endless);
        }
        Ok(())
    }

    /// Sows `seeds` from `from` (the first into it, with `into_from`):
    /// whole laps at once, then the last lap seed by seed.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn sow_fast(
        &self,
        pos: &mut Position,
        mover: Player,
        dir: Direction,
        from: u16,
        mut seeds: u32,
        into_from: bool,
        skip: u16,
        h: &mut u64,
    ) -> u16 {
        let cell = from;
        if into_from && seeds > 0 {
            pos.cells[cell as usize] += 1;
            *h = h.wrapping_add(self.board.zobrist[cell as usize]);
            seeds -= 1;
        }
        // Whole laps at once: every cell of the track gets one seed a lap
        // (the origin none, when it is skipped). The last lap is sown
        // seed by seed, to find where it ends.
        let track = &self.board.cycle[mover as usize];
        if seeds as usize > 2 * track.len() && track.contains(&cell) {
            let skips = skip != NONE && track.contains(&skip);
            // (A track of the origin alone, skipped, has no lap: the
            // checker refuses it; the seeds would be sown one by one.)
            let lap = track.len() - skips as usize;
            let laps = (seeds - 1) / lap.max(1) as u32 * (lap > 0) as u32;
            for &c in track {
                if !(skips && c == skip) {
                    pos.cells[c as usize] += laps;
                    *h = h.wrapping_add(self.board.zobrist[c as usize].wrapping_mul(laps as u64));
                }
            }
            seeds -= laps * lap as u32;
        }
        self.sow_seeds(mover, dir, &mut pos.cells, cell, seeds, skip, h)
    }

    /// [`Engine::sow_fast`] seed by seed, each seed's step shown: the
    /// same sowing, one seed a call of [`Engine::sow_seeds`].
    #[cold]
    #[inline(never)]
    fn sow_shown(
        &self,
        pos: &mut Position,
        mover: Player,
        dir: Direction,
        sown: Sown,
        h: &mut u64,
        shown: &mut Shown,
    ) -> u16 {
        let Sown {
            from: mut cell,
            mut seeds,
            into_from,
            skip,
        } = sown;
        if into_from && seeds > 0 {
            pos.cells[cell as usize] += 1;
            *h = h.wrapping_add(self.board.zobrist[cell as usize]);
            seeds -= 1;
            shown.note(StepKind::Sow, &[cell], pos);
        }
        while seeds > 0 {
            cell = self.sow_seeds(mover, dir, &mut pos.cells, cell, 1, skip, h);
            seeds -= 1;
            shown.note(StepKind::Sow, &[cell], pos);
        }
        cell
    }

    /// Sows place by place, judging each place reached: a place `skip
    /// when` holds for is passed over; the place takes the seeds `drop N`
    /// says (one without); the `drop` rules are judged for each place's
    /// seeds where they fall (`here`), their captures put away at once.
    /// Returns where the last seed fell.
    #[inline(never)]
    fn sow_judged(
        &self,
        pos: &mut Position,
        before: &Position,
        at: &mut Step,
        acts: &mut Acts,
        sown: Sown,
        out: &mut Applied,
    ) -> Result<u16, Halt> {
        let mover = pos.to_move.unwrap_or(0);
        let plan = &self.plan[mover as usize];
        let Sown {
            from,
            mut seeds,
            into_from,
            skip,
        } = sown;
        let mut cell = from;
        // Places passed over in a row: a whole ring of them sows nothing.
        let mut passed = 0;
        let mut first = into_from;
        while seeds > 0 {
            if !first {
                let next = self.board.step(mover, cell, at.dir);
                if next == NONE {
                    break;
                }
                cell = next;
                at.charge(1);
            }
            let n = self.per_place(plan, pos, before, at, cell, seeds);
            if !first {
                let skipped = cell == skip
                    || plan.skip_when.as_ref().is_some_and(|c| {
                        let mut f = at.ctx(pos, before);
                        f.here = cell;
                        // (`last_seed`: the seeds that would fall here
                        // are the lap's last.)
                        f.last_seed = seeds == n;
                        self.cond(c, &f)
                    });
                if skipped {
                    passed += 1;
                    if passed > self.cells() {
                        return Err(Halt::TooLong);
                    }
                    continue;
                }
            }
            first = false;
            passed = 0;
            seeds -= n;
            match &mut acts.shown {
                // (Shown seed by seed, as every sowing is.)
                Some(shown) => {
                    for _ in 0..n {
                        pos.cells[cell as usize] += 1;
                        shown.note(StepKind::Sow, &[cell], pos);
                    }
                }
                None => pos.cells[cell as usize] += n,
            }
            if plan.drop.is_empty() {
                continue;
            }
            let mut won = PutAway {
                first: NONE,
                ..PutAway::default()
            };
            let site = Site {
                here: cell,
                ..Site::turn(before, at)
            };
            for rule in &plan.drop {
                at.charge(rule.judge_cost);
                let holds = {
                    let mut f = site.ctx(pos);
                    f.last_seed = seeds == 0;
                    self.cond(&rule.when, &f)
                };
                if !holds {
                    continue;
                }
                at.charge(rule.act_cost);
                let mut fx = Effects::default();
                self.run(rule, pos, &site, acts, &mut fx);
                let put = self.put_away(pos, &mut acts.taken, Unsent::Store);
                won.captured += put.captured;
                won.stored |= put.stored;
                if won.first == NONE {
                    won.first = put.first;
                }
            }
            if took_at_lift(at, out, won) {
                out.captured = true;
                out.stored |= won.stored;
            }
            if at.over() {
                return Err(Halt::TooLong);
            }
        }
        Ok(cell)
    }

    /// The seeds `cell` takes of the `seeds` left to sow (`drop N`, judged
    /// for it, `here`, before they fall): one at least, no more than are
    /// left; one without `drop`.
    #[inline]
    fn per_place(
        &self,
        plan: &super::plan::Plan,
        pos: &Position,
        before: &Position,
        at: &Step,
        cell: u16,
        seeds: u32,
    ) -> u32 {
        match &plan.per_place {
            None => 1,
            Some(n) => {
                let mut f = at.ctx(pos, before);
                f.here = cell;
                self.num(n, &f).clamp(1, i64::from(seeds.max(1))) as u32
            }
        }
    }

    /// Sows `seeds` one by one along the mover's track from `cell`,
    /// passing over `skip` (or [`NONE`]); returns the cell the last seed
    /// went into. The seeds left stay where the sowing is when the track
    /// runs out (or holds only `skip`).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn sow_seeds(
        &self,
        mover: Player,
        dir: Direction,
        cells: &mut [u32],
        mut cell: u16,
        mut seeds: u32,
        skip: u16,
        h: &mut u64,
    ) -> u16 {
        let z = &self.board.zobrist[..];
        let (table, ring) = match dir {
            Direction::Forward => (
                &self.board.next[mover as usize][..],
                &self.board.rings[mover as usize][0],
            ),
            Direction::Backward => (
                &self.board.prev[mover as usize][..],
                &self.board.rings[mover as usize][1],
            ),
        };
        // The common case: a run of the ring, with nothing passed over (or
        // sown from the pit passed over, and short of it).
        let track = self.board.cycle[mover as usize].len();
        if skip == NONE || (cell == skip && (seeds as usize) < track) {
            if let Some(run) = ring.after(cell, seeds) {
                for &c in run {
                    cells[c as usize] += 1;
                    *h = h.wrapping_add(z[c as usize]);
                }
                return run.last().copied().unwrap_or(cell);
            }
        }
        let mut skipped = false;
        while seeds > 0 {
            let next = table[cell as usize];
            if next == NONE || (next == skip && skipped) {
                let at = if next == NONE { cell } else { skip };
                cells[at as usize] += seeds;
                *h = h.wrapping_add(z[at as usize].wrapping_mul(seeds as u64));
                return at;
            }
            cell = next;
            if cell == skip {
                skipped = true;
                continue;
            }
            skipped = false;
            cells[cell as usize] += 1;
            *h = h.wrapping_add(z[cell as usize]);
            seeds -= 1;
        }
        cell
    }

    /// The hash `apply` keeps of the cells and hands.
    fn state_hash(&self, pos: &Position) -> u64 {
        let mut h: u64 = 0;
        for (i, &c) in pos.cells.iter().enumerate() {
            h = h.wrapping_add(self.board.zobrist[i].wrapping_mul(c as u64));
        }
        h ^ (pos.hands[0] as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ (pos.hands[1] as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
    }

    /// Everything a turn's future depends on, before a sowing: the board,
    /// hands and variables, where and which way the sowing goes, the seeds
    /// in flight, and the turn's counters as far as the rules tell them
    /// apart.
    fn state_key(
        &self,
        key: &mut Vec<u32>,
        pos: &Position,
        at: &Step,
        from: u16,
        seeds: u32,
        into_from: bool,
    ) {
        key.clear();
        key.extend_from_slice(&pos.cells);
        key.extend_from_slice(&pos.hands);
        key.extend_from_slice(&pos.vars);
        key.push(from as u32);
        if self.can.reads_lifted {
            key.push(at.lifted as u32);
        }
        key.push(seeds);
        key.push(at.dir as u32);
        key.push(into_from as u32);
        key.push(at.sowings.min(self.can.counter_caps.0 + 1) as u32);
        key.push(at.captured.min(self.can.counter_caps.1 + 1) as u32);
        if self.can.marks_sowings {
            // The per-sowing answers still to come.
            key.push(
                u32::try_from(at.sowings - 1)
                    .map_or(0, |k| at.turn.marks().checked_shr(k).unwrap_or(0)),
            );
        }
    }

    /// The first end rule judged during a turn that holds now, if any.
    /// None held when last judged; since then seeds have left `lifted`
    /// only (or, when it is [`NONE`], any cell).
    #[inline(always)]
    fn ended_now(
        &self,
        plan: &super::Plan,
        pos: &Position,
        before: &Position,
        at: &Step,
        lifted: u16,
    ) -> Option<usize> {
        if !plan.ends_at_once {
            return None;
        }
        let may_hold = |e: &super::CEnd| e.at_once && e.may_hold(lifted, at.last, &pos.cells);
        if plan.ends_freed.is_empty() {
            return self.ended_now_each(plan, pos, before, at, may_hold);
        }
        // The ends seeds leaving `lifted` may make hold (a bit each): most
        // sowings, none.
        let mut freed = match lifted {
            NONE => plan.ends_at_once_bits,
            cell => plan
                .ends_freed
                .get(cell as usize)
                .copied()
                .unwrap_or(u64::MAX),
        };
        while freed != 0 {
            let i = freed.trailing_zeros() as usize;
            freed &= freed - 1;
            let Some(e) = plan.ends.get(i) else { break };
            if !may_hold(e) {
                continue;
            }
            at.charge(e.cost);
            match e.seeds_only(&pos.cells) {
                Some(true) => return Some(i),
                Some(false) => {}
                None => {
                    return self
                        .judge_ends(&plan.ends[i..], pos, before, at, may_hold)
                        .map(|k| i + k)
                }
            }
        }
        None
    }

    /// [`Engine::ended_now`] where there are more ends than bits: each
    /// is asked whether it may hold.
    #[inline(never)]
    fn ended_now_each(
        &self,
        plan: &super::Plan,
        pos: &Position,
        before: &Position,
        at: &Step,
        may_hold: impl Fn(&super::CEnd) -> bool,
    ) -> Option<usize> {
        for (i, e) in plan.ends.iter().enumerate() {
            if !may_hold(e) {
                continue;
            }
            at.charge(e.cost);
            match e.seeds_only(&pos.cells) {
                Some(true) => return Some(i),
                Some(false) => {}
                None => {
                    return self
                        .judge_ends(&plan.ends[i..], pos, before, at, may_hold)
                        .map(|k| i + k)
                }
            }
        }
        None
    }

    /// The first of `ends` that holds, judged in full.
    #[inline(never)]
    fn judge_ends(
        &self,
        ends: &[super::CEnd],
        pos: &Position,
        before: &Position,
        at: &Step,
        may_hold: impl Fn(&super::CEnd) -> bool,
    ) -> Option<usize> {
        let f = at.ctx(pos, before);
        ends.iter()
            .position(|e| may_hold(e) && self.cond(&e.when, &f))
    }

    /// The seeds `cell` keeps when it is lifted (`leave N when C`).
    #[inline(never)]
    fn kept(
        &self,
        leave: &(Kept, C),
        pos: &Position,
        before: &Position,
        at: &Step,
        cell: u16,
    ) -> u32 {
        let (keep, when) = leave;
        let mut f = Ctx::new(pos, before, at.origin, NONE);
        f.here = cell;
        if !self.cond(when, &f) {
            return 0;
        }
        let keep = match keep {
            Kept::Fixed(n) => *n,
            Kept::Judged(n) => self.num(n, &f).clamp(0, u32::MAX as i64) as u32,
        };
        keep.min(pos.cells[cell as usize])
    }

    /// Lifts the seeds a sowing takes from a pit (all, the sowing's `take`,
    /// or at most `count`), then runs the `lift` rules on it: the seeds
    /// lifted, and what the rules captured.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn lift(
        &self,
        plan: &super::Plan,
        pos: &mut Position,
        before: &Position,
        at: &Step,
        cell: u16,
        count: Option<u32>,
        acts: &mut Acts,
    ) -> (u32, PutAway) {
        let have = pos.cells[cell as usize];
        let mut n = match (count, self.rules.sowing.take) {
            (Some(k), _) | (None, Take::Count(k)) => k.min(have),
            (None, Take::All) => have,
        };
        if let Some(leave) = &plan.leave {
            n = n.min(have - self.kept(leave, pos, before, at, cell));
        }
        pos.cells[cell as usize] -= n;
        if let Some(shown) = &mut acts.shown {
            shown.note(StepKind::Lift, &[cell], pos);
        }
        if plan.lift.is_empty() {
            return (n, PutAway::default());
        }
        // The rules for this stage of the turn and this pit: most pits have
        // none. Seeds are lifted for the next sowing: `sowings` counts it.
        let rules = match self.stage(at.phase as usize, at.sowings + 1, at.captured) {
            Some(k) => {
                let st = &plan.stages[k];
                st.lifting.get(cell as usize).unwrap_or(&st.lift)
            }
            None => &plan.lift[..],
        };
        if rules.is_empty() {
            return (n, PutAway::default());
        }
        (n, self.lift_rules(rules, pos, before, at, cell, acts))
    }

    /// Runs `lift` rules on a pit just lifted (`here`); what they capture
    /// goes to its stores at once (no `capture` rule judges it).
    #[inline(never)]
    fn lift_rules(
        &self,
        rules: &[CRule],
        pos: &mut Position,
        before: &Position,
        at: &Step,
        cell: u16,
        acts: &mut Acts,
    ) -> PutAway {
        let mut took = PutAway {
            first: NONE,
            ..PutAway::default()
        };
        let site = Site {
            here: cell,
            lifting: true,
            ..Site::turn(before, at)
        };
        for rule in rules {
            at.charge(rule.judge_cost);
            if !self.cond(&rule.when, &site.ctx(pos)) {
                continue;
            }
            at.charge(rule.act_cost);
            let mut fx = Effects::default();
            self.run(rule, pos, &site, acts, &mut fx);
            let put = self.put_away(pos, &mut acts.taken, Unsent::Store);
            took.captured += put.captured;
            if took.first == NONE {
                took.first = put.first;
            }
        }
        took
    }

    /// Runs the `capture` rules on seeds just taken (they may take more,
    /// cancel or forbid it), then puts them away.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn judge_capture(
        &self,
        rules: &[CRule],
        pos: &mut Position,
        (before, at): (&Position, &Step),
        acts: &mut Acts,
        (taken, unsent): (u32, Unsent),
        out: &mut Applied,
    ) -> PutAway {
        let mut fx = Effects::default();
        // The seeds just taken (`taken` of them) are `captured` already;
        // captures to the mover go on to the resowing where the seeds are
        // resown.
        let site = Site {
            pending: std::cell::Cell::new(taken),
            hold: unsent == Unsent::Resow,
            ..Site::turn(before, at)
        };
        for rule in rules {
            at.charge(rule.judge_cost);
            if !self.cond(&rule.when, &site.ctx(pos)) {
                continue;
            }
            at.charge(rule.act_cost);
            self.run(rule, pos, &site, acts, &mut fx);
        }
        out.forbidden |= fx.forbid;
        let put = self.put_away(pos, &mut acts.taken, unsent);
        if put.captured > 0 {
            out.captured = true;
            out.stored |= put.stored;
            if out.first_taken == NONE {
                out.first_taken = put.first;
            }
        }
        put
    }
}

/// The parts of a turn's state beside the board, mixed into one number.
fn mix(at: &Step, from: u16, seeds: u32, into_from: bool, caps: (i64, i64)) -> u64 {
    let x = (from as u64)
        | (seeds as u64) << 16
        | (at.dir as u64) << 48
        | (into_from as u64) << 49
        | (at.sowings.min(caps.0 + 1) as u64 & 0x3f) << 50
        | (at.captured.min(caps.1 + 1) as u64 & 0xff) << 56;
    x.wrapping_mul(0xff51_afd7_ed55_8ccd)
}

/// Counts what `lift` rules captured into the turn; whether they did.
fn took_at_lift(at: &mut Step, out: &mut Applied, put: PutAway) -> bool {
    if put.captured == 0 {
        return false;
    }
    at.captured += put.captured as i64;
    if out.first_taken == NONE {
        out.first_taken = put.first;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::compiled::A;
    use crate::engine::Game;

    /// The turn's loop compiled for plain turns plays every turn as the
    /// loop compiled for every variant does, in every position random play
    /// of the shipped variants of plain turns reaches: the same result, the
    /// same position, the same flags read and work counted.
    #[test]
    fn plain_turns_play_as_the_full_loop_does() {
        let (mut plain, mut full, mut turns) = (0, 0, 0);
        for name in crate::variants::names() {
            let v = crate::Variant::shipped(name).expect("shipped");
            let e = &*v.engine;
            if !e.can.plain_turns {
                full += 1;
                continue;
            }
            plain += 1;
            for seed in 0..40u64 {
                let mut game = Game::new(v.engine.clone()).expect("starts");
                let mut k = seed;
                while game.outcome().is_none() && game.plies() < 400 {
                    let pos = game.position().clone();
                    let in_phase = e.phase(&pos);
                    for &t in game.legal_turns() {
                        if t == Turn::PASS {
                            continue;
                        }
                        let play = |full: bool| {
                            let (mut p, mut scratch) = (pos.clone(), Scratch::default());
                            let r = if full {
                                e.apply_as::<true>(&mut p, &pos, in_phase, t, false, &mut scratch)
                            } else {
                                e.apply_as::<false>(&mut p, &pos, in_phase, t, false, &mut scratch)
                            };
                            (r, p, scratch.asked, scratch.work)
                        };
                        assert_eq!(play(false), play(true), "{name}, {t:?} from {pos:?}");
                        turns += 1;
                    }
                    let legal = game.legal_turns();
                    k = k
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let t = legal[(k >> 33) as usize % legal.len()];
                    game.play(t).expect("plays");
                }
            }
        }
        // Oware, Kalah and others are plain; Bao, Dakon and others are not.
        assert!(
            plain >= 5 && full >= 5,
            "{plain} plain variants, {full} full"
        );
        assert!(turns > 100_000, "only {turns} turns compared");
    }

    /// Ends judged during a turn are found wherever they stand among the
    /// end rules: past the 64th, the rules a bit of `Plan::ends_freed`
    /// stands for, Bao la Kiswahili's at-once end (a row emptied in the
    /// middle of a turn) ends the same games as with no rule before it.
    #[test]
    fn ends_past_the_64th_are_judged_during_a_turn() {
        let text = crate::variants::source("bao-la-kiswahili").expect("shipped");
        let at = text.find("\nend inner_row_empty").expect("the at-once end");
        let never: String = (0..70)
            .map(|i| {
                format!("\nend never_{i} at once when seeds(house(player)) > 100 loser player")
            })
            .collect();
        let many = format!("{}{never}{}", &text[..at], &text[at..]);
        let (one, many) = (
            crate::Variant::from_source("bao.sow", text).expect("valid"),
            crate::Variant::from_source("many-ends.sow", &many).expect("valid"),
        );
        assert!(many.engine.plan[0].ends.len() > 64 && many.engine.plan[0].ends_freed.is_empty());
        let mut mid_turn = 0;
        for seed in 0..60u64 {
            let mut games = [&one, &many].map(|v| Game::new(v.engine.clone()).expect("starts"));
            let mut k = seed;
            while games[0].outcome().is_none() && games[0].plies() < 300 {
                assert_eq!(
                    games[0].legal_turns(),
                    games[1].legal_turns(),
                    "seed {seed}"
                );
                let legal = games[0].legal_turns();
                k = k
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let t = legal[(k >> 33) as usize % legal.len()];
                for g in &mut games {
                    g.play(t).expect("plays");
                }
            }
            let (a, b) = (games[0].outcome(), games[1].outcome());
            assert_eq!(
                a.map(|o| (o.winner, o.scores)),
                b.map(|o| (o.winner, o.scores)),
                "seed {seed}"
            );
            // (Stopped where the row was emptied, not where the turn would end.)
            assert_eq!(games[0].position(), games[1].position(), "seed {seed}");
            mid_turn += a.is_some_and(|o| o.reason.contains("inner_row_empty")) as u32;
        }
        assert!(mid_turn > 0, "no game ended with a row emptied");
    }

    /// The quick and the plain forms of every `land` list give what the
    /// rules give, in every position random play of the shipped variants
    /// reaches.
    #[test]
    fn quick_land_rules_decide_as_the_rules_do() {
        let (mut checked, mut plained) = (0, 0);
        for name in crate::variants::names() {
            let v = crate::Variant::shipped(name).expect("shipped");
            let e = &*v.engine;
            let mut game = Game::new(v.engine.clone()).expect("starts");
            let mut k = 7u64;
            while game.outcome().is_none() && game.plies() < 300 {
                let pos = game.position();
                // (A turn's start told apart from where it stands: other
                // seeds everywhere, an origin other than the landing pit.)
                let mut earlier = pos.clone();
                for c in earlier.cells.iter_mut() {
                    *c = (*c * 3 + 11) % 37;
                }
                let npits = e.board.npits;
                for plan in &e.plan {
                    for st in &plan.stages {
                        for (pit, land) in st.landing.iter().enumerate() {
                            if let Some(p) = &land.plain {
                                let origin = ((pit * 7 + game.plies() as usize) % npits) as u16;
                                for dir in [Direction::Forward, Direction::Backward] {
                                    let mut f = Ctx::new(pos, &earlier, origin, pit as u16);
                                    f.dir = dir;
                                    let general = e.first_of(land, &f, &mut 0).map(|r| r.id);
                                    let at = PlainAt {
                                        cells: &pos.cells,
                                        dir,
                                        before: &earlier.cells,
                                        origin,
                                    };
                                    let plain = p.first(at).map(|i| land.rules[i].id);
                                    assert_eq!(plain, general, "{name}");
                                    plained += 1;
                                }
                            }
                            let Some(q) = &land.quick else { continue };
                            let f = Ctx::new(pos, pos, pit as u16, pit as u16);
                            let general = e.first_of(land, &f, &mut 0).and_then(|r| {
                                r.actions.iter().find_map(|a| match a {
                                    A::Relay(n) => Some(*n),
                                    _ => None,
                                })
                            });
                            assert_eq!(q.decide(&pos.cells, &pos.vars), general, "{name}");
                            checked += 1;
                        }
                    }
                }
                let legal = game.legal_turns();
                k = k
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let t = legal[(k >> 33) as usize % legal.len()];
                game.play(t).expect("plays");
            }
        }
        assert!(checked > 20_000, "only {checked} lists judged");
        assert!(plained > 5_000, "only {plained} plain lists judged");
    }
}
