//! Long runs (`random`, `perft`, `analyze`): numbered pieces of work done
//! on several threads, their results handed back in number order (so
//! that what a run prints does not depend on how many threads did it), a
//! progress bar on a terminal, and a clean stop on Ctrl-C.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

/// Set by Ctrl-C once [`catch_interrupt`] is called: the command line's
/// runs stop after the pieces under way and print what they have.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Makes Ctrl-C stop a run cleanly instead of killing the process (a
/// second Ctrl-C, or one before a run, still ends it at once). For the
/// command line only: a host that shares the process (Python) asks each
/// of its calls to stop through a [`Cancel`] of the call's own.
pub fn catch_interrupt() {
    // (Fails only when a handler is already set: then that one serves.)
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            // The files half written go with the process.
            if let Ok(files) = WRITING.lock() {
                for f in files.iter() {
                    let _ = std::fs::remove_file(f);
                }
            }
            std::process::exit(130);
        }
    });
}

/// The files being written whole (each a part beside its place, renamed
/// there once written) that a second Ctrl-C, ending the process at once,
/// removes first.
static WRITING: Mutex<Vec<std::path::PathBuf>> = Mutex::new(Vec::new());

/// Notes that `file` is being written, until the note is dropped (see
/// [`WRITING`]).
pub fn writing(file: &std::path::Path) -> Writing {
    if let Ok(mut files) = WRITING.lock() {
        files.push(file.to_path_buf());
    }
    Writing(file.to_path_buf())
}

/// A file being written ([`writing`]).
pub struct Writing(std::path::PathBuf);

impl Drop for Writing {
    fn drop(&mut self) {
        if let Ok(mut files) = WRITING.lock() {
            if let Some(i) = files.iter().position(|f| *f == self.0) {
                files.swap_remove(i);
            }
        }
    }
}

/// Whether Ctrl-C has asked the command line's run to stop.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// What asks one piece of work to stop before its end: a host's call
/// interrupted (Python's Ctrl-C, asked with [`Cancel::ask`]), or a time
/// limit passed (a server's request). The work it is given to
/// ([`with_cancel`]) looks at it between its steps, as far down as the
/// engine's turns ([`stopped`]); Ctrl-C on the command line stops every
/// run as well. A clone asks the same work to stop.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Option<Arc<Asked>>);

#[derive(Debug)]
struct Asked {
    asked: AtomicBool,
    deadline: Option<Instant>,
}

impl Cancel {
    /// One that stops its work when asked.
    pub fn new() -> Cancel {
        Cancel(Some(Arc::new(Asked {
            asked: AtomicBool::new(false),
            deadline: None,
        })))
    }

    /// One that stops its work when asked, or at `deadline`.
    pub fn until(deadline: Instant) -> Cancel {
        Cancel(Some(Arc::new(Asked {
            asked: AtomicBool::new(false),
            deadline: Some(deadline),
        })))
    }

    /// Asks the work to stop.
    pub fn ask(&self) {
        if let Some(a) = &self.0 {
            a.asked.store(true, Ordering::SeqCst);
        }
    }

    /// Whether the work is to stop: asked, past the deadline, or Ctrl-C
    /// pressed on the command line.
    pub fn stopped(&self) -> bool {
        interrupted()
            || self.0.as_ref().is_some_and(|a| {
                a.asked.load(Ordering::Relaxed) || a.deadline.is_some_and(|d| Instant::now() >= d)
            })
    }

    /// The one the work on this thread is under ([`with_cancel`]).
    pub fn current() -> Cancel {
        CURRENT.with(|c| c.borrow().clone())
    }
}

thread_local! {
    /// What the work on this thread is under ([`with_cancel`]).
    static CURRENT: std::cell::RefCell<Cancel> = std::cell::RefCell::new(Cancel::default());
}

/// Calls `f` under `cancel`: the runs, games, searches and turns it does
/// on this thread (and on the threads its runs start) stop soon after
/// `cancel` asks them to, as they stop on Ctrl-C.
pub fn with_cancel<T>(cancel: &Cancel, f: impl FnOnce() -> T) -> T {
    let before = CURRENT.with(|c| c.replace(cancel.clone()));
    // (Put back however `f` ends.)
    struct Restore(Option<Cancel>);
    impl Drop for Restore {
        fn drop(&mut self) {
            if let Some(b) = self.0.take() {
                CURRENT.with(|c| *c.borrow_mut() = b);
            }
        }
    }
    let _restore = Restore(Some(before));
    f()
}

/// Whether the work on this thread is asked to stop ([`Cancel::stopped`]
/// of the one it is under; Ctrl-C on the command line).
pub fn stopped() -> bool {
    interrupted() || CURRENT.with(|c| c.borrow().stopped())
}

/// The number of threads a run uses by default: one per core.
pub fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A run's start, its threads' to copy: a game (over already, it may
/// be: a game of no turns, with its result), shared behind a lock (a
/// game is not shared by threads as it is).
pub struct Start(Option<Mutex<crate::engine::Game>>);

impl Start {
    /// The start `game` as `engine`'s rules play it: as it is (its
    /// position, its outcome if over) where it is their game, else its
    /// position under them; none where listing its turns runs past the
    /// engine's limit.
    pub fn new(engine: &Arc<crate::engine::Engine>, game: &crate::engine::Game) -> Start {
        let game = match Arc::ptr_eq(engine, game.engine()) {
            true => Some(game.clone()),
            false => {
                let (pos, seen) = (game.position().clone(), game.seen().to_vec());
                crate::engine::Game::from_position(engine.clone(), pos, seen).ok()
            }
        };
        Start(game.map(Mutex::new))
    }

    /// A new game from the start and a second copy of it to play in, for
    /// a thread of a run (see [`in_order`]'s state); none where the start
    /// could not be listed.
    pub fn games(&self) -> Option<(crate::engine::Game, crate::engine::Game)> {
        let fresh = self
            .0
            .as_ref()?
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        Some((fresh.clone(), fresh))
    }
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
/// returning `None`: it and those after it are not handed on), or when
/// the [`Cancel`] this thread runs under asks it to. Each
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
    // The pieces run under what this thread runs under, each thread's in
    // its turn. A piece asked to stop stops soon and answers none: the
    // pieces of a batch after it are not waited for long.
    let cancel = Cancel::current();
    let batch = BATCH_PER_THREAD * jobs as u64;
    let piece = |i: u64| with_cancel(&cancel, || piece(i));
    let mut done = 0;
    while done < total && !cancel.stopped() {
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
