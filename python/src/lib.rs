//! The Python face of sow (`import sow`): variants, games, and long runs
//! with the interpreter lock released. Every rule is the `sow` library's:
//! this only carries values across (positions and reports as the JSON
//! contract has them) and turns errors into Python exceptions.

use std::path::Path;
use std::sync::{Arc, Mutex};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// One problem in a variant file: where, what, and what would be right.
#[pyclass(module = "sow", frozen, get_all)]
#[derive(Clone)]
struct Diagnostic {
    /// The file it is in (`variants/NAME.sow` for a shipped one, the
    /// name given to `check` for text).
    file: String,
    /// The line, from 1 (0 where the problem has no place in a file).
    line: usize,
    /// The column, from 1 (0 likewise).
    column: usize,
    /// What is wrong.
    message: String,
    /// What would be right, where it can be said.
    hint: Option<String>,
    /// `error`, or `warning`: valid, but maybe not what it reads as (the
    /// variant loads all the same).
    severity: &'static str,
}

#[pymethods]
impl Diagnostic {
    fn __repr__(&self) -> String {
        format!(
            "Diagnostic({}:{}:{}: {})",
            self.file, self.line, self.column, self.message
        )
    }

    fn __str__(&self) -> String {
        let at = format!("{}:{}:{}", self.file, self.line, self.column);
        match &self.hint {
            Some(h) => format!("{at}: {} (help: {h})", self.message),
            None => format!("{at}: {}", self.message),
        }
    }
}

/// The diagnostics of a variant that did not load, each placed in its file.
fn diagnostics(e: &sow::load::LoadError) -> Vec<Diagnostic> {
    placed(&e.sources, &e.diagnostics)
}

/// Diagnostics placed in the files they were found in.
fn placed(sources: &sow::load::Sources, found: &[sow::diagnostic::Diagnostic]) -> Vec<Diagnostic> {
    found
        .iter()
        .map(|d| {
            let place = d.span.as_ref().and_then(|(s, _)| sources.place_of(*s));
            let (file, line, column) = match place {
                Some((f, l, c)) => (f.to_string(), l, c),
                None => (sources.main_name().unwrap_or("").to_string(), 0, 0),
            };
            Diagnostic {
                file,
                line,
                column,
                message: d.message.clone(),
                hint: d.hint.as_deref().map(str::to_string),
                severity: if d.kind == sow::diagnostic::Kind::Warning {
                    "warning"
                } else {
                    "error"
                },
            }
        })
        .collect()
}

/// A Python exception of the package's own (`sow.VariantError`,
/// `sow.MoveError`: defined in `sow/__init__.py`, so that they carry their
/// details as attributes), made with `args`.
fn raise<'py>(py: Python<'py>, class: &str, args: impl pyo3::call::PyCallArgs<'py>) -> PyErr {
    let made = py
        .import("sow")
        .and_then(|m| m.getattr(class))
        .and_then(|c| c.call1(args));
    match made {
        Ok(e) => PyErr::from_value(e),
        Err(e) => e,
    }
}

/// A variant that did not load, as `sow.VariantError`.
fn variant_error(py: Python<'_>, e: &sow::load::LoadError) -> PyErr {
    raise(py, "VariantError", (e.render(), diagnostics(e)))
}

/// The longest move `Game.play` reads.
const MAX_MOVE: usize = 64;

/// How a variant's turns are numbered.
fn actions(v: &sow::Variant) -> sow::actions::Actions {
    sow::actions::Actions::of(&v.engine.rules)
}

/// A whole-number argument from `low` to `high`, or an error saying which
/// argument, what it takes and what it was given.
fn whole(value: &Bound<'_, PyAny>, what: &str, low: u64, high: u64) -> PyResult<u64> {
    let is_int = value.is_instance_of::<pyo3::types::PyInt>();
    match value.extract::<i128>() {
        Ok(n) if is_int && (i128::from(low)..=i128::from(high)).contains(&n) => Ok(n as u64),
        _ if is_int => Err(PyValueError::new_err(match high {
            u64::MAX => format!("{what} is a whole number from {low}, not {value}"),
            _ => format!("{what} is {low} to {high}, not {value}"),
        })),
        _ => Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "{what} is a whole number, not {}",
            value.get_type().name()?
        ))),
    }
}

