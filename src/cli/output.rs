//! What a command writes: standard output, checked for lost writes; errors
//! on standard error (what an input wrote shown safely); and the exit code
//! a failure gives.

use std::io::{self, Write};
use std::path::Path;

use crate::diagnostic::{render_all, Diagnostic};

/// Writes to stderr, ignoring a closed pipe (a panic there would be worse
/// than a lost message).
macro_rules! err_text {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($t)*);
    }};
}
macro_rules! err_line {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}
pub(super) use {err_line, err_text};

/// An error already explained on stderr: in the input (exit 1) or in how
/// the command was called (exit 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Failed {
    Input,
    Usage,
}

/// Standard output, remembering the first write that failed: the commands
/// write line by line and go on, and the exit code says the output was
/// lost.
pub(super) struct Checked<W: Write> {
    inner: W,
    pub(super) error: Option<io::Error>,
}

impl<W: Write> Checked<W> {
    pub(super) fn new(inner: W) -> Self {
        Checked { inner, error: None }
    }

    /// Whether some output was lost.
    pub(super) fn lost(&self) -> bool {
        self.error.is_some()
    }
}

impl<W: Write> Write for Checked<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.error.is_some() {
            // Nothing more reaches the output once some of it was lost.
            return Ok(buf.len());
        }
        match self.inner.write_all(buf) {
            Ok(()) => Ok(buf.len()),
            Err(e) => {
                self.error = Some(e);
                Ok(buf.len())
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.error.is_none() {
            if let Err(e) = self.inner.flush() {
                self.error = Some(e);
            }
        }
        Ok(())
    }
}

/// Reports diagnostics on a named input (exit 1).
pub(super) fn fail(name: &str, source: &str, diagnostics: &[Diagnostic]) -> Failed {
    err_text!("{}", render_all(diagnostics, name, source));
    Failed::Input
}

/// Reports an error in the input (exit 1). (What an input wrote is shown,
/// never acted on by a terminal: see `diagnostic::shown`.)
pub(super) fn fail_plain(message: impl std::fmt::Display) -> Failed {
    err_line!("error: {}", crate::diagnostic::shown(&message.to_string()));
    Failed::Input
}

/// Reports an error in how the command was called (exit 2).
pub(super) fn fail_usage(message: impl std::fmt::Display) -> Failed {
    err_line!("error: {}", crate::diagnostic::shown(&message.to_string()));
    Failed::Usage
}

/// A text file's contents, within the limits (`limits::read_text`).
pub(super) fn read(path: &str) -> Result<String, Failed> {
    crate::limits::read_text(Path::new(path)).map_err(fail_plain)
}
