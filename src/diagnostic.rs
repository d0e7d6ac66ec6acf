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

/// What sort of problem a diagnostic is, for programs: the message is for
/// people, and no code reads it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Kind {
    /// The input breaks a rule of the language or of its format.
    #[default]
    Invalid,
    /// The text does not parse (`rule x at`).
    Syntax,
    /// A name that names nothing where it stands (`seeds(lst)`): the name.
    Unknown(Box<str>),
    /// An option given from outside the file (`--option`, a script's
    /// `options`) that the variant does not have or does not allow (its
    /// name): a usage error.
    Option(Box<str>),
    /// A resource limit of [`crate::limits`] is reached (a file of more
    /// than 1 MiB).
    Limit,
    /// A file cannot be read (`no/such/file.sow`).
    Read,
    /// Not an error: a construct that is valid but may not do what it
    /// reads as (`side(last_mover)` before the first turn). The file
    /// loads; `sow check` shows it.
    Warning,
}

/// A problem found in some input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// What sort of problem it is.
    pub kind: Kind,
    /// What is wrong, in one sentence.
    pub message: String,
    /// Where, with a short label under the caret.
    pub span: Option<(Span, String)>,
    /// Other places that matter (the first definition of a duplicate, …).
    pub related: Vec<(Span, String)>,
    /// What would be right.
    pub hint: Option<Box<str>>,
}

impl Diagnostic {
    /// A diagnostic with a message and nothing else.
    pub fn new(message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            kind: Kind::Invalid,
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

    /// A resource limit reached, at a span ([`Kind::Limit`]).
    pub fn limit(span: Span, message: impl Into<String>, label: impl Into<String>) -> Diagnostic {
        Diagnostic::at(span, message, label).kind(Kind::Limit)
    }

    /// The same diagnostic, of another kind.
    pub fn kind(mut self, kind: Kind) -> Diagnostic {
        self.kind = kind;
        self
    }

    /// A name that names nothing here (the one constructor of the
    /// unknown-name family): at `span`, saying `message`, with "did you
    /// mean" the closest of `candidates`, or else `otherwise`.
    pub fn unknown<'a>(
        span: Option<Span>,
        name: &str,
        message: impl Into<String>,
        label: impl Into<String>,
        candidates: impl IntoIterator<Item = &'a str>,
        otherwise: impl Into<String>,
    ) -> Diagnostic {
        let d = match span {
            Some(span) => Diagnostic::at(span, message, label),
            None => Diagnostic::new(message),
        };
        d.kind(Kind::Unknown(name.into()))
            .suggest(name, candidates, otherwise)
    }

    /// Adds a hint: what would be right.
    pub fn hint(mut self, hint: impl Into<String>) -> Diagnostic {
        self.hint = Some(hint.into().into_boxed_str());
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

    /// Adds a hint unless the diagnostic has one already.
    pub fn or_hint(self, hint: impl Into<String>) -> Diagnostic {
        match self.hint {
            Some(_) => self,
            None => self.hint(hint),
        }
    }

    /// Adds another place that matters.
    pub fn related(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        self.related.push((span, label.into()));
        self
    }

    /// Renders the diagnostic against its source text, without colour, in
    /// the style of `file:line:col` with a caret under the span. Only the
    /// lines it points at are read, and a long line is shown as a window
    /// around the caret, so that rendering costs the same whatever the
    /// size of the text.
    pub fn render(&self, name: &str, source: &str) -> String {
        // What the input wrote is shown, never acted on by a terminal.
        let safe = self.shown();
        let this = &*safe;
        let name = &*shown(name);
        this.render_shown(name, source)
    }

    /// The diagnostic with every text it says made safe to show (see
    /// [`shown`]).
    fn shown(&self) -> std::borrow::Cow<'_, Diagnostic> {
        let texts = std::iter::once(self.message.as_str())
            .chain(self.span.iter().map(|(_, l)| l.as_str()))
            .chain(self.related.iter().map(|(_, l)| l.as_str()))
            .chain(self.hint.as_deref());
        if texts
            .into_iter()
            .all(|t| matches!(shown(t), std::borrow::Cow::Borrowed(_)))
        {
            return std::borrow::Cow::Borrowed(self);
        }
        let mut d = self.clone();
        d.message = shown(&d.message).into_owned();
        if let Some((_, l)) = &mut d.span {
            *l = shown(l).into_owned();
        }
        for (_, l) in &mut d.related {
            *l = shown(l).into_owned();
        }
        d.hint = d.hint.map(|h| shown(&h).into());
        std::borrow::Cow::Owned(d)
    }

