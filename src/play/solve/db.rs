//! Endgame databases: the value of every position with few seeds out of
//! the stores, where the stores decide only the margin (see `stores`).
//!
//! A level holds every position with `n` seeds in the pits (none in hand,
//! the stores empty): each way of laying `n` seeds in the pits, each
//! player to move, each value of the variables. Its entry is what the
//! player to move will win from there under perfect play: the margin of
//! the end less the stores' difference now, the same whatever the stores
//! hold. The levels are built from the fewest seeds up, so that a
//! position's successors with fewer seeds are known before it; those with
//! as many (a turn that stores nothing) are worked out first, depth
//! first. A level is numbered compactly: a way of laying the seeds is its
//! rank among all ways (the combinatorial number system), times the
//! variables' values, times the players.

use std::collections::HashSet;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI8, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

use super::table::Checksum;
use crate::engine::{Engine, Game, Position};
use crate::ir::Player;

/// An entry not yet worked out.
const UNKNOWN: i8 = i8::MIN;

/// The most seeds a level holds: an entry is a byte, a margin at most
/// the seeds.
const MAX_LEVEL: usize = 120;

/// The most pits a database numbers (the bars between them are kept on
/// the stack).
const MAX_PITS: usize = 64;

/// The deepest chain of turns that store nothing, worked out depth first.
const MAX_CHAIN: usize = 4_000;

/// The levels built, and how a position finds its entry.
pub(super) struct Db {
    pits: usize,
    /// Each variable slot's values, and their product.
    vars: Vec<u32>,
    var_count: u64,
    /// `choose[n][k]`: n choose k, for the ranks.
    choose: Vec<Vec<u64>>,
    /// Level n's entries, each a byte (an `i8`; see `pages`).
    levels: Vec<memmap2::MmapMut>,
    /// The levels found in the folder but not read (another variant's,
    /// damaged, …), each why: they were built again.
    pub rebuilt: Vec<String>,
}

/// How far a build has got (read while it runs, for progress).
#[derive(Default)]
pub(super) struct Building {
    /// The level being built.
    pub level: AtomicUsize,
    /// Its entries worked out.
    pub done: AtomicU64,
    /// Its entries in all.
    pub of: AtomicU64,
}

impl Db {
    /// The numbering of positions with up to `most` seeds in the pits.
    fn new(engine: &Engine, most: usize) -> Result<Db, String> {
        let pits = engine.cells() - 2;
        if !(1..=MAX_PITS).contains(&pits) {
            return Err(format!("a database numbers boards of 1 to {MAX_PITS} pits"));
        }
        let vars = super::key::var_radices(engine);
        let var_count = vars
            .iter()
            .try_fold(1u64, |a, &r| {
                a.checked_mul(u64::from(r)).filter(|&x| x <= 1 << 12)
            })
            .ok_or("its variables take too many values for a database")?;
        let top = most + pits;
        let mut choose = vec![vec![0u64; pits.max(1)]; top + 1];
        for (n, row) in choose.iter_mut().enumerate() {
            for (k, c) in row.iter_mut().enumerate() {
                *c = binomial(n as u64, k as u64);
            }
        }
        Ok(Db {
            pits,
            vars,
            var_count,
            choose,
            levels: Vec::new(),
            rebuilt: Vec::new(),
        })
    }

    /// Entries of level `n`.
    fn size(&self, n: usize) -> u64 {
        let ways = self.choose[n + self.pits - 1][self.pits - 1];
        ways.saturating_mul(self.var_count).saturating_mul(2)
    }

    /// Bytes levels 0 to `most` take.
    fn bytes(&self, most: usize) -> u64 {
        (0..=most).map(|n| self.size(n)).sum()
    }

    /// The most seeds of the levels that fit in `bytes`, fewer than
    /// `below`.
    fn reach(&self, bytes: u64, below: usize) -> usize {
        let mut most = 0;
        while most + 1 < below && self.bytes(most + 1) <= bytes && most < MAX_LEVEL {
            most += 1;
        }
        most
    }

    /// The seeds laid in the pits of `pos`, if none is in hand.
    fn seeds(&self, pos: &Position) -> Option<usize> {
        seeds(self.pits, pos)
    }

