//! The transposition table: what the search has learnt of each position
//! (bounds on its value, the turn that was best), shared by every thread
//! without locks and bounded in size.
//!
//! An entry is three words: the key's two halves each mixed with the
//! data, and the data. A thread reading an entry another is writing sees
//! a key that does not match, and takes it as empty: no lock is needed,
//! and no torn entry is ever believed.
//!
//! The table grows as it fills, within its memory: it starts in the
//! first [`FIRST_PAIRS`] pairs, and each time as many entries have gone
//! into empty slots as it has pairs in use, it uses twice as many. The
//! system clears a page of memory as it is first touched, so that a
//! small solve in a large memory touches (and pays for) little of it.
//! The entries put before a growth are looked for where they were put no
//! longer: a table forgets, as it does when one entry replaces another.

use std::cell::Cell;
use std::io::{Read, Write};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};

/// The pairs a table uses at first: 2^20 (48 MiB).
const FIRST_PAIRS: usize = 1 << 20;

/// How many entries a thread puts into empty slots before it counts them
/// in the table's own count (a count shared by every thread, kept off
/// the search's path).
const FILLED_BATCH: u64 = 1 << 12;

thread_local! {
    /// Entries this thread has put into empty slots, not yet counted in
    /// its table's count.
    static FILLED: Cell<u64> = const { Cell::new(0) };
}

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

/// The memory a table lives in (see `pages`).
pub(super) struct Memory {
    map: memmap2::MmapMut,
    pairs: usize,
    /// The pairs in use (see the module's account of growth).
    active: AtomicUsize,
    /// Entries put into empty slots since the pairs in use last grew.
    filled: AtomicU64,
}

impl Memory {
    /// Memory for a table of at most `bytes` bytes (at least 1,024
    /// entries): as many pairs as fit.
    pub(super) fn new(bytes: usize) -> Result<Memory, String> {
        let pairs = (bytes / ENTRY_BYTES).max(1024) / 2;
        let map = super::pages::anonymous(pairs * 2 * ENTRY_BYTES)
            .map_err(|e| format!("the table: {e}"))?;
        Ok(Memory {
            map,
            pairs,
            active: AtomicUsize::new(pairs.min(FIRST_PAIRS)),
            filled: AtomicU64::new(0),
        })
    }

    /// Entries the table can hold.
    pub(super) fn len(&self) -> usize {
        2 * self.pairs
    }

    /// The table, for as long as it is borrowed.
    pub(super) fn table(&mut self) -> Result<Table<'_>, String> {
        use zerocopy::FromBytes;
        let Memory {
            map,
            pairs,
            active,
            filled,
        } = self;
        let words = <[AtomicU64]>::mut_from_bytes(&mut map[..])
            .map_err(|_| "the table's memory is not aligned for its words".to_string())?;
        Ok(Table {
            words,
            pairs: *pairs,
            active,
            filled,
        })
    }
}

/// The table: pairs of entries, a key looked up in one pair of those in
/// use; an entry is three words of `words`.
pub(super) struct Table<'m> {
    words: &'m [AtomicU64],
    pairs: usize,
    active: &'m AtomicUsize,
    filled: &'m AtomicU64,
}

