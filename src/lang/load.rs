//! Loading a variant: its file, the files it builds on (`extends`), what
//! it changes in them (`replace`, `remove`, `add` a block line, new
//! statements), and the values given to its options.
//!
//! Every file read gets a range of one shared offset space, so that a
//! diagnostic's span says which file it is in: [`Sources`] renders it
//! against the right text.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::check::statements::{self, Key};
use crate::diagnostic::{Diagnostic, Kind, Span};
use crate::syntax::ast::{Expr, ExprKind, Statement, Word};
use crate::{check, syntax, variants, Variant};

use crate::limits::MAX_BASES;

/// The texts of the files a variant was loaded from.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    files: Vec<SourceFile>,
}

#[derive(Debug, Clone)]
struct SourceFile {
    name: String,
    text: String,
    /// Where the file starts in the shared offset space.
    offset: usize,
}

impl Sources {
    /// Sources holding one file, at offset 0.
    pub fn single(name: &str, text: &str) -> Sources {
        let mut s = Sources::default();
        s.add(name, text);
        s
    }

    /// Whether no file has been read.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Adds a file; returns the offset its spans start at.
    pub fn add(&mut self, name: &str, text: &str) -> usize {
        let offset = self.files.last().map_or(0, |f| f.offset + f.text.len() + 1);
        self.files.push(SourceFile {
            name: name.to_string(),
            text: text.to_string(),
            offset,
        });
        offset
    }

    fn file_of(&self, at: usize) -> Option<&SourceFile> {
        self.files.iter().rev().find(|f| f.offset <= at)
    }

    /// The name of the file loaded (the first read; those it builds on
    /// follow it).
    pub fn main_name(&self) -> Option<&str> {
        self.files.first().map(|f| f.name.as_str())
    }

    /// `file:line:col` of a span.
    pub fn locate(&self, span: Span) -> Option<String> {
        let (name, line, col) = self.place_of(span)?;
        Some(format!("{name}:{line}:{col}"))
    }

    /// The file a span is in, and the line and column (from 1) it starts
    /// at.
    pub fn place_of(&self, span: Span) -> Option<(&str, usize, usize)> {
        let f = self.file_of(span.start)?;
        let (line, col) = crate::diagnostic::line_col(&f.text, span.start - f.offset);
        Some((&f.name, line, col))
    }

    /// Renders a diagnostic against the file its span is in (the first
    /// file when it has none). Related places in other files are listed
    /// after it by `file:line:col`.
    pub fn render(&self, d: &Diagnostic) -> String {
        let at = d.span.as_ref().map(|(s, _)| s.start);
        let Some(file) = at.and_then(|a| self.file_of(a)).or(self.files.first()) else {
            return format!("error: {d}\n");
        };
        let local = |s: Span| Span::new(s.start - file.offset, s.end - file.offset);
        let here = |s: &Span| self.file_of(s.start).map(|f| f.offset) == Some(file.offset);
        let mut shown = d.clone();
        shown.span = d.span.as_ref().map(|(s, l)| (local(*s), l.clone()));
        shown.related = d
            .related
            .iter()
            .filter(|(s, _)| here(s))
            .map(|(s, l)| (local(*s), l.clone()))
            .collect();
        let mut out = shown.render(&file.name, &file.text);
        for (s, label) in d.related.iter().filter(|(s, _)| !here(s)) {
            if let Some(place) = self.locate(*s) {
                out.push_str(&format!("  note: {label}: {place}\n"));
            }
        }
        out
    }

    /// Renders several diagnostics, one after another.
    pub fn render_all(&self, diagnostics: &[Diagnostic]) -> String {
        crate::diagnostic::shown_in_full(diagnostics, |d| self.render(d))
    }
}

/// Why a variant could not be loaded: every problem found, with the texts
/// to show them against.
#[derive(Debug, Clone)]
pub struct LoadError {
    /// The files read.
    pub sources: Sources,
    /// What is wrong.
    pub diagnostics: Vec<Diagnostic>,
}

impl LoadError {
    /// The errors drawn against their files, with a count.
    pub fn render(&self) -> String {
        let Some(first) = self.sources.files.first() else {
            return self.sources.render_all(&self.diagnostics);
        };
        let name = &first.name;
        format!(
            "{}{name}: {} problem(s)\n",
            self.sources.render_all(&self.diagnostics),
            self.diagnostics.len()
        )
    }
}

