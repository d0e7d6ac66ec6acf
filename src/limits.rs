//! Every resource limit sow keeps, in one place. Each bounds something an
//! input can drive (a variant file, a position, a script, a move string),
//! so that no input makes sow panic, hang or exhaust memory: past a limit,
//! sow reports an error naming it. The README lists them with their errors.

use std::io::{BufRead, Read};
use std::path::Path;

use crate::diagnostic::{Diagnostic, Kind};

/// The largest file sow reads (a variant file, a position, a script):
/// 1 MiB, a hundred times the largest shipped variant.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// How deep brackets and operators may nest in an expression as written.
pub const MAX_NESTING: usize = 64;

/// How deep an expression may nest once its definitions are expanded
/// (each definition used inside another adds its own depth).
pub const MAX_EXPANDED_DEPTH: usize = 256;

/// The most expressions one statement may lower to, definitions expanded
/// (a definition used twice inside another doubles).
pub const MAX_EXPANSION: usize = 100_000;

/// How many files deep `extends` may go.
pub const MAX_BASES: usize = 32;

/// The most statements a variant may have once its bases are merged in.
pub const MAX_STATEMENTS: usize = 10_000;

/// The most rules (`rule` and `end`) a variant may have.
pub const MAX_RULES: usize = 1_000;

/// The most phases a variant may declare.
pub const MAX_PHASES: usize = 64;

/// The most values the variables may hold in all (a per-pit variable
/// holds one per pit): every position carries them.
pub const MAX_VAR_SLOTS: usize = 1024;

/// The most pits a board may have.
pub const MAX_PITS: usize = 128;

/// The most times one region is cut by `first(REGION, N)`: each cut
/// counts the pits kept in a counter of its own as the region is walked.
pub const MAX_REGION_CUTS: usize = 4;

/// The longest step of a capture's chain (`chain forward every N`): a
/// board's pits.
pub const MAX_CHAIN_STEP: u32 = MAX_PITS as u32;

/// The longest pit label, player name or notation mark (in characters):
/// what a person types and the board draws.
pub const MAX_NAME: usize = 32;

/// The most rules the engine compiles for one player once they are
/// specialised for each stage of a turn and each pit: past it, they are
/// specialised less (a game of many rules plays a little slower rather
/// than fill the memory).
pub const MAX_COMPILED: usize = 1 << 18;

/// The largest number a variant file may write (a seed count, a constant
/// in a rule, an option's value): a million.
pub const MAX_NUMBER: i64 = 1_000_000;

/// The most seeds a position may hold in all (pits, stores and hands):
/// every pit of the largest board and both hands at [`MAX_NUMBER`]. Every
/// position sow can reach from a setup within the limits stays within it,
/// and `--from` reads any such position.
pub const MAX_SEEDS: u64 = (MAX_PITS as u64 + 2) * MAX_NUMBER as u64;

/// The most seeds a turn sown from the store names (`enter any from
/// store into PLACE`): a store holding more offers the turns of 1 to this many.
pub const MAX_STORE_TURN: u32 = 1000;

/// The most option values given to a variant at once (`--option`, an
/// API request's `options`, Python's): more than any variant declares.
pub const MAX_GIVEN_OPTIONS: usize = 256;

/// The most flags a notation may declare.
pub const MAX_FLAGS: usize = 8;

/// The most ways one turn is listed with the per-sowing flag answered
/// (`flag "<" per sowing`): each set of sowings where the answer changes
/// what the turn does is one more legal turn, found by playing it; past
/// this, listing the position's turns is refused as too long.
pub const MAX_MARKED_TURNS: usize = 256;

/// How much work one turn may do before it is stopped with an error (a
/// few seconds): each sowing costs its seeds sown one by one and the rules
/// it may judge, weighed by their size (see `engine::turn`). A turn that
/// comes back to a state it was in is found long before; this stops only
/// turns that neither end nor repeat.
pub const MAX_TURN_WORK: u64 = 4_000_000_000;

static TURN_WORK: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(MAX_TURN_WORK);

/// The work one turn (or listing a position's turns) may do in this
/// process: [`MAX_TURN_WORK`] unless set lower (a fuzzer, a server that
/// answers in less time).
pub fn turn_work() -> u64 {
    TURN_WORK.load(std::sync::atomic::Ordering::Relaxed)
}

/// Sets the work one turn may do in this process, at most
/// [`MAX_TURN_WORK`].
pub fn set_turn_work(units: u64) {
    TURN_WORK.store(
        units.min(MAX_TURN_WORK),
        std::sync::atomic::Ordering::Relaxed,
    );
}