impl Table<'_> {
    /// Slot `i`'s three words.
    #[inline]
    fn slot(&self, i: usize) -> &[AtomicU64] {
        &self.words[3 * i..3 * i + 3]
    }

    /// Slot `i`'s words as they stand: the key's halves each mixed with
    /// the data, and the data.
    #[inline]
    fn load(&self, i: usize) -> [u64; 3] {
        let w = self.slot(i);
        [w[0].load(Relaxed), w[1].load(Relaxed), w[2].load(Relaxed)]
    }

    /// The first of the two slots a key may be in.
    #[inline]
    fn home(&self, key: u128) -> usize {
        let mut h = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
        // (splitmix64's finaliser: the low bits of a key are not random.)
        h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        h ^= h >> 31;
        // (The pair: the hash scaled to the number in use, its high bits.)
        let active = self.active.load(Relaxed);
        ((u128::from(h) * active as u128) >> 64) as usize * 2
    }

    /// Entries the table uses now (see the module's account of growth).
    pub(super) fn in_use(&self) -> usize {
        2 * self.active.load(Relaxed)
    }

    /// Counts an entry put into an empty slot; the table grows when as
    /// many have been as it uses pairs (see the module's account).
    #[inline]
    fn filled_one(&self) {
        let mine = FILLED.get() + 1;
        if mine < FILLED_BATCH {
            FILLED.set(mine);
            return;
        }
        FILLED.set(0);
        let active = self.active.load(Relaxed);
        if active < self.pairs && self.filled.fetch_add(mine, Relaxed) + mine >= active as u64 {
            // (Several threads may see it at once: one grows it.)
            let grown = (2 * active).min(self.pairs);
            if self
                .active
                .compare_exchange(active, grown, Relaxed, Relaxed)
                .is_ok()
            {
                self.filled.store(0, Relaxed);
            }
        }
    }

    /// What is known of a position, if the table holds it. (Both slots
    /// of the pair are loaded before either is looked at: their one or
    /// two cache lines fetched together, while the probes of a
    /// position's other turns overlap them.)
    #[inline]
    pub(super) fn probe(&self, key: u128) -> Option<Entry> {
        let i = self.home(key);
        let (first, second) = (self.load(i), self.load(i + 1));
        holding(first, key).or_else(|| holding(second, key))
    }

    /// Notes what is known of a position: in its own slot if the table
    /// holds it, else in an empty slot of the pair, else in the one that
    /// took less work.
    pub(super) fn store(&self, key: u128, e: Entry) {
        self.put(key, e.pack());
    }

    /// Notes an entry's packed data (see [`Table::store`]).
    fn put(&self, key: u128, d: u64) {
        let i = self.home(key);
        let (first, second) = (self.load(i), self.load(i + 1));
        let work = |words: [u64; 3]| Entry::unpack(words[2]).work;
        // Its own slot; else an empty one (the first); else the one that
        // took less work. (An entry of no work was replaced though the
        // other slot was empty: at a quarter full, a quarter of the
        // entries were lost so.)
        let at = if holding(first, key).is_some() {
            i
        } else if holding(second, key).is_some() {
            i + 1
        } else if first == [0; 3] {
            i
        } else if second == [0; 3] || work(first) > work(second) {
            i + 1
        } else {
            i
        };
        let before = if at == i { first } else { second };
        if before == [0; 3] {
            self.filled_one();
        }
        let w = self.slot(at);
        w[0].store(key as u64 ^ d, Relaxed);
        w[1].store((key >> 64) as u64 ^ d, Relaxed);
        w[2].store(d, Relaxed);
    }
}

/// A slot's entry, if its words (as [`Table::load`] gives them) hold
/// `key`. (An empty slot reads as key 0, which no position has: its top
/// digit is the player to move, counted from 1.)
#[inline]
fn holding([a, b, d]: [u64; 3], key: u128) -> Option<Entry> {
    (a ^ d == key as u64 && b ^ d == (key >> 64) as u64).then(|| Entry::unpack(d))
}

/// A saved table's words (or a database level's bytes), summed as they
/// are written and read: a check that what is read back is what was
/// written.
#[derive(Default)]
pub(super) struct Checksum(pub u64);

impl Checksum {
    pub(super) fn add(&mut self, w: u64) {
        self.0 = (self.0 ^ w)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(23);
    }

    /// Adds bytes, eight to a word (the last word padded with zeros).
    pub(super) fn add_bytes(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in words.by_ref() {
            let mut b = [0u8; 8];
            b.copy_from_slice(w);
            self.add(u64::from_le_bytes(b));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut b = [0u8; 8];
            b[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(b));
        }
    }
}

/// Bytes a saved entry takes: its key's two halves and its data.
const SAVED_BYTES: usize = 24;

/// Entries a save or a read moves between two reports of progress.
const BATCH: usize = 1 << 16;