/// Where a variant file is.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Place {
    Shipped(String),
    File(PathBuf),
}

impl Place {
    fn name(&self) -> String {
        match self {
            Place::Shipped(n) => format!("variants/{n}.sow"),
            Place::File(p) => p.display().to_string(),
        }
    }

    /// The folder paths in the file start from.
    fn dir(&self) -> PathBuf {
        match self {
            Place::Shipped(_) => PathBuf::new(),
            Place::File(p) => p.parent().map(Path::to_path_buf).unwrap_or_default(),
        }
    }

    /// What tells two places apart when looking for a cycle.
    fn identity(&self) -> String {
        match self {
            Place::Shipped(n) => format!("shipped {n}"),
            Place::File(p) => std::fs::canonicalize(p)
                .unwrap_or_else(|_| p.clone())
                .display()
                .to_string(),
        }
    }
}

/// A variant by shipped name or path (relative to `dir`), with values for
/// its options.
pub fn load(spec: &str, dir: &Path, options: &[(String, String)]) -> Result<Variant, LoadError> {
    let l = Loader::default();
    let place = if is_path(spec) {
        Place::File(dir.join(spec))
    } else if variants::source(spec).is_some() {
        Place::Shipped(spec.to_string())
    } else {
        let list = format!(
            "shipped variants: {}; a path must contain `/` or end in `.sow`",
            variants::names().join(", ")
        );
        let hint = match crate::diagnostic::did_you_mean(spec, variants::names()) {
            Some(close) => format!("did you mean `{close}`? {list}"),
            None => list,
        };
        let d = Diagnostic::new(format!("no shipped variant is called `{spec}`"))
            .hint(hint)
            .kind(Kind::Unknown(spec.into()));
        return Err(LoadError {
            sources: Sources::default(),
            diagnostics: vec![d],
        });
    };
    let text = match read(&place) {
        Ok(t) => t,
        Err(d) => {
            return Err(LoadError {
                sources: Sources::default(),
                diagnostics: vec![d],
            })
        }
    };
    l.finish(&place.name(), &text, Some(place), options)
}

/// A variant from its text; `name` names it in messages, and a file it
/// builds on is looked for from `dir` (or among the shipped ones).
pub fn load_text(
    name: &str,
    text: &str,
    dir: &Path,
    options: &[(String, String)],
) -> Result<Variant, LoadError> {
    let place = Place::File(dir.join(name));
    Loader::default().finish(name, text, Some(place), options)
}

/// A variant from its text, reading no file: it may build only on shipped
/// variants (for text from elsewhere, such as a web request).
pub fn load_sealed(
    name: &str,
    text: &str,
    options: &[(String, String)],
) -> Result<Variant, LoadError> {
    let loader = Loader {
        sealed: true,
        ..Loader::default()
    };
    loader.finish(name, text, None, options)
}

/// Whether a variant named on the command line or from Python is a file:
/// a path has a `/` or ends in `.sow`; anything else is a shipped name.
pub fn is_path(spec: &str) -> bool {
    spec.contains('/') || spec.ends_with(".sow")
}

fn read(place: &Place) -> Result<String, Diagnostic> {
    match place {
        Place::Shipped(n) => variants::source(n)
            .map(str::to_string)
            .ok_or_else(|| Diagnostic::new(format!("no shipped variant is called `{n}`"))),
        Place::File(p) => crate::limits::read_text(p),
    }
}

#[derive(Default)]
struct Loader {
    sources: Sources,
    diagnostics: Vec<Diagnostic>,
    /// The files being loaded, outermost first (to find a cycle).
    stack: Vec<(String, String)>,
    /// Names a file removed from its base, and where: an error about one
    /// of them in the base points there too.
    removed: Vec<(String, Span)>,
    /// No file is read: only shipped variants are built on.
    sealed: bool,
}

impl Loader {
    /// A diagnostic that names something a file removed, pointing at the
    /// removal as well.
    fn point_at_removal(&self, mut d: Diagnostic) -> Diagnostic {
        if let Kind::Unknown(unknown) = d.kind.clone() {
            for (name, at) in &self.removed {
                if **name == *unknown {
                    d = d.related(*at, format!("`{name}` removed here"));
                }
            }
        }
        d
    }