/// The threads a run takes: all the cores unless told, 1 to 256.
fn jobs(given: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    match given {
        None => Ok(sow::runs::all_cores().clamp(1, 256)),
        Some(j) => Ok(whole(j, "jobs", 1, 256)? as usize),
    }
}

/// Does `work` off the interpreter lock on a thread of its own, looking
/// for Ctrl-C meanwhile (Python sees it on its main thread only): on one,
/// this call's work alone is asked to stop (a `Cancel` of its own: a run
/// on another thread goes on), and `KeyboardInterrupt` raised once it
/// has. An interrupted call never returns what it had counted so far.
fn interruptible<T: Send>(py: Python<'_>, work: impl FnOnce() -> T + Send) -> PyResult<T> {
    let cancel = sow::runs::Cancel::new();
    std::thread::scope(|s| {
        let running = s.spawn(|| sow::runs::with_cancel(&cancel, work));
        while !running.is_finished() {
            py.allow_threads(|| std::thread::sleep(std::time::Duration::from_millis(20)));
            if let Err(stop) = py.check_signals() {
                cancel.ask();
                let _ = py.allow_threads(|| running.join());
                return Err(stop);
            }
        }
        running
            .join()
            .map_err(|_| PyValueError::new_err("the run failed"))
    })
}

/// A JSON value as Python's `json` module reads it.
fn to_python(py: Python<'_>, value: &serde_json::Value) -> PyResult<PyObject> {
    let json = py.import("json")?;
    Ok(json.call_method1("loads", (value.to_string(),))?.unbind())
}

/// The options given from Python: each value as its text (`True` is
/// `true`).
fn option_pairs(options: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, String)>> {
    let Some(options) = options else {
        return Ok(Vec::new());
    };
    options
        .iter()
        .map(|(k, v)| {
            let value = match v.extract::<bool>() {
                Ok(b) if v.is_instance_of::<pyo3::types::PyBool>() => b.to_string(),
                _ => v.str()?.to_string(),
            };
            Ok((k.str()?.to_string(), value))
        })
        .collect()
}

/// A variant: its rules, compiled, ready to play.
#[pyclass(module = "sow", frozen)]
struct Variant {
    inner: Arc<sow::Variant>,
    /// The name or path it was loaded from, and the options given: what
    /// loads it again (a pickle holds these).
    loaded_from: (String, Vec<(String, String)>),
}

#[pymethods]
impl Variant {
    /// The variant's name as its file declares it.
    #[getter]
    fn name(&self) -> &str {
        self.inner.name()
    }

    /// Its title, for people.
    #[getter]
    fn title(&self) -> &str {
        &self.inner.engine.rules.title
    }

    /// Its players, the first to move first unless the rules say
    /// otherwise.
    #[getter]
    fn players(&self) -> Vec<String> {
        self.inner.engine.rules.players.clone()
    }

