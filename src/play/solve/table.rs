//! The transposition table: what the search has learnt of each position
//! (bounds on its value, the turn that was best), shared by every thread
//! without locks and bounded in size.
//!
//! An entry is three words: the key's two halves each mixed with the
//! data, and the data. A thread reading an entry another is writing sees
//! a key that does not match, and takes it as empty: no lock is needed,
//! and no torn entry is ever believed.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// What is known of a position: its value lies in `lower..=upper` (for
/// the player to move), `best` was the best turn found (an index in its
/// legal turns), and `work` how much searching it took (log₂ of the
/// positions searched under it: what is kept when two positions meet).
/// A `shallow` entry is a guess's (a search to a depth, see
/// `search::Worker::guess`): only its best turn is worth reading, as the
/// turn to try first; its bounds are none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Entry {
    pub lower: i16,
    pub upper: i16,
    pub best: u8,
    pub work: u8,
    pub shallow: bool,
}

impl Entry {
    /// The value a search within alpha..beta may return at once from
    /// what the entry knows, if it may: the exact value, or a bound
    /// outside the window (fail-soft). A guess's entry settles nothing.
    pub(super) fn settles(self, alpha: i32, beta: i32) -> Option<i32> {
        let (lo, hi) = (i32::from(self.lower), i32::from(self.upper));
        match () {
            _ if self.shallow => None,
            _ if lo >= beta || lo == hi => Some(lo),
            _ if hi <= alpha => Some(hi),
            _ => None,
        }
    }

    fn pack(self) -> u64 {
        u64::from(self.lower as u16)
            | u64::from(self.upper as u16) << 16
            | u64::from(self.best) << 32
            | u64::from(self.work) << 40
            | u64::from(self.shallow) << 48
    }

    fn unpack(d: u64) -> Entry {
        Entry {
            lower: d as u16 as i16,
            upper: (d >> 16) as u16 as i16,
            best: (d >> 32) as u8,
            work: (d >> 40) as u8,
            shallow: (d >> 48) & 1 == 1,
        }
    }
}

/// Bytes an entry takes.
pub(super) const ENTRY_BYTES: usize = 24;

/// The table: a power of two of entries, looked up in pairs.
pub(super) struct Table {
    slots: Vec<[AtomicU64; 3]>,
    mask: usize,
}

impl Table {
    /// A table of at most `bytes` bytes (at least 1,024 entries).
    pub(super) fn new(bytes: usize) -> Table {
        let fit = (bytes / ENTRY_BYTES).max(1024);
        // The largest power of two that fits.
        let n = 1usize << (usize::BITS - 1 - fit.leading_zeros());
        let slots = (0..n).map(|_| Default::default()).collect();
        Table { slots, mask: n - 1 }
    }

    /// Entries the table holds.
    pub(super) fn len(&self) -> usize {
        self.slots.len()
    }

    /// The first of the two slots a key may be in.
    #[inline]
    fn home(&self, key: u128) -> usize {
        let mut h = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
        // (splitmix64's finaliser: the low bits of a key are not random.)
        h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        h ^= h >> 31;
        (h as usize) & self.mask & !1
    }

    /// Reads a slot: its entry, if it holds `key`.
    #[inline]
    fn read(&self, i: usize, key: u128) -> Option<Entry> {
        let [a, b, d] = &self.slots[i];
        let (a, b, d) = (a.load(Relaxed), b.load(Relaxed), d.load(Relaxed));
        // (An empty slot reads as key 0, which no position has: its top
        // digit is the player to move, counted from 1.)
        (a ^ d == key as u64 && b ^ d == (key >> 64) as u64).then(|| Entry::unpack(d))
    }

    /// What is known of a position, if the table holds it.
    #[inline]
    pub(super) fn probe(&self, key: u128) -> Option<Entry> {
        let i = self.home(key);
        self.read(i, key).or_else(|| self.read(i + 1, key))
    }

    /// Notes what is known of a position: in its own slot if the table
    /// holds it, else in the slot of the pair that took less work.
    pub(super) fn store(&self, key: u128, e: Entry) {
        let i = self.home(key);
        let at = if self.read(i, key).is_some() {
            i
        } else if self.read(i + 1, key).is_some() {
            i + 1
        } else {
            let work = |j: usize| Entry::unpack(self.slots[j][2].load(Relaxed)).work;
            if work(i) <= work(i + 1) {
                i
            } else {
                i + 1
            }
        };
        let d = e.pack();
        let [a, b, w] = &self.slots[at];
        a.store(key as u64 ^ d, Relaxed);
        b.store((key >> 64) as u64 ^ d, Relaxed);
        w.store(d, Relaxed);
    }
}