/// What the error for a turn past [`MAX_TURN_WORK`] says of it.
pub const TOO_LONG: &str =
    "one turn, or listing the turns of a position, may take a few seconds of \
sowing at most, and the rules let this one go on without coming back to a state it was in";

/// The most diagnostics shown for one input; the rest are counted.
pub const MAX_SHOWN: usize = 100;

/// The most steps of a turn shown step by step (`Game::show_turns`):
/// those past it are not noted, and the turn's end is shown at once.
pub const MAX_FRAMES: usize = 10_000;

/// The longest word "did you mean" compares (a longer one is a typo of
/// nothing).
pub const MAX_SUGGESTED: usize = 64;

/// The deepest `perft`.
pub const MAX_PERFT_DEPTH: u32 = 64;

/// Reads a text file of at most [`MAX_FILE_BYTES`], refusing what is
/// larger (or endless, as `/dev/zero`), what is not UTF-8, and a FIFO or
/// socket (see [`no_pipe`]).
pub fn read_text(path: &Path) -> Result<String, Diagnostic> {
    let name = path.display();
    no_pipe(path, "read")?;
    let file = std::fs::File::open(path)
        .map_err(|e| Diagnostic::new(format!("cannot read `{name}`: {e}")).kind(Kind::Read))?;
    read_bounded(file, &name.to_string())
}

/// What reading one line of input found (see [`read_line`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line {
    /// The input is over.
    End,
    /// A line, in the buffer (its end of line included, if it had one).
    Read,
    /// A line longer than [`MAX_FILE_BYTES`], passed over to its end.
    TooLong,
}

/// Reads one line of a person's or a program's input (the conversation,
/// the turns typed at `play`) into `line`, holding at most
/// [`MAX_FILE_BYTES`] of it: the rest of a longer line is passed over, a
/// bounded piece at a time.
pub fn read_line(input: &mut dyn std::io::BufRead, line: &mut Vec<u8>) -> std::io::Result<Line> {
    line.clear();
    let n = input.take(MAX_FILE_BYTES + 1).read_until(b'\n', line)?;
    if n == 0 {
        return Ok(Line::End);
    }
    if line.len() as u64 <= MAX_FILE_BYTES {
        return Ok(Line::Read);
    }
    while !line.ends_with(b"\n") {
        line.clear();
        if input.take(MAX_FILE_BYTES).read_until(b'\n', line)? == 0 {
            break;
        }
    }
    line.clear();
    Ok(Line::TooLong)
}

/// Writes a text file, refusing a FIFO or socket (see [`no_pipe`]).
pub fn write_text(path: &Path, text: &str) -> Result<(), Diagnostic> {
    no_pipe(path, "write")?;
    std::fs::write(path, text).map_err(|e| {
        Diagnostic::new(format!("cannot write `{}`: {e}", path.display())).kind(Kind::Read)
    })
}

/// Refuses a path that is a FIFO or a socket: opening one waits, for
/// ever, for a program at its other end.
fn no_pipe(path: &Path, doing: &str) -> Result<(), Diagnostic> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if let Ok(m) = std::fs::metadata(path) {
            let t = m.file_type();
            let what = match (t.is_fifo(), t.is_socket()) {
                (true, _) => Some("a FIFO"),
                (_, true) => Some("a socket"),
                (false, false) => None,
            };
            if let Some(what) = what {
                return Err(Diagnostic::new(format!(
                    "cannot {doing} `{}`: it is {what}, not a file",
                    path.display()
                ))
                .hint("name a regular file: sow would wait for ever for a program at its other end")
                .kind(Kind::Read));
            }
        }
    }
    Ok(())
}

/// Reads at most [`MAX_FILE_BYTES`] of UTF-8 text from `input` (`name`
/// names it in messages).
pub fn read_bounded(input: impl Read, name: &str) -> Result<String, Diagnostic> {
    let mut bytes = Vec::new();
    input
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Diagnostic::new(format!("cannot read `{name}`: {e}")).kind(Kind::Read))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(
            Diagnostic::new(format!("`{name}` is larger than {MAX_FILE_BYTES} bytes"))
                .hint("sow reads variant files, positions and scripts of at most 1 MiB")
                .kind(Kind::Limit),
        );
    }
    String::from_utf8(bytes).map_err(|e| {
        Diagnostic::new(format!(
            "`{name}` is not UTF-8 text (byte {} is not)",
            e.utf8_error().valid_up_to()
        ))
        .hint("save the file as UTF-8")
    })
}