    fn finish(
        mut self,
        name: &str,
        text: &str,
        place: Option<Place>,
        options: &[(String, String)],
    ) -> Result<Variant, LoadError> {
        let statements = self.file(name, text, place);
        if self.diagnostics.is_empty() {
            if let Some(statements) = statements {
                match check::check_warned(&statements, options) {
                    Ok((rules, warnings)) => {
                        return Ok(Variant::new(
                            name,
                            text,
                            rules,
                            statements,
                            self.sources,
                            warnings,
                        ))
                    }
                    Err(d) => {
                        self.diagnostics = d.into_iter().map(|d| self.point_at_removal(d)).collect()
                    }
                }
            }
        }
        Err(LoadError {
            sources: self.sources,
            diagnostics: self.diagnostics,
        })
    }

    /// A file's statements with its bases resolved, or `None` after an
    /// error that leaves nothing to check.
    fn file(&mut self, name: &str, text: &str, place: Option<Place>) -> Option<Vec<Statement>> {
        let offset = self.sources.add(name, text);
        let mut statements = match syntax::parse(text) {
            Ok(s) => s,
            Err(mut d) => {
                shift_diagnostic(&mut d, offset);
                self.diagnostics.push(d);
                return None;
            }
        };
        shift(&mut statements, offset);
        if let Some(d) = check::too_many_statements(&statements) {
            self.diagnostics.push(d);
            return None;
        }
        let (extends, own): (Vec<Statement>, Vec<Statement>) = statements
            .into_iter()
            .partition(|s| s.word.name == "extends");
        let Some(ext) = extends.first() else {
            // A file of its own: nothing to replace or remove.
            for s in own
                .iter()
                .filter(|s| CHANGES.contains(&s.word.name.as_str()))
            {
                self.diagnostics.push(
                    Diagnostic::at(
                        s.word.span,
                        format!(
                            "`{}` changes a base, and this file builds on none",
                            s.word.name
                        ),
                        "nothing to change",
                    )
                    .hint("add `extends NAME` (a shipped variant) or `extends \"path.sow\"`"),
                );
            }
            return Some(own);
        };
        for again in &extends[1..] {
            self.diagnostics.push(
                Diagnostic::at(again.span, "a file extends one variant", "second `extends`")
                    .related(ext.span, "first here")
                    .hint("keep one `extends`; a base can itself extend another"),
            );
        }
        if !own.iter().any(|s| s.word.name == "variant") {
            self.diagnostics.push(
                Diagnostic::at(
                    ext.span,
                    "a variant built on another needs a name of its own",
                    "no `variant NAME` in this file",
                )
                .hint("add `variant my-game` (positions and outcomes carry the name)"),
            );
        }
        let here = place.as_ref().map(Place::dir).unwrap_or_default();
        let identity = place.as_ref().map_or(name.to_string(), Place::identity);
        self.stack.push((identity, name.to_string()));
        let base = self.base(ext, &here);
        self.stack.pop();
        Some(self.merge(base?, own))
    }

