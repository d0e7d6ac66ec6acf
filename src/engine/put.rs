//! Turns on one pit that sow nothing: puts of seeds held off the board
//! into it (`put N from hand|store into REGION when C`), takes of its
//! seeds out of the game, to a place or into a pit the mover chooses
//! (`take all|N from REGION [to PLACE | into REGION] when C`): which
//! pits they may be made on, and the turn played. One judgement serves
//! both: a turn is listed where it would be played.

use super::compiled::C;
use super::eval::Ctx;
use super::plan::{Put, Taking};
use super::position::Position;
use super::shown::{Shown, StepKind};
use super::{Engine, Turn, NONE};
use crate::ir::Player;
use crate::limits::MAX_STORE_TURN;

impl Engine {
    /// The seeds a put by `mover` into `pit` may move, judged on `pos`
    /// (the position the turn starts from): the fewest and the most (the
    /// same, but where the mover chooses how many). None where `pit` is
    /// no pit (a store), its condition does not hold for it, or the mover
    /// holds fewer seeds than its count (or the count is below 1); a
    /// count chosen is at least 1 and at most what the mover holds (and
    /// [`MAX_STORE_TURN`]).
    fn put_counts(&self, put: &Put, pos: &Position, mover: Player, pit: u16) -> Option<(u32, u32)> {
        let f = self.pit_allowed(&put.when, pos, pit)?;
        let held = i64::from(match put.from {
            None => pos.hands[mover as usize],
            Some(store) => pos.cells[store as usize],
        });
        let n = self.num(&put.seeds, &f);
        let Some(upto) = &put.upto else {
            return (1..=held).contains(&n).then_some((n as u32, n as u32));
        };
        let most = self.num(upto, &f).min(held).min(i64::from(MAX_STORE_TURN));
        let least = n.max(1);
        (least <= most).then_some((least as u32, most as u32))
    }

    /// Appends to `legal` the puts `mover` may make on `pos`, in the
    /// order of the put's region (and, where the mover chooses how many,
    /// from the fewest seeds to the most for each pit).
    pub(crate) fn put_turns(&self, pos: &Position, mover: Player, legal: &mut Vec<Turn>) {
        if let Some(put) = &self.plan[mover as usize].put {
            self.each_pit(pos, &put.into, |pit| {
                let Some((least, most)) = self.put_counts(put, pos, mover, pit) else {
                    return;
                };
                if put.upto.is_none() {
                    return legal.push(Turn::put(pit));
                }
                legal.extend((least..=most).map(|n| Turn::put_count(pit, n)));
            });
        }
    }

