//! Solving a variant: the exact value of a position under perfect play
//! (`sow solve`), for any variant whose positions alone decide the game.
//!
//! The value of a position, to the player to move, is the result first (a
//! win above any draw, a draw above any loss) and then the margin: the
//! mover's score less the opponent's at the end (in a solitaire, the
//! player's score). Both players play for the best value; in Kalah, where
//! the higher score wins, that is the margin alone, as Irving, Donkers
//! and Uiterwijk count it.
//!
//! The parts: `key` numbers positions exactly (their stores aside where
//! the stores decide only the margin), `table` is the shared
//! transposition table, `search` the alpha-beta and MTD(f) search. The
//! first turns are solved one after another, the most promising first,
//! every core on each.

mod db;
mod endgame;
mod key;
mod pages;
mod saved;
mod search;
mod stores;
mod table;

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::time::Instant;

use crate::engine::{Engine, Game, Outcome, Position, Turn};
use crate::ir::Player;
use crate::play::runs;
use key::Keys;
use table::{Entry, Memory, Table};

pub use endgame::{Endgame, PLAYERS_BYTES};

/// The least memory a solve takes unless told (`--memory`): 256 MiB, on
/// a machine that says nothing of its memory (see [`default_memory`]).
pub const DEFAULT_MEMORY: usize = 256 << 20;

/// The most memory the endgame databases take in a solve not told its
/// memory nor its databases' seeds (`--memory`, `--db-seeds`): 128 MiB,
/// built in seconds (Kalah(6,4): levels of up to 17 seeds). Larger
/// levels take minutes to hours to build, and pay off kept (`--db`).
pub const DEFAULT_DATABASES: usize = 128 << 20;

/// The most memory a solve takes unless told: 16 GiB.
pub const MOST_DEFAULT_MEMORY: usize = 16 << 30;

/// The memory a solve takes unless told (`--memory`), as engines size a
/// hash table: half the memory the machine has free (Linux's
/// `MemAvailable`, or what the process's control group leaves it where
/// that is less: a container's limit), from [`DEFAULT_MEMORY`] to
/// [`MOST_DEFAULT_MEMORY`], in whole MiB. (The table grows within it as
/// it fills, so that a small solve touches little of it; see `table`.)
pub fn default_memory() -> usize {
    match free_memory() {
        Some(bytes) => (bytes / 2).clamp(DEFAULT_MEMORY, MOST_DEFAULT_MEMORY) >> 20 << 20,
        None => DEFAULT_MEMORY,
    }
}

/// The memory free to this process, if the system says: the machine's
/// `MemAvailable`, or its control group's limit less what the group uses
/// (cgroup v2), the less of the two.
fn free_memory() -> Option<usize> {
    let read = |path: &str| std::fs::read_to_string(path).ok();
    let machine = read("/proc/meminfo").and_then(|m| {
        let line = m.lines().find(|l| l.starts_with("MemAvailable:"))?;
        let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
        kib.checked_mul(1024)
    });
    // The group's limit and use: cgroup v2 (its folder named in
    // /proc/self/cgroup, or the root a container sees), else v1's memory
    // controller. (`max` where the group has no limit: none then.)
    let limit = |max: &str, current: &str| -> Option<usize> {
        let max: usize = read(max)?.trim().parse().ok()?;
        let used: usize = read(current)?.trim().parse().ok()?;
        Some(max.saturating_sub(used))
    };
    let own = read("/proc/self/cgroup")
        .and_then(|c| {
            Some(
                c.lines()
                    .find_map(|l| l.strip_prefix("0::"))?
                    .trim_end_matches('/')
                    .to_string(),
            )
        })
        .unwrap_or_default();
    let group = limit(
        &format!("/sys/fs/cgroup{own}/memory.max"),
        &format!("/sys/fs/cgroup{own}/memory.current"),
    )
    .or_else(|| limit("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"))
    .or_else(|| {
        limit(
            "/sys/fs/cgroup/memory/memory.limit_in_bytes",
            "/sys/fs/cgroup/memory/memory.usage_in_bytes",
        )
    });
    match (machine, group) {
        (Some(m), Some(g)) => Some(m.min(g)),
        (m, g) => m.or(g),
    }
}

/// The least memory the table may be given: 1 MiB.
pub const MIN_MEMORY: usize = 1 << 20;

/// A value's results apart: a win is worth more than any margin. (A
/// table kept on disk holds values so counted: a change here is a new
/// `saved::FORMAT`.)
const RESULT: i32 = 4096;