    /// The statements of the file `extends` names, resolved.
    fn base(&mut self, ext: &Statement, dir: &Path) -> Option<Vec<Statement>> {
        let usage = "write `extends oware-abapa` (a shipped variant) or `extends \"my-base.sow\"`";
        let (spec, at) = match (ext.args.as_slice(), &ext.tail, &ext.block) {
            ([e], None, None) => match &e.kind {
                ExprKind::Word(w) => (w.clone(), e.span),
                ExprKind::Str(s) => (s.clone(), e.span),
                _ => (String::new(), e.span),
            },
            _ => (String::new(), ext.span),
        };
        if spec.is_empty() {
            self.diagnostics.push(
                Diagnostic::at(
                    at,
                    "`extends` takes one variant",
                    "expected a name or a path",
                )
                .hint(usage),
            );
            return None;
        }
        let local = dir.join(format!("{spec}.sow"));
        let shipped = !is_path(&spec) && variants::source(&spec).is_some();
        if self.sealed && !shipped {
            let d = Diagnostic::at(
                at,
                format!("`{spec}` is not a shipped variant, and here no file is read"),
                "not shipped",
            )
            .suggest(
                &spec,
                variants::names(),
                format!(
                    "build on a shipped variant: {}",
                    variants::names().join(", ")
                ),
            )
            .kind(Kind::Unknown(spec.as_str().into()));
            self.diagnostics.push(d);
            return None;
        }
        let place = if is_path(&spec) {
            Place::File(dir.join(&spec))
        } else if variants::source(&spec).is_some() {
            Place::Shipped(spec.clone())
        } else if local.is_file() {
            Place::File(local)
        } else {
            let d = Diagnostic::at(
                at,
                format!("there is no variant `{spec}` to extend"),
                "unknown base",
            )
            .suggest(
                &spec,
                variants::names(),
                format!(
                    "not a shipped variant ({}) and no file `{}`",
                    variants::names().join(", "),
                    local.display()
                ),
            )
            .kind(Kind::Unknown(spec.as_str().into()));
            self.diagnostics.push(d);
            return None;
        };
        let identity = place.identity();
        if let Some(i) = self.stack.iter().position(|(id, _)| *id == identity) {
            let mut chain: Vec<&str> = self.stack[i..].iter().map(|(_, n)| n.as_str()).collect();
            let name = place.name();
            chain.push(&name);
            self.diagnostics.push(
                Diagnostic::at(
                    at,
                    format!(
                        "variant files extend each other in a cycle: {}",
                        chain.join(" → ")
                    ),
                    "back to a file being loaded",
                )
                .hint("a variant may build on another only if that one does not build on it"),
            );
            return None;
        }
        if self.stack.len() >= MAX_BASES {
            self.diagnostics.push(Diagnostic::at(
                at,
                format!("variants built on more than {MAX_BASES} others"),
                "too deep",
            ));
            return None;
        }
        let text = match read(&place) {
            Ok(t) => t,
            Err(d) => {
                self.diagnostics.push(Diagnostic {
                    span: Some((at, "this base".into())),
                    ..d.or_hint("the path is relative to the file that extends it")
                });
                return None;
            }
        };
        self.file(&place.name(), &text, Some(place))
    }

    /// The base's statements with a file's changes made: `replace` and
    /// `remove` change a statement in place, `add` puts a line at the end
    /// of a block, a new statement comes after the base's; giving again
    /// what the base has is an error.
    fn merge(&mut self, base: Vec<Statement>, own: Vec<Statement>) -> Vec<Statement> {
        let mut out = Merged::new(base);
        // What this file changed already, and where.
        let mut changed: HashMap<String, Span> = HashMap::new();
        for s in own {
            match s.word.name.as_str() {
                "add" => {
                    // One more line in a block: `add setup seeds 3: A1`.
                    let Some(target) = self.unwrap_change(&s) else {
                        continue;
                    };
                    if is_inner_edit(&target) {
                        self.edit_block(&s, target, Edit::Add, &mut out);
                    } else {
                        self.diagnostics.push(
                            Diagnostic::at(s.span, "`add` adds one line to a block", "not a block line")
                                .hint(format!(
                                    "write `add setup seeds 3: A1` (blocks: {}); a new statement needs no `add`",
                                    blocks().collect::<Vec<_>>().join(", ")
                                )),
                        );
                    }
                }
                "replace" | "remove" => {
                    let replace = s.word.name == "replace";
                    let Some(target) = self.unwrap_change(&s) else {
                        continue;
                    };
                    let inner = is_inner_edit(&target);
                    let k = if inner {
                        // The block and the line: `setup hands`, `board row north inner`.
                        let names =
                            std::iter::once(target.word.name.clone()).chain(leading_names(&target));
                        Some(names.collect::<Vec<_>>().join(" "))
                    } else {
                        key(&target)
                    };
                    if let Some(k) = k {
                        if let Some(first) = changed.get(&k) {
                            self.diagnostics.push(
                                Diagnostic::at(
                                    s.span,
                                    format!("`{k}` is changed twice"),
                                    "second change",
                                )
                                .related(*first, "first change here")
                                .hint("keep one `replace` or `remove` of it"),
                            );
                            continue;
                        }
                        changed.insert(k, s.span);
                    }
                    if inner {
                        let edit = if replace { Edit::Replace } else { Edit::Remove };
                        self.edit_block(&s, target, edit, &mut out);
                        continue;
                    }
                    if !replace
                        && (target.block.is_some()
                            || target.tail.is_some()
                            || target.args.len() > 1)
                    {
                        self.diagnostics.push(
                            Diagnostic::at(
                                s.span,
                                "`remove` names what it removes, nothing more",
                                "more than a name",
                            )
                            .hint("write `remove rule NAME` or `remove setup`"),
                        );
                        continue;
                    }
                    match out.find(&target) {
                        Some(i) if replace => out.replace(i, target),
                        Some(i) => {
                            if let Some(k) = key(&target) {
                                let name = k.rsplit(' ').next().unwrap_or(&k).to_string();
                                self.removed.push((name, s.span));
                            }
                            out.remove(i);
                        }
                        None => self.missing(&s, &target, &out),
                    }
                }
                // A file's own name and title stand in for its base's.
                "variant" | "title" => match out.find(&s) {
                    Some(i) => out.replace(i, s),
                    None => out.push(s),
                },
                _ => match out.find(&s) {
                    Some(i) => {
                        let (first, what) = (out.get(i), key(&s).unwrap_or_default());
                        self.diagnostics.push(
                            Diagnostic::at(
                                name_span(&s),
                                format!("`{what}` is defined twice"),
                                "defined again here",
                            )
                            .related(name_span(first), "first defined here")
                            .hint(format!(
                                "write `replace {what} …` to change it, or choose another name"
                            )),
                        );
                    }
                    None => out.push(s),
                },
            }
        }
        out.into_statements()
    }