    /// Its options, each with the value it has in this variant.
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for o in &self.inner.engine.rules.options {
            d.set_item(&o.name, &o.value)?;
        }
        Ok(d)
    }

    /// The variant as one file: what it builds on merged in, its options
    /// set (as `sow show` prints it).
    fn show(&self) -> String {
        sow::load::show(&self.inner)
    }

    /// The variant as data (`sow show --format json`): its name, title,
    /// players in order, rows from top to bottom (each with its owner,
    /// group and labels left to right), stores (owner and side), the
    /// players who hold seeds in hand, and its options.
    #[getter]
    fn board(&self, py: Python<'_>) -> PyResult<PyObject> {
        to_python(py, &sow::json::variant(&self.inner))
    }

    /// How many numbered actions the variant has: every turn its notation
    /// can write is chosen by numbers, the same in every position (by one,
    /// unless a flag is answered at each sowing: then the answers follow,
    /// `<1` … `<31` and `end`).
    #[getter]
    fn num_actions(&self) -> usize {
        actions(&self.inner).count()
    }

    /// The most actions one turn takes (1, unless a flag is answered at
    /// each sowing).
    #[getter]
    fn max_actions_per_turn(&self) -> usize {
        actions(&self.inner).most_per_turn()
    }

    /// How many numbers `Game.tensor()` gives: the cells, the two hands,
    /// the variables' slots, the two players (and, where a turn is several
    /// actions, the turn half chosen).
    #[getter]
    fn tensor_size(&self) -> usize {
        sow::tensor::size(&self.inner)
    }

    /// The move numbered `action`, as the notation writes it.
    fn action_to_string(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let action = whole(action, "an action", 0, u64::MAX)? as usize;
        let numbered = actions(&self.inner);
        numbered
            .written(&self.inner.engine.rules, action)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "{action} is not an action of {} (they are 0 to {})",
                    self.inner.name(),
                    numbered.count().saturating_sub(1)
                ))
            })
    }

    /// A new game from the variant's setup; `first` names who moves first
    /// where the rules leave it to the players.
    #[pyo3(signature = (first=None))]
    fn new_game(slf: &Bound<'_, Self>, first: Option<&str>) -> PyResult<Game> {
        let me = slf.get();
        let owner = Some(slf.clone().unbind());
        Ok(Game::new(me.inner.clone(), me.start(first)?, owner))
    }

    /// A game from a position in the JSON contract's form (a dict, or its
    /// JSON text), as `sow moves --from` reads it; with `result` (as
    /// `Game.outcome` gives it), a finished game's last position
    /// (`"to_move": None`) and how it ended.
    #[pyo3(signature = (position, result=None))]
    fn game_from(
        slf: &Bound<'_, Self>,
        position: &Bound<'_, PyAny>,
        result: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Game> {
        let (py, me) = (slf.py(), slf.get());
        let json_text = |value: &Bound<'_, PyAny>| -> PyResult<String> {
            match value.extract::<String>() {
                Ok(text) => Ok(text),
                Err(_) => py
                    .import("json")?
                    .call_method1("dumps", (value,))?
                    .extract::<String>(),
            }
        };
        let text = json_text(position)?;
        let read = match result {
            None => sow::json::read_position(&me.inner, &text),
            Some(r) => {
                let r: serde_json::Value = serde_json::from_str(&json_text(r)?)
                    .map_err(|e| PyValueError::new_err(format!("the game's result: {e}")))?;
                sow::json::read_finished(&me.inner, &text, &r)
            }
        };
        let game = read.map_err(|d| PyValueError::new_err(d.to_string()))?;
        let owner = Some(slf.clone().unbind());
        Ok(Game::new(me.inner.clone(), game, owner))
    }

    /// The number of whole-turn paths of `depth` turns from the start
    /// (on every core, the interpreter lock released).
    #[pyo3(signature = (depth, first=None))]
    fn perft(
        &self,
        py: Python<'_>,
        depth: &Bound<'_, PyAny>,
        first: Option<&str>,
    ) -> PyResult<u64> {
        let most = u64::from(sow::limits::MAX_PERFT_DEPTH);
        let depth = whole(depth, "a perft depth", 0, most)? as u32;
        let start = self.start(first)?;
        let jobs = sow::runs::all_cores();
        let counted = interruptible(py, move || {
            sow::play::perft_split(&start, depth, jobs, true)
        })?;
        match counted {
            Ok((n, _, _)) => Ok(n),
            Err(e) => Err(PyValueError::new_err(e.to_string())),
        }
    }

    /// Plays `n` random games (game `i` from seed `seed + i`) on `jobs`
    /// threads, the interpreter lock released, and sums them up as `sow
    /// random --format json` does (its last line); with `moves=True`, the
    /// games too, under `"played"`, each as its line.
    #[pyo3(signature = (n, seed=0, jobs=None, max_plies=10_000, moves=false, first=None))]
    #[allow(clippy::too_many_arguments)]
    fn random_games(
        &self,
        py: Python<'_>,
        n: &Bound<'_, PyAny>,
        seed: u64,
        jobs: Option<&Bound<'_, PyAny>>,
        max_plies: u32,
        moves: bool,
        first: Option<&str>,
    ) -> PyResult<PyObject> {
        let n = whole(n, "the number of games", 0, u64::MAX)?;
        let jobs = self::jobs(jobs)?;
        let start = self.start(first)?;
        let variant = self.inner.clone();
        let plan = sow::play::random::Plan {
            games: n,
            seed,
            max_plies,
            moves,
        };
        let summed = interruptible(py, move || {
            let mut played = Vec::new();
            let summary = sow::play::random::random_games(&start, plan, jobs, true, |p| {
                if moves {
                    played.push(p.json(&variant));
                }
                true
            });
            summary.map(|s| {
                let mut line = s.json(&variant);
                if moves {
                    line["played"] = played.into();
                }
                line
            })
        })?;
        match summed {
            Ok(line) => to_python(py, &line),
            Err(message) => Err(PyValueError::new_err(message)),
        }
    }

    /// Plays `games` games and measures the variant, as `sow analyze`
    /// does: the same figures, as its JSON (game `i` from seed `seed +
    /// i`; the same seed gives the same report whatever `jobs`).
    #[pyo3(signature = (games, seed=0, players=None, level=None, max_plies=10_000, jobs=None, first=None))]
    #[allow(clippy::too_many_arguments)]
    fn analyze(
        &self,
        py: Python<'_>,
        games: &Bound<'_, PyAny>,
        seed: u64,
        players: Option<Vec<String>>,
        level: Option<&Bound<'_, PyAny>>,
        max_plies: u32,
        jobs: Option<&Bound<'_, PyAny>>,
        first: Option<&str>,
    ) -> PyResult<PyObject> {
        let games = whole(games, "the number of games", 0, u64::MAX)?;
        let plan = analysis_plan(games, seed, players, level, max_plies)?;
        let part = self.analyze_games(py, plan, 0..games, self::jobs(jobs)?, first)?;
        let variant = self.inner.clone();
        let report = sow::analyze::Report::merged(&variant, vec![part])
            .map_err(PyValueError::new_err)?
            .json();
        to_python(py, &report)
    }

    /// Plays games `start` to `stop` (not counting `stop`) of the run
    /// `analyze` would make with the other arguments, and returns them
    /// summed, as a dict for `merge_analysis` (which may run anywhere:
    /// this is how `sow.ray` splits a run over machines).
    #[pyo3(signature = (games, start, stop, seed=0, players=None, level=None, max_plies=10_000, jobs=None, first=None))]
    #[allow(clippy::too_many_arguments)]
    fn analyze_part(
        &self,
        py: Python<'_>,
        games: &Bound<'_, PyAny>,
        start: &Bound<'_, PyAny>,
        stop: &Bound<'_, PyAny>,
        seed: u64,
        players: Option<Vec<String>>,
        level: Option<&Bound<'_, PyAny>>,
        max_plies: u32,
        jobs: Option<&Bound<'_, PyAny>>,
        first: Option<&str>,
    ) -> PyResult<PyObject> {
        let games = whole(games, "the number of games", 0, u64::MAX)?;
        let start = whole(start, "start", 0, u64::MAX)?;
        let stop = whole(stop, "stop", 0, u64::MAX)?;
        if start > stop || stop > games {
            return Err(PyValueError::new_err(format!(
                "games {start}..{stop} are not a part of {games} games: 0 <= start <= stop <= games"
            )));
        }
        let plan = analysis_plan(games, seed, players, level, max_plies)?;
        let part = self.analyze_games(py, plan, start..stop, self::jobs(jobs)?, first)?;
        let value =
            serde_json::to_value(&part).map_err(|e| PyValueError::new_err(e.to_string()))?;
        to_python(py, &value)
    }

    /// The report of the parts (from `analyze_part`) of one run, in any
    /// order: the report `analyze` makes of the whole run. Parts of
    /// different runs, or that miss or repeat games, raise `ValueError`
    /// saying which.
    fn merge_analysis(&self, py: Python<'_>, parts: Vec<Bound<'_, PyAny>>) -> PyResult<PyObject> {
        let dumps = py.import("json")?.getattr("dumps")?;
        let parts = parts
            .iter()
            .map(|p| {
                let text: String = dumps.call1((p,))?.extract()?;
                serde_json::from_str::<sow::analyze::Part>(&text).map_err(|e| {
                    // (Where in the JSON made of the dict would only mislead.)
                    let why = e.to_string();
                    let why = why.split(" at line ").next().unwrap_or_default();
                    PyValueError::new_err(format!(
                        "not a part of an analysis, as `analyze_part` returns one: {why}"
                    ))
                })
            })
            .collect::<PyResult<Vec<_>>>()?;
        let report =
            sow::analyze::Report::merged(&self.inner, parts).map_err(PyValueError::new_err)?;
        to_python(py, &report.json())
    }

    /// A pickle loads the variant again, from the name or path it was
    /// loaded from (a path as it was given), with the same options.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, PyObject)> {
        let load = py.import("sow")?.getattr("load")?;
        let options = PyDict::new(py);
        for (k, v) in &self.loaded_from.1 {
            options.set_item(k, v)?;
        }
        let args = (self.loaded_from.0.clone(), options).into_pyobject(py)?;
        Ok((load, args.into_any().unbind()))
    }

    /// A variant never changes: a copy is the same variant.
    fn __deepcopy__(slf: Py<Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf
    }

    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __repr__(&self) -> String {
        format!("<sow.Variant {}>", self.inner.name())
    }
}