/// The largest margin the solver counts (a score difference past it is
/// refused, never clipped).
pub const MAX_MARGIN: i64 = 2047;

/// Beyond any value: an unbounded side.
const INFINITE: i32 = 2 * RESULT;

/// How a game ends for a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The player loses.
    Loss,
    /// Nobody wins.
    Draw,
    /// The player wins.
    Win,
}

impl Verdict {
    /// Its word: `win`, `draw`, `loss`.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Loss => "loss",
            Verdict::Draw => "draw",
            Verdict::Win => "win",
        }
    }
}

/// A game's value under perfect play, to one player: the result, and the
/// player's score less the opponent's at the end (in a solitaire, the
/// player's score).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Value {
    /// Win, draw or loss.
    pub result: Verdict,
    /// The score difference at the end.
    pub margin: i64,
}

impl Value {
    /// The value a number of the search stands for.
    fn of(v: i32) -> Value {
        let (result, margin) = if v > RESULT / 2 {
            (Verdict::Win, v - RESULT)
        } else if v < -RESULT / 2 {
            (Verdict::Loss, v + RESULT)
        } else {
            (Verdict::Draw, v)
        };
        Value {
            result,
            margin: i64::from(margin),
        }
    }

    /// The number the search orders values by (its inverse: [`Value::of`]).
    fn number(self) -> i32 {
        let r = match self.result {
            Verdict::Win => RESULT,
            Verdict::Draw => 0,
            Verdict::Loss => -RESULT,
        };
        r + self.margin as i32
    }

    /// A bound of the search as a value, if the side is bounded.
    fn bound(v: i32) -> Option<Value> {
        (v.abs() < INFINITE).then(|| Value::of(v))
    }

    /// How a person reads it: `win by 10`, `draw`, `loss by 2`, with the
    /// margin apart where it is not what the result says (`loss (margin
    /// +2)`, where an end rule decides otherwise than the scores); in a
    /// solitaire (`solo`), the result and the score (`win (score 8)`).
    pub fn text(self, solo: bool) -> String {
        if solo {
            return format!("{} (score {})", self.result.word(), self.margin);
        }
        match (self.result, self.margin) {
            (Verdict::Draw, 0) => "draw".to_string(),
            (Verdict::Draw, m) => format!("draw (margin {m:+})"),
            (r, m) if (r == Verdict::Win) == (m > 0) && m != 0 => {
                format!("{} by {}", r.word(), m.abs())
            }
            (r, m) => format!("{} (margin {m:+})", r.word()),
        }
    }
}

/// Why a variant or position cannot be solved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsolvable {
    /// What stands in the way.
    pub why: String,
}

impl Unsolvable {
    fn new(why: impl Into<String>) -> Unsolvable {
        Unsolvable { why: why.into() }
    }
}

impl std::fmt::Display for Unsolvable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot be solved: {}", self.why)
    }
}

impl std::error::Error for Unsolvable {}

/// Why a search stopped short of a value.
enum Stop {
    /// Ctrl-C (or another thread's failure): the bounds known.
    Interrupted { lower: i32, upper: i32 },
    /// Something the solver cannot value.
    Unsolvable(Unsolvable),
}

/// What every thread's search shares but the table (see [`Searching`]).
struct Shared {
    keys: Keys,
    /// Positions searched, all threads together.
    positions: AtomicU64,
    /// First turns solved.
    solved: AtomicUsize,
    /// A thread failed: the others stop.
    failed: AtomicBool,
    /// The most positions a solve may search (see [`Solver::with_limit`]).
    limit: u64,
    solo: bool,
    /// Where the stores decide only the margin (see `stores`), each
    /// store's cell, so that a database's entry gives a value; else why
    /// they decide more.
    margin_only: Result<[usize; 2], String>,
    /// The endgame databases, once built.
    db: std::sync::OnceLock<db::Db>,
    /// Whether only the best first turns are solved exactly (see
    /// [`Solver::best_only`]), and the most a first turn is known so far
    /// to be worth at least, to the player to move (a first turn solved,
    /// or one a null-window search has shown worth at least that).
    best_only: bool,
    best: AtomicI32,
    /// How far building them has got.
    building: db::Building,
    /// How far writing or reading the table has got.
    moving: saved::Moving,
}