    /// `replace BLOCK LINE` / `remove BLOCK LINE`: one line of a block
    /// statement (`replace setup hands 10`, `remove sow skip`), found by
    /// its word and, among several, the names after it.
    fn edit_block(&mut self, s: &Statement, edit: Statement, how: Edit, out: &mut Merged) {
        let Some(line) = self.unwrap_change(&Statement {
            word: Word {
                name: s.word.name.clone(),
                span: s.word.span,
            },
            ..edit.clone()
        }) else {
            return;
        };
        let what = edit.word.name.as_str();
        let Some(block) = out.find(&edit).and_then(|i| out.get_mut(i).block.as_mut()) else {
            self.diagnostics.push(
                Diagnostic::at(
                    edit.word.span,
                    format!("the base has no `{what}` block"),
                    "not in the base",
                )
                .hint(format!(
                    "to add it, write `{what} {{ … }}` without `{}`",
                    s.word.name
                )),
            );
            return;
        };
        if how == Edit::Add {
            block.1.push(line);
            return;
        }
        let replace = how == Edit::Replace;
        // The line with the same word; among several, the one with the same
        // names after it (`row north inner`, `letter L`).
        let same_word: Vec<usize> = (0..block.1.len())
            .filter(|&i| block.1[i].word.name == line.word.name)
            .collect();
        let found: Vec<usize> = if same_word.len() > 1 {
            // The lines sharing the most leading names with the new one.
            let names = leading_names(&line);
            let shared = |i: usize| {
                let theirs = leading_names(&block.1[i]);
                names
                    .iter()
                    .zip(&theirs)
                    .take_while(|(a, b)| a == b)
                    .count()
            };
            let most = same_word.iter().map(|&i| shared(i)).max().unwrap_or(0);
            if most == 0 {
                same_word
            } else {
                same_word
                    .into_iter()
                    .filter(|&i| shared(i) == most)
                    .collect()
            }
        } else {
            same_word
        };
        let k = std::iter::once(line.word.name.clone())
            .chain(leading_names(&line))
            .collect::<Vec<_>>()
            .join(" ");
        match found.as_slice() {
            [i] if replace => block.1[*i] = line,
            [i] => {
                block.1.remove(*i);
            }
            [] => {
                let lines: Vec<String> = block
                    .1
                    .iter()
                    .map(|l| {
                        std::iter::once(l.word.name.clone())
                            .chain(leading_names(l))
                            .collect::<Vec<_>>()
                            .join(" ")
                    })
                    .collect();
                let d = Diagnostic::at(
                    line.word.span,
                    format!("`{what}` has no `{k}` line to {}", s.word.name),
                    "not in the base",
                )
                .suggest(
                    &line.word.name,
                    block.1.iter().map(|l| l.word.name.as_str()),
                    format!(
                        "its lines are: {}; to add one, write `add {what} {} …`",
                        lines.join(", "),
                        line.word.name
                    ),
                )
                .kind(Kind::Unknown(k.as_str().into()));
                self.diagnostics.push(d);
            }
            _ => self.diagnostics.push(
                Diagnostic::at(
                    line.word.span,
                    format!("`{what}` has several `{k}` lines"),
                    "which one?",
                )
                .hint(format!("replace the whole block: `replace {what} {{ … }}`")),
            ),
        }
    }