impl Table<'_> {
    /// A slot's entry as it is saved: its key's halves and its data
    /// (`None`: empty).
    fn saved(&self, i: usize) -> Option<[u64; 3]> {
        let [a, b, d] = self.load(i);
        (a ^ d != 0 || b ^ d != 0).then_some([a ^ d, b ^ d, d])
    }

    /// The entries the table holds (while no search runs).
    pub(super) fn held(&self) -> u64 {
        // (Every entry lies in the pairs in use: they only grow.)
        (0..self.in_use())
            .filter(|&i| self.saved(i).is_some())
            .count() as u64
    }

    /// Writes every entry the table holds (no search running: an entry
    /// written while read would be saved torn), each its key and data,
    /// then their checksum; `moved` counts them. How many.
    pub(super) fn write_to(&self, out: &mut impl Write, moved: &AtomicU64) -> std::io::Result<u64> {
        let mut sum = Checksum::default();
        let mut buf = Vec::with_capacity(BATCH * SAVED_BYTES);
        let mut n = 0;
        for i in 0..self.in_use() {
            let Some(words) = self.saved(i) else {
                continue;
            };
            for w in words {
                sum.add(w);
                buf.extend_from_slice(&w.to_le_bytes());
            }
            n += 1;
            if buf.len() >= BATCH * SAVED_BYTES {
                out.write_all(&buf)?;
                moved.fetch_add((buf.len() / SAVED_BYTES) as u64, Relaxed);
                buf.clear();
            }
        }
        out.write_all(&buf)?;
        moved.fetch_add((buf.len() / SAVED_BYTES) as u64, Relaxed);
        out.write_all(&sum.0.to_le_bytes())?;
        Ok(n)
    }

    /// Reads `entries` entries written by [`Table::write_to`] into the
    /// table (kept as any are: where two meet, the one that took more
    /// work), and their checksum; `moved` counts them. If what is read is
    /// not what was written (the checksum differs, the file ends short),
    /// the table is emptied: nothing read is believed.
    pub(super) fn read_from(
        &self,
        input: &mut impl Read,
        entries: u64,
        moved: &AtomicU64,
    ) -> Result<(), String> {
        // (Every pair in use: each entry put where it is looked for from
        // now on, for a growth would lose them.)
        let first = self.active.load(Relaxed);
        self.active.store(self.pairs, Relaxed);
        let read = self.read_entries(input, entries, moved);
        if read.is_err() {
            // (Emptied as it was, the pages it did not touch untouched.)
            for w in self.words {
                if w.load(Relaxed) != 0 {
                    w.store(0, Relaxed);
                }
            }
            self.active.store(first, Relaxed);
            self.filled.store(0, Relaxed);
        }
        read
    }

    fn read_entries(
        &self,
        input: &mut impl Read,
        entries: u64,
        moved: &AtomicU64,
    ) -> Result<(), String> {
        let mut sum = Checksum::default();
        let mut buf = vec![0u8; BATCH * SAVED_BYTES];
        let mut left = entries;
        while left > 0 {
            let n = left.min(BATCH as u64) as usize;
            let part = &mut buf[..n * SAVED_BYTES];
            input
                .read_exact(part)
                .map_err(|e| format!("it ends before its {entries} entries ({e})"))?;
            for e in part.chunks_exact(SAVED_BYTES) {
                let w = |k: usize| {
                    let mut b = [0u8; 8];
                    b.copy_from_slice(&e[8 * k..8 * k + 8]);
                    u64::from_le_bytes(b)
                };
                let (lo, hi, d) = (w(0), w(1), w(2));
                [lo, hi, d].into_iter().for_each(|w| sum.add(w));
                self.put(u128::from(lo) | u128::from(hi) << 64, d);
            }
            moved.fetch_add(n as u64, Relaxed);
            left -= n as u64;
        }
        let mut check = [0u8; 8];
        input
            .read_exact(&mut check)
            .map_err(|e| format!("it ends before its checksum ({e})"))?;
        if u64::from_le_bytes(check) != sum.0 {
            return Err("its checksum is not that of its entries: it is damaged".into());
        }
        if input.read(&mut check).map_err(|e| e.to_string())? != 0 {
            return Err("it goes on past its checksum".into());
        }
        Ok(())
    }
}
