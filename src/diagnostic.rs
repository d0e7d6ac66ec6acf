//! One diagnostic type for every error a user can cause: grammar, checker,
//! script, position and move errors. Errors are plain data with byte spans;
//! rendering (with miette, no colour) is a separate step.

use std::fmt;

/// A byte range in a source text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end`.
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

/// A problem found in some input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// What is wrong, in one sentence.
    pub message: String,
    /// Where, with a short label under the caret.
    pub span: Option<(Span, String)>,
    /// Other places that matter (the first definition of a duplicate, …).
    pub related: Vec<(Span, String)>,
    /// What would be right.
    pub hint: Option<String>,
}

impl Diagnostic {
    /// A diagnostic with a message and nothing else.
    pub fn new(message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            message: message.into(),
            span: None,
            related: Vec::new(),
            hint: None,
        }
    }

    /// A diagnostic at a span, with the label under the caret.
    pub fn at(span: Span, message: impl Into<String>, label: impl Into<String>) -> Diagnostic {
        Diagnostic {
            span: Some((span, label.into())),
            ..Diagnostic::new(message)
        }
    }

    /// Adds a hint: what would be right.
    pub fn hint(mut self, hint: impl Into<String>) -> Diagnostic {
        self.hint = Some(hint.into());
        self
    }

    /// Adds a hint: "did you mean" the closest of `candidates` to `word`,
    /// or else `otherwise`.
    pub fn suggest<'a>(
        self,
        word: &str,
        candidates: impl IntoIterator<Item = &'a str>,
        otherwise: impl Into<String>,
    ) -> Diagnostic {
        match did_you_mean(word, candidates) {
            Some(s) => self.hint(format!("did you mean `{s}`?")),
            None => self.hint(otherwise),
        }
    }

    /// Adds another place that matters.
    pub fn related(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        self.related.push((span, label.into()));
        self
    }

    /// Renders the diagnostic against its source text, without colour, in
    /// the style of `file:line:col` with a caret under the span.
    pub fn render(&self, name: &str, source: &str) -> String {
        use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteDiagnostic};
        let mut diag = MietteDiagnostic::new(self.message.clone());
        let mut labels = Vec::new();
        if let Some((span, label)) = &self.span {
            labels.push(LabeledSpan::new_primary_with_span(
                Some(label.clone()),
                clamp(*span, source),
            ));
        }
        for (span, label) in &self.related {
            labels.push(LabeledSpan::new_with_span(
                Some(label.clone()),
                clamp(*span, source),
            ));
        }
        diag = diag.with_labels(labels);
        if let Some(hint) = &self.hint {
            diag = diag.with_help(hint.clone());
        }
        let report = miette::Report::new(diag)
            .with_source_code(miette::NamedSource::new(name, source.to_string()));
        let handler = GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
            .with_width(100)
            .with_links(false);
        let mut out = String::new();
        if self.span.is_none() {
            // Nothing to point at: the file and the message, and the hint.
            out.push_str(&format!("{name}: error: {}\n", self.message));
            if let Some(h) = &self.hint {
                out.push_str(&format!("  help: {h}\n"));
            }
            return out;
        }
        if handler.render_report(&mut out, report.as_ref()).is_err() {
            return self.to_string();
        }
        out
    }
}

fn clamp(span: Span, source: &str) -> (usize, usize) {
    let start = span.start.min(source.len());
    let end = span.end.clamp(start, source.len());
    (start, end - start)
}

/// One-based line and column (in characters) of a byte offset.
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(source.len());
    let before = &source[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)?;
        if let Some(hint) = &self.hint {
            write!(f, " ({hint})")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostic {}

/// Renders several diagnostics, one after another.
pub fn render_all(diagnostics: &[Diagnostic], name: &str, source: &str) -> String {
    diagnostics
        .iter()
        .map(|d| d.render(name, source))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Names from a map, in alphabetical order: a map's own order changes from
/// run to run, and [`did_you_mean`] gives ties to the first.
pub fn sorted<'a>(names: impl IntoIterator<Item = &'a String>) -> Vec<&'a str> {
    let mut v: Vec<&str> = names.into_iter().map(String::as_str).collect();
    v.sort_unstable();
    v
}

/// The closest of `candidates` to `word`, if close enough to suggest (ties
/// to the first).
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let d = edit_distance(word, c);
        if d <= (word.len().max(c.len()) / 3).max(1)
            && d < word.chars().count()
            && best.is_none_or(|(bd, _)| d < bd)
        {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = if ca == *cb {
                prev
            } else {
                1 + prev.min(row[j]).min(row[j + 1])
            };
            prev = cur;
        }
    }
    row[b.len()]
}
