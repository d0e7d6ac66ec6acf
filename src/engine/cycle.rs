//! Finding a turn that never ends, exactly: a turn is a function of its
//! state (board, hands, variables, the sowing in flight and the counters
//! the rules tell apart), so a turn that comes back to a state it was in
//! goes round for ever. Random Bao play meets relays whose cycles run to
//! tens of millions of laps, so the cost is counted in laps:
//!
//! - **the anchor**: a run of relays that can be undone lap by lap comes
//!   back to its first state after one cycle (λ laps), the fewest any
//!   method that follows the turn can take. The anchor is the state before
//!   sowing [`ANCHOR`], moved past every capture and every changed
//!   variable (neither can be undone). Every endless turn random play of
//!   the shipped variants meets is found this way.
//! - **Brent's** saved state, kept anew at powers of two, finds the cycles
//!   of a run that cannot be undone (it enters its cycle after μ laps):
//!   after 2λ to 3λ laps when μ ≤ λ.
//!
//! A hit is confirmed by comparing whole states, never hashes alone.

use super::{Position, Turn};

/// The sowing from which a turn is watched. Most turns end before it and
/// pay nothing.
pub(crate) const ANCHOR: i64 = 8;

/// The states kept while one turn is watched. The buffers are reused from
/// turn to turn.
#[derive(Debug, Default)]
pub(crate) struct Watch {
    /// The state now, built only when a kept one may match.
    key: Vec<u32>,
    /// Brent's saved state, its hash, and the laps since it was saved.
    saved: Vec<u32>,
    saved_hash: u64,
    power: u64,
    lambda: u64,
    /// The anchor, its hash and the sowing it is taken at.
    first: Vec<u32>,
    first_hash: u64,
    first_at: i64,
}

impl Watch {
    /// Starts watching a new turn.
    pub(crate) fn start(&mut self) {
        self.first_at = ANCHOR;
        self.power = 1;
        self.lambda = 0;
    }

    /// Nothing before sowing `n` can come back: the anchor moves there.
    pub(crate) fn cannot_undo(&mut self, n: i64) {
        self.first_at = self.first_at.max(n);
    }

    /// Whether the state before sowing `n` (from [`ANCHOR`] on), hashed to
    /// `hash`, was seen before; `fill` writes the whole state.
    #[inline(always)]
    pub(crate) fn repeats(&mut self, n: i64, hash: u64, fill: impl Fn(&mut Vec<u32>)) -> bool {
        // Most sowings: no kept hash matches and nothing is to be kept.
        let may_match = (n > self.first_at && hash == self.first_hash)
            || (n > ANCHOR && hash == self.saved_hash);
        if !may_match && n != self.first_at && n != ANCHOR && self.lambda + 1 != self.power {
            self.lambda += 1;
            return false;
        }
        self.compare_and_keep(n, hash, fill)
    }

    #[inline(never)]
    fn compare_and_keep(&mut self, n: i64, hash: u64, fill: impl Fn(&mut Vec<u32>)) -> bool {
        let mut built = false;
        let kept = [
            (n > self.first_at, self.first_hash),
            (n > ANCHOR, self.saved_hash),
        ];
        for (i, (ready, kept_hash)) in kept.into_iter().enumerate() {
            if ready && hash == kept_hash {
                if !built {
                    fill(&mut self.key);
                    built = true;
                }
                if &self.key == if i == 0 { &self.first } else { &self.saved } {
                    return true;
                }
            }
        }
        if n == self.first_at {
            if !built {
                fill(&mut self.key);
                built = true;
            }
            self.first.clone_from(&self.key);
            self.first_hash = hash;
        }
        self.lambda += 1;
        if n == ANCHOR || self.lambda == self.power {
            if !built {
                fill(&mut self.key);
            }
            self.saved.clone_from(&self.key);
            self.saved_hash = hash;
            self.power *= 2;
            self.lambda = 0;
        }
        false
    }
}

/// Long turns found never to end, by the position they start from and the
/// turn: the same turn is judged again (listing the turns after a look
/// ahead, `endless_turns`, a replay in full), and finding it endless again
/// could take millions of laps. Each game keeps its own: the engine is
/// shared and never changes.
#[derive(Debug, Default)]
pub(crate) struct Memo {
    seen: std::collections::HashSet<Vec<u32>>,
}

/// How many long endless turns a game remembers.
const REMEMBERED: usize = 256;

impl Memo {
    /// Forgets every turn remembered.
    pub(crate) fn clear(&mut self) {
        self.seen.clear();
    }

    fn key(before: &Position, turn: Turn) -> Vec<u32> {
        let mut k = Vec::with_capacity(before.cells.len() + before.vars.len() + 6);
        k.extend_from_slice(&before.cells);
        k.extend_from_slice(&before.hands);
        k.extend_from_slice(&before.vars);
        k.push(before.to_move.map_or(2, u32::from));
        k.extend([turn.pit as u32, turn.choice as u32, turn.flags as u32]);
        k
    }

    /// Whether this turn from this position was found endless before.
    pub(crate) fn knows(&self, before: &Position, turn: Turn) -> bool {
        !self.seen.is_empty() && self.seen.contains(&Self::key(before, turn))
    }

    /// Remembers a long turn found endless.
    pub(crate) fn remember(&mut self, before: &Position, turn: Turn) {
        if self.seen.len() >= REMEMBERED {
            self.seen.clear();
        }
        self.seen.insert(Self::key(before, turn));
    }
}
