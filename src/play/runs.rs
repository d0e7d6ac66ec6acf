//! Long runs (`random`, `perft`, `analyze`): numbered pieces of work done
//! on several threads, their results handed back in number order (so
//! that what a run prints does not depend on how many threads did it), a
//! progress bar on a terminal, and a clean stop on Ctrl-C.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

/// Set by Ctrl-C once [`catch_interrupt`] is called: the run stops after
/// the pieces under way and prints what it has.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Makes Ctrl-C stop a run cleanly instead of killing the process (a
/// second Ctrl-C, or one before a run, still ends it at once).
pub fn catch_interrupt() {
    // (Fails only when a handler is already set: then that one serves.)
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
}

/// Whether Ctrl-C has asked the run to stop.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Asks the runs under way to stop, as Ctrl-C does (for a host, such as
/// Python, that sees Ctrl-C itself).
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

thread_local! {
    /// The time by which the runs this thread starts stop handing out
    /// work ([`with_deadline`]).
    static DEADLINE: std::cell::Cell<Option<Instant>> = const { std::cell::Cell::new(None) };
}

/// Calls `f`, and stops the long runs it starts on this thread from
/// handing out work past `deadline`, as Ctrl-C stops them (a server's
/// request answered at its time limit stops working soon after). Work is
/// then handed out a piece a thread at a time, so that a stop comes after
/// one piece.
pub fn with_deadline<T>(deadline: Instant, f: impl FnOnce() -> T) -> T {
    let before = DEADLINE.replace(Some(deadline));
    let out = f();
    DEADLINE.set(before);
    out
}

/// Lets runs go on to their end again after [`interrupt`].
pub fn resume() {
    INTERRUPTED.store(false, Ordering::SeqCst);
}

/// The number of threads a run uses by default: one per core.
pub fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A new game from `start` and a second copy of it to play in, for a
/// thread of a run (see [`in_order`]'s state); none when listing the
/// start's turns runs past the engine's limit.
pub fn fresh_games(
    engine: &std::sync::Arc<crate::engine::Engine>,
    start: &crate::engine::Position,
) -> Option<(crate::engine::Game, crate::engine::Game)> {
    let fresh = crate::engine::Game::from_position(engine.clone(), start.clone(), Vec::new());
    fresh.ok().map(|g| (g.clone(), g))
}

/// How a run shows its progress.
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar counting `total` pieces of `what` on standard error, drawn
    /// only when that is a terminal and `quiet` is not asked for.
    pub fn new(total: u64, what: &str, quiet: bool) -> Progress {
        Progress::drawn(total, what, quiet, "; {eta} left")
    }

    /// The same bar without the time left: where the pieces differ too
    /// much in size for it to mean anything (a solve's first turns).
    pub fn without_eta(total: u64, what: &str, quiet: bool) -> Progress {
        Progress::drawn(total, what, quiet, "")
    }

    fn drawn(total: u64, what: &str, quiet: bool, eta: &str) -> Progress {
        let target = if quiet || !std::io::stderr().is_terminal() {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        };
        let bar = ProgressBar::with_draw_target(Some(total), target);
        let style = ProgressStyle::with_template(&format!(
            "{{spinner}} {{bar:40}} {{pos}}/{{len}} {what} ({{elapsed}}{eta}) {{msg}}"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style);
        // Drawn from the start and kept moving, however long a piece takes
        // (a perft's first turn may take minutes).
        if !bar.is_hidden() {
            bar.enable_steady_tick(std::time::Duration::from_millis(200));
        }
        Progress { bar }
    }

    fn advance(&self, n: u64) {
        self.bar.inc(n);
    }

    /// Sets how many pieces are done of how many, and a note after the
    /// bar (a piece of work whose size is learnt as it goes).
    pub fn show_of(&self, done: u64, of: u64, note: String) {
        self.bar.set_length(of);
        self.show(done, note);
    }

    /// Sets how many pieces are done, and a note after the bar (the
    /// positions a solve has searched, say).
    pub fn show(&self, done: u64, note: String) {
        self.bar.set_position(done);
        self.bar.set_message(note);
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

/// How many pieces of work go to the threads at once, per thread: enough
/// to keep them busy, few enough that a stop comes soon.
const BATCH_PER_THREAD: u64 = 16;

/// Does `work` for the pieces `0..total` on `jobs` threads, handing each
/// result to `each` in number order; stops early when `each` returns
/// `false`, or when Ctrl-C is pressed (a long piece may give up then,
/// returning `None`: it and those after it are not handed on), or past the
/// deadline this thread runs under ([`with_deadline`]). Each
/// thread keeps a state `init` makes once, for its pieces to reuse (a game
/// to copy the start into, say). Returns how many pieces were handed on.
/// Each piece must depend on its number only, for the results to be the
/// same whatever `jobs` is.
pub fn in_order<S: Send, T: Send>(
    total: u64,
    jobs: usize,
    progress: &Progress,
    init: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, u64) -> Option<T> + Sync,
    mut each: impl FnMut(u64, T) -> bool,
) -> u64 {
    let jobs = jobs.max(1);
    let pool = (jobs > 1).then(|| rayon::ThreadPoolBuilder::new().num_threads(jobs).build());
    // A state a thread (each only ever takes its own).
    let states: Vec<Mutex<Option<S>>> = (0..jobs).map(|_| Mutex::new(None)).collect();
    let piece = |i: u64| {
        let at = rayon::current_thread_index().unwrap_or(0) % jobs;
        let mut state = states[at].lock().unwrap_or_else(|e| e.into_inner());
        work(state.get_or_insert_with(&init), i)
    };
    let deadline = DEADLINE.get();
    let batch = match deadline {
        Some(_) => jobs as u64,
        None => BATCH_PER_THREAD * jobs as u64,
    };
    let late = || deadline.is_some_and(|d| Instant::now() >= d);
    let mut done = 0;
    while done < total && !interrupted() && !late() {
        let end = total.min(done.saturating_add(batch));
        let results: Vec<Option<T>> = match &pool {
            Some(Ok(pool)) => pool.install(|| (done..end).into_par_iter().map(piece).collect()),
            // One thread (or none could be started): here, in order.
            Some(Err(_)) | None => (done..end).map(piece).collect(),
        };
        for (i, r) in (done..end).zip(results) {
            let Some(r) = r else { return i };
            if !each(i, r) {
                return i + 1;
            }
        }
        progress.advance(end - done);
        done = end;
    }
    done
}