    /// The entry of a position in its level (its stores aside).
    fn index(&self, pos: &Position) -> u64 {
        // The bars between the pits, as stars and bars lay them out.
        let (mut rank, mut at) = (0u64, 0usize);
        for k in 1..self.pits {
            at += pos.cells[k - 1] as usize;
            rank += self.choose[at + k - 1][k];
        }
        let mut v = 0u64;
        for (&x, &r) in pos.vars.iter().zip(&self.vars) {
            v = v * u64::from(r) + u64::from(x);
        }
        (rank * self.var_count + v) * 2 + u64::from(pos.to_move.unwrap_or(0) & 1)
    }

    /// The position of entry `i` of level `n` (stores and hands empty).
    fn position(&self, i: u64, n: usize, pos: &mut Position) {
        let mover = (i & 1) as Player;
        let rest = i / 2;
        let (mut rank, mut v) = (rest / self.var_count, rest % self.var_count);
        for (slot, &r) in pos.vars.iter_mut().zip(&self.vars).rev() {
            *slot = (v % u64::from(r)) as u32;
            v /= u64::from(r);
        }
        // The bars, greatest first.
        let mut bars = [0usize; MAX_PITS];
        let mut top = n + self.pits - 1;
        for k in (1..self.pits).rev() {
            let mut b = top - 1;
            while self.choose[b][k] > rank {
                b -= 1;
            }
            rank -= self.choose[b][k];
            bars[k] = b;
            top = b;
        }
        let mut prev = 0usize;
        for (k, &bar) in bars.iter().enumerate().take(self.pits).skip(1) {
            pos.cells[k - 1] = (bar - prev - usize::from(k > 1)) as u32;
            prev = bar;
        }
        let last = n + self.pits - 1 - prev - usize::from(self.pits > 1);
        pos.cells[self.pits - 1] = last as u32;
        let cells = pos.cells.len();
        pos.cells[self.pits..cells].iter_mut().for_each(|c| *c = 0);
        pos.hands = [0, 0];
        pos.to_move = Some(mover);
    }

    /// What the player to move in `pos` wins from there on, if a level
    /// holds it: the margin of the end less the stores' difference now.
    pub(super) fn gain(&self, pos: &Position) -> Option<i64> {
        let n = self.seeds(pos)?;
        let level = self.levels.get(n)?;
        let v = *level.get(self.index(pos) as usize)? as i8;
        (v != UNKNOWN).then_some(i64::from(v))
    }

    /// The entries of level `n`, if built.
    pub(super) fn entries(&self, n: usize) -> u64 {
        self.levels.get(n).map_or(0, |l| l.len() as u64)
    }

    /// The most seeds in the pits a level holds.
    pub(super) fn most(&self) -> usize {
        self.levels.len().saturating_sub(1)
    }
}

/// The seeds laid in the first `pits` cells of `pos` (its pits), if none
/// is in hand: the level that would hold it.
pub(super) fn seeds(pits: usize, pos: &Position) -> Option<usize> {
    if pos.hands != [0, 0] {
        return None;
    }
    Some(pos.cells.get(..pits)?.iter().map(|&c| c as usize).sum())
}

fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    (0..k).fold(1u64, |acc, i| acc.saturating_mul(n - i) / (i + 1))
}

/// The numbering of the levels that fit in `bytes` (fewer than `below`
/// seeds), and the most seeds they hold; or why none can be numbered.
fn planned(engine: &Engine, bytes: u64, below: usize) -> Result<(Db, usize), String> {
    let below = below.min(MAX_LEVEL + 1);
    let db = Db::new(engine, below.max(1))?;
    let most = db.reach(bytes, below);
    Ok((db, most))
}

/// The most seeds in the pits of the levels that fit in `bytes` (fewer
/// than `below`), or why none can be numbered.
pub(super) fn reach(engine: &Engine, bytes: u64, below: usize) -> Result<usize, String> {
    Ok(planned(engine, bytes, below)?.1)
}