    /// The statement a `replace`, `remove` or `add` is about.
    fn unwrap_change(&mut self, s: &Statement) -> Option<Statement> {
        let Some((first, rest)) = s.args.split_first() else {
            self.diagnostics.push(
                Diagnostic::at(
                    s.span,
                    format!("`{}` needs what it changes", s.word.name),
                    "nothing after it",
                )
                .hint(format!("write `{} rule NAME …`", s.word.name)),
            );
            return None;
        };
        let Some(word) = first.as_word() else {
            self.diagnostics.push(
                Diagnostic::at(first.span, "expected a statement's word", "not a word")
                    .hint(format!("write `{} rule NAME …`", s.word.name)),
            );
            return None;
        };
        Some(Statement {
            word: Word {
                name: word.to_string(),
                span: first.span,
            },
            args: rest.to_vec(),
            tail: s.tail.clone(),
            equals: s.equals,
            block: s.block.clone(),
            span: first.span.to(s.span),
        })
    }

    fn missing(&mut self, s: &Statement, what: &Statement, base: &Merged) {
        let k = key(what).unwrap_or_else(|| what.word.name.clone());
        let same_kind: Vec<&str> = base.keys_of(&what.word.name).collect();
        let d = Diagnostic::at(
            name_span(what),
            format!("there is no `{k}` to {}", s.word.name),
            "not in the base",
        );
        let d = d
            .suggest(
                &k,
                same_kind,
                format!("to add it, write it without `{}`", s.word.name),
            )
            .kind(Kind::Unknown(k.as_str().into()));
        self.diagnostics.push(d);
    }
}

/// The words that change a base (all of the table's but `extends`).
const CHANGES: &[&str] = &["replace", "remove", "add"];

/// What identifies a top-level statement, for replacing it: the word, and
/// the name for statements that declare one.
fn key(s: &Statement) -> Option<String> {
    let w = s.word.name.as_str();
    match statements::statement(w)?.key {
        Key::Named => {
            let name = match &s.args.first()?.kind {
                ExprKind::Word(n) => n.clone(),
                ExprKind::Call(n, _) => n.name.clone(),
                _ => return None,
            };
            Some(format!("{w} {name}"))
        }
        Key::Owner => Some(match s.args.first().and_then(Expr::as_word) {
            Some(owner) => format!("{w} {owner}"),
            None => w.to_string(),
        }),
        Key::Once => Some(w.to_string()),
    }
}

/// Statements being merged: each in its place, found by its key (see
/// [`key`]) without a search, so that merging costs the same per
/// statement however many there are.
struct Merged {
    /// The statements in order, with their keys; `None` where one was
    /// removed.
    slots: Vec<Option<(Option<String>, Statement)>>,
    /// The slot of each key (the first statement with it).
    index: HashMap<String, usize>,
}

impl Merged {
    fn new(statements: Vec<Statement>) -> Merged {
        let mut m = Merged {
            slots: Vec::with_capacity(statements.len()),
            index: HashMap::new(),
        };
        for s in statements {
            m.push(s);
        }
        m
    }

    /// Where the statement `s` stands for is (`s`'s key), if there.
    fn find(&self, s: &Statement) -> Option<usize> {
        self.index.get(&key(s)?).copied()
    }

    fn get(&self, i: usize) -> &Statement {
        &self.slots[i].as_ref().expect("a statement found by key").1
    }

    fn get_mut(&mut self, i: usize) -> &mut Statement {
        &mut self.slots[i].as_mut().expect("a statement found by key").1
    }

    /// Puts `s` in slot `i` (found for `s`'s key).
    fn replace(&mut self, i: usize, s: Statement) {
        *self.get_mut(i) = s;
    }