impl Shared {
    /// A position's key, or why it has none.
    #[inline]
    fn key(&self, pos: &Position) -> Result<u128, Stop> {
        self.keys.key(pos).ok_or_else(|| {
            Stop::Unsolvable(Unsolvable::new(
                "a position holds more seeds in a pit than are in play at the start, \
                 or a variable past its values: the solver cannot number it",
            ))
        })
    }

    /// The player to move's store less the opponent's, where the stores
    /// decide only the margin.
    #[inline]
    fn stores_lead(&self, pos: &Position) -> Option<i64> {
        let [s0, s1] = *self.margin_only.as_ref().ok()?;
        let me = usize::from(pos.to_move? & 1);
        let stores = [pos.cells[s0], pos.cells[s1]].map(i64::from);
        Some(stores[me] - stores[1 - me])
    }

    fn count(&self, n: u64) {
        self.positions.fetch_add(n, Relaxed);
    }

    fn stopping(&self) -> bool {
        runs::stopped() || self.failed.load(Relaxed) || self.positions.load(Relaxed) > self.limit
    }

    /// The value of a position to its player to move, where the
    /// databases hold it: the stores' difference and what is still to be
    /// won. (The seeds left would bound every other position's value as
    /// well, but a bound cuts lines the search would not then look at,
    /// and a line that comes back to a position must be seen to be
    /// refused.)
    #[inline]
    fn known(&self, pos: &Position) -> Option<i32> {
        let lead = self.stores_lead(pos)?;
        let gain = self.db.get()?.gain(pos)?;
        Some(margin_value(lead + gain))
    }
}

/// What every thread's search shares: the solve's state, and the table
/// (borrowed for the solve, see [`Memory::table`]).
struct Searching<'a> {
    shared: &'a Shared,
    table: Table<'a>,
}

impl std::ops::Deref for Searching<'_> {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        self.shared
    }
}

impl Searching<'_> {
    /// What the table holds of a position (keyed `key`), its bounds
    /// read as the position's own values: where the stores decide only
    /// the margin, the table keeps what is still to be won (one entry
    /// for every content of the stores), and the position's stores'
    /// difference is added back.
    #[inline]
    fn probe(&self, pos: &Position, key: u128) -> Option<Entry> {
        let e = self.table.probe(key)?;
        let Some(lead) = self.stores_lead(pos) else {
            return Some(e);
        };
        let back = |t: i16| {
            let t = i32::from(t);
            if t.abs() >= INFINITE {
                t
            } else {
                margin_value(i64::from(t) + lead)
            }
        };
        Some(Entry {
            lower: back(e.lower) as i16,
            upper: back(e.upper) as i16,
            ..e
        })
    }

    /// Notes what is known of a position (keyed `key`) in the table (see
    /// [`Searching::probe`]).
    #[inline]
    fn store(&self, pos: &Position, key: u128, e: Entry) {
        let Some(lead) = self.stores_lead(pos) else {
            return self.table.store(key, e);
        };
        let to = |v: i16| {
            let v = i32::from(v);
            if v.abs() >= INFINITE {
                v as i16
            } else {
                (Value::of(v).margin - lead) as i16
            }
        };
        self.table.store(
            key,
            Entry {
                lower: to(e.lower),
                upper: to(e.upper),
                ..e
            },
        );
    }
}

impl Shared {
    /// What a turn of `me`'s that led to `child` is worth to `me`, where
    /// that is known without a search: the game it ends, or a position
    /// the databases hold.
    fn settled(&self, child: &Game, me: Player) -> Result<Option<i32>, Stop> {
        if let Some(o) = child.outcome() {
            return value_of_outcome(self, o, me).map(Some);
        }
        let pos = child.position();
        Ok(self
            .known(pos)
            .map(|v| if pos.to_move == Some(me) { v } else { -v }))
    }
}

/// The value of a game won, drawn or lost by the scores alone, by this
/// margin (clamped to the margins the solver counts).
fn margin_value(m: i64) -> i32 {
    let margin = m.clamp(-MAX_MARGIN, MAX_MARGIN);
    let result = match margin.signum() {
        1 => Verdict::Win,
        0 => Verdict::Draw,
        _ => Verdict::Loss,
    };
    Value { result, margin }.number()
}