    fn render_shown(&self, name: &str, source: &str) -> String {
        use miette::{GraphicalReportHandler, GraphicalTheme};
        let Some((span, label)) = &self.span else {
            // Nothing to point at: the file and the message, and the hint.
            let what = if self.kind == Kind::Warning {
                "warning"
            } else {
                "error"
            };
            let mut out = format!("{name}: {what}: {}\n", self.message);
            if let Some(h) = &self.hint {
                out.push_str(&format!("  help: {h}\n"));
            }
            return out;
        };
        let span = clamp(*span, source);
        let mut labels = vec![(span, label.clone(), true)];
        labels.extend(
            self.related
                .iter()
                .map(|(s, l)| (clamp(*s, source), l.clone(), false)),
        );
        let shown = match Excerpt::around(name, source, &labels) {
            Some(excerpt) => Shown {
                diagnostic: self,
                labels,
                excerpt,
                notes: Vec::new(),
            },
            None => {
                // A line too long to draw: a window of the caret's line, and
                // the other places as notes.
                let (excerpt, primary) = Excerpt::window(name, source, span);
                let notes = labels[1..]
                    .iter()
                    .map(|(s, l, _)| {
                        let (line, col) = line_col(source, s.0);
                        format!("  note: {l}: {name}:{line}:{col}\n")
                    })
                    .collect();
                Shown {
                    diagnostic: self,
                    labels: vec![(primary, label.clone(), true)],
                    excerpt,
                    notes,
                }
            }
        };
        let handler = GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
            .with_width(100)
            .with_links(false);
        let mut out = String::new();
        if handler.render_report(&mut out, &shown).is_err() {
            return format!("{name}: error: {self}\n");
        }
        for n in &shown.notes {
            out.push_str(n);
        }
        out
    }
}

/// The longest line drawn whole (in bytes): past it, a window is drawn.
const LONGEST_DRAWN: usize = 400;

/// The bytes a window of a long line shows on each side of the caret.
const WINDOW: usize = 60;

/// A span as miette takes it (offset, length), within the text.
type At = (usize, usize);

/// The largest char boundary at or before `i`, within the text.
fn floor(source: &str, i: usize) -> usize {
    let mut i = i.min(source.len());
    while !source.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn clamp(span: Span, source: &str) -> At {
    let start = floor(source, span.start);
    let end = floor(source, span.end.max(start));
    (start, end - start)
}

/// Whether a character ends a line (as the grammar and miette count them:
/// `\n`, `\r\n` or `\r` alone).
fn line_break(source: &str, i: usize, c: char) -> bool {
    c == '\n' || (c == '\r' && !source[i + 1..].starts_with('\n'))
}

/// The part of a text a diagnostic draws: whole lines around its places
/// (one line of context either side), or a window of one long line.
struct Excerpt<'a> {
    name: &'a str,
    /// What is drawn.
    text: std::borrow::Cow<'a, str>,
    /// Where `text` starts in the offsets the labels use.
    offset: usize,
    /// The zero-based line `text` starts on.
    line: usize,
    /// Columns before `text` on its first line (a window's start).
    column: usize,
}