    /// What a put's or a take's count and place are judged on, `here`
    /// the pit: none where `pit` is no pit (a store) or the line's
    /// condition `when` does not hold for it on `pos`.
    fn pit_allowed<'a>(&self, when: &C, pos: &'a Position, pit: u16) -> Option<Ctx<'a>> {
        if pit as usize >= self.board.npits {
            return None;
        }
        let mut f = Ctx::new(pos, pos, NONE, NONE);
        f.here = pit;
        self.cond(when, &f).then_some(f)
    }

    /// Calls `each` for each pit of `region` on `pos`, in its order, once
    /// a pit (a region may name a pit twice).
    fn each_pit(&self, pos: &Position, region: &super::compiled::R, mut each: impl FnMut(u16)) {
        let f = Ctx::new(pos, pos, NONE, NONE);
        let mut seen = Pits::default();
        for pit in self.pits(region, &f) {
            if seen.first(pit) {
                each(pit);
            }
        }
    }

    /// Plays a put `turn` by the player to move on `pos` (the position
    /// it starts from): the seeds go from the mover's hand or store into
    /// its pit, in one step where the turn is shown. Returns whether the
    /// rules allow it there (a put they do not, or of a count they do not
    /// offer, changes nothing).
    pub(crate) fn put_into(
        &self,
        pos: &mut Position,
        turn: Turn,
        shown: Option<&mut Shown>,
    ) -> bool {
        let (mover, pit) = (pos.to_move.unwrap_or(0), turn.pit);
        let Some(put) = self.plan[mover as usize].put.as_ref() else {
            return false;
        };
        let Some((least, most)) = self.put_counts(put, pos, mover, pit) else {
            return false;
        };
        // (A count is chosen where the put says so, and only there.)
        let n = match (turn.put_seeds(), &put.upto) {
            (None, None) => least,
            (Some(n), Some(_)) if (least..=most).contains(&n) => n,
            (Some(_), Some(_)) | (None, Some(_)) | (Some(_), None) => return false,
        };
        match put.from {
            None => pos.hands[mover as usize] -= n,
            Some(store) => pos.cells[store as usize] -= n,
        }
        pos.cells[pit as usize] += n;
        if let Some(shown) = shown {
            shown.note(StepKind::Put, &[pit], pos);
        }
        true
    }

    /// The seeds a take out of `pit` takes, and where they go ([`NONE`]:
    /// out of the game), judged on `pos` (the position the turn starts
    /// from): none where `pit` is no pit (a store), its condition does
    /// not hold for it, it holds fewer seeds than the count (or the count
    /// is below 1), or the place they would go to is none.
    fn take_seeds(&self, take: &Taking, pos: &Position, pit: u16) -> Option<(u32, u16)> {
        let f = self.pit_allowed(&take.when, pos, pit)?;
        let held = pos.cells[pit as usize];
        let n = take
            .seeds
            .as_ref()
            .map_or(i64::from(held), |n| self.num(n, &f));
        let to = match &take.to {
            None => NONE,
            Some(p) => match self.place(p, &f) {
                NONE => return None,
                to => to,
            },
        };
        (1..=i64::from(held)).contains(&n).then_some((n as u32, to))
    }

    /// Appends to `legal` the takes `mover` may make on `pos`, in the
    /// order of the take's region (and, where the mover chooses the pit
    /// the seeds go into, of that region for each).
    pub(crate) fn take_turns(&self, pos: &Position, mover: Player, legal: &mut Vec<Turn>) {
        let Some(take) = &self.plan[mover as usize].take else {
            return;
        };
        self.each_pit(pos, &take.from, |pit| {
            if self.take_seeds(take, pos, pit).is_none() {
                return;
            }
            let Some(into) = &take.into else {
                return legal.push(Turn::take(pit));
            };
            let mut seen = Pits::default();
            self.any_destination(into, pos, pit, |to| {
                if seen.first(to) {
                    legal.push(Turn::take_into(pit, to));
                }
                false
            });
        });
    }

    /// Whether `found` holds for some pit a take from `pit` may move its
    /// seeds into, on `pos` (the region judged with `origin` the pit, its
    /// pits but that one), tried in the region's order.
    fn any_destination(
        &self,
        into: &super::compiled::R,
        pos: &Position,
        pit: u16,
        mut found: impl FnMut(u16) -> bool,
    ) -> bool {
        let f = Ctx::new(pos, pos, pit, NONE);
        let npits = self.board.npits;
        self.pits(into, &f)
            .any(|to| to != pit && (to as usize) < npits && found(to))
    }

    /// Plays a take by the player to move out of the turn's pit on `pos`
    /// (the position it starts from): the seeds leave the game or go where
    /// the take says or the mover chose, in one step where the turn is
    /// shown. Returns whether the
    /// rules allow it there (a take they do not changes nothing).
    pub(crate) fn take_from(
        &self,
        pos: &mut Position,
        turn: Turn,
        shown: Option<&mut Shown>,
    ) -> bool {
        let (mover, pit) = (pos.to_move.unwrap_or(0), turn.pit);
        let seeds = self.plan[mover as usize].take.as_ref().and_then(|take| {
            let (n, to) = self.take_seeds(take, pos, pit)?;
            // A pit chosen is one the take's `into` names for this pit.
            match (&take.into, turn.destination()) {
                (None, None) => Some((n, to)),
                (Some(into), Some(chosen)) => self
                    .any_destination(into, pos, pit, |d| d == chosen)
                    .then_some((n, chosen)),
                (None, Some(_)) | (Some(_), None) => None,
            }
        });
        let Some((n, to)) = seeds else {
            return false;
        };
        pos.cells[pit as usize] -= n;
        if to != NONE {
            pos.cells[to as usize] += n;
        }
        if let Some(shown) = shown {
            let at = [pit, to];
            shown.note(StepKind::Take, &at[..if to == NONE { 1 } else { 2 }], pos);
        }
        true
    }
}

/// The pits a listing has met (a region may name a pit twice): a bit for
/// each pit of the board (at most [`crate::limits::MAX_PITS`]).
#[derive(Default)]
struct Pits(u128);

impl Pits {
    /// Whether `pit` is met for the first time (noting it met).
    fn first(&mut self, pit: u16) -> bool {
        let bit = 1u128.checked_shl(u32::from(pit)).unwrap_or(0);
        let new = self.0 & bit == 0;
        self.0 |= bit;
        new
    }
}