/// The value of a finished game to `me`, as the search counts it.
fn value_of_outcome(shared: &Shared, o: &Outcome, me: Player) -> Result<i32, Stop> {
    let me = usize::from(me & 1);
    let result = match o.winner {
        Some(p) if usize::from(p & 1) == me => Verdict::Win,
        Some(_) => Verdict::Loss,
        None if shared.solo => Verdict::Loss,
        None => Verdict::Draw,
    };
    let margin = if shared.solo {
        o.scores[0]
    } else {
        o.scores[me].saturating_sub(o.scores[1 - me])
    };
    if margin.abs() > MAX_MARGIN {
        return Err(Stop::Unsolvable(Unsolvable::new(format!(
            "a game ends with a margin of {margin}, past the {MAX_MARGIN} the solver counts"
        ))));
    }
    Ok(Value { result, margin }.number())
}

/// A turn the engine did not finish: past its work limit, nothing can be
/// said of its value; or the solve asked to stop (the engine stops a turn
/// then too).
fn too_long() -> Unsolvable {
    match runs::stopped() {
        true => Unsolvable::new("the solve was stopped before it could say anything"),
        false => {
            Unsolvable::new("a turn runs past the engine's work limit: its value cannot be known")
        }
    }
}

/// Why a variant cannot be solved at all, if it cannot: where a position
/// alone does not decide what follows.
pub fn refusal(engine: &Engine) -> Option<Unsolvable> {
    if engine.rules.rounds.is_some() {
        return Some(Unsolvable::new(
            "it is a match in rounds: what a round is worth depends on the rounds before it, \
             which a position does not hold",
        ));
    }
    if engine.tracks_repetition() {
        return Some(Unsolvable::new(
            "its rule on repeated positions reads the positions seen before, which a position \
             does not hold",
        ));
    }
    None
}

/// A first turn's value: exact when `lower == upper`; a stopped solve
/// leaves bounds (`None`: unbounded on that side).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnValue {
    /// The turn.
    pub turn: Turn,
    /// The least it is worth to the player to move.
    pub lower: Option<Value>,
    /// The most it is worth.
    pub upper: Option<Value>,
}

impl TurnValue {
    /// What two searches of the same turn found, together: the higher
    /// lower bound, the lower upper bound.
    fn meet(self, other: TurnValue) -> TurnValue {
        let pick = |a: Option<Value>, b: Option<Value>, higher: bool| match (a, b) {
            (Some(x), Some(y)) => Some(if (x.number() > y.number()) == higher {
                x
            } else {
                y
            }),
            (x, None) | (None, x) => x,
        };
        TurnValue {
            turn: self.turn,
            lower: pick(self.lower, other.lower, true),
            upper: pick(self.upper, other.upper, false),
        }
    }

    /// Its value, if known exactly.
    pub fn exact(&self) -> Option<Value> {
        self.lower.filter(|_| self.lower == self.upper)
    }
}

/// What a solve found.
#[derive(Debug, Clone)]
pub struct Solution {
    /// The position's value to the player to move (`lower == upper` once
    /// solved; bounds if stopped).
    pub lower: Option<Value>,
    /// See `lower`.
    pub upper: Option<Value>,
    /// Every first turn with its value, the best first.
    pub turns: Vec<TurnValue>,
    /// Positions searched.
    pub positions: u64,
    /// Seconds taken.
    pub seconds: f64,
    /// Entries of the transposition table in use at the end (it grows
    /// as it fills, within its memory).
    pub table_entries: usize,
    /// The most entries the table could have grown to.
    pub table_capacity: usize,
    /// A solitaire's: its values' margins are the player's score.
    pub solo: bool,
}

impl Solution {
    /// The value, if the solve finished.
    pub fn value(&self) -> Option<Value> {
        self.lower.filter(|_| self.lower == self.upper)
    }

    /// The first turns of the best value (once solved).
    pub fn best(&self) -> Vec<Turn> {
        match self.value() {
            Some(v) => self
                .turns
                .iter()
                .filter(|t| t.exact() == Some(v))
                .map(|t| t.turn)
                .collect(),
            None => Vec::new(),
        }
    }
}

/// A solver for a game: its numbering of positions and its table.
pub struct Solver {
    shared: Shared,
    /// The table's memory, borrowed by a solve (or a read or a write).
    memory: std::sync::Mutex<Memory>,
}

/// The positions past which the first guess at a turn's value deepens
/// no further (see `search::Worker::guess`): 2 to the power of 3 and
/// half the seeds out of the stores, from 2¹² to 2²⁰ (a guess of a
/// million positions, and the best turns it leaves in the table, soon
/// repay themselves where the search takes many millions, but would be
/// most of a small solve's work: Kalah(4,3) takes 0.2 million).
fn guess_budget(game: &Game) -> u64 {
    1 << (in_play(game) / 2 + 3).clamp(12, 20)
}