impl<'a> Excerpt<'a> {
    /// The lines the places are on, with a line either side, when none of
    /// them is too long to draw (or holds a carriage return alone).
    fn around(
        name: &'a str,
        source: &'a str,
        labels: &[(At, String, bool)],
    ) -> Option<Excerpt<'a>> {
        let first = labels.iter().map(|l| l.0 .0).min()?;
        let last = labels.iter().map(|l| l.0 .0 + l.0 .1).max()?;
        let line_start = |at: usize| source[..at].rfind('\n').map_or(0, |i| i + 1);
        let line_end = |at: usize| source[at..].find('\n').map_or(source.len(), |i| at + i);
        let mut start = line_start(first);
        if start > 0 {
            start = line_start(start - 1);
        }
        // Through the end of the line after the last (its `\n` included:
        // miette draws an empty line only when it ends).
        let mut end = line_end(last);
        if end < source.len() {
            end = (line_end(end + 1) + 1).min(source.len());
        }
        let text = &source[start..end];
        let lone_cr = text
            .char_indices()
            .any(|(i, c)| c == '\r' && !text[i + 1..].starts_with('\n'));
        if lone_cr || text.split('\n').any(|l| l.len() > LONGEST_DRAWN) {
            return None;
        }
        Some(Excerpt {
            name,
            text: drawable(text),
            offset: start,
            line: source[..start].matches('\n').count(),
            column: 0,
        })
    }

    /// A window of the line the span starts on, at most [`WINDOW`] bytes
    /// either side of the span's start, and the span within it.
    fn window(name: &'a str, source: &'a str, span: At) -> (Excerpt<'a>, At) {
        let at = span.0;
        let breaks = |from: usize, to: usize| {
            source[from..to]
                .char_indices()
                .map(move |(i, c)| (from + i, c))
                .filter(|&(i, c)| line_break(source, i, c))
                .map(|(i, _)| i)
        };
        let line_start = breaks(0, at).next_back().map_or(0, |i| i + 1);
        let line_end = breaks(at, source.len()).next().unwrap_or(source.len());
        let line_end = if source[..line_end].ends_with('\r') {
            line_end - 1
        } else {
            line_end
        };
        let from = floor(source, at.saturating_sub(WINDOW).max(line_start));
        let to = floor(source, (at + span.1.min(WINDOW) + WINDOW).min(line_end)).max(at);
        // (The offsets labels use start at `from - lead.len()`.)
        let lead = if from > line_start && from >= 3 {
            "…"
        } else {
            ""
        };
        let trail = if to < line_end { "…" } else { "" };
        let text = format!("{lead}{}{trail}", &source[from..to]);
        let lines = breaks(0, line_start).count();
        let excerpt = Excerpt {
            name,
            text: std::borrow::Cow::Owned(drawable(&text).into_owned()),
            // The labels' offsets stay those of the source.
            offset: from - lead.len(),
            line: lines,
            column: source[line_start..from].len().saturating_sub(lead.len()),
        };
        (excerpt, (at, span.1.min(to - at)))
    }
}

impl miette::SourceCode for Excerpt<'_> {
    fn read_span<'b>(
        &'b self,
        span: &miette::SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'b> + 'b>, miette::MietteError> {
        let local = span
            .offset()
            .saturating_sub(self.offset)
            .min(self.text.len());
        let len = span.len().min(self.text.len() - local);
        let inner = self
            .text
            .as_ref()
            .read_span(&(local, len).into(), before, after)?;
        let column = if inner.line() == 0 {
            inner.column() + self.column
        } else {
            inner.column()
        };
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.name.to_string(),
            inner.data(),
            (inner.span().offset() + self.offset, inner.span().len()).into(),
            inner.line() + self.line,
            column,
            inner.line_count(),
        )))
    }
}

/// A diagnostic as miette draws it.
struct Shown<'a> {
    diagnostic: &'a Diagnostic,
    labels: Vec<(At, String, bool)>,
    excerpt: Excerpt<'a>,
    notes: Vec<String>,
}