/// The bytes the levels [`build`] builds in `bytes` (below `below`)
/// take, or why none can be numbered.
pub(super) fn bytes(engine: &Engine, bytes: u64, below: usize) -> Result<u64, String> {
    let (db, most) = planned(engine, bytes, below)?;
    Ok(db.bytes(most))
}

/// Builds (or reads from `dir`) the levels of up to as many seeds as fit
/// in `bytes`, and fewer than `below`, on `jobs` threads.
pub(super) fn build(
    engine: &Arc<Engine>,
    bytes: u64,
    below: usize,
    jobs: usize,
    dir: Option<&Path>,
    progress: &Building,
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<Db, String> {
    let (mut db, most) = planned(engine, bytes, below)?;
    let folder = dir.map(|d| d.join(fingerprint(engine)));
    for n in 0..=most {
        if stop() {
            break;
        }
        let size = db.size(n);
        progress.level.store(n, Relaxed);
        progress.of.store(size, Relaxed);
        progress.done.store(0, Relaxed);
        let file = folder.as_ref().map(|f| f.join(format!("level-{n:03}.bin")));
        let head = header(engine, n, size);
        match file.as_deref().map(|f| read_level(f, &head, size)) {
            Some(Ok(Some(level))) => {
                progress.done.store(size, Relaxed);
                db.levels.push(level);
                continue;
            }
            Some(Err(why)) => db.rebuilt.push(why),
            Some(Ok(None)) | None => {}
        }
        let Some(level) = build_level(engine, &db, n, jobs, progress, stop)? else {
            break;
        };
        if let (Some(folder), Some(file)) = (&folder, &file) {
            write_level(folder, file, &head, &level)
                .map_err(|e| format!("cannot write the database {}: {e}", file.display()))?;
        }
        db.levels.push(level);
    }
    Ok(db)
}

/// Works out level `n` (the levels below it built); `None` if stopped.
fn build_level(
    engine: &Arc<Engine>,
    db: &Db,
    n: usize,
    jobs: usize,
    progress: &Building,
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<Option<memmap2::MmapMut>, String> {
    use zerocopy::FromBytes;
    let size = db.size(n);
    let mut level = super::pages::anonymous(size as usize)
        .map_err(|e| format!("the database's level of {n} seeds: {e}"))?;
    level.fill(UNKNOWN as u8);
    let memo: &[AtomicI8] = <[AtomicI8]>::mut_from_bytes(&mut level[..])
        .map_err(|_| "a level's memory is not laid out for its entries".to_string())?;
    let next = AtomicU64::new(0);
    const CHUNK: u64 = 4096;
    let failed = std::sync::Mutex::new(None::<String>);
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            let spawned = std::thread::Builder::new()
                .stack_size(64 << 20)
                .spawn_scoped(s, || {
                    let mut w = Builder {
                        db,
                        n,
                        memo,
                        heads: Vec::new(),
                        kids: Vec::new(),
                        path: HashSet::new(),
                        pos: engine.start_position(),
                    };
                    loop {
                        if stop() || failed.lock().map_or(true, |f| f.is_some()) {
                            return;
                        }
                        let from = next.fetch_add(CHUNK, Relaxed);
                        if from >= size {
                            return;
                        }
                        for i in from..(from + CHUNK).min(size) {
                            if memo[i as usize].load(Relaxed) == UNKNOWN {
                                if let Err(e) = w.value(engine, i, 0) {
                                    if let Ok(mut f) = failed.lock() {
                                        f.get_or_insert(e);
                                    }
                                    return;
                                }
                            }
                        }
                        progress
                            .done
                            .fetch_add((from + CHUNK).min(size) - from, Relaxed);
                    }
                });
            if let Err(e) = spawned {
                if let Ok(mut f) = failed.lock() {
                    f.get_or_insert(format!("no thread to build on: {e}"));
                }
            }
        }
    });
    if let Some(e) = failed.into_inner().ok().flatten() {
        return Err(e);
    }
    if stop() {
        return Ok(None);
    }
    Ok(Some(level))
}

/// One thread's work on a level: a game a depth of the chain of turns
/// that store nothing (and one to play its turns into), and the entries
/// on the chain.
struct Builder<'a> {
    db: &'a Db,
    n: usize,
    memo: &'a [AtomicI8],
    heads: Vec<Game>,
    kids: Vec<Game>,
    path: HashSet<u64>,
    pos: Position,
}