/// The seeds of `game`'s position out of the stores (in the pits and in
/// hand).
fn in_play(game: &Game) -> u64 {
    let pos = game.position();
    let stored: u64 = [0, 1]
        .map(|p| u64::from(pos.cells[usize::from(game.engine().store_cell(p))]))
        .iter()
        .sum();
    pos.total() - stored
}

/// The levels the endgame databases are built below for `game`: of up
/// to `most` seeds in the pits, and fewer than are in play; half the
/// seeds in play unless told (past that a level costs more to build than
/// the search it saves).
fn levels_below(game: &Game, most: Option<usize>) -> usize {
    let in_play = in_play(game) as usize;
    most.map_or(in_play / 2 + 1, |m| m.saturating_add(1).min(in_play))
}

/// What the threads left in each first turn's slot, in order.
fn results<T>(slots: Vec<std::sync::Mutex<Option<T>>>) -> Result<Vec<T>, Unsolvable> {
    slots
        .into_iter()
        .map(|f| {
            f.into_inner()
                .ok()
                .flatten()
                .ok_or_else(|| Unsolvable::new("a first turn was not searched"))
        })
        .collect()
}

/// The stack each search thread gets: a line of play up to
/// [`search::MAX_LINE`] turns deep, a frame a turn.
const THREAD_STACK: usize = 64 << 20;

impl Solver {
    /// A solver for `game`'s variant from its position, with a table of
    /// at most `memory` bytes.
    pub fn new(game: &Game, memory: usize) -> Result<Solver, Unsolvable> {
        let engine = game.engine();
        if let Some(why) = refusal(engine) {
            return Err(why);
        }
        // Seeds never grow in number: the most a cell can hold is what is
        // in play now or at the setup.
        let most = game.position().total().max(engine.start_position().total());
        let margin_only = match stores::blind(&engine.rules) {
            None => Ok([0, 1].map(|p| usize::from(engine.store_cell(p)))),
            Some(why) => Err(why),
        };
        let keys =
            Keys::new(engine, most, margin_only.as_ref().ok().copied()).map_err(Unsolvable::new)?;
        let memory = Memory::new(memory.max(MIN_MEMORY)).map_err(Unsolvable::new)?;
        Ok(Solver {
            memory: std::sync::Mutex::new(memory),
            shared: Shared {
                keys,
                positions: AtomicU64::new(0),
                solved: AtomicUsize::new(0),
                failed: AtomicBool::new(false),
                limit: u64::MAX,
                solo: engine.rules.seats() == 1,
                margin_only,
                db: std::sync::OnceLock::new(),
                best_only: false,
                best: AtomicI32::new(-INFINITE),
                building: db::Building::default(),
                moving: saved::Moving::default(),
            },
        })
    }

    /// The same solver, stopping (as Ctrl-C stops it, with the bounds
    /// known) once it has searched `positions` positions in all.
    pub fn with_limit(mut self, positions: u64) -> Solver {
        self.shared.limit = positions;
        self
    }

    /// The same solver, solving only the best first turns exactly: each
    /// other is searched only as far as it takes to show it worth less
    /// than the best (its value then an upper bound), which can take far
    /// fewer positions.
    pub fn best_only(mut self) -> Solver {
        self.shared.best_only = true;
        self
    }

    /// Builds the endgame databases (see `db`) of up to `most` seeds in
    /// the pits (half those in play in `game` unless told), as many as fit
    /// in `bytes` and fewer than are in play, on `jobs`
    /// threads, reading the levels `dir` holds and writing there those it
    /// builds. The most seeds they hold, or why none could be built
    /// (where the stores decide more than the margin). Ctrl-C stops the
    /// build, keeping the levels built.
    pub fn build_databases(
        &self,
        game: &Game,
        bytes: u64,
        most: Option<usize>,
        dir: Option<&std::path::Path>,
        jobs: usize,
    ) -> Result<usize, String> {
        if let Err(why) = &self.shared.margin_only {
            return Err(format!("no endgame database: {why}"));
        }
        self.databases(game.engine(), bytes, levels_below(game, most), dir, jobs)
    }