    fn remove(&mut self, i: usize) {
        if let Some((Some(k), _)) = self.slots[i].take() {
            self.index.remove(&k);
        }
    }

    fn push(&mut self, s: Statement) {
        let k = key(&s);
        if let Some(k) = &k {
            self.index.entry(k.clone()).or_insert(self.slots.len());
        }
        self.slots.push(Some((k, s)));
    }

    /// The keys of the statements with this word.
    fn keys_of<'a>(&'a self, word: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.slots
            .iter()
            .flatten()
            .filter_map(move |(k, s)| k.as_deref().filter(|_| s.word.name == word))
    }

    fn into_statements(self) -> Vec<Statement> {
        self.slots.into_iter().flatten().map(|(_, s)| s).collect()
    }
}

/// The statements whose block holds lines a file can change one by one.
fn blocks() -> impl Iterator<Item = &'static str> {
    statements::STATEMENTS
        .iter()
        .filter(|s| s.lines)
        .map(|s| s.word)
}

/// `replace setup hands 10`: a block statement given arguments, which it
/// never takes, names one of its lines.
fn is_inner_edit(s: &Statement) -> bool {
    statements::statement(&s.word.name).is_some_and(|spec| spec.lines)
        && !s.args.is_empty()
        && s.block.is_none()
}

/// The names at the start of a block line's arguments (`north inner` in
/// `row north inner: …`), which tell apart lines with the same word.
fn leading_names(s: &Statement) -> Vec<String> {
    s.args
        .iter()
        .map_while(|a| match &a.kind {
            ExprKind::Word(w) | ExprKind::Str(w) => Some(w.clone()),
            _ => None,
        })
        .collect()
}

/// The span of a statement's word and name.
fn name_span(s: &Statement) -> Span {
    match s.args.first() {
        Some(a) if key(s).is_some_and(|k| k.contains(' ')) => s.word.span.to(a.span),
        _ => s.word.span,
    }
}

fn shift_span(s: &mut Span, by: usize) {
    s.start += by;
    s.end += by;
}

fn shift_expr(e: &mut Expr, by: usize) {
    shift_span(&mut e.span, by);
    match &mut e.kind {
        ExprKind::Call(w, args) => {
            shift_span(&mut w.span, by);
            args.iter_mut().for_each(|a| shift_expr(a, by));
        }
        ExprKind::Unary(_, a) => shift_expr(a, by),
        ExprKind::Binary(_, a, b) => {
            shift_expr(a, by);
            shift_expr(b, by);
        }
        ExprKind::Int(_) | ExprKind::Str(_) | ExprKind::Word(_) => {}
    }
}

/// Moves every span of the statements by `by` bytes.
fn shift(statements: &mut [Statement], by: usize) {
    for s in statements {
        shift_span(&mut s.span, by);
        shift_span(&mut s.word.span, by);
        s.args.iter_mut().for_each(|a| shift_expr(a, by));
        if let Some((sp, t)) = &mut s.tail {
            shift_span(sp, by);
            t.iter_mut().for_each(|a| shift_expr(a, by));
        }
        if let Some((sp, b)) = &mut s.block {
            shift_span(sp, by);
            shift(b, by);
        }
    }
}

fn shift_diagnostic(d: &mut Diagnostic, by: usize) {
    if let Some((s, _)) = &mut d.span {
        shift_span(s, by);
    }
    for (s, _) in &mut d.related {
        shift_span(s, by);
    }
}

/// The variant as one file: every statement after composition, each option
/// given the value in force as its default.
pub fn show(v: &Variant) -> String {
    let values: HashMap<&str, &str> = v
        .engine
        .rules
        .options
        .iter()
        .map(|o| (o.name.as_str(), o.value.as_str()))
        .collect();
    let mut statements = v.statements.clone();
    for s in statements.iter_mut().filter(|s| s.word.name == "option") {
        let name = s.args.first().and_then(Expr::as_word).unwrap_or_default();
        if let (Some(value), Some(default)) = (values.get(name), s.args.get_mut(2)) {
            default.kind = match value.parse::<i64>() {
                Ok(n) => ExprKind::Int(n),
                Err(_) => ExprKind::Word(value.to_string()),
            };
        }
    }
    syntax::print(&statements)
}

/// What a change does to one line of a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Edit {
    Replace,
    Remove,
    Add,
}