/// What a turn led to, as far as the level's entry needs it.
enum Led {
    /// The game is over: the margin for the mover of the turn.
    Over(i64),
    /// A position of a lower level: what the mover of the turn wins from
    /// there on (the stores' difference it made included).
    Known(i64),
    /// A position of this level (entry `i`): the stores' difference the
    /// turn made for its mover, and whether the same player moves next.
    Level(u64, i64, bool),
}

impl Builder<'_> {
    /// Works out entry `i` of the level, at `depth` of a chain.
    fn value(&mut self, engine: &Arc<Engine>, i: u64, depth: usize) -> Result<i8, String> {
        if depth >= MAX_CHAIN {
            return Err(format!("a chain of {MAX_CHAIN} turns stores nothing"));
        }
        if !self.path.insert(i) {
            return Err("play can come back to a position without storing a seed".into());
        }
        self.db.position(i, self.n, &mut self.pos);
        while self.heads.len() <= depth {
            let g = Game::from_position(engine.clone(), self.pos.clone(), Vec::new())
                .map_err(|e| e.to_string())?;
            self.kids.push(g.clone());
            self.heads.push(g);
        }
        self.heads[depth]
            .set_position(&self.pos)
            .map_err(|e| e.to_string())?;
        let head = &self.heads[depth];
        if head.outcome().is_some() {
            // (Over before a turn: its value is its margin, the stores
            // being empty.)
            let o = head.outcome().expect("over");
            // (The entry's player to move: the game over has none.)
            let m = (i & 1) as usize;
            let v = i8::try_from(o.scores[m] - o.scores[1 - m]).map_err(|_| "a margin past 127")?;
            self.path.remove(&i);
            self.memo[i as usize].store(v, Relaxed);
            return Ok(v);
        }
        let me = head.position().to_move.unwrap_or(0);
        let turns = head.legal_turns().len();
        if turns == 0 {
            return Err("a position has no legal turn and the game is not over".into());
        }
        let mut best = i64::MIN;
        for t in 0..turns {
            let (head, kid) = (&self.heads[depth], &mut self.kids[depth]);
            kid.play_from(head, head.legal_turns()[t])
                .map_err(|e| e.to_string())?;
            let v = match self.led(engine, depth, me)? {
                Led::Over(v) | Led::Known(v) => v,
                Led::Level(j, d, same) => {
                    let gain = match self.memo[j as usize].load(Relaxed) {
                        UNKNOWN => i64::from(self.value(engine, j, depth + 1)?),
                        v => i64::from(v),
                    };
                    if same {
                        d + gain
                    } else {
                        d - gain
                    }
                }
            };
            best = best.max(v);
        }
        let v = i8::try_from(best).map_err(|_| "a margin past 127 seeds".to_string())?;
        self.path.remove(&i);
        self.memo[i as usize].store(v, Relaxed);
        Ok(v)
    }

    /// What the turn just played into `kids[depth]` led to, for `me`, its
    /// mover.
    fn led(&self, engine: &Engine, depth: usize, me: Player) -> Result<Led, String> {
        let child = &self.kids[depth];
        let m = usize::from(me & 1);
        if let Some(o) = child.outcome() {
            return Ok(Led::Over(o.scores[m] - o.scores[1 - m]));
        }
        let pos = child.position();
        let stores = [0, 1].map(|p| i64::from(pos.cells[usize::from(engine.store_cell(p))]));
        let d = stores[m] - stores[1 - m];
        let k = self
            .db
            .seeds(pos)
            .ok_or("seeds are left in hand after a turn")?;
        let same = pos.to_move == Some(me);
        if k < self.n {
            let gain = self.db.gain(pos).ok_or("a level below is not built")?;
            Ok(Led::Known(if same { d + gain } else { d - gain }))
        } else if k == self.n {
            Ok(Led::Level(self.db.index(pos), d, same))
        } else {
            Err("a turn put seeds back into the pits".into())
        }
    }
}