impl fmt::Debug for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.diagnostic.message)
    }
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.diagnostic.message)
    }
}

impl std::error::Error for Shown<'_> {}

impl miette::Diagnostic for Shown<'_> {
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.diagnostic.kind {
            Kind::Warning => miette::Severity::Warning,
            Kind::Invalid
            | Kind::Syntax
            | Kind::Unknown(_)
            | Kind::Option(_)
            | Kind::Limit
            | Kind::Read => miette::Severity::Error,
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.diagnostic
            .hint
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.excerpt)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        Some(Box::new(self.labels.iter().map(|(at, label, primary)| {
            let span = miette::SourceSpan::from(*at);
            if *primary {
                miette::LabeledSpan::new_primary_with_span(Some(label.clone()), span)
            } else {
                miette::LabeledSpan::new_with_span(Some(label.clone()), span)
            }
        })))
    }
}

/// One-based line and column (in characters) of a byte offset. Lines end
/// as the grammar ends them: at `\n`, `\r\n` or a `\r` alone.
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let offset = floor(source, offset);
    let before = &source[..offset];
    let mut line = 1;
    let mut start = 0;
    for (i, c) in before.char_indices() {
        if line_break(source, i, c) {
            line += 1;
            start = i + 1;
        }
    }
    (line, before[start..].chars().count() + 1)
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", shown(&self.message))?;
        if let Some(hint) = &self.hint {
            write!(f, " ({})", shown(hint))?;
        }
        Ok(())
    }
}

/// Text from an input as a message shows it: a control character (a NUL,
/// a line break, a terminal's escape sequence) or a character that turns
/// the direction of the text is written as its escape (`\u{1b}`), so that
/// a message neither hides it nor lets it act on the terminal.
pub fn shown(text: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() || turns_direction(c);
    if !text.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match unsafe_char(c) {
            true => out.extend(c.escape_default()),
            false => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A character that turns the direction of the text after it (the
/// Unicode bidirectional marks, embeddings, overrides and isolates).
fn turns_direction(c: char) -> bool {
    matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// A source excerpt as it is drawn under a message: each control
/// character but a line break or a tab, and each character that turns the
/// direction of the text, drawn as `?` for each of its bytes (so that the
/// carets stay under what they point at).
fn drawable(text: &str) -> std::borrow::Cow<'_, str> {
    let hidden =
        |c: char| (c.is_control() && !matches!(c, '\n' | '\r' | '\t')) || turns_direction(c);
    if !text.chars().any(hidden) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match hidden(c) {
            true => out.extend(std::iter::repeat_n('?', c.len_utf8())),
            false => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

impl std::error::Error for Diagnostic {}

/// Renders several diagnostics, one after another: at most
/// [`crate::limits::MAX_SHOWN`], then how many more there are.
pub fn render_all(diagnostics: &[Diagnostic], name: &str, source: &str) -> String {
    shown_in_full(diagnostics, |d| d.render(name, source))
}

/// The first [`crate::limits::MAX_SHOWN`] diagnostics rendered by `render`,
/// one after another, then a line counting the rest.
pub fn shown_in_full(diagnostics: &[Diagnostic], render: impl Fn(&Diagnostic) -> String) -> String {
    let max = crate::limits::MAX_SHOWN;
    let mut out = diagnostics
        .iter()
        .take(max)
        .map(render)
        .collect::<Vec<_>>()
        .join("\n");
    if diagnostics.len() > max {
        out.push_str(&format!(
            "\n… and {} more problem(s), not shown\n",
            diagnostics.len() - max
        ));
    }
    out
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
    let len = word.chars().count();
    if len > crate::limits::MAX_SUGGESTED {
        return None;
    }
    for c in candidates {
        // The distance is at least the difference in length: words far
        // longer or shorter are never close (nor worth comparing).
        if c.chars().count().abs_diff(len) > (word.len().max(c.len()) / 3).max(1) {
            continue;
        }
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