/// The plan of an analysis, its players named as `sow.Variant.analyze`
/// takes them.
fn analysis_plan(
    games: u64,
    seed: u64,
    players: Option<Vec<String>>,
    level: Option<&Bound<'_, PyAny>>,
    max_plies: u32,
) -> PyResult<sow::analyze::Plan> {
    let level = match level {
        Some(l) => whole(l, "a level", 1, 9)? as u8,
        None => sow::ai::DEFAULT_LEVEL,
    };
    let players = players.unwrap_or_else(|| vec!["random".to_string()]);
    if !(1..=2).contains(&players.len()) {
        return Err(PyValueError::new_err(format!(
            "name one player for both seats or two, not {}",
            players.len()
        )));
    }
    let named = players
        .iter()
        .map(|p| sow::ai::computer_named(p).map_err(PyValueError::new_err))
        .collect::<PyResult<Vec<_>>>()?;
    let seat = |k: usize| named.get(k).unwrap_or(&named[0]);
    let [(south, a), (north, b)] = [*seat(0), *seat(1)];
    Ok(sow::analyze::Plan {
        games,
        seed,
        players: [south, north],
        levels: [a.unwrap_or(level), b.unwrap_or(level)],
        max_plies,
        keep: false,
    })
}

impl Variant {
    /// Plays games `games` of the plan, the interpreter lock released.
    fn analyze_games(
        &self,
        py: Python<'_>,
        plan: sow::analyze::Plan,
        games: std::ops::Range<u64>,
        jobs: usize,
        first: Option<&str>,
    ) -> PyResult<sow::analyze::Part> {
        let start = self.start(first)?;
        let variant = self.inner.clone();
        // (A perfect player's refusal is a search too: interruptible, the
        // interpreter's lock released, as the games are.)
        interruptible(py, move || match plan.refusal(&start) {
            Some(why) => Err(why),
            None => Ok(sow::analyze::analyze_part(
                &variant, &start, plan, games, jobs, true,
            )),
        })?
        .map_err(PyValueError::new_err)
    }