    /// The bytes the endgame databases [`Solver::build_databases`] would
    /// build for `game` take (told the same `bytes` and `most`): what of
    /// a budget is left for the table. None where there can be none.
    pub fn database_bytes(game: &Game, bytes: u64, most: Option<usize>) -> u64 {
        if stores::blind(&game.engine().rules).is_some() {
            return 0;
        }
        db::bytes(game.engine(), bytes, levels_below(game, most)).unwrap_or(0)
    }

    /// Reads the table a solve of the variant stopped short kept in `dir`
    /// (see `saved`), if there is one: where, and the entries read; or
    /// why it was not read (the table then left empty).
    pub fn read_table(
        &self,
        engine: &Engine,
        dir: &std::path::Path,
    ) -> Result<Option<(std::path::PathBuf, u64)>, String> {
        let file = saved::path(dir, engine, &self.shared.keys);
        let mut memory = self.memory()?;
        let table = memory.table()?;
        let read = saved::read(&file, &self.shared.keys, &table, &self.shared.moving)?;
        Ok(read.map(|n| (file, n)))
    }

    /// Writes what the table holds to `dir` (not while a solve runs), for
    /// the next solve of the variant to read, unless it holds fewer than
    /// `least` entries (those of a kept table it read: see
    /// `saved::write`): where, and the entries written.
    pub fn write_table(
        &self,
        engine: &Engine,
        dir: &std::path::Path,
        least: u64,
    ) -> Result<(std::path::PathBuf, u64), String> {
        let file = saved::path(dir, engine, &self.shared.keys);
        let mut memory = self.memory()?;
        let table = memory.table()?;
        let keys = &self.shared.keys;
        let n = saved::write(&file, keys, &table, least, &self.shared.moving)?;
        Ok((file, n))
    }

