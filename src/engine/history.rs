//! The positions a game has been in since seeds last went into a store, for
//! the repetition rule (`repeated`): flat records, their hashes, and, once
//! the history is long, a hash table that finds a record seen before in a
//! probe or two however long the history grows.

/// Up to this many records, a new one is looked for by scanning the
/// hashes: a short history (the usual one, and the one a search copies at
/// every node) keeps no table.
const SCANNED: usize = 16;

/// The history: each position's record (player to move, cells, hands,
/// variables), oldest first.
#[derive(Debug, Default)]
pub(crate) struct History {
    /// The records, one after another.
    records: Vec<u32>,
    /// The hash of each record.
    hashes: Vec<u64>,
    /// Past [`SCANNED`] records: open addressing by hash, each slot a
    /// record's index plus one (0: free). At most half the slots are
    /// taken, so a probe ends at a free one.
    slots: Vec<u32>,
    /// Up to [`SCANNED`] records: a bit for each hash's top six bits, so
    /// that most new records are known new without a scan.
    filter: u64,
}

/// A hash of a record: its values taken two at a time as one 64-bit word,
/// each word times an odd key of its place, summed (the multiplies are
/// independent, so they run side by side), then mixed. Equal hashes are
/// checked record against record: a collision costs time, never a wrong
/// answer.
fn hash(record: &[u32]) -> u64 {
    let mut h: u64 = 0;
    let mut k: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut words = record.chunks_exact(2);
    for w in words.by_ref() {
        h = h.wrapping_add((w[0] as u64 | (w[1] as u64) << 32).wrapping_mul(k));
        k = k.wrapping_add(0x6a09_e667_f3bc_c908);
    }
    if let [x] = words.remainder() {
        h = h.wrapping_add((*x as u64 + 1).wrapping_mul(k));
    }
    h ^= h >> 32;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 29)
}

impl History {
    /// A history of `records` (flat, `len` values each), oldest first.
    pub(crate) fn from_records(records: Vec<u32>, len: usize) -> History {
        let mut h = History::default();
        for record in records.chunks_exact(len.max(1)) {
            h.push(&[record]);
        }
        h
    }

    /// Becomes a copy of `other`, without allocating when the buffers are
    /// large enough.
    pub(crate) fn copy_from(&mut self, other: &History) {
        self.records.clone_from(&other.records);
        self.hashes.clone_from(&other.hashes);
        self.filter = other.filter;
        if other.indexed() {
            self.slots.clone_from(&other.slots);
        }
    }

    /// Forgets every position.
    pub(crate) fn clear(&mut self) {
        self.records.clear();
        self.hashes.clear();
        self.filter = 0;
    }

    /// Every record, oldest first.
    pub(crate) fn records(&self) -> &[u32] {
        &self.records
    }

    /// Whether `slots` holds every record.
    fn indexed(&self) -> bool {
        self.hashes.len() > SCANNED
    }

    /// Adds the record `parts` make, one after another; whether the same
    /// record was there before.
    #[inline]
    pub(crate) fn push(&mut self, parts: &[&[u32]]) -> bool {
        let start = self.records.len();
        let len: usize = parts.iter().map(|p| p.len()).sum();
        self.records.reserve(len);
        for part in parts {
            self.records.extend_from_slice(part);
        }
        let h = hash(&self.records[start..]);
        let (old, current) = self.records.split_at(start);
        let same = |at: usize| old[at * len..(at + 1) * len] == *current;
        let index = self.hashes.len();
        self.hashes.push(h);
        if !self.indexed() {
            let bit = 1 << (h >> 58);
            let maybe = self.filter & bit != 0;
            self.filter |= bit;
            return maybe
                && self.hashes[..index]
                    .iter()
                    .enumerate()
                    .any(|(at, &oh)| oh == h && same(at));
        }
        if 2 * self.hashes.len() > self.slots.len() || index == SCANNED {
            // The table is built, or doubled, with every record in it.
            let (hashes, slots) = (&self.hashes, &mut self.slots);
            fill(slots, hashes);
            let mask = slots.len() - 1;
            let mut i = h as usize & mask;
            while slots[i] != 0 {
                let at = slots[i] as usize - 1;
                if at != index && hashes[at] == h && same(at) {
                    return true;
                }
                i = (i + 1) & mask;
            }
            return false;
        }
        let mask = self.slots.len() - 1;
        let mut i = h as usize & mask;
        while self.slots[i] != 0 {
            let at = self.slots[i] as usize - 1;
            if self.hashes[at] == h && same(at) {
                return true;
            }
            i = (i + 1) & mask;
        }
        self.slots[i] = index as u32 + 1;
        false
    }
}

/// Fills a table for `hashes` (twice as many slots or more, a power of
/// two) with every record.
#[cold]
fn fill(slots: &mut Vec<u32>, hashes: &[u64]) {
    let size = (2 * hashes.len()).next_power_of_two().max(4 * SCANNED);
    slots.clear();
    slots.resize(size, 0);
    let mask = size - 1;
    for (index, &h) in hashes.iter().enumerate() {
        let mut i = h as usize & mask;
        while slots[i] != 0 {
            i = (i + 1) & mask;
        }
        slots[i] = index as u32 + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pushes record `[x, x + 1]`; whether it was seen.
    fn push(h: &mut History, x: u32) -> bool {
        h.push(&[&[x], &[x + 1]])
    }

    #[test]
    fn a_record_seen_before_is_found_however_long_the_history() {
        for n in [3, SCANNED, SCANNED + 1, 200] {
            let mut h = History::default();
            for x in 0..n as u32 {
                assert!(!push(&mut h, x), "record {x} of {n} is new");
            }
            for x in 0..n as u32 {
                assert!(push(&mut h, x), "record {x} of {n} was seen");
            }
            assert_eq!(h.records().len(), 4 * n);
        }
    }

    #[test]
    fn a_copy_finds_what_the_original_saw_and_clearing_forgets() {
        let mut long = History::default();
        for x in 0..100 {
            push(&mut long, x);
        }
        let mut copy = History::default();
        copy.copy_from(&long);
        assert!(push(&mut copy, 57));
        assert!(!push(&mut copy, 1000));
        // A short history copied over a long one: the table is not read.
        let mut short = History::default();
        push(&mut short, 7);
        copy.copy_from(&short);
        assert!(!push(&mut copy, 57));
        assert!(push(&mut copy, 7));
        copy.clear();
        assert!(!push(&mut copy, 7));
        let rebuilt = History::from_records(long.records().to_vec(), 2);
        assert_eq!(rebuilt.records(), long.records());
        let mut rebuilt = rebuilt;
        assert!(push(&mut rebuilt, 99));
    }
}