/// The name of a variant's databases: a hash of its rules but the setup
/// (Kalah(6,4) and Kalah(6,5) share theirs).
pub(super) fn fingerprint(engine: &Engine) -> String {
    let mut rules = engine.rules.clone();
    rules.setup.seeds.clear();
    rules.setup.by_starter = None;
    rules.setup.hands = [0, 0];
    rules.setup.stores = [0, 0];
    rules.options.clear();
    let text = serde_json::to_string(&rules).unwrap_or_default();
    // FNV-1a, 64 bits: a name, not a defence.
    let h = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    format!("{}-{h:016x}", engine.rules.name)
}

/// The header of a level's file: the format and its version, the rules
/// it was built for (their fingerprint), its seeds and its entries. The
/// entries follow, a byte each, then their checksum (8 bytes): a level
/// copied from another variant's folder, of another size or damaged is
/// not believed.
fn header(engine: &Engine, n: usize, size: u64) -> String {
    format!(
        "sow-db 2 rules={} seeds={n} entries={size}\n",
        fingerprint(engine)
    )
}

/// The level kept in `file` (`None`: no file), or why it is not read.
fn read_level(file: &Path, head: &str, size: u64) -> Result<Option<memmap2::MmapMut>, String> {
    let opened = match std::fs::File::open(file) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("the database {} is not read: {e}", file.display())),
    };
    let not = |why: &str| format!("the database {} is not read: {why}", file.display());
    let mut f = std::io::BufReader::with_capacity(1 << 20, opened);
    let mut found = vec![0u8; head.len()];
    f.read_exact(&mut found)
        .map_err(|_| not("it is shorter than its header"))?;
    if found != head.as_bytes() {
        let said = String::from_utf8_lossy(&found);
        let said = said.lines().next().unwrap_or_default();
        return Err(not(&format!(
            "its header is {said:?}, not {:?} (a level of other rules or seeds, or of an older sow)",
            head.trim_end()
        )));
    }
    let mut level =
        super::pages::anonymous(usize::try_from(size).map_err(|e| not(&e.to_string()))?)
            .map_err(|e| not(&e.to_string()))?;
    f.read_exact(&mut level[..])
        .map_err(|_| not("it ends before its entries"))?;
    let mut sum = [0u8; 8];
    f.read_exact(&mut sum)
        .map_err(|_| not("it ends before its checksum"))?;
    let mut checksum = Checksum::default();
    checksum.add_bytes(&level);
    if u64::from_le_bytes(sum) != checksum.0 {
        return Err(not(
            "its checksum is not that of its entries: it is damaged",
        ));
    }
    if f.read(&mut [0u8; 1]).map_err(|e| not(&e.to_string()))? != 0 {
        return Err(not("it goes on past its checksum"));
    }
    Ok(Some(level))
}

fn write_level(folder: &PathBuf, file: &Path, head: &str, level: &[u8]) -> std::io::Result<()> {
    std::fs::create_dir_all(folder)?;
    let mut checksum = Checksum::default();
    checksum.add_bytes(level);
    write_whole(file, |f| {
        f.write_all(head.as_bytes())?;
        f.write_all(level)?;
        f.write_all(&checksum.0.to_le_bytes())
    })
}

/// Writes `file` whole or not at all: `write` fills a file of this
/// process's own beside it, which is then renamed into place (a reader
/// never sees a file half written, and two processes writing the same
/// file do not write into each other's); on failure it is removed.
pub(super) fn write_whole(
    file: &Path,
    write: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let name = file
        .file_name()
        .map_or_else(Default::default, |n| n.to_os_string());
    let mut part_name = name;
    part_name.push(format!(".part-{}", std::process::id()));
    let part = file.with_file_name(part_name);
    // (A file of this name was left by a process of the same number, gone.)
    let _ = std::fs::remove_file(&part);
    let _noted = crate::runs::writing(&part);
    let written = std::fs::File::create(&part)
        .and_then(|mut f| {
            write(&mut f)?;
            f.sync_all()
        })
        .and_then(|()| std::fs::rename(&part, file));
    if written.is_err() {
        let _ = std::fs::remove_file(&part);
    }
    written
}