    /// A game from the variant's setup, `first` to move where the rules
    /// leave it open.
    fn start(&self, first: Option<&str>) -> PyResult<sow::Game> {
        let start = self
            .inner
            .start_position(first)
            .map_err(PyValueError::new_err)?;
        sow::Game::from_position(self.inner.engine.clone(), start, Vec::new())
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }
}

/// A game in progress: its position, the moves legal in it, its outcome.
/// Safe to share between Python threads: its state is behind a lock that
/// is taken only while Rust works on it (never while Python code runs, so
/// that no thread waits for the lock holding the interpreter's while the
/// holder waits for the interpreter), and waited for with the
/// interpreter's lock released.
#[pyclass(module = "sow", frozen)]
struct Game {
    variant: Arc<sow::Variant>,
    state: Mutex<Playing>,
    /// The variant's Python object, for a pickle.
    owner: Option<Py<Variant>>,
}

/// What a game changes as it is played.
#[derive(Clone)]
struct Playing {
    game: sow::Game,
    /// The turn half chosen by number, where a turn is several actions.
    partial: Option<sow::actions::Partial>,
}

/// The most turns a game's count may say (a pickle's, say): past it a
/// count could wrap round to 0 as the game goes on.
const MAX_PLIES: u32 = u32::MAX / 2;