    /// The table's memory, for a solve, a read or a write (one at a time).
    fn memory(&self) -> Result<std::sync::MutexGuard<'_, Memory>, String> {
        self.memory
            .lock()
            .map_err(|_| "the table was left unfinished by a solve that failed".to_string())
    }

    /// While the table is written or read: its entries moved so far, of
    /// how many.
    pub fn table_moving(&self) -> (u64, u64) {
        let m = &self.shared.moving;
        (m.done.load(Relaxed), m.of.load(Relaxed))
    }

    /// Builds the levels of fewer than `below` seeds that fit in `bytes`
    /// (see [`Solver::build_databases`]).
    fn databases(
        &self,
        engine: &std::sync::Arc<Engine>,
        bytes: u64,
        below: usize,
        dir: Option<&std::path::Path>,
        jobs: usize,
    ) -> Result<usize, String> {
        let cancel = runs::Cancel::current();
        let built = db::build(
            engine,
            bytes,
            below,
            jobs,
            dir,
            &self.shared.building,
            &|| cancel.stopped(),
        )
        .map_err(|e| format!("no endgame database: {e}"))?;
        let most = built.most();
        self.shared
            .db
            .set(built)
            .map_err(|_| "the endgame databases are built once".to_string())?;
        Ok(most)
    }

    /// The levels found in `--db` but not believed (another variant's,
    /// damaged, …), each why: they were built again.
    pub fn databases_rebuilt(&self) -> Vec<String> {
        self.shared
            .db
            .get()
            .map_or_else(Vec::new, |d| d.rebuilt.clone())
    }

    /// The entries of the databases' level of `n` seeds in the pits (none
    /// if not built).
    pub fn database_entries(&self, n: usize) -> u64 {
        self.shared.db.get().map_or(0, |d| d.entries(n))
    }

    /// The value of a position (not over) to its player to move, where the
    /// endgame databases hold it.
    pub fn known(&self, pos: &Position) -> Option<Value> {
        self.shared.known(pos).map(Value::of)
    }

    /// While the databases are built: the level under way, its entries
    /// worked out and its entries in all.
    pub fn building(&self) -> (usize, u64, u64) {
        let b = &self.shared.building;
        (
            b.level.load(Relaxed),
            b.done.load(Relaxed),
            b.of.load(Relaxed),
        )
    }

    /// Positions searched so far (read while a solve runs, for progress).
    pub fn positions(&self) -> u64 {
        self.shared.positions.load(Relaxed)
    }

    /// First turns solved so far.
    pub fn turns_solved(&self) -> usize {
        self.shared.solved.load(Relaxed)
    }

    /// Solves `game`'s position (a game not over) on `jobs` threads: each
    /// first turn's exact value, and so the position's (with
    /// [`Solver::best_only`], the best turns' exact values and a bound on
    /// each other's). Ctrl-C stops it with the bounds known.
    pub fn solve(&self, game: &Game, jobs: usize) -> Result<Solution, Unsolvable> {
        let started = Instant::now();
        if game.outcome().is_some() {
            return Err(Unsolvable::new(
                "the game is over: there is nothing to solve",
            ));
        }
        self.shared.best.store(-INFINITE, Relaxed);
        let mut memory = self.memory().map_err(Unsolvable::new)?;
        let table_capacity = memory.len();
        let searching = Searching {
            shared: &self.shared,
            table: memory.table().map_err(Unsolvable::new)?,
        };
        let searching = &searching;
        let me = game.position().to_move.unwrap_or(0);
        let turns = game.legal_turns().to_vec();
        // Each first turn played here; a thread takes a copy of the game
        // it leads to (a game is not shared between threads).
        let mut children = Vec::with_capacity(turns.len());
        for &t in &turns {
            let mut child = game.clone();
            child.play(t).map_err(|_| too_long())?;
            self.shared.count(1);
            children.push(std::sync::Mutex::new(child));
        }
        let child = |i: usize| children[i].lock().ok().map(|c| c.clone());
        // First a guess at each turn's value (see `search::Worker::guess`);
        // the turns are then solved the most promising first.
        let guesses = self.on_threads(jobs, turns.len(), |i| {
            let c = child(i).ok_or_else(|| Unsolvable::new("a first turn was lost"))?;
            self.guess(searching, &c, me)
        })?;
        let guesses = guesses.into_iter().collect::<Result<Vec<_>, _>>()?;
        let mut order: Vec<usize> = (0..turns.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(guesses[i]));
        let mut values = self.solve_turns(jobs, &order, |k, done, skew| {
            let i = order[k];
            let c = child(i).ok_or_else(|| Unsolvable::new("a first turn was lost"))?;
            self.first_turn(searching, &c, me, turns[i], guesses[i], done, skew)
        })?;
        // The best first; ties in the turns' order.
        let rank = |b: Option<Value>, low: bool| {
            b.map_or(if low { -INFINITE } else { INFINITE }, |v| v.number())
        };
        let place = |t: &TurnValue| turns.iter().position(|&x| x == t.turn);
        values.sort_by_key(|t| {
            (
                std::cmp::Reverse((rank(t.lower, true), rank(t.upper, false))),
                place(t),
            )
        });
        let lower = values.iter().map(|t| rank(t.lower, true)).max();
        let upper = values.iter().map(|t| rank(t.upper, false)).max();
        Ok(Solution {
            lower: lower.and_then(Value::bound),
            upper: upper.and_then(Value::bound),
            turns: values,
            positions: self.positions(),
            seconds: started.elapsed().as_secs_f64(),
            table_entries: searching.table.in_use(),
            table_capacity,
            solo: self.shared.solo,
        })
    }

    /// Solves the first turns (`solve(k, done, skew)` the `k`th of
    /// `order`) on `jobs` threads, all of them on the first turn in
    /// `order` not yet solved, sharing the table, until one of them has
    /// solved it (`done`): the first to take a turn searches it in the
    /// ranked order, each other as its `skew`th helper (see
    /// `search::Worker::helping`). What each learns of a turn is kept
    /// (bounds from every thread, met).
    fn solve_turns(
        &self,
        jobs: usize,
        order: &[usize],
        solve: impl Fn(usize, &AtomicBool, usize) -> Result<TurnValue, Unsolvable> + Sync,
    ) -> Result<Vec<TurnValue>, Unsolvable> {
        let n = order.len();
        let done: Vec<AtomicBool> = (0..n).map(|_| AtomicBool::new(false)).collect();
        let taken: Vec<AtomicUsize> = (0..n).map(|_| AtomicUsize::new(0)).collect();
        let found: Vec<std::sync::Mutex<Option<Result<TurnValue, Unsolvable>>>> =
            (0..n).map(|_| std::sync::Mutex::new(None)).collect();
        let pick = || {
            let k = (0..n).find(|&k| !done[k].load(Relaxed))?;
            Some((k, taken[k].fetch_add(1, Relaxed)))
        };
        self.on_threads(jobs, jobs, |_| {
            while let Some((k, skew)) = pick() {
                let v = solve(k, &done[k], skew);
                let Ok(mut slot) = found[k].lock() else {
                    break;
                };
                let first = slot.is_none();
                *slot = Some(match (slot.take(), v) {
                    (Some(Ok(a)), Ok(b)) => Ok(a.meet(b)),
                    (Some(Err(e)), _) | (_, Err(e)) => {
                        self.shared.failed.store(true, Relaxed);
                        Err(e)
                    }
                    (None, Ok(b)) => Ok(b),
                });
                if first {
                    self.shared.solved.fetch_add(1, Relaxed);
                }
                done[k].store(true, Relaxed);
            }
        })?;
        results(found)?.into_iter().collect()
    }

    /// Runs `task` on `0..n` on up to `jobs` threads of the solve's own,
    /// each taking the next not yet taken; the results in order. (Plain
    /// threads, not a pool's: a computer player solving inside another
    /// run's pool must not be handed that run's work while it waits.)
    fn on_threads<T: Send>(
        &self,
        jobs: usize,
        n: usize,
        task: impl Fn(usize) -> T + Sync,
    ) -> Result<Vec<T>, Unsolvable> {
        let next = AtomicUsize::new(0);
        let found: Vec<std::sync::Mutex<Option<T>>> =
            (0..n).map(|_| std::sync::Mutex::new(None)).collect();
        // (Each thread under what this one runs under.)
        let cancel = runs::Cancel::current();
        let work = || loop {
            let i = next.fetch_add(1, Relaxed);
            if i >= n {
                break;
            }
            let v = task(i);
            if let Ok(mut f) = found[i].lock() {
                *f = Some(v);
            }
        };
        let spawned = std::thread::scope(|s| {
            let threads: Vec<_> = (0..jobs.clamp(1, n.max(1)))
                .map(|_| {
                    std::thread::Builder::new()
                        .stack_size(THREAD_STACK)
                        .spawn_scoped(s, || runs::with_cancel(&cancel, work))
                })
                .collect();
            threads
                .into_iter()
                .map(|t| {
                    t.map_err(|e| e.to_string())?
                        .join()
                        .map_err(|_| "a search thread failed".to_string())
                })
                .collect::<Result<Vec<()>, String>>()
        });
        spawned.map_err(|e| Unsolvable::new(format!("the search's threads: {e}")))?;
        results(found)
    }

    /// A first guess at what the turn that led to `child` is worth to
    /// `me` (0 in a solitaire, whose values a lead does not guess).
    fn guess(&self, searching: &Searching, child: &Game, me: Player) -> Result<i32, Unsolvable> {
        if child.outcome().is_some() || self.shared.solo {
            return Ok(0);
        }
        match search::Worker::new(searching, child, me).guess(guess_budget(child)) {
            Ok(g) => Ok(g),
            Err(Stop::Interrupted { .. }) => Ok(0),
            Err(Stop::Unsolvable(u)) => Err(u),
        }
    }

    /// The value to `me` of the first turn `t`, which led to `child`,
    /// from a guess at it. Solving for the best turns only, a turn is
    /// asked first whether it is worth as much as the best found so far
    /// (by then); if not, that bound is all that is kept.
    #[allow(clippy::too_many_arguments)]
    fn first_turn(
        &self,
        searching: &Searching,
        child: &Game,
        me: Player,
        t: Turn,
        guess: i32,
        done: &AtomicBool,
        skew: usize,
    ) -> Result<TurnValue, Unsolvable> {
        let (lower, upper) = match child.outcome() {
            Some(o) => match value_of_outcome(&self.shared, o, me) {
                Ok(v) => (v, v),
                Err(Stop::Unsolvable(u)) => return Err(u),
                Err(Stop::Interrupted { lower, upper }) => (lower, upper),
            },
            None => {
                // Solving for the best turns only, a value below the best
                // found so far is not worth knowing exactly.
                let floor = || {
                    if self.shared.best_only {
                        self.shared.best.load(Relaxed)
                    } else {
                        -INFINITE
                    }
                };
                let mut worker = search::Worker::new(searching, child, me).helping(done, skew);
                match worker.exact(guess, &floor) {
                    Ok(bounds) => bounds,
                    Err(Stop::Interrupted { lower, upper }) => (lower, upper),
                    Err(Stop::Unsolvable(u)) => return Err(u),
                }
            }
        };
        if lower == upper {
            self.shared.best.fetch_max(lower, Relaxed);
        }
        Ok(TurnValue {
            turn: t,
            lower: Value::bound(lower),
            upper: Value::bound(upper),
        })
    }
}
