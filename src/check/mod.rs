//! The checker: reads the statements of a variant file, reports **every**
//! problem it finds (not just the first), and lowers a correct file to the
//! rules IR.

mod expr;

use std::collections::HashMap;

use crate::diagnostic::{did_you_mean, sorted, Diagnostic, Kind, Span};
use crate::ir::{
    Action, ActionKind, Choices, Cond, Direction, End, Endless, Entry, Heading, Letter, Mark,
    Moment, NamedPit, NamedRegion, Notation, Num, Phase, Pit, PitId, Place, Player, Region, Row,
    Rule, Rules, Sees, Setting, Setup, Skip, Slot, Sowing, Store, Take, Var, VarScope, Verdict,
    Who,
};
use crate::syntax::ast::{BinaryOp, Expr, ExprKind, Statement};
pub use expr::Definition;
use expr::{Context, Lowerer, Scope, Value};

/// The top-level statements, for "did you mean".
const TOP: &[&str] = &[
    "variant", "title", "players", "board", "region", "pit", "let", "var", "phase", "setup",
    "track", "sow", "notation", "rule", "end", "score", "endless", "option",
];

/// The top-level words suggested for a misspelt one: the statements, and
/// the words that build on another variant (see `crate::load`).
const SUGGESTED: &[&str] = &[
    "variant", "title", "players", "board", "region", "pit", "let", "var", "phase", "setup",
    "track", "sow", "notation", "rule", "end", "score", "endless", "option", "extends", "replace",
    "remove",
];

pub use crate::limits::MAX_PITS;
use crate::limits::{MAX_NAME, MAX_PHASES, MAX_RULES, MAX_STATEMENTS, MAX_VAR_SLOTS};

/// Checks a parsed file and lowers it to the rules IR, or returns every
/// problem found. `options` gives values to the file's options (the others
/// keep their defaults).
pub fn check(
    statements: &[Statement],
    options: &[(String, String)],
) -> Result<Rules, Vec<Diagnostic>> {
    if let Some(d) = too_many_statements(statements) {
        return Err(vec![d]);
    }
    let mut c = Checker::default();
    c.options(statements, options);
    c.declarations(statements);
    let rules = c.lower(statements);
    match rules {
        Some(r) if c.diagnostics.is_empty() => Ok(r),
        _ => {
            c.diagnostics
                .sort_by_key(|d| d.span.as_ref().map(|s| s.0.start));
            Err(once_each(c.diagnostics))
        }
    }
}

/// An error past [`MAX_STATEMENTS`] statements (block lines included), if
/// the file has more.
pub(crate) fn too_many_statements(statements: &[Statement]) -> Option<Diagnostic> {
    let mut seen = 0usize;
    let mut stack: Vec<&Statement> = statements.iter().rev().collect();
    while let Some(s) = stack.pop() {
        seen += 1;
        if seen > MAX_STATEMENTS {
            return Some(
                Diagnostic::limit(
                    s.word.span,
                    format!("a variant has at most {MAX_STATEMENTS} statements"),
                    "one too many",
                )
                .hint("a rule that applies to many pits is written once, with conditions"),
            );
        }
        if let Some((_, block)) = &s.block {
            stack.extend(block.iter().rev());
        }
    }
    None
}

/// Each problem once: a mistake inside a definition is found at every use
/// of it, and reported once, with the first uses as related places.
fn once_each(diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut first: HashMap<(Option<Span>, String), usize> = HashMap::new();
    let mut out: Vec<Diagnostic> = Vec::new();
    for d in diagnostics {
        let k = (d.span.as_ref().map(|s| s.0), d.message.clone());
        match first.get(&k) {
            Some(&i) => {
                let kept = &mut out[i];
                for r in d.related {
                    if kept.related.len() < 3 && !kept.related.contains(&r) {
                        kept.related.push(r);
                    }
                }
            }
            None => {
                first.insert(k, out.len());
                out.push(d);
            }
        }
    }
    out
}

#[derive(Default)]
struct Checker {
    diagnostics: Vec<Diagnostic>,
    name: Option<String>,
    title: Option<String>,
    players: Option<[String; 2]>,
    pits: Vec<Pit>,
    labels: HashMap<String, PitId>,
    label_spans: Vec<Span>,
    rows: Vec<Row>,
    stores: [Option<Store>; 2],
    regions: Vec<NamedRegion>,
    region_index: HashMap<String, usize>,
    named_pits: Vec<NamedPit>,
    named_index: HashMap<String, usize>,
    lets: HashMap<String, Definition>,
    vars: Vec<Var>,
    phase_index: HashMap<String, usize>,
    notation: Notation,
    notation_seen: Option<Span>,
    /// `mark` lines of the board, lowered once every name is known.
    mark_statements: Vec<Statement>,
    /// Where each name of the file's namespace was declared.
    names: HashMap<String, Span>,
    /// The options, with the values in force.
    settings: Vec<Setting>,
}

fn word_or_string(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Word(w) => Some(w.clone()),
        ExprKind::Str(s) => Some(s.clone()),
        _ => None,
    }
}

fn tail(stmt: &Statement) -> &[Expr] {
    stmt.tail.as_ref().map_or(&[], |(_, t)| t.as_slice())
}

impl Checker {
    fn err(&mut self, d: Diagnostic) {
        self.diagnostics.push(d);
    }

    fn unknown(&mut self, stmt: &Statement, known: &[&str], what: &str) {
        let w = &stmt.word.name;
        self.err(Diagnostic::unknown(
            Some(stmt.word.span),
            w,
            format!("unknown {what} `{w}`"),
            format!("not a {what}"),
            known.iter().copied(),
            format!("expected one of: {}", known.join(", ")),
        ));
    }

    fn no_block(&mut self, stmt: &Statement) {
        if let Some((span, _)) = &stmt.block {
            self.err(
                Diagnostic::at(
                    *span,
                    format!("`{}` takes no block", stmt.word.name),
                    "unexpected block",
                )
                .hint("remove the braces and what is in them"),
            );
        }
    }