impl Game {
    fn new(variant: Arc<sow::Variant>, game: sow::Game, owner: Option<Py<Variant>>) -> Game {
        Game {
            variant,
            state: Mutex::new(Playing {
                game,
                partial: None,
            }),
            owner,
        }
    }

    /// Works on the game's state under its lock, the interpreter's lock
    /// released (as the lock is waited for, and as the turns are played):
    /// `work` cannot call into Python (it is `Send`, and given no
    /// `Python` token). No panic can have poisoned the lock (the engine
    /// reports what goes wrong).
    fn with<T: Send>(&self, py: Python<'_>, work: impl FnOnce(&mut Playing) -> T + Send) -> T {
        py.allow_threads(|| {
            let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
            work(&mut state)
        })
    }
}

#[pymethods]
impl Game {
    /// The legal moves, as the notation writes them (with a turn half
    /// chosen by actions, the moves it can still be).
    fn legal_moves(&self, py: Python<'_>) -> Vec<String> {
        let numbered = actions(&self.variant);
        self.with(py, |s| {
            numbered
                .open(&s.game, s.partial)
                .map(|t| sow::notation::write_turn(&s.game, t))
                .collect()
        })
    }

    /// Plays a move written as the notation writes it (`sow.MoveError` if
    /// it is not legal here, with the command line's message).
    #[pyo3(signature = (r#move))]
    fn play(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let Ok(text) = r#move.extract::<String>() else {
            let kind = r#move.get_type().name()?;
            let why = format!("a move is text, as `legal_moves()` writes it, not {kind}");
            return Err(raise(py, "MoveError", (why,)));
        };
        let why = match text.trim() {
            "" => Some("a move is a pit's label, as `legal_moves()` writes it, not nothing".into()),
            t if t.len() > MAX_MOVE => Some(format!("a move is at most {MAX_MOVE} characters")),
            _ => None,
        };
        if let Some(why) = why {
            return Err(raise(py, "MoveError", (why,)));
        }
        let numbered = actions(&self.variant);
        let played = self.with(py, |s| match s.partial {
            Some(p) => Err(format!(
                "a turn is half chosen by number ({:?}): go on with `apply_action`",
                numbered.taken(p)
            )),
            None => sow::play::play_written(&mut s.game, 0, text.trim())
                .map(|_| ())
                .map_err(|d| d.to_string()),
        });
        played.map_err(|why| raise(py, "MoveError", (why,)))
    }

    /// The legal actions (see `Variant.num_actions`), ascending: the
    /// numbers of the legal moves, or, with a turn half chosen, of the
    /// answers that go on from it.
    fn legal_actions(&self, py: Python<'_>) -> Vec<usize> {
        let numbered = actions(&self.variant);
        self.with(py, |s| numbered.legal(&s.game, s.partial))
    }

    /// Plays the legal action numbered `action` (`sow.MoveError` if no
    /// legal action has that number here): a move, or a step of one.
    fn apply_action(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let action = whole(action, "an action", 0, u64::MAX)? as usize;
        let numbered = actions(&self.variant);
        let applied = self.with(py, |s| match numbered.choose(&s.game, s.partial, action) {
            Some(sow::actions::Chosen::Whole(turn)) => {
                s.game.play(turn).map_err(|e| Err(e.to_string()))?;
                s.partial = None;
                Ok(())
            }
            Some(sow::actions::Chosen::Partial(p)) => {
                s.partial = Some(p);
                Ok(())
            }
            None => Err(Ok(numbered.legal(&s.game, s.partial))),
        });
        match applied {
            Ok(()) => Ok(()),
            Err(Err(too_long)) => Err(PyValueError::new_err(too_long)),
            Err(Ok(legal)) => Err(raise(
                py,
                "MoveError",
                (format!(
                    "{action} is not a legal action here (legal: {legal:?})"
                ),),
            )),
        }
    }

    /// The actions taken of a turn half chosen (empty between turns).
    #[getter]
    fn pending_actions(&self, py: Python<'_>) -> Vec<usize> {
        let numbered = actions(&self.variant);
        self.with(py, |s| s.partial.map(|p| numbered.taken(p)))
            .unwrap_or_default()
    }

    /// The position as numbers (see `Variant.tensor_size`): each cell's
    /// seeds, each hand, each variable's value, who is to move (and the
    /// turn half chosen, where a turn is several actions).
    fn tensor(&self, py: Python<'_>) -> Vec<f32> {
        let mut out = Vec::new();
        self.with(py, |s| {
            sow::tensor::write(&self.variant, s.game.position(), s.partial, &mut out)
        });
        out
    }

    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> Game {
        self.clone(py)
    }

    /// The position, in the JSON contract's form.
    #[getter]
    fn position(&self, py: Python<'_>) -> PyResult<PyObject> {
        let position = self.with(py, |s| sow::json::position(&self.variant, &s.game));
        to_python(py, &position)
    }

    /// None while the game goes on; else the winner (None for a draw),
    /// the reason and the scores, in the JSON contract's form.
    #[getter]
    fn outcome(&self, py: Python<'_>) -> PyResult<PyObject> {
        let outcome = self.with(py, |s| sow::json::outcome(&self.variant, s.game.outcome()));
        match outcome {
            serde_json::Value::Null => Ok(py.None()),
            o => to_python(py, &o),
        }
    }

    /// The player to move (None once the game is over).
    #[getter]
    fn to_move(&self, py: Python<'_>) -> Option<String> {
        let p = self.with(py, |s| match s.game.outcome() {
            Some(_) => None,
            None => s.game.position().to_move,
        })?;
        self.variant.engine.rules.players.get(p as usize).cloned()
    }

    /// The turns played so far.
    #[getter]
    fn plies(&self, py: Python<'_>) -> u32 {
        self.with(py, |s| s.game.plies())
    }

    /// A copy that plays on on its own.
    fn clone(&self, py: Python<'_>) -> Game {
        let state = self.with(py, |s| s.clone());
        Game {
            variant: self.variant.clone(),
            state: Mutex::new(state),
            owner: self.owner.as_ref().map(|o| o.clone_ref(py)),
        }
    }

    fn __copy__(&self, py: Python<'_>) -> Game {
        self.clone(py)
    }

    /// A pickle holds the variant and the position (with the positions
    /// seen, for the repetition rule), the turns played and the actions
    /// taken of a turn half chosen: it plays on as the game would.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, PyObject, (u32, Vec<usize>))> {
        let Some(owner) = &self.owner else {
            return Err(PyValueError::new_err("this game does not know its variant"));
        };
        let from = owner.bind(py).getattr("game_from")?;
        let numbered = actions(&self.variant);
        let (position, result, plies, pending) = self.with(py, |s| {
            (
                sow::json::position(&self.variant, &s.game),
                sow::json::outcome(&self.variant, s.game.outcome()),
                s.game.plies(),
                s.partial.map(|p| numbered.taken(p)).unwrap_or_default(),
            )
        });
        // (A finished game keeps its result beside its last position.)
        let args = match result {
            serde_json::Value::Null => (to_python(py, &position)?,).into_pyobject(py)?.into_any(),
            r => (to_python(py, &position)?, to_python(py, &r)?)
                .into_pyobject(py)?
                .into_any(),
        };
        Ok((from, args.unbind(), (plies, pending)))
    }

    /// Takes what a pickle kept beside the position: the turns played and
    /// the actions taken of a turn half chosen.
    fn __setstate__(&self, py: Python<'_>, state: (u32, Vec<usize>)) -> PyResult<()> {
        let (plies, pending) = state;
        if plies > MAX_PLIES {
            return Err(PyValueError::new_err(format!(
                "a game's turns played are at most {MAX_PLIES}, not {plies}"
            )));
        }
        let numbered = actions(&self.variant);
        let set = self.with(py, |s| {
            let mut partial = s.partial;
            for &action in pending.iter().take(numbered.most_per_turn()) {
                match numbered.choose(&s.game, partial, action) {
                    Some(sow::actions::Chosen::Partial(p)) => partial = Some(p),
                    Some(sow::actions::Chosen::Whole(_)) | None => return false,
                }
            }
            s.game.set_plies(plies);
            s.partial = partial;
            true
        });
        match set {
            true => Ok(()),
            false => Err(PyValueError::new_err(format!(
                "{pending:?} are not the actions of a turn half chosen here"
            ))),
        }
    }

    /// The board as text, as `sow play` prints it.
    fn text(&self, py: Python<'_>) -> String {
        self.with(py, |s| sow::render::board(&self.variant, &s.game))
    }

    /// The board as an SVG picture, as `sow draw` draws it.
    fn svg(&self, py: Python<'_>) -> String {
        self.with(py, |s| sow::svg::board(&self.variant, &s.game, None))
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let plies = self.with(py, |s| s.game.plies());
        format!("<sow.Game {} after {plies} plies>", self.variant.name())
    }
}

