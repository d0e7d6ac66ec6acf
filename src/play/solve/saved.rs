//! The search's table kept on disk between runs: a solve stopped short
//! (Ctrl-C, or its limit) writes what its table holds beside the endgame
//! databases, and the next solve of the variant reads it back and goes
//! on from there. Every entry is a proven bound (a line that comes back
//! to a position stops the solve, so none rests on the line searched),
//! so what one run learnt holds for any other of the same rules.
//!
//! The file: a header line (its format, and how its keys are numbered,
//! which the reader's must match), the entries (each its key's two
//! halves and its data, little-endian words), and their checksum. It is
//! written beside its place and renamed there once whole.

use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::db::{fingerprint, write_whole};
use super::key::Keys;
use super::table::Table;
use crate::engine::Engine;
use crate::render::thousands;

/// How far a write or a read has got (read while it runs, for
/// progress): entries moved, of how many.
#[derive(Default)]
pub(super) struct Moving {
    pub done: AtomicU64,
    pub of: AtomicU64,
}

/// The format's name and version, the header's first words: a new
/// version whenever what an entry means changes (how keys number
/// positions, see `Keys`; how an entry is packed, see `table::Entry`;
/// how values are counted, see `RESULT`, and kept relative to the stores).
const FORMAT: &str = "sow-table 1";

/// The longest header read.
const MAX_HEADER: u64 = 4096;

/// Where a variant's table is kept in `dir`: beside its databases (see
/// `db::fingerprint`: variants whose rules differ only in the setup share
/// the folder), one file a numbering (the most seeds in play).
pub(super) fn path(dir: &Path, engine: &Engine, keys: &Keys) -> PathBuf {
    dir.join(fingerprint(engine))
        .join(format!("table-{:03}.bin", keys.most()))
}

fn header(keys: &Keys, entries: u64) -> String {
    format!("{FORMAT} {} entries={entries}\n", keys.layout())
}

/// Writes what `table` holds to `file` (no search running), counting
/// the entries written in `moving`, unless it holds fewer than `least`
/// (those of the file it replaces, read into a smaller table: writing
/// would lose them). How many.
pub(super) fn write(
    file: &Path,
    keys: &Keys,
    table: &Table<'_>,
    least: u64,
    moving: &Moving,
) -> Result<u64, String> {
    let failed = |e: std::io::Error| format!("cannot write the table {}: {e}", file.display());
    let entries = table.held();
    if let Some(folder) = file.parent() {
        std::fs::create_dir_all(folder).map_err(failed)?;
    }
    // Two solves stopped short on one folder write one after the other,
    // each looking at what the other kept: the larger table stays.
    let lock = file.with_extension("lock");
    let lock = std::fs::File::create(&lock).map_err(failed)?;
    lock.lock().map_err(failed)?;
    let least = least.max(kept_entries(file).unwrap_or(0));
    if entries < least {
        return Err(format!(
            "the table kept in {} is not replaced: it holds {} entries, this solve's {} \
             (a smaller --memory, or another solve kept more there meanwhile)",
            file.display(),
            thousands(least),
            thousands(entries)
        ));
    }
    moving.done.store(0, Relaxed);
    moving.of.store(entries, Relaxed);
    write_whole(file, |f| {
        let mut w = BufWriter::with_capacity(1 << 20, f);
        w.write_all(header(keys, entries).as_bytes())?;
        if table.write_to(&mut w, &moving.done)? != entries {
            return Err(std::io::Error::other(
                "its entries changed while it was written",
            ));
        }
        w.flush()
    })
    .map_err(failed)?;
    Ok(entries)
}

/// The entries the table kept in `file` says it holds, if there is one
/// whose header can be read.
fn kept_entries(file: &Path) -> Option<u64> {
    let mut r = BufReader::new(std::fs::File::open(file).ok()?);
    let mut line = Vec::new();
    r.by_ref()
        .take(MAX_HEADER)
        .read_until(b'\n', &mut line)
        .ok()?;
    let line = String::from_utf8(line).ok()?;
    line.trim_end().rsplit_once(" entries=")?.1.parse().ok()
}

/// Reads the table kept in `file` into `table`, if there is one,
/// counting the entries read in `moving`. How many (`None`: no file), or
/// why it was not read: numbered otherwise, not a table, damaged (then
/// `table` is left empty).
pub(super) fn read(
    file: &Path,
    keys: &Keys,
    table: &Table<'_>,
    moving: &Moving,
) -> Result<Option<u64>, String> {
    let opened = match std::fs::File::open(file) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read the table {}: {e}", file.display())),
    };
    let not = |why: String| format!("the table {} is not read: {why}", file.display());
    let mut r = BufReader::with_capacity(1 << 20, opened);
    let mut line = Vec::new();
    for byte in r.by_ref().take(MAX_HEADER).bytes() {
        let b = byte.map_err(|e| not(e.to_string()))?;
        if b == b'\n' {
            break;
        }
        line.push(b);
    }
    let line = String::from_utf8(line).map_err(|_| not("its header is not text".into()))?;
    let (head, entries) = line
        .rsplit_once(" entries=")
        .and_then(|(h, n)| Some((h, n.parse::<u64>().ok()?)))
        .ok_or_else(|| not(format!("its header is not `{FORMAT} … entries=N`")))?;
    let ours = format!("{FORMAT} {}", keys.layout());
    if head != ours {
        let theirs: String = head.chars().take(120).collect();
        return Err(not(format!(
            "its header is {theirs:?}, a table of this solve's is {ours:?} \
             (its keys are numbered otherwise, or it is of another version)"
        )));
    }
    moving.done.store(0, Relaxed);
    moving.of.store(entries, Relaxed);
    table
        .read_from(&mut r, entries, &moving.done)
        .map_err(not)
        .map(|()| Some(entries))
}