    fn block<'s>(&mut self, stmt: &'s Statement) -> &'s [Statement] {
        match &stmt.block {
            Some((_, b)) => b,
            None => {
                self.err(
                    Diagnostic::at(
                        stmt.span,
                        format!("`{}` needs a block", stmt.word.name),
                        "no `{ … }` after it",
                    )
                    .hint(format!(
                        "write `{} {{ … }}` with one statement a line",
                        stmt.word.name
                    )),
                );
                &[]
            }
        }
    }

    /// What `map` gives the word `w` (at `span`), or an error, `missing`,
    /// that suggests the nearest name or else says `otherwise`.
    fn look_up<T: Copy>(
        &mut self,
        map: impl Fn(&Self) -> &HashMap<String, T>,
        w: &str,
        span: Span,
        missing: (String, &str),
        otherwise: &str,
    ) -> Option<T> {
        if let Some(&v) = map(self).get(w) {
            return Some(v);
        }
        let d = Diagnostic::unknown(
            Some(span),
            w,
            missing.0,
            missing.1,
            sorted(map(self).keys()),
            otherwise,
        );
        self.err(d);
        None
    }

    /// A phase named by a word, or an error that says which phases exist.
    fn phase_named(&mut self, e: &Expr) -> Option<usize> {
        let w = e.as_word().unwrap_or("");
        self.look_up(
            |c| &c.phase_index,
            w,
            e.span,
            (format!("no phase is called `{w}`"), "undeclared phase"),
            "declare it with `phase NAME when CONDITION`",
        )
    }

    /// Declares a name in the file's namespace (regions, named pits,
    /// definitions, labels), reporting a clash with both places.
    fn declare(&mut self, name: &str, span: Span, what: &str) -> bool {
        if let Some(first) = self.names.get(name) {
            let first = *first;
            self.err(
                Diagnostic::at(
                    span,
                    format!("`{name}` is declared twice"),
                    format!("this {what}"),
                )
                .related(first, "first declared here")
                .hint("give each pit, region, named pit, option and definition its own name"),
            );
            return false;
        }
        if expr::FUNCTIONS.contains(&name) || expr::WORDS.contains(&name) {
            self.err(
                Diagnostic::at(
                    span,
                    format!("`{name}` is a built-in name"),
                    format!("this {what}"),
                )
                .hint("choose another name"),
            );
            return false;
        }
        self.names.insert(name.to_string(), span);
        true
    }

    fn player(&mut self, e: &Expr) -> Option<Player> {
        let players = self.players.clone()?;
        match e.as_word() {
            Some(w) if players.iter().any(|p| p == w) => {
                Some(players.iter().position(|p| p == w).expect("found") as Player)
            }
            _ => {
                let text = e.as_word().unwrap_or("this");
                self.err(Diagnostic::unknown(
                    Some(e.span),
                    text,
                    format!("`{text}` is not a player"),
                    "expected a player's name",
                    players.iter().map(String::as_str),
                    format!("the players are `{}` and `{}`", players[0], players[1]),
                ));
                None
            }
        }
    }

    fn label(&mut self, e: &Expr) -> Option<PitId> {
        match e.as_word() {
            Some(w) => self.look_up(
                |c| &c.labels,
                w,
                e.span,
                (format!("no pit is labelled `{w}`"), "undefined label"),
                "labels are declared by the `row` lines of `board`",
            ),
            None => {
                self.err(
                    Diagnostic::at(e.span, "expected a pit label", "not a label")
                        .hint("write a label such as `A`"),
                );
                None
            }
        }
    }

    /// First pass: names, players, the board, regions, named pits and
    /// definitions, which everything else refers to.
    /// `option NAME default VALUE: VALUES`, where VALUES are words or a
    /// range `LOW..HIGH`; then the values given from outside the file.
    fn options(&mut self, statements: &[Statement], given: &[(String, String)]) {
        for s in statements.iter().filter(|s| s.word.name == "option") {
            self.no_block(s);
            let usage =
                "write `option grand_slam default capture_nothing: capture_nothing forbidden` \
                         or `option seeds default 4: 1..12`";
            let (name, default) = match s.args.as_slice() {
                [n, d, v] if d.as_word() == Some("default") && n.as_word().is_some() => {
                    let v = match &v.kind {
                        ExprKind::Word(w) => Some(w.clone()),
                        ExprKind::Int(k) => Some(k.to_string()),
                        _ => None,
                    };
                    (n.as_word().unwrap_or_default(), v)
                }
                _ => (
                    s.args.first().and_then(Expr::as_word).unwrap_or_default(),
                    None,
                ),
            };
            let choices = match tail(s) {
                [Expr {
                    kind: ExprKind::Binary(BinaryOp::Range, lo, hi),
                    span,
                }] => match (&lo.kind, &hi.kind) {
                    (ExprKind::Int(_), ExprKind::Int(hi)) if *hi > crate::limits::MAX_NUMBER => {
                        self.err(
                            Diagnostic::at(
                                *span,
                                format!(
                                    "an option's numbers are at most {}",
                                    crate::limits::MAX_NUMBER
                                ),
                                "too large",
                            )
                            .hint("counts in a variant are at most 1000000"),
                        );
                        continue;
                    }
                    (ExprKind::Int(lo), ExprKind::Int(hi)) if lo <= hi => {
                        Some(Choices::Range(*lo, *hi))
                    }
                    (ExprKind::Int(lo), ExprKind::Int(hi)) => {
                        self.err(
                            Diagnostic::at(
                                *span,
                                format!("the range {lo}..{hi} is empty"),
                                "no number lies in it",
                            )
                            .hint(format!("a range runs from low to high: `{hi}..{lo}`")),
                        );
                        continue;
                    }
                    _ => None,
                },
                words if !words.is_empty() && words.iter().all(|w| w.as_word().is_some()) => {
                    Some(Choices::Words(
                        words
                            .iter()
                            .filter_map(Expr::as_word)
                            .map(str::to_string)
                            .collect(),
                    ))
                }
                _ => None,
            };
            let (Some(default), Some(choices)) = (default, choices) else {
                self.err(
                    Diagnostic::at(
                        s.span,
                        "an option is `option NAME default VALUE: VALUES`",
                        "malformed option",
                    )
                    .hint(usage),
                );
                continue;
            };
            if !choices.allows(&default) {
                self.err(
                    Diagnostic::at(
                        s.args[2].span,
                        format!("the default `{default}` is not one of the option's values"),
                        "not a value",
                    )
                    .hint(format!("`{name}` takes {}", choices.describe())),
                );
                continue;
            }
            // Declared (and a duplicate reported) in file order with the
            // other names, by `declarations`.
            if !self.settings.iter().any(|o| o.name == name) {
                self.settings.push(Setting {
                    name: name.to_string(),
                    choices,
                    value: default,
                });
            }
        }
        for (i, (name, value)) in given.iter().enumerate() {
            if given[..i].iter().any(|(n, _)| n == name) {
                self.err(
                    Diagnostic::new(format!("option `{name}` is given twice"))
                        .hint("give each option one value")
                        .kind(Kind::Option(name.as_str().into())),
                );
                continue;
            }
            let Some(setting) = self.settings.iter_mut().find(|o| o.name == *name) else {
                let names: Vec<&str> = self.settings.iter().map(|o| o.name.as_str()).collect();
                let d = Diagnostic::new(format!("the variant has no option `{name}`"));
                let otherwise = if names.is_empty() {
                    "this variant has no options".to_string()
                } else {
                    format!("its options are: {}", names.join(", "))
                };
                let d = d.suggest(name, names.iter().copied(), otherwise);
                self.err(d.kind(Kind::Option(name.as_str().into())));
                continue;
            };
            if !setting.choices.allows(value) {
                let d = Diagnostic::new(format!("`{value}` is not a value of option `{name}`"));
                let d = match &setting.choices {
                    Choices::Words(w) => d.suggest(
                        value,
                        w.iter().map(String::as_str),
                        format!("`{name}` takes {}", setting.choices.describe()),
                    ),
                    Choices::Range(..) => d.hint(format!(
                        "`{name}` takes a number in {}",
                        setting.choices.describe()
                    )),
                };
                self.err(d.kind(Kind::Option(name.as_str().into())));
                continue;
            }
            setting.value = value.clone();
        }
    }

    /// The value in force of the option a word names, if it names one.
    fn option_value(&self, e: &Expr) -> Option<&str> {
        let w = e.as_word()?;
        self.settings
            .iter()
            .find(|o| o.name == w)
            .map(|o| o.value.as_str())
    }

    fn declarations(&mut self, statements: &[Statement]) {
        for s in statements {
            if s.word.name == "players" {
                self.players_stmt(s);
            }
        }
        // (A `players` line that says something else is reported where it is.)
        if self.players.is_none() && !statements.iter().any(|s| s.word.name == "players") {
            self.err(
                Diagnostic::new("the file declares no players").hint(
                    "add a line such as `players south north` (the first sits at the bottom)",
                ),
            );
        }
        let mut board_seen: Option<Span> = None;
        let mut seen_once: HashMap<&str, Span> = HashMap::new();
        for s in statements {
            match s.word.name.as_str() {
                "variant" | "title" if seen_once.contains_key(s.word.name.as_str()) => {
                    let first = seen_once[s.word.name.as_str()];
                    self.err(
                        Diagnostic::at(
                            s.word.span,
                            format!("`{}` is given twice", s.word.name),
                            "second time",
                        )
                        .related(first, "first here")
                        .hint("keep one"),
                    );
                }
                "variant" => {
                    self.no_block(s);
                    seen_once.insert("variant", s.word.span);
                    match s.args.as_slice() {
                        [e] if word_or_string(e).is_some() => self.name = word_or_string(e),
                        _ => self.err(
                            Diagnostic::at(s.span, "`variant` takes one name", "expected a name")
                                .hint("write `variant my-game`"),
                        ),
                    }
                }
                "title" => match s.args.as_slice() {
                    _ if seen_once.insert("title", s.word.span).is_some() => {}
                    [Expr {
                        kind: ExprKind::Str(t),
                        ..
                    }] => self.title = Some(t.clone()),
                    _ => self.err(
                        Diagnostic::at(
                            s.span,
                            "`title` takes one quoted string",
                            "expected a string",
                        )
                        .hint("write `title \"My game\"`"),
                    ),
                },
                "board" => {
                    if let Some(first) = board_seen {
                        self.err(
                            Diagnostic::at(
                                s.word.span,
                                "the board is declared twice",
                                "second board",
                            )
                            .related(first, "first board here")
                            .hint("declare every row in one `board { … }`"),
                        );
                    } else if self.players.is_some() {
                        board_seen = Some(s.word.span);
                        self.board(s);
                    }
                }
                _ => {}
            }
        }
        // A misspelt `board` is reported where it stands, not as a missing board.
        let misspelt = statements.iter().any(|s| {
            !TOP.contains(&s.word.name.as_str()) && did_you_mean(&s.word.name, ["board"]).is_some()
        });
        if board_seen.is_none() && self.players.is_some() && !misspelt {
            self.err(
                Diagnostic::new("the file declares no board")
                    .hint("add `board { row south: A B C … }`"),
            );
        }
        if self.players.is_none() || self.pits.is_empty() {
            return;
        }
        for s in statements {
            match s.word.name.as_str() {
                "option" => {
                    if let Some(name) = s.args.first().and_then(Expr::as_word) {
                        self.declare(name, s.args[0].span, "option");
                    }
                }
                "region" => self.region(s),
                "pit" => self.named_pit(s),
                "let" => self.definition(s),
                "var" => self.var(s),
                "notation" => {
                    if let Some(first) = self.notation_seen {
                        self.err(
                            Diagnostic::at(
                                s.word.span,
                                "`notation` is declared twice",
                                "second `notation`",
                            )
                            .related(first, "first here")
                            .hint("keep one `notation { … }`"),
                        );
                    }
                    self.notation_seen = Some(s.word.span);
                    let mut n = std::mem::take(&mut self.notation);
                    self.notation(s, &mut n);
                    self.notation = n;
                }
                "phase" => {
                    if self.phase_index.len() == MAX_PHASES {
                        self.err(
                            Diagnostic::limit(
                                s.word.span,
                                format!("a variant has at most {MAX_PHASES} phases"),
                                "one too many",
                            )
                            .hint("a phase is a stage of the whole game: use variables for finer states"),
                        );
                        continue;
                    }
                    if let Some(w) = s.args.first().and_then(Expr::as_word) {
                        if self.declare(w, s.args[0].span, "phase") {
                            self.phase_index
                                .insert(w.to_string(), self.phase_index.len());
                        }
                    }
                }
                _ => {}
            }
        }
        if let Some(at) = self.notation_seen {
            self.reads_back(at);
        }
    }

    /// Every turn the notation writes reads back as itself, annotations
    /// after it or not: a mark that a label (or a letter) ends with, or
    /// that another mark ends with, would read one turn as another.
    fn reads_back(&mut self, at: Span) {
        use crate::notation::{decode, encode, Written};
        let n = &self.notation;
        let letters: Vec<Option<usize>> = if n.letters.is_empty() {
            vec![None]
        } else {
            (0..n.letters.len()).map(Some).collect()
        };
        let shown = |w: &Written| {
            let mut t = format!("pit `{}`", self.pits[w.pit].label);
            if let Some(l) = w.letter {
                t.push_str(&format!(" with letter `{}`", n.letters[l].letter));
            }
            for (i, f) in n.flags.iter().enumerate() {
                if w.flags & (1 << i) != 0 {
                    t.push_str(&format!(" with flag `{f}`"));
                }
            }
            t
        };
        for pit in 0..self.pits.len() {
            for &letter in &letters {
                for flags in 0..(1u16 << n.flags.len()) {
                    let flags = flags as u8;
                    let turn = Written { pit, letter, flags };
                    let text = encode(&self.pits, n, pit, letter, flags);
                    let annotated = std::iter::once(String::new()).chain(n.ignore.iter().cloned());
                    for a in annotated {
                        let written = format!("{text}{a}");
                        let read = decode(&self.pits, n, &written);
                        if read == Some(turn) {
                            continue;
                        }
                        let as_read = read.map_or("nothing".to_string(), |r| shown(&r));
                        let d = Diagnostic::at(
                            at,
                            format!(
                                "the notation writes `{written}` for {} and reads it as {as_read}",
                                shown(&turn)
                            ),
                            "a turn read two ways",
                        )
                        .hint(
                            "a letter, flag or annotation must not end a label, nor another mark",
                        );
                        self.err(d);
                        return;
                    }
                }
            }
        }
    }

    /// `var NAME per player|pit|game: value value …`
    fn var(&mut self, s: &Statement) {
        self.no_block(s);
        let usage = "write `var NAME per player: first second …` (or `per pit`, `per game`); the first value is where it starts";
        let (name, scope) = match s.args.as_slice() {
            [n, per, sc] if per.as_word() == Some("per") => {
                let scope = match sc.as_word() {
                    Some("player") => VarScope::Player,
                    Some("pit") => VarScope::Pit,
                    Some("game") => VarScope::Game,
                    _ => {
                        self.err(
                            Diagnostic::at(
                                sc.span,
                                "a variable is held `per player`, `per pit` or `per game`",
                                "unknown scope",
                            )
                            .hint(usage),
                        );
                        return;
                    }
                };
                match n.as_word() {
                    Some(w) => ((w.to_string(), n.span), scope),
                    None => {
                        self.err(
                            Diagnostic::at(
                                n.span,
                                "a variable's name is a plain name",
                                "not a name",
                            )
                            .hint(usage),
                        );
                        return;
                    }
                }
            }
            _ => {
                self.err(
                    Diagnostic::at(
                        s.span,
                        "malformed variable",
                        "expected `var NAME per SCOPE: values`",
                    )
                    .hint(usage),
                );
                return;
            }
        };
        let mut values: Vec<String> = Vec::new();
        for e in tail(s) {
            match e.as_word() {
                Some(v) if values.iter().any(|x| x == v) => {
                    self.err(
                        Diagnostic::at(e.span, format!("`{v}` is listed twice"), "duplicate value")
                            .hint("list each value once"),
                    );
                }
                Some(v) => values.push(v.to_string()),
                None => self.err(
                    Diagnostic::at(e.span, "a variable's values are plain names", "not a name")
                        .hint(usage),
                ),
            }
        }
        if values.len() < 2 {
            self.err(
                Diagnostic::at(
                    s.span,
                    "a variable needs at least two values",
                    "too few values",
                )
                .hint(usage),
            );
            return;
        }
        let slots = |scope: VarScope| match scope {
            VarScope::Game => 1,
            VarScope::Player => 2,
            VarScope::Pit => self.pits.len(),
        };
        let held: usize = self.vars.iter().map(|v| slots(v.scope)).sum();
        if held + slots(scope) > MAX_VAR_SLOTS {
            self.err(
                Diagnostic::limit(
                    s.span,
                    format!("the variables would hold more than {MAX_VAR_SLOTS} values"),
                    "one variable too many",
                )
                .hint(
                    "a per-pit variable holds one value per pit; every position carries them all",
                ),
            );
            return;
        }
        if self.declare(&name.0, name.1, "variable") {
            self.vars.push(Var {
                name: name.0,
                scope,
                values,
            });
        }
    }

    fn players_stmt(&mut self, s: &Statement) {
        self.no_block(s);
        let names: Vec<Option<String>> = s
            .args
            .iter()
            .map(|e| e.as_word().map(str::to_string))
            .collect();
        for (n, e) in names.iter().zip(&s.args) {
            if let Some(n) = n.as_ref().filter(|n| n.chars().count() > MAX_NAME) {
                self.err(
                    Diagnostic::at(
                        e.span,
                        format!(
                            "`{}…` is too long for a player's name",
                            n.chars().take(8).collect::<String>()
                        ),
                        format!("more than {MAX_NAME} characters"),
                    )
                    .hint("write `players south north`"),
                );
                return;
            }
            if let Some(n) = n {
                if n == "draw"
                    || expr::WORDS.contains(&n.as_str())
                    || expr::FUNCTIONS.contains(&n.as_str())
                {
                    self.err(
                        Diagnostic::at(e.span, format!("`{n}` cannot name a player"), "a reserved word")
                            .hint("`draw` and the built-in words (mover, opponent, player, …) mean something else"),
                    );
                    return;
                }
            }
        }
        match names.as_slice() {
            [Some(a), Some(b)] if a != b => {
                if self.players.is_some() {
                    self.err(
                        Diagnostic::at(
                            s.span,
                            "the players are declared twice",
                            "second declaration",
                        )
                        .hint("keep one `players` line"),
                    );
                }
                self.players = Some([a.clone(), b.clone()]);
            }
            [Some(one)] => self.err(
                Diagnostic::at(
                    s.span,
                    format!("`players {one}` names one player: a game here has two"),
                    "one player",
                )
                .hint("one-player games (solitaires) are not expressed yet; write `players south north`"),
            ),
            [Some(a), Some(_)] => self.err(
                Diagnostic::at(
                    s.span,
                    format!("`players` names `{a}` twice"),
                    "the same name",
                )
                .hint("give the players two different names: `players south north`"),
            ),
            _ => self.err(
                Diagnostic::at(
                    s.span,
                    "`players` takes two different names",
                    "expected two names",
                )
                .hint("write `players south north`: the first sits at the bottom of the board"),
            ),
        }
    }

    fn board(&mut self, s: &Statement) {
        let body = self.block(s);
        let mut store_spans: [Option<Span>; 2] = [None, None];
        for st in body {
            match st.word.name.as_str() {
                "row" => {
                    self.no_block(st);
                    let (owner, group) = match st.args.as_slice() {
                        [o] => (self.player(o), None),
                        [o, g] => match g.as_word() {
                            Some(g) => (self.player(o), Some((g.to_string(), st.args[1].span))),
                            None => {
                                self.err(
                                    Diagnostic::at(g.span, "a row group is a name", "not a name")
                                        .hint("write `row south inner: A1 A2 …`"),
                                );
                                (None, None)
                            }
                        },
                        _ => {
                            self.err(
                                Diagnostic::at(
                                    st.span,
                                    "`row` takes its owner and, optionally, a group name",
                                    "expected `row OWNER [GROUP]: labels`",
                                )
                                .hint("write `row south: A B C D E F`"),
                            );
                            (None, None)
                        }
                    };
                    if st.tail.is_none() || tail(st).is_empty() {
                        self.err(Diagnostic::at(st.span, "a row needs its pit labels", "no labels")
                            .hint("write the labels after `:`, left to right as drawn: `row south: A B C D E F`"));
                        continue;
                    }
                    let Some(owner) = owner else { continue };
                    let row_index = self.rows.len();
                    let mut ids = Vec::new();
                    for (column, e) in tail(st).iter().enumerate() {
                        let Some(label) = e.as_word() else {
                            self.err(
                                Diagnostic::at(e.span, "a pit label is a name", "not a label")
                                    .hint("labels are letters and digits, such as `A` or `a1`"),
                            );
                            continue;
                        };
                        if self.pits.len() >= MAX_PITS {
                            self.err(Diagnostic::limit(
                                e.span,
                                format!("a board has at most {MAX_PITS} pits"),
                                "one too many",
                            ));
                            break;
                        }
                        if label.chars().count() > MAX_NAME {
                            self.err(
                                Diagnostic::limit(
                                    e.span,
                                    format!("a pit label is at most {MAX_NAME} characters"),
                                    "too long",
                                )
                                .hint("labels are what players type: `A`, `a1`, `B8`"),
                            );
                            continue;
                        }
                        if !self.declare(label, e.span, "label") {
                            continue;
                        }
                        let id = self.pits.len() as PitId;
                        self.pits.push(Pit {
                            label: label.to_string(),
                            owner,
                            row: row_index,
                            column,
                        });
                        self.labels.insert(label.to_string(), id);
                        self.label_spans.push(e.span);
                        ids.push(id);
                    }
                    if let Some((g, span)) = &group {
                        let existing = self.region_index.get(g).copied();
                        match existing {
                            Some(i) => {
                                if !self.regions[i].pits[owner as usize].is_empty() {
                                    self.err(
                                        Diagnostic::at(
                                            *span,
                                            format!("`{g}` already has a row of this player"),
                                            "second row in the group",
                                        )
                                        .hint("a row group holds one row per player"),
                                    );
                                }
                                self.regions[i].pits[owner as usize] = ids.clone();
                            }
                            None => {
                                if self.declare(g, *span, "row group") {
                                    let mut pits: [Vec<PitId>; 2] = [Vec::new(), Vec::new()];
                                    pits[owner as usize] = ids.clone();
                                    self.region_index.insert(g.clone(), self.regions.len());
                                    self.regions.push(NamedRegion {
                                        name: g.clone(),
                                        pits,
                                    });
                                }
                            }
                        }
                    }
                    self.rows.push(Row {
                        group: group.map(|g| g.0),
                        owner,
                        pits: ids,
                    });
                }
                "store" => {
                    self.no_block(st);
                    match st.args.as_slice() {
                        [o, side] => {
                            let owner = self.player(o);
                            let where_ = match side.as_word() {
                                Some("left") => Some(Store::Left),
                                Some("right") => Some(Store::Right),
                                _ => {
                                    self.err(
                                        Diagnostic::at(
                                            side.span,
                                            "a store is drawn `left` or `right`",
                                            "expected `left` or `right`",
                                        )
                                        .hint("write `store south right`"),
                                    );
                                    None
                                }
                            };
                            if let (Some(o), Some(w)) = (owner, where_) {
                                if let Some(first) = store_spans[o as usize] {
                                    self.err(
                                        Diagnostic::at(
                                            st.span,
                                            "this player's store is declared twice",
                                            "second store",
                                        )
                                        .related(first, "first store here"),
                                    );
                                }
                                store_spans[o as usize] = Some(st.span);
                                self.stores[o as usize] = Some(w);
                            }
                        }
                        _ => self.err(
                            Diagnostic::at(
                                st.span,
                                "`store` takes its owner and a side",
                                "expected `store OWNER left|right`",
                            )
                            .hint("write `store south right`"),
                        ),
                    }
                }
                "mark" => self.mark_statements.push(st.clone()),
                _ => self.unknown(st, &["row", "store", "mark"], "board statement"),
            }
        }
        if self.rows.is_empty() {
            self.err(
                Diagnostic::at(s.span, "the board has no rows", "empty board")
                    .hint("add `row south: A B C D E F`"),
            );
            return;
        }
        // Lengths as written (a rejected label still takes its place).
        let written: Vec<(usize, Span)> = body
            .iter()
            .filter(|b| b.word.name == "row" && !tail(b).is_empty())
            .map(|b| (tail(b).len(), b.span))
            .collect();
        let width = written.first().map_or(0, |w| w.0);
        for &(len, span) in &written {
            if len != width {
                self.diagnostics.push(
                    Diagnostic::at(
                        span,
                        format!("this row has {len} pits, the first row {width}"),
                        "rows differ in length",
                    )
                    .hint("every row of the board has the same number of pits"),
                );
            }
        }
        for p in 0..2u8 {
            if !self.rows.iter().any(|r| r.owner == p) {
                let name = self
                    .players
                    .as_ref()
                    .map_or(String::new(), |ps| ps[p as usize].clone());
                self.err(
                    Diagnostic::at(
                        s.word.span,
                        format!("`{name}` owns no row"),
                        "incomplete board",
                    )
                    .hint(format!("add `row {name}: …`")),
                );
            }
        }
    }

    /// `region NAME { OWNER: labels… }` and `pit NAME { OWNER: label }`.
    fn per_player(&mut self, s: &Statement, what: &str) -> Option<(String, [Vec<PitId>; 2])> {
        let name = match s.args.as_slice() {
            [e] if e.as_word().is_some() => e.as_word().expect("a word").to_string(),
            _ => {
                self.err(
                    Diagnostic::at(
                        s.span,
                        format!("`{}` takes one name", s.word.name),
                        "expected a name",
                    )
                    .hint(format!("write `{} NAME {{ south: …  }}`", s.word.name)),
                );
                return None;
            }
        };
        let body = self.block(s);
        let mut pits: [Vec<PitId>; 2] = [Vec::new(), Vec::new()];
        let mut seen: [bool; 2] = [false, false];
        for st in body {
            let Some(owner) = self.player(&st.word_expr()) else {
                continue;
            };
            if seen[owner as usize] {
                self.err(
                    Diagnostic::at(
                        st.span,
                        format!("this player's part of `{name}` is given twice"),
                        "second line",
                    )
                    .hint("one line per player"),
                );
            }
            seen[owner as usize] = true;
            for e in tail(st) {
                if let Some(id) = self.label(e) {
                    pits[owner as usize].push(id);
                }
            }
            if tail(st).is_empty() {
                self.err(
                    Diagnostic::at(
                        st.span,
                        format!("no pits for this player's {what}"),
                        "no labels after `:`",
                    )
                    .hint(format!("write `{}: A5`", st.word.name)),
                );
            }
        }
        for p in 0..2 {
            if !seen[p] {
                let pname = self
                    .players
                    .as_ref()
                    .map_or(String::new(), |ps| ps[p].clone());
                self.err(
                    Diagnostic::at(
                        s.span,
                        format!("`{name}` has no part for `{pname}`"),
                        "incomplete",
                    )
                    .hint(format!("add `{pname}: …` inside the block")),
                );
            }
        }
        if !self.declare(&name, s.args[0].span, what) {
            return None;
        }
        Some((name, pits))
    }

    fn region(&mut self, s: &Statement) {
        if let Some((name, pits)) = self.per_player(s, "region") {
            self.region_index.insert(name.clone(), self.regions.len());
            self.regions.push(NamedRegion { name, pits });
        }
    }

    fn named_pit(&mut self, s: &Statement) {
        if let Some((name, pits)) = self.per_player(s, "named pit") {
            if pits.iter().any(|p| p.len() != 1) {
                self.err(
                    Diagnostic::at(
                        s.span,
                        format!("`{name}` must name exactly one pit per player"),
                        "not one pit each",
                    )
                    .hint("use `region` for a set of pits"),
                );
                return;
            }
            self.named_index.insert(name.clone(), self.named_pits.len());
            self.named_pits.push(NamedPit {
                name,
                pits: [pits[0][0], pits[1][0]],
            });
        }
    }

    fn definition(&mut self, s: &Statement) {
        self.no_block(s);
        let (name, params, span) = match s.args.as_slice() {
            [Expr {
                kind: ExprKind::Word(w),
                span,
            }] => (w.clone(), Vec::new(), *span),
            [Expr {
                kind: ExprKind::Call(n, args),
                span,
            }] => {
                let params: Option<Vec<String>> = args
                    .iter()
                    .map(|a| a.as_word().map(str::to_string))
                    .collect();
                match params {
                    Some(p) if (1..p.len()).any(|i| p[..i].contains(&p[i])) => {
                        self.err(
                            Diagnostic::at(
                                *span,
                                "a parameter is named twice",
                                "duplicate parameter",
                            )
                            .hint("give each parameter its own name"),
                        );
                        return;
                    }
                    Some(p) => (n.name.clone(), p, *span),
                    None => {
                        self.err(
                            Diagnostic::at(*span, "parameters are plain names", "not a name")
                                .hint("write `let name(p) = …`"),
                        );
                        return;
                    }
                }
            }
            _ => {
                self.err(
                    Diagnostic::at(
                        s.span,
                        "`let` takes a name, `=` and an expression",
                        "expected `let NAME = EXPR`",
                    )
                    .hint("write `let capturable = seeds(last) in 2..3`"),
                );
                return;
            }
        };
        let body = match tail(s) {
            [e] => e.clone(),
            _ => {
                self.err(
                    Diagnostic::at(
                        s.span,
                        "a definition has one expression after `=`",
                        "expected `= EXPR`",
                    )
                    .hint("write `let capturable = seeds(last) in 2..3`"),
                );
                return;
            }
        };
        if self.declare(&name, span, "definition") {
            self.lets.insert(name, Definition { params, body, span });
        }
    }

    /// Second pass: everything else, lowered to the IR.
    fn lower(&mut self, statements: &[Statement]) -> Option<Rules> {
        if self.players.is_none() || self.pits.is_empty() {
            // The players and board errors are reported; the rest would
            // only repeat them.
            for s in statements {
                if !SUGGESTED.contains(&s.word.name.as_str()) {
                    self.unknown(s, SUGGESTED, "statement");
                }
            }
            return None;
        }
        let players = self.players.clone()?;
        let mut setup = Setup {
            seeds: vec![0; self.pits.len()],
            hands: [0, 0],
            first: 0,
        };
        let mut tracks: [Option<Vec<Slot>>; 2] = [None, None];
        // Where each player's track is declared.
        let mut track_span: [Option<Span>; 2] = [None, None];
        let mut sowing = Sowing {
            take: Take::All,
            direction: Some(Direction::Forward),
            skip: Vec::new(),
            entry: None,
        };
        let mut rules: Vec<Rule> = Vec::new();
        let mut ends: Vec<End> = Vec::new();
        let mut score: Option<Num> = None;
        let mut rule_names: HashMap<String, Span> = HashMap::new();
        let mut sow_seen = false;
        let mut setup_seen = false;
        let mut too_many_rules = false;

        let labels = self.labels.clone();
        let regions = self.region_index.clone();
        let named = self.named_index.clone();
        let lets = self.lets.clone();
        let phase_index = self.phase_index.clone();
        let vars = self.vars.clone();
        let notation = self.notation.clone();
        let letters: Vec<String> = notation.letters.iter().map(|l| l.letter.clone()).collect();
        let flags = notation.flags.clone();
        let settings = self.settings.clone();
        let scope = |context: Context| Scope {
            players: &players,
            labels: &labels,
            regions: &regions,
            named_pits: &named,
            lets: &lets,
            phases: &phase_index,
            vars: &vars,
            letters: &letters,
            flags: &flags,
            settings: &settings,
            context,
        };
        let mut phases: Vec<Phase> = Vec::new();
        let mut endless = Endless::Forbid;

        for s in statements {
            match s.word.name.as_str() {
                "variant" | "title" | "players" | "board" | "region" | "pit" | "let" | "var"
                | "option" => {}
                "phase" => {
                    self.no_block(s);
                    let mut lw = Lowerer::new(scope(Context {
                        sees: Sees::PHASE,
                        what: "in a phase's condition",
                    }));
                    match s.args.as_slice() {
                        [n] if n.as_word().is_some() => phases.push(Phase { name: n.as_word().unwrap_or_default().to_string(), when: Cond::True }),
                        [n, w, c] if n.as_word().is_some() && w.as_word() == Some("when") => {
                            if let Some(when) = lw.cond(c) {
                                phases.push(Phase { name: n.as_word().unwrap_or_default().to_string(), when });
                            }
                        }
                        _ => lw.diagnostics.push(
                            Diagnostic::at(s.span, "a phase is `phase NAME [when CONDITION]`", "malformed phase")
                                .hint("write `phase entering when hand(mover) > 0`; the last phase may have no condition"),
                        ),
                    }
                    self.diagnostics.append(&mut lw.diagnostics);
                }
                "notation" => {}
                "endless" => {
                    self.no_block(s);
                    let choice = match (s.args.as_slice(), tail(s)) {
                        ([], [w]) | ([w], []) => self.option_value(w).or(w.as_word()),
                        _ => None,
                    };
                    match choice {
                        Some("forbid") => endless = Endless::Forbid,
                        Some("draw") => endless = Endless::Draw,
                        Some("loss") => endless = Endless::Loss,
                        _ => self.err(
                            Diagnostic::at(s.span, "`endless` is `forbid`, `draw` or `loss`", "unknown policy")
                                .hint("write `endless: forbid` (a turn that would never end is not legal)"),
                        ),
                    }
                }
                "setup" => {
                    setup_seen = true;
                    self.setup(s, &mut setup);
                }
                "track" => {
                    self.no_block(s);
                    let owner = match s.args.as_slice() {
                        [] => None,
                        [o] => match self.player(o) {
                            Some(p) => Some(p),
                            None => continue,
                        },
                        _ => {
                            self.err(Diagnostic::at(s.span, "`track` takes at most an owner before `:`", "expected `track [OWNER]: slots`")
                                .hint("write `track: A B C …` (shared) or `track south: A1 A2 …` (one player's)"));
                            continue;
                        }
                    };
                    let slots = self.slots(s);
                    let which: Vec<usize> = match owner {
                        None => vec![0, 1],
                        Some(p) => vec![p as usize],
                    };
                    for p in which {
                        if tracks[p].is_some() {
                            self.err(
                                Diagnostic::at(
                                    s.span,
                                    format!("`{}` has two tracks", players[p]),
                                    "second track",
                                )
                                .related(track_span[p].unwrap_or(s.span), "first track here")
                                .hint(
                                    "declare one shared `track:` or one `track PLAYER:` per player",
                                ),
                            );
                        }
                        tracks[p] = Some(slots.clone());
                        track_span[p] = Some(s.span);
                    }
                }
                "sow" => {
                    if sow_seen {
                        self.err(
                            Diagnostic::at(s.word.span, "`sow` is declared twice", "second `sow`")
                                .hint("keep one `sow { … }`"),
                        );
                    }
                    sow_seen = true;
                    let mut lw = Lowerer::new(scope(Context {
                        sees: Sees::SOWING,
                        what: "in `sow`",
                    }));
                    self.sowing(s, &mut sowing, &mut lw);
                    self.diagnostics.append(&mut lw.diagnostics);
                }
                "rule" | "end" if rules.len() + ends.len() == MAX_RULES => {
                    if !too_many_rules {
                        too_many_rules = true;
                        self.err(
                            Diagnostic::limit(
                                s.word.span,
                                format!("a variant has at most {MAX_RULES} rules (`rule` and `end`)"),
                                "one too many",
                            )
                            .hint("a rule that applies to many pits is written once, with conditions"),
                        );
                    }
                }
                "rule" => {
                    if let Some(rule) = self.rule(s, &scope) {
                        if self.unique_rule_name(&mut rule_names, &rule.name, s.args[0].span) {
                            rules.push(rule);
                        }
                    }
                }
                "end" => {
                    if let Some(end) = self.end(s, &scope) {
                        if self.unique_rule_name(&mut rule_names, &end.name, s.args[0].span) {
                            ends.push(end);
                        }
                    }
                }
                "score" => {
                    self.no_block(s);
                    let mut lw = Lowerer::new(scope(Context {
                        sees: Sees::SCORE,
                        what: "in `score`",
                    }));
                    match s.args.as_slice() {
                        [e] => score = lw.num(e),
                        _ => self.err(
                            Diagnostic::at(
                                s.span,
                                "`score` takes one expression",
                                "expected `score EXPR`",
                            )
                            .hint("write `score seeds(store(player)) + seeds(side(player))`"),
                        ),
                    }
                    self.diagnostics.append(&mut lw.diagnostics);
                }
                "extends" | "replace" | "remove" => self.err(
                    Diagnostic::at(
                        s.word.span,
                        format!("`{}` is resolved when a variant is loaded", s.word.name),
                        "not checked on its own",
                    )
                    .hint("check the file with `sow check FILE` (or `sow::load`), which merges in what it extends"),
                ),
                _ => self.unknown(s, SUGGESTED, "statement"),
            }
        }

        if self.name.is_none() {
            self.err(
                Diagnostic::new("the file does not name its variant")
                    .hint("add `variant my-game` at the top"),
            );
        }
        if !setup_seen {
            self.err(Diagnostic::new("the file has no setup").hint("add `setup { seeds 4 }`"));
        }
        let tracks = match tracks {
            [Some(a), Some(b)] => {
                for (p, t) in [&a, &b].iter().enumerate() {
                    if !t.iter().any(|slot| matches!(slot, Slot::Pit(id) if self.pits[*id as usize].owner == p as Player)) {
                        self.err(
                            Diagnostic::at(track_span[p].unwrap_or_default(), format!("`{}` has none of their pits on their track", players[p]), "nothing to sow from")
                                .hint("a player's track holds the pits they may start a turn from"),
                        );
                    }
                    // The places a sowing can put a seed in: the stores it
                    // passes over are not among them.
                    let sown = t
                        .iter()
                        .filter(|slot| match slot {
                            Slot::Store(owner) => !sowing
                                .skip
                                .iter()
                                .any(|sk| sk.store(p as Player) == Some(*owner)),
                            Slot::Pit(_) => true,
                        })
                        .count();
                    if sown < 2 && sowing.skip.contains(&Skip::Origin) {
                        self.err(
                            Diagnostic::at(track_span[p].unwrap_or_default(), format!("`{}`'s track has one place to sow into: with `skip origin` a sowing has nowhere to go", players[p]), "too short")
                                .hint("a track needs at least two places a sowing does not pass over"),
                        );
                    }
                }
                [a, b]
            }
            [a, b] => {
                for (p, t) in [a, b].iter().enumerate() {
                    if t.is_none() {
                        self.err(
                            Diagnostic::new(format!("`{}` has no sowing track", players[p])).hint(
                                "add `track: …` (shared by both players) or `track PLAYER: …`",
                            ),
                        );
                    }
                }
                return None;
            }
        };
        for sk in &sowing.skip {
            if let Skip::Store(_) = sk {
                if self.stores.iter().all(Option::is_none) {
                    self.err(
                        Diagnostic::new("`skip store(…)` but the board has no stores")
                            .hint("declare `store PLAYER left|right` in `board`"),
                    );
                }
            }
        }
        if sowing.direction.is_none() && notation.letters.is_empty() {
            self.err(
                Diagnostic::new("`direction choose` but the notation declares no letters").hint(
                    "declare the letters in `notation { letter L: left  …  letter R: right }`",
                ),
            );
        }
        if sowing.direction.is_some() && !notation.letters.is_empty() {
            self.err(
                Diagnostic::new("the notation declares letters but the sowing direction is fixed")
                    .hint("write `direction choose` in `sow`, or remove the letters"),
            );
        }
        if ends.is_empty() && !statements.iter().any(|s| s.word.name == "end") {
            self.err(
                Diagnostic::new("the file has no `end` rule: the game could never end")
                    .hint("add e.g. `end no_moves when no_legal_turn`"),
            );
        }
        let score = score.unwrap_or_else(|| {
            Num::Arith(
                crate::ir::ArithOp::Add,
                Box::new(Num::Seeds(Place::Store(Who::Each))),
                Box::new(Num::Arith(
                    crate::ir::ArithOp::Add,
                    Box::new(Num::SeedsIn(Region::Side(Who::Each))),
                    Box::new(Num::Hand(Who::Each)),
                )),
            )
        });
        let mut marks = Vec::new();
        for st in std::mem::take(&mut self.mark_statements) {
            self.no_block(&st);
            let mut lw = Lowerer::new(scope(Context {
                sees: Sees::MARK,
                what: "in a `mark`",
            }));
            match st.args.as_slice() {
                [Expr {
                    kind: ExprKind::Str(symbol),
                    ..
                }, w, c]
                    if w.as_word() == Some("when")
                        && !symbol.is_empty()
                        && symbol.chars().count() <= MAX_NAME =>
                {
                    if let Some(when) = lw.cond(c) {
                        marks.push(Mark {
                            symbol: symbol.clone(),
                            when,
                        });
                    }
                }
                _ => lw.diagnostics.push(
                    Diagnostic::at(
                        st.span,
                        "a mark is `mark \"SYMBOL\" when CONDITION`",
                        "malformed mark",
                    )
                    .hint("write `mark \"^\" when here == house(owner(here))`"),
                ),
            }
            self.diagnostics.append(&mut lw.diagnostics);
        }
        if !self.diagnostics.is_empty() {
            return None;
        }
        Some(Rules {
            name: self.name.clone().unwrap_or_default(),
            title: self
                .title
                .clone()
                .or_else(|| self.name.clone())
                .unwrap_or_default(),
            players,
            pits: self.pits.clone(),
            rows: self.rows.clone(),
            stores: self.stores,
            regions: self.regions.clone(),
            named_pits: self.named_pits.clone(),
            setup,
            tracks,
            sowing,
            notation,
            phases,
            vars: self.vars.clone(),
            rules,
            ends,
            score,
            endless,
            marks,
            options: self.settings.clone(),
        })
    }

    fn number(&mut self, e: &Expr, what: &str) -> Option<u32> {
        if let Some(n) = self.option_value(e).and_then(|v| v.parse::<u32>().ok()) {
            return Some(n);
        }
        match &e.kind {
            ExprKind::Int(n) if (0..=1_000_000).contains(n) => Some(*n as u32),
            ExprKind::Int(_) => {
                self.err(
                    Diagnostic::at(e.span, format!("{what} is at most 1000000"), "too large")
                        .hint("counts in a variant are at most 1000000"),
                );
                None
            }
            _ => {
                self.err(
                    Diagnostic::at(e.span, format!("{what} is a whole number"), "not a number")
                        .hint("write a count such as `4`"),
                );
                None
            }
        }
    }

    fn setup(&mut self, s: &Statement, setup: &mut Setup) {
        let body = self.block(s);
        let mut total: Option<(u64, Span)> = None;
        for st in body {
            self.no_block(st);
            match st.word.name.as_str() {
                "seeds" => {
                    let Some(n) = st.args.first().and_then(|e| self.number(e, "a seed count"))
                    else {
                        continue;
                    };
                    if st.args.len() > 1 {
                        self.err(
                            Diagnostic::at(
                                st.args[1].span,
                                "`seeds` takes one count",
                                "extra argument",
                            )
                            .hint("write `seeds 4` for every pit or `seeds 6: A5 a5` for some"),
                        );
                        continue;
                    }
                    match &st.tail {
                        None => setup.seeds.iter_mut().for_each(|x| *x = n),
                        Some((_, t)) => {
                            for e in t {
                                if let Some(id) = self.label(e) {
                                    setup.seeds[id as usize] = n;
                                }
                            }
                        }
                    }
                }
                "hands" => {
                    if let [e] = st.args.as_slice() {
                        if let Some(n) = self.number(e, "a hand") {
                            setup.hands = [n, n];
                        }
                    } else {
                        self.err(
                            Diagnostic::at(
                                st.span,
                                "`hands` takes one count",
                                "expected `hands N`",
                            )
                            .hint("write `hands 22`"),
                        );
                    }
                }
                "first" => {
                    if let [e] = st.args.as_slice() {
                        if let Some(p) = self.player(e) {
                            setup.first = p;
                        }
                    } else {
                        self.err(
                            Diagnostic::at(
                                st.span,
                                "`first` takes a player",
                                "expected `first PLAYER`",
                            )
                            .hint("write `first south`"),
                        );
                    }
                }
                "total" => {
                    if let [e] = st.args.as_slice() {
                        if let Some(n) = self.number(e, "the total") {
                            total = Some((n as u64, st.span));
                        }
                    } else {
                        self.err(
                            Diagnostic::at(
                                st.span,
                                "`total` takes one count",
                                "expected `total N`",
                            )
                            .hint("write `total 48`"),
                        );
                    }
                }
                _ => self.unknown(st, &["seeds", "hands", "first", "total"], "setup statement"),
            }
        }
        if let Some((want, span)) = total {
            let pits: u64 = setup.seeds.iter().map(|&x| x as u64).sum();
            let hands: u64 = setup.hands.iter().map(|&x| x as u64).sum();
            if pits + hands != want {
                self.err(
                    Diagnostic::at(span, "the seeds do not add up", format!("says {want}")).hint(
                        format!(
                            "the setup puts {pits} seeds in pits and {hands} in hands, {} in all",
                            pits + hands
                        ),
                    ),
                );
            }
        }
    }

    fn slots(&mut self, s: &Statement) -> Vec<Slot> {
        let mut out = Vec::new();
        let mut seen: HashMap<Slot, Span> = HashMap::new();
        if tail(s).is_empty() {
            self.err(
                Diagnostic::at(s.span, "a track needs its places", "no places after `:`")
                    .hint("list the pits in sowing order: `track: A B C D E F a b c d e f`"),
            );
        }
        for e in tail(s) {
            let slot = match &e.kind {
                ExprKind::Call(n, args) if n.name == "store" && args.len() == 1 => {
                    let Some(p) = self.player(&args[0]) else {
                        continue;
                    };
                    if self.stores[p as usize].is_none() {
                        self.err(
                            Diagnostic::at(e.span, "this player has no store", "undeclared store")
                                .hint("declare it in `board`: `store PLAYER left|right`"),
                        );
                        continue;
                    }
                    Slot::Store(p)
                }
                _ => match self.label(e) {
                    Some(id) => Slot::Pit(id),
                    None => continue,
                },
            };
            if let Some(first) = seen.get(&slot) {
                self.err(
                    Diagnostic::at(e.span, "a place appears twice in this track", "second time")
                        .related(*first, "first time"),
                );
                continue;
            }
            seen.insert(slot, e.span);
            out.push(slot);
        }
        out
    }

    fn sowing(&mut self, s: &Statement, sowing: &mut Sowing, lw: &mut Lowerer) {
        let body = self.block(s);
        for st in body {
            self.no_block(st);
            let arg = st.args.first();
            match (st.word.name.as_str(), st.args.len()) {
                ("take", 1) => match &st.args[0].kind {
                    ExprKind::Word(w) if w == "all" => sowing.take = Take::All,
                    ExprKind::Int(_) => {
                        if let Some(n) = self.number(&st.args[0], "the number taken") {
                            if n == 0 {
                                self.err(
                                    Diagnostic::at(
                                        st.args[0].span,
                                        "a sowing must take at least one seed",
                                        "takes nothing",
                                    )
                                    .hint("write `take all` or `take 1` or more"),
                                );
                            }
                            sowing.take = Take::Count(n);
                        }
                    }
                    _ => self.err(
                        Diagnostic::at(
                            st.args[0].span,
                            "`take` is `all` or a count",
                            "expected `all` or a number",
                        )
                        .hint("write `take all`"),
                    ),
                },
                ("direction", 1) => match arg.and_then(Expr::as_word) {
                    Some("forward") => sowing.direction = Some(Direction::Forward),
                    Some("backward") => sowing.direction = Some(Direction::Backward),
                    Some("choose") => sowing.direction = None,
                    _ => self.err(
                        Diagnostic::at(
                            st.args[0].span,
                            "a direction is `forward` or `backward` along the track, or `choose`",
                            "unknown direction",
                        )
                        .hint("write `direction forward`, or `direction choose` with letters in `notation`"),
                    ),
                },
                ("skip", 1) => match arg.and_then(Expr::as_word) {
                    Some("origin") => sowing.skip.push(Skip::Origin),
                    _ => match lw.place(&st.args[0]) {
                        Some(Place::Store(w)) if Skip::Store(w.clone()).store(0).is_some() => {
                            sowing.skip.push(Skip::Store(w))
                        }
                        Some(Place::Store(_)) => self.err(
                            Diagnostic::at(
                                st.args[0].span,
                                "a skipped store is the mover's, the opponent's or a named player's",
                                "not known before the turn",
                            )
                            .hint("write `skip store(opponent)`"),
                        ),
                        Some(_) => self.err(
                            Diagnostic::at(
                                st.args[0].span,
                                "a sowing skips `origin` or a store",
                                "cannot skip this",
                            )
                            .hint("write `skip origin` or `skip store(opponent)`"),
                        ),
                        None => {}
                    },
                },
                ("take" | "direction" | "skip", _) => self.err(
                    Diagnostic::at(
                        st.span,
                        format!("`{}` takes one argument", st.word.name),
                        "wrong number of arguments",
                    )
                    .hint("one setting a line: `take all`, `direction forward`, `skip origin`"),
                ),
                ("enter", _) => {
                    // enter N from hand [during PHASE]
                    let usage = "write `enter 1 from hand` (or `enter 1 from hand during PHASE`)";
                    let a = &st.args;
                    let ok = a.len() >= 3 && a[1].as_word() == Some("from") && a[2].as_word() == Some("hand");
                    let phase = match &a[3.min(a.len())..] {
                        [] => Some(None),
                        [d, p] if d.as_word() == Some("during") => self.phase_named(p).map(Some),
                        _ => None,
                    };
                    match (ok, phase) {
                        (true, Some(phase)) => {
                            if let Some(n) = self.number(&a[0], "the number entered") {
                                if n == 0 {
                                    self.err(Diagnostic::at(a[0].span, "an entry puts at least one seed", "enters nothing").hint(usage));
                                } else if sowing.entry.is_some() {
                                    self.err(Diagnostic::at(st.span, "the entry is declared twice", "second entry").hint("keep one `enter` line"));
                                } else {
                                    sowing.entry = Some(Entry { seeds: n, phase });
                                }
                            }
                        }
                        (false, _) => self.err(Diagnostic::at(st.span, "malformed entry", "expected `enter N from hand`").hint(usage)),
                        _ => {}
                    }
                }
                _ => self.unknown(st, &["take", "direction", "skip", "enter"], "sowing statement"),
            }
        }
    }

    fn rule<'x>(&mut self, s: &Statement, scope: &dyn Fn(Context) -> Scope<'x>) -> Option<Rule> {
        // rule NAME at MOMENT [during PHASE] [when COND] { actions }
        let usage = "write `rule NAME at MOMENT [during PHASE] [when CONDITION] { … }`";
        let malformed = |this: &mut Self| {
            this.err(
                Diagnostic::at(
                    s.span,
                    "a rule is `rule NAME at MOMENT [during PHASE] [when CONDITION] { … }`",
                    "malformed rule",
                )
                .hint(usage),
            );
        };
        let args = s.args.as_slice();
        if args.len() < 3 || args[1].as_word() != Some("at") {
            malformed(self);
            return None;
        }
        let (name, moment_e) = (&args[0], &args[2]);
        let mut rest = &args[3..];
        let mut phase: Option<Cond> = None;
        if rest.len() >= 2 && rest[0].as_word() == Some("during") {
            phase = Some(Cond::InPhase(self.phase_named(&rest[1])?));
            rest = &rest[2..];
        }
        let cond_e = match rest {
            [] => None,
            [w, c] if w.as_word() == Some("when") => Some(c),
            _ => {
                malformed(self);
                return None;
            }
        };
        let Some(name) = name.as_word().map(str::to_string) else {
            self.err(
                Diagnostic::at(name.span, "a rule's name is a plain name", "not a name")
                    .hint(usage),
            );
            return None;
        };
        let Some(moment) = moment_e.as_word().and_then(Moment::named) else {
            let names: Vec<&str> = Moment::ALL.iter().map(|m| m.name()).collect();
            self.err(Diagnostic::unknown(
                Some(moment_e.span),
                moment_e.as_word().unwrap_or(""),
                "unknown moment",
                "not a moment of a turn",
                names.iter().copied(),
                format!("the moments are {}", names.join(", ")),
            ));
            return None;
        };
        let (when_ctx, body_ctx) = contexts(moment);
        let mut lw = Lowerer::new(scope(when_ctx));
        let when = cond_e.map_or(Some(Cond::True), |c| lw.cond(c));
        let when = match (phase, when) {
            (None, w) => w,
            (Some(p), Some(Cond::True)) => Some(p),
            (Some(p), Some(w)) => Some(Cond::And(vec![p, w])),
            (Some(_), None) => None,
        };
        self.diagnostics.append(&mut lw.diagnostics);
        let body = self.block(s);
        let mut actions = Vec::new();
        let mut spans = Vec::new();
        for st in body {
            if let Some(a) = self.action(st, moment, body_ctx, scope) {
                actions.push(a);
                spans.push(st.span);
            }
        }
        // (Whether it resows is read off the words: a `resow` the checker
        // refused still says where the captured seeds go.)
        let resows = body.iter().any(|st| st.word.name == "resow");
        self.destinations(moment, &actions, &spans, resows);
        if body.is_empty() && s.block.is_some() {
            self.err(
                Diagnostic::at(s.span, "this rule does nothing", "empty block")
                    .hint("add an action such as `stop`"),
            );
        }
        Some(Rule {
            name,
            moment,
            when: when?,
            actions,
        })
    }

    /// Where a rule's captured seeds go must exist: a store named, or the
    /// mover's store for a capture without `to` in a rule that does not
    /// resow; and a `resow` needs seeds to sow.
    fn destinations(&mut self, moment: Moment, actions: &[Action], spans: &[Span], resows: bool) {
        let mut undirected = false;
        for (a, span) in actions.iter().zip(spans) {
            let to = match a {
                Action::Capture { to, .. } | Action::CaptureRegion { to, .. } => to,
                _ => continue,
            };
            match to {
                Some(Place::Store(w)) => {
                    let needed: &[usize] = match w {
                        Who::Player(p) => &[*p as usize][..],
                        _ => &[0, 1],
                    };
                    if needed.iter().any(|&p| self.stores[p].is_none()) {
                        self.err(
                            Diagnostic::at(
                                *span,
                                "the seeds go to a store the board does not have",
                                "no such store",
                            )
                            .hint("declare the stores in `board` (`store PLAYER left|right`)"),
                        );
                    }
                }
                Some(_) => {}
                None => {
                    undirected = true;
                    // At `capture`, seeds go where the capture they join
                    // goes: without stores, every capture at `land` resows.
                    if !resows
                        && moment != Moment::Capture
                        && self.stores.iter().any(Option::is_none)
                    {
                        self.err(
                            Diagnostic::at(*span, "the seeds go to the mover's store, and the board has no stores", "no store")
                                .hint("declare the stores in `board`, or sow the seeds on with `resow from PLACE HEADING`"),
                        );
                    }
                }
            }
        }
        let lowered = actions.iter().any(|a| matches!(a, Action::Resow { .. }));
        if lowered && !undirected {
            if let Some((_, span)) = actions
                .iter()
                .zip(spans)
                .find(|(a, _)| matches!(a, Action::Resow { .. }))
            {
                self.err(
                    Diagnostic::at(*span, "nothing to resow: every capture of this rule names its store", "sows nothing")
                        .hint("`resow` sows the seeds captured without `to`: write `capture opposite(last)`"),
                );
            }
        }
    }

    fn action<'x>(
        &mut self,
        st: &Statement,
        moment: Moment,
        ctx: Context,
        scope: &dyn Fn(Context) -> Scope<'x>,
    ) -> Option<Action> {
        self.no_block(st);
        // Which actions the moment allows: the moment table's.
        let allowed: Vec<&str> = moment.spec().actions.iter().map(|k| k.word()).collect();
        let w = st.word.name.as_str();
        if !allowed.contains(&w) {
            if ActionKind::named(w).is_some() {
                self.err(
                    Diagnostic::at(
                        st.word.span,
                        format!("`{w}` cannot be done at the `{}` moment", moment.name()),
                        "not at this moment",
                    )
                    .hint(format!("at this moment a rule can: {}", allowed.join(", "))),
                );
            } else {
                self.unknown(st, &allowed, "action");
            }
            return None;
        }
        let no_args = |this: &mut Self, a: Action| {
            if !st.args.is_empty() || st.tail.is_some() {
                this.err(
                    Diagnostic::at(
                        st.span,
                        format!("`{w}` takes no arguments"),
                        "unexpected arguments",
                    )
                    .hint(format!("write `{w}` alone")),
                );
                return None;
            }
            Some(a)
        };
        // (The moment allows it, so it names a kind.)
        let kind = ActionKind::named(w)?;
        match kind {
            ActionKind::Relay => match (st.args.as_slice(), &st.tail) {
                ([], None) => Some(Action::Relay(None)),
                ([n], None) => self
                    .number(n, "the number relayed")
                    .map(|k| Action::Relay(Some(k.max(1)))),
                _ => {
                    self.err(
                        Diagnostic::at(
                            st.span,
                            "`relay` takes at most a count",
                            "unexpected arguments",
                        )
                        .hint("write `relay` (all the seeds) or `relay 2`"),
                    );
                    None
                }
            },
            ActionKind::Again => no_args(self, Action::Again),
            ActionKind::Stop => no_args(self, Action::Stop),
            ActionKind::Cancel => no_args(self, Action::Cancel),
            ActionKind::Forbid => no_args(self, Action::Forbid),
            ActionKind::Collect => {
                if self.stores.iter().any(Option::is_none) {
                    self.err(
                        Diagnostic::at(
                            st.span,
                            "`collect` needs a store for each player",
                            "no stores",
                        )
                        .hint("declare `store PLAYER left|right` in `board`"),
                    );
                    return None;
                }
                no_args(self, Action::Collect)
            }
            ActionKind::Require | ActionKind::Prefer => {
                let mut lw = Lowerer::new(scope(ctx));
                let c = match st.args.as_slice() {
                    [e] => lw.cond(e),
                    _ => {
                        lw.diagnostics.push(
                            Diagnostic::at(
                                st.span,
                                format!("`{w}` takes one condition"),
                                "expected a condition",
                            )
                            .hint(format!("write `{w} seeds(origin) > 0`")),
                        );
                        None
                    }
                };
                self.diagnostics.append(&mut lw.diagnostics);
                Some(if kind == ActionKind::Require {
                    Action::Require(c?)
                } else {
                    Action::Prefer(c?)
                })
            }
            ActionKind::Capture => self.capture(st, ctx, scope),
            ActionKind::Set => self.set(st, ctx, scope),
            ActionKind::Resow => self.resow(st, ctx, scope),
        }
    }

    fn capture<'x>(
        &mut self,
        st: &Statement,
        ctx: Context,
        scope: &dyn Fn(Context) -> Scope<'x>,
    ) -> Option<Action> {
        // capture WHAT [to PLACE] [chain forward|backward while COND]
        let usage = "write `capture last [to store(mover)] [chain backward while CONDITION]`";
        let args = &st.args;
        let Some(what) = args.first() else {
            self.err(
                Diagnostic::at(
                    st.span,
                    "`capture` needs what it takes",
                    "nothing to capture",
                )
                .hint(usage),
            );
            return None;
        };
        let mut lw = Lowerer::new(scope(ctx));
        let target = lw.value(what);
        let mut to = None;
        let mut chain = None;
        let mut i = 1;
        let mut ok = true;
        while i < args.len() {
            match args[i].as_word() {
                Some("to") if i + 1 < args.len() => {
                    if let Some(p) = lw.place(&args[i + 1]) {
                        if !matches!(p, Place::Store(_)) {
                            lw.diagnostics.push(
                                Diagnostic::at(
                                    args[i + 1].span,
                                    "captured seeds go to a store",
                                    "not a store",
                                )
                                .hint("write `to store(mover)`"),
                            );
                            ok = false;
                        }
                        to = Some(p);
                    }
                    i += 2;
                }
                Some("chain") if i + 3 < args.len() && args[i + 2].as_word() == Some("while") => {
                    let dir = match args[i + 1].as_word() {
                        Some("forward") => Some(Direction::Forward),
                        Some("backward") => Some(Direction::Backward),
                        _ => {
                            lw.diagnostics.push(Diagnostic::at(args[i + 1].span, "a chain runs `forward` or `backward`", "unknown direction")
                                .hint("`backward` walks against the sowing, towards where it came from"));
                            None
                        }
                    };
                    let mut chain_lw = Lowerer::new(scope(Context {
                        sees: ctx.sees.with_here(),
                        ..ctx
                    }));
                    let c = chain_lw.cond(&args[i + 3]);
                    lw.diagnostics.append(&mut chain_lw.diagnostics);
                    if let (Some(d), Some(c)) = (dir, c) {
                        chain = Some((d, c));
                    } else {
                        ok = false;
                    }
                    i += 4;
                }
                _ => {
                    lw.diagnostics.push(
                        Diagnostic::at(
                            args[i].span,
                            "unexpected argument to `capture`",
                            "not understood",
                        )
                        .hint(usage),
                    );
                    ok = false;
                    break;
                }
            }
        }
        self.diagnostics.append(&mut lw.diagnostics);
        let action = match target? {
            Value::Place(Place::Store(_)) => {
                self.err(
                    Diagnostic::at(what.span, "a capture takes pits, not a store", "a store")
                        .hint("capture a pit (`last`, `opposite(last)`) or a region; a store's seeds stay in it"),
                );
                return None;
            }
            Value::Place(place) => Action::Capture { place, chain, to },
            Value::Region(region) => {
                if chain.is_some() {
                    self.err(
                        Diagnostic::at(
                            st.span,
                            "a region capture has no chain",
                            "chain on a region",
                        )
                        .hint(usage),
                    );
                    return None;
                }
                Action::CaptureRegion { region, to }
            }
            other => {
                let d = match &other {
                    Value::Keyword(k) => Diagnostic::unknown(
                        Some(what.span),
                        k,
                        format!("unknown name `{k}`"),
                        "not a place",
                        sorted(self.labels.keys())
                            .into_iter()
                            .chain(["last", "origin"]),
                        "capture a place (`last`, `opposite(last)`) or a region",
                    ),
                    _ => Diagnostic::at(
                        what.span,
                        "capture takes a place or a region",
                        "not a place",
                    )
                    .hint(usage),
                };
                self.err(d);
                return None;
            }
        };
        ok.then_some(action)
    }

    /// Records a rule's (or end's) name; reports a second use of it with
    /// both places.
    fn unique_rule_name(
        &mut self,
        names: &mut HashMap<String, Span>,
        name: &str,
        span: Span,
    ) -> bool {
        if let Some(first) = names.get(name) {
            self.err(
                Diagnostic::at(span, format!("two rules are named `{name}`"), "second rule")
                    .related(*first, "first rule here")
                    .hint("every rule and end has its own name"),
            );
            return false;
        }
        names.insert(name.to_string(), span);
        true
    }

    /// `set NAME(x) = value`
    fn set<'x>(
        &mut self,
        st: &Statement,
        ctx: Context,
        scope: &dyn Fn(Context) -> Scope<'x>,
    ) -> Option<Action> {
        let usage = "write `set NAME(mover) = value` for a declared variable";
        let (target, value) = match (st.args.as_slice(), tail(st)) {
            ([t], [v]) if st.tail.is_some() => (t, v),
            _ => {
                self.err(
                    Diagnostic::at(
                        st.span,
                        "`set` is `set VARIABLE = VALUE`",
                        "malformed `set`",
                    )
                    .hint(usage),
                );
                return None;
            }
        };
        let mut lw = Lowerer::new(scope(ctx));
        let v = lw.value(target);
        self.diagnostics.append(&mut lw.diagnostics);
        let Some(Value::Var(var, at)) = v else {
            if v.is_some() {
                let name = match &target.kind {
                    ExprKind::Call(n, _) => n.name.clone(),
                    ExprKind::Word(w) => w.clone(),
                    _ => String::new(),
                };
                self.err(Diagnostic::unknown(
                    Some(target.span),
                    &name,
                    "only a variable can be set",
                    "not a variable",
                    self.vars.iter().map(|v| v.name.as_str()),
                    "declare it with `var NAME per player: values…`",
                ));
            }
            return None;
        };
        let values = &self.vars[var].values;
        if let Some(i) = value
            .as_word()
            .and_then(|w| values.iter().position(|x| x == w))
        {
            return Some(Action::Set { var, at, value: i });
        }
        // A player, for a variable whose values are the players' names.
        let mut lw = Lowerer::new(scope(ctx));
        let player = match lw.value(value) {
            Some(Value::Who(w)) => Some(lw.player_values(var, value).map(|_| w)),
            _ => None,
        };
        self.diagnostics.append(&mut lw.diagnostics);
        match player {
            Some(Some(to)) => return Some(Action::SetPlayer { var, at, to }),
            Some(None) => return None,
            None => {}
        }
        let values = &self.vars[var].values;
        let Some(w) = value.as_word() else {
            self.err(
                Diagnostic::at(value.span, "a value is a plain name", "not a value")
                    .hint(format!("one of: {}", values.join(", "))),
            );
            return None;
        };
        match values.iter().position(|x| x == w) {
            Some(value) => Some(Action::Set { var, at, value }),
            None => {
                let mut d = Diagnostic::at(
                    value.span,
                    format!("`{w}` is not a value of `{}`", self.vars[var].name),
                    "unknown value",
                );
                d = d.suggest(
                    w,
                    values.iter().map(String::as_str),
                    format!("one of: {}", values.join(", ")),
                );
                self.err(d);
                None
            }
        }
    }

    /// `resow from PLACE forward|backward|left|right`
    fn resow<'x>(
        &mut self,
        st: &Statement,
        ctx: Context,
        scope: &dyn Fn(Context) -> Scope<'x>,
    ) -> Option<Action> {
        let usage = "write `resow from PLACE forward` (or backward, left, right)";
        let [from_kw, place, heading] = st.args.as_slice() else {
            self.err(
                Diagnostic::at(
                    st.span,
                    "`resow` is `resow from PLACE HEADING`",
                    "malformed `resow`",
                )
                .hint(usage),
            );
            return None;
        };
        if from_kw.as_word() != Some("from") {
            self.err(Diagnostic::at(from_kw.span, "expected `from`", "not `from`").hint(usage));
            return None;
        }
        let mut lw = Lowerer::new(scope(ctx));
        let from = lw.place(place);
        self.diagnostics.append(&mut lw.diagnostics);
        let heading = self.heading(
            heading,
            "a heading is forward, backward, left or right",
            usage,
        )?;
        Some(Action::Resow {
            from: from?,
            heading,
        })
    }

    /// A heading word (`forward`, `backward`, `left`, `right`), or an error
    /// saying `what`.
    fn heading(&mut self, e: &Expr, what: &str, usage: &str) -> Option<Heading> {
        match e.as_word() {
            Some("forward") => Some(Heading::Forward),
            Some("backward") => Some(Heading::Backward),
            Some("left") => Some(Heading::Left),
            Some("right") => Some(Heading::Right),
            _ => {
                self.err(
                    Diagnostic::at(e.span, what.to_string(), "unknown heading")
                        .hint(usage.to_string()),
                );
                None
            }
        }
    }

    /// `notation { letter L: left … ignore: "*" "#" }`
    fn notation(&mut self, s: &Statement, notation: &mut Notation) {
        let body = self.block(s);
        for st in body {
            self.no_block(st);
            match st.word.name.as_str() {
                "letter" => {
                    let usage = "write `letter L: left` (or right, forward, backward)";
                    let (Some(letter), [heading]) = (
                        st.args.first().and_then(|e| match &e.kind {
                            ExprKind::Word(w) | ExprKind::Str(w) => Some(w.clone()),
                            _ => None,
                        }),
                        tail(st),
                    ) else {
                        self.err(
                            Diagnostic::at(
                                st.span,
                                "a letter is `letter NAME: HEADING`",
                                "malformed letter",
                            )
                            .hint(usage),
                        );
                        continue;
                    };
                    let Some(heading) = self.heading(
                        heading,
                        "a letter names forward, backward, left or right",
                        usage,
                    ) else {
                        continue;
                    };
                    if letter.chars().count() > MAX_NAME {
                        self.err(
                            Diagnostic::limit(
                                st.span,
                                format!("a letter is at most {MAX_NAME} characters"),
                                "too long",
                            )
                            .hint(usage),
                        );
                        continue;
                    }
                    if notation.letters.iter().any(|l| l.letter == letter) {
                        self.err(
                            Diagnostic::at(
                                st.span,
                                format!("the letter `{letter}` is declared twice"),
                                "duplicate letter",
                            )
                            .hint("each letter names one heading"),
                        );
                        continue;
                    }
                    if let Some(same) = notation.letters.iter().find(|l| l.heading == heading) {
                        self.err(
                            Diagnostic::at(
                                st.span,
                                format!(
                                    "the letter `{letter}` names the heading `{}` names",
                                    same.letter
                                ),
                                "the same heading",
                            )
                            .hint("each heading has one letter"),
                        );
                        continue;
                    }
                    notation.letters.push(Letter { letter, heading });
                }
                "ignore" => {
                    for e in tail(st).iter().chain(st.args.iter()) {
                        match &e.kind {
                            ExprKind::Str(a) if !a.is_empty() && a.chars().count() <= MAX_NAME => {
                                notation.ignore.push(a.clone())
                            }
                            _ => self.err(
                                Diagnostic::at(
                                    e.span,
                                    "an annotation to ignore is a quoted string",
                                    "not a string",
                                )
                                .hint("write `ignore: \"*\" \"#\"`"),
                            ),
                        }
                    }
                }
                "flag" => {
                    for e in tail(st).iter().chain(st.args.iter()) {
                        match &e.kind {
                            ExprKind::Str(f)
                                if !f.is_empty()
                                    && f.chars().count() <= MAX_NAME
                                    && !notation.flags.contains(f) =>
                            {
                                notation.flags.push(f.clone())
                            }
                            _ => self.err(
                                Diagnostic::at(
                                    e.span,
                                    "a flag is a quoted mark, declared once",
                                    "not a flag",
                                )
                                .hint("write `flag \"+\"`"),
                            ),
                        }
                    }
                    if notation.flags.len() > crate::limits::MAX_FLAGS {
                        notation.flags.truncate(crate::limits::MAX_FLAGS);
                        self.err(
                            Diagnostic::limit(
                                st.span,
                                format!("at most {} flags", crate::limits::MAX_FLAGS),
                                "too many flags",
                            )
                            .hint("keep the notation short"),
                        );
                    }
                }
                _ => self.unknown(st, &["letter", "flag", "ignore"], "notation statement"),
            }
        }
    }

    fn end<'x>(&mut self, s: &Statement, scope: &dyn Fn(Context) -> Scope<'x>) -> Option<End> {
        // end NAME [at once] when COND [winner|loser PLAYER]
        self.no_block(s);
        let usage = "write `end NAME [at once] when CONDITION [winner PLAYER | loser PLAYER]`";
        let malformed = |this: &mut Self| {
            this.err(
                Diagnostic::at(
                    s.span,
                    "an end rule is `end NAME [at once] when CONDITION [winner|loser PLAYER]`",
                    "malformed end rule",
                )
                .hint(usage),
            );
        };
        let args = s.args.as_slice();
        let Some(name_e) = args.first() else {
            malformed(self);
            return None;
        };
        let mut rest = &args[1..];
        let at_once =
            rest.len() >= 2 && rest[0].as_word() == Some("at") && rest[1].as_word() == Some("once");
        if at_once {
            rest = &rest[2..];
        }
        let (cond, result) = match rest {
            [w, c] if w.as_word() == Some("when") => (c, None),
            [w, c, k, p]
                if w.as_word() == Some("when")
                    && matches!(k.as_word(), Some("winner" | "loser")) =>
            {
                let verdict = if k.as_word() == Some("winner") {
                    Verdict::Winner
                } else {
                    Verdict::Loser
                };
                (c, Some((verdict, p)))
            }
            _ => {
                malformed(self);
                return None;
            }
        };
        let Some(name) = name_e.as_word().map(str::to_string) else {
            self.err(
                Diagnostic::at(
                    name_e.span,
                    "an end rule's name is a plain name",
                    "not a name",
                )
                .hint(usage),
            );
            return None;
        };
        let mut lw = Lowerer::new(scope(if at_once {
            Context {
                sees: Sees::END_AT_ONCE,
                what: "in an end rule judged during a turn (`at once`)",
            }
        } else {
            Context {
                sees: Sees::END_RULE,
                what: "in an `end` rule",
            }
        }));
        let when = lw.cond(cond);
        let result = result.map(|(v, w)| (v, lw.who(w)));
        self.diagnostics.append(&mut lw.diagnostics);
        let result = match result {
            None => None,
            Some((v, w)) => Some((v, w?)),
        };
        Some(End {
            name,
            when: when?,
            result,
            at_once,
        })
    }
}

/// What the `when` and the actions of a rule at each moment may refer to:
/// the moment table's.
fn contexts(m: Moment) -> (Context, Context) {
    let spec = m.spec();
    (
        Context {
            sees: spec.when,
            what: spec.what,
        },
        Context {
            sees: spec.actions_see,
            what: spec.actions_what,
        },
    )
}

impl Statement {
    /// The statement's word as an expression (for `OWNER: …` lines).
    fn word_expr(&self) -> Expr {
        Expr {
            kind: ExprKind::Word(self.word.name.clone()),
            span: self.word.span,
        }
    }
}