/// A tournament's table from its meetings, each a dict with `players`
/// (two names), `wins` (two counts), `draws` and `unfinished`: each
/// player's games, score and Elo-scale rating, best first, and each
/// meeting's share and Wilson interval (see `sow.ray.tournament`).
#[pyfunction]
fn tournament_table(py: Python<'_>, meetings: Vec<Bound<'_, PyDict>>) -> PyResult<PyObject> {
    let meetings = meetings
        .iter()
        .map(|m| {
            let get = |k: &str| {
                m.get_item(k)?
                    .ok_or_else(|| PyValueError::new_err(format!("a meeting has no `{k}`")))
            };
            let players = get("players")?;
            if players.is_instance_of::<pyo3::types::PyString>() {
                return Err(PyValueError::new_err(
                    "a meeting's `players` are two names, not one string",
                ));
            }
            Ok(sow::tournament::Meeting {
                players: players.extract()?,
                wins: get("wins")?.extract()?,
                draws: get("draws")?.extract()?,
                unfinished: get("unfinished")?.extract()?,
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    let table = sow::tournament::table(&meetings).map_err(PyValueError::new_err)?;
    to_python(py, &table)
}

/// The shipped variants' names.
#[pyfunction]
fn variants() -> Vec<String> {
    sow::variants::names()
        .iter()
        .map(|n| n.to_string())
        .collect()
}

/// Loads a variant: a shipped name or a path to a `.sow` file, its options
/// given values (`sow.VariantError`, with every problem, if it does not
/// load).
#[pyfunction]
#[pyo3(signature = (name_or_path, options=None))]
fn load(
    py: Python<'_>,
    name_or_path: &str,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Variant> {
    let options = option_pairs(options)?;
    match sow::load::load(name_or_path, Path::new(""), &options) {
        Ok(v) => {
            // A pickle loads a file again by its whole path, wherever the
            // process that loads it runs from.
            let path = Path::new(name_or_path);
            let from = match sow::load::is_path(name_or_path) {
                true => std::path::absolute(path)
                    .map_or(name_or_path.into(), |p| p.to_string_lossy().into_owned()),
                false => name_or_path.to_string(),
            };
            Ok(Variant {
                inner: Arc::new(v),
                loaded_from: (from, options),
            })
        }
        Err(e) => Err(variant_error(py, &e)),
    }
}

/// Every problem in a variant's text (an empty list when there is none),
/// its warnings among them (`severity == "warning"`: it loads all the
/// same).
#[pyfunction]
#[pyo3(signature = (text, name="<text>"))]
fn check<'py>(py: Python<'py>, text: &str, name: &str) -> PyResult<Bound<'py, PyList>> {
    let found = match sow::Variant::from_source(name, text) {
        Ok(v) => placed(&v.sources, &v.warnings),
        Err(e) => diagnostics(&e),
    };
    PyList::new(py, found)
}

#[pymodule]
fn _sow(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Diagnostic>()?;
    m.add_class::<Variant>()?;
    m.add_class::<Game>()?;
    m.add_function(wrap_pyfunction!(variants, m)?)?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(tournament_table, m)?)?;
    Ok(())
}
