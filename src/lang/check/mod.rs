//! The checker: reads the statements of a variant file, reports **every**
//! problem it finds (not just the first), and lowers a correct file to the
//! rules IR. Two passes: the declarations every other statement refers to
//! (players, board, names, options), then every statement lowered, each
//! kind in its own file around one statement table ([`statements`], which
//! composition reads too).

mod board;
mod definitions;
mod ends;
mod expr;
mod labels;
mod notation;
mod options;
mod put;
mod rules;
mod setup;
mod sowing;
pub mod statements;
mod track;

pub use expr::{FUNCTIONS, WORDS};

use std::collections::HashMap;

use crate::diagnostic::{did_you_mean, sorted, Diagnostic, Kind, Span};
use crate::ir::{
    Action, ActionKind, Chain, Choices, Cond, Decision, Direction, End, Endless, Entry, Heading,
    Keep, Leave, Letter, Mark, Moment, NamedPit, NamedRegion, Notation, Num, Phase, Pit, PitId,
    Place, Player, Region, Row, Rule, Rules, Sees, Setting, Setup, Skip, Slot, Sowing, Store, Take,
    Var, VarScope, Way, Who,
};
use crate::syntax::ast::{BinaryOp, Expr, ExprKind, Statement};
pub use expr::Definition;
use expr::{Context, Lowerer, Scope, Value};

use ends::{default_score, Scored};
use statements::StatementKind;

pub use crate::limits::MAX_PITS;
use crate::limits::{
    MAX_CHAIN_STEP, MAX_NAME, MAX_PHASES, MAX_RULES, MAX_STATEMENTS, MAX_VAR_SLOTS,
};

/// Checks a parsed file and lowers it to the rules IR, or returns every
/// problem found. `options` gives values to the file's options (the others
/// keep their defaults).
pub fn check(
    statements: &[Statement],
    options: &[(String, String)],
) -> Result<Rules, Vec<Diagnostic>> {
    check_warned(statements, options).map(|(rules, _)| rules)
}

/// [`check`], with the warnings of a file that checks (`Kind::Warning`:
/// valid, but maybe not what it reads as); a file that does not has them
/// among its problems.
pub fn check_warned(
    statements: &[Statement],
    options: &[(String, String)],
) -> Result<(Rules, Vec<Diagnostic>), Vec<Diagnostic>> {
    if let Some(d) = too_many_statements(statements) {
        return Err(vec![d]);
    }
    let mut c = Checker::default();
    c.options(statements, options);
    c.declarations(statements);
    let rules = c.lower(statements);
    c.diagnostics
        .sort_by_key(|d| d.span.as_ref().map(|s| s.0.start));
    let diagnostics = once_each(c.diagnostics);
    match rules {
        Some(r) if !has_errors(&diagnostics) => Ok((r, diagnostics)),
        _ => Err(diagnostics),
    }
}

/// Whether some diagnostic is an error (not a warning).
fn has_errors(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(|d| d.kind != Kind::Warning)
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

/// Each player's track and where it is declared.
type Tracks = [Option<(Vec<Slot>, Span)>; 2];

/// What the second pass gathers, statement by statement.
struct Lowered {
    setup: Setup,
    setup_seen: bool,
    tracks: Tracks,
    sowing: Sowing,
    sow_seen: bool,
    rules: Vec<Rule>,
    ends: Vec<End>,
    /// Where each rule's (and end's) name is first used.
    rule_names: HashMap<String, Span>,
    too_many_rules: bool,
    score: Option<Num>,
    estimate: Option<Num>,
    /// The `pass` statement, once seen (its condition, if it lowered).
    pass: Option<Option<Cond>>,
    /// The `put` statement, once seen (what it lowered to, if it did).
    put: Option<Option<crate::ir::Put>>,
    take: Option<Option<crate::ir::Taking>>,
    rounds: Option<Option<Cond>>,
    owner: Option<usize>,
    phases: Vec<Phase>,
    endless: Endless,
}

impl Lowered {
    fn new(pits: usize) -> Lowered {
        Lowered {
            setup: Setup {
                seeds: vec![0; pits],
                by_starter: None,
                vars: Vec::new(),
                hands: [0, 0],
                stores: [0, 0],
                first: 0,
                first_chosen: false,
            },
            setup_seen: false,
            rounds: None,
            tracks: [None, None],
            sowing: Sowing {
                take: Take::All,
                direction: Vec::new(),
                skip: Vec::new(),
                entry: None,
                leave: None,
                skip_when: None,
                skip_walks: true,
                from_store: None,
                most: None,
                per_place: None,
            },
            sow_seen: false,
            rules: Vec::new(),
            ends: Vec::new(),
            rule_names: HashMap::new(),
            too_many_rules: false,
            score: None,
            estimate: None,
            pass: None,
            put: None,
            take: None,
            owner: None,
            phases: Vec::new(),
            endless: Endless::Forbid,
        }
    }
}

#[derive(Default)]
struct Checker {
    diagnostics: Vec<Diagnostic>,
    name: Option<String>,
    title: Option<String>,
    players: Option<Vec<String>>,
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
    /// A `direction` line written without `when`: every line after it
    /// is dead, whatever the options (a line whose `when` an option makes
    /// always hold is not one).
    direction_always: Option<Span>,
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

    /// The number of players declared (two until `players` is read).
    fn seats(&self) -> usize {
        self.players.as_ref().map_or(2, Vec::len)
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
                    match players.as_slice() {
                        [one] => format!("the only player is `{one}`"),
                        all => format!("the players are {}", Rules::players_text(all)),
                    },
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
            statements::statement(&s.word.name).is_none()
                && did_you_mean(&s.word.name, ["board"]).is_some()
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
        // The variables of the game the engine keeps where a file reads
        // them: `last_mover` (`none` until a turn is played), `starter`
        // (who moved first in the round) and `round_winner` (`none` until a
        // round is won, and after a drawn one).
        for word in [expr::PASSES, expr::TURNS_PASSED] {
            if let (true, Some(players)) = (mentions(statements, word), &self.players) {
                // (Counted up to every player's having passed in a row.)
                self.vars.push(Var {
                    name: word.to_string(),
                    scope: VarScope::Game,
                    values: Vec::new(),
                    numbers: Some((0, players.len() as i64)),
                });
            }
        }
        if mentions(statements, expr::PASSED) {
            // Whether each player's last play was a pass.
            self.vars.push(Var {
                name: expr::PASSED.to_string(),
                scope: VarScope::Player,
                values: vec!["no".to_string(), "yes".to_string()],
                numbers: None,
            });
        }
        if again_from(statements) || mentions(statements, expr::RESUME) {
            // The turn an `again from` names for the mover's next turn:
            // `none`, then every pit by its label, alone (no letter) and
            // with each letter (the way the turn that named it went), as
            // a turn is written.
            let letters = &self.notation.letters;
            self.vars.push(Var {
                name: expr::RESUME.to_string(),
                scope: VarScope::Game,
                values: std::iter::once("none".to_string())
                    .chain(self.pits.iter().flat_map(|p| {
                        std::iter::once(p.label.clone())
                            .chain(letters.iter().map(|l| format!("{}{}", p.label, l.letter)))
                    }))
                    .collect(),
                numbers: None,
            });
        }
        for (word, none) in [
            (expr::LAST_MOVER, true),
            (expr::STARTER, false),
            (expr::ROUND_WINNER, true),
        ] {
            // (`turns_passed` counts whole turns: the engine tells a pass
            // that ends a turn its mover began by sowing by who moved last.)
            let kept = mentions(statements, word)
                || (word == expr::LAST_MOVER && mentions(statements, expr::TURNS_PASSED));
            if let (true, Some(players)) = (kept, &self.players) {
                let none = none.then(|| "none".to_string());
                self.vars.push(Var {
                    name: word.to_string(),
                    scope: VarScope::Game,
                    values: none.into_iter().chain(players.iter().cloned()).collect(),
                    numbers: None,
                });
            }
        }
    }

    /// Second pass: everything else, statement by statement, lowered to
    /// the IR; then what holds of the whole file.
    fn lower(&mut self, statements: &[Statement]) -> Option<Rules> {
        if self.players.is_none() || self.pits.is_empty() {
            // The players and board errors are reported; the rest would
            // only repeat them.
            let known: Vec<&str> = statements::suggested().collect();
            for s in statements {
                if !known.contains(&s.word.name.as_str()) {
                    self.unknown(s, &known, "statement");
                }
            }
            return None;
        }
        let players = self.players.clone()?;
        let mut l = Lowered::new(self.pits.len());
        let labels = self.labels.clone();
        let regions = self.region_index.clone();
        let named = self.named_index.clone();
        let lets = self.lets.clone();
        let phase_index = self.phase_index.clone();
        let vars = self.vars.clone();
        let letters: Vec<String> = self
            .notation
            .letters
            .iter()
            .map(|l| l.letter.clone())
            .collect();
        let flags = self.notation.flags.clone();
        let settings = self.settings.clone();
        // The end rules in the order they are declared (a duplicate name
        // is reported where the rule is lowered).
        let mut end_index: HashMap<String, usize> = HashMap::new();
        for s in statements.iter().filter(|s| s.word.name == "end") {
            if let Some(name) = s.args.first().and_then(Expr::as_word) {
                let next = end_index.len();
                end_index.entry(name.to_string()).or_insert(next);
            }
        }
        let scope = |context: Context| Scope {
            players: &players,
            labels: &labels,
            regions: &regions,
            named_pits: &named,
            lets: &lets,
            phases: &phase_index,
            ends: &end_index,
            vars: &vars,
            letters: &letters,
            flags: &flags,
            settings: &settings,
            not_none: &[],
            context,
        };
        for s in statements {
            let Some(spec) = statements::statement(&s.word.name) else {
                if statements::CHANGES.contains(&s.word.name.as_str()) {
                    self.err(
                        Diagnostic::at(
                            s.word.span,
                            format!("`{}` is resolved when a variant is loaded", s.word.name),
                            "not checked on its own",
                        )
                        .hint("check the file with `sow check FILE` (or `sow::load`), which merges in what it extends"),
                    );
                } else {
                    let known: Vec<&str> = statements::suggested().collect();
                    self.unknown(s, &known, "statement");
                }
                continue;
            };
            match spec.kind {
                // Declared by the first pass.
                StatementKind::Variant
                | StatementKind::Title
                | StatementKind::Players
                | StatementKind::Board
                | StatementKind::Region
                | StatementKind::Pit
                | StatementKind::Let
                | StatementKind::Var
                | StatementKind::Notation
                | StatementKind::Option => {}
                StatementKind::Phase => self.phase(s, &scope, &mut l.phases),
                StatementKind::Endless => self.endless(s, &mut l.endless),
                StatementKind::Setup => {
                    l.setup_seen = true;
                    self.setup(s, &mut l.setup, &scope);
                }
                StatementKind::Track => self.track(s, &players, &mut l.tracks),
                StatementKind::Sow => {
                    if l.sow_seen {
                        self.err(
                            Diagnostic::at(s.word.span, "`sow` is declared twice", "second `sow`")
                                .hint("keep one `sow { … }`"),
                        );
                    }
                    l.sow_seen = true;
                    let mut lw = Lowerer::new(scope(Context {
                        sees: Sees::SOWING,
                        what: "in `sow`",
                    }));
                    self.sowing(s, &mut l.sowing, &mut lw);
                    self.diagnostics.append(&mut lw.diagnostics);
                }
                StatementKind::Rule | StatementKind::End
                    if l.rules.len() + l.ends.len() == MAX_RULES =>
                {
                    if !l.too_many_rules {
                        l.too_many_rules = true;
                        self.err(
                            Diagnostic::limit(
                                s.word.span,
                                format!(
                                    "a variant has at most {MAX_RULES} rules (`rule` and `end`)"
                                ),
                                "one too many",
                            )
                            .hint(
                                "a rule that applies to many pits is written once, with conditions",
                            ),
                        );
                    }
                }
                StatementKind::Rule => {
                    if let Some(rule) = self.rule(s, &scope) {
                        if self.unique_rule_name(&mut l.rule_names, &rule.name, s.args[0].span) {
                            l.rules.push(rule);
                        }
                    }
                }
                StatementKind::End => {
                    if let Some(end) = self.end(s, &scope) {
                        if self.unique_rule_name(&mut l.rule_names, &end.name, s.args[0].span) {
                            l.ends.push(end);
                        }
                    }
                }
                StatementKind::Score => self.score(s, &scope, &mut l.score, Scored::Score),
                StatementKind::Estimate => self.score(s, &scope, &mut l.estimate, Scored::Estimate),
                StatementKind::Pass => self.pass(s, &scope, &mut l.pass),
                StatementKind::Put => self.put(s, &scope, &mut l.put),
                StatementKind::Take => self.take(s, &scope, &mut l.take),
                StatementKind::Match => self.match_ends(s, &scope, &mut l.rounds),
                StatementKind::Owner => self.owner_follows(s, &players, &mut l.owner),
            }
        }
        if self.name.is_none() {
            self.err(
                Diagnostic::new("the file does not name its variant")
                    .hint("add `variant my-game` at the top"),
            );
        }
        if !l.setup_seen {
            self.err(Diagnostic::new("the file has no setup").hint("add `setup { seeds 4 }`"));
        }
        let tracks = self.tracks(&players, l.tracks, &l.sowing)?;
        self.sowing_fits(&mut l.sowing);
        if let (Some(n), Some(s)) = (
            l.sowing.most,
            statements.iter().find(|s| s.word.name == "endless"),
        ) {
            self.err(
                Diagnostic::at(s.word.span, "`endless` never applies: no turn sows for ever", "never applies")
                    .hint(format!("with `sowings at most {n}` a turn that would go on is cut (`cut`): remove `endless`, or the limit")),
            );
        }
        if l.ends.is_empty() && !statements.iter().any(|s| s.word.name == "end") {
            self.err(
                Diagnostic::new("the file has no `end` rule: the game could never end")
                    .hint("add e.g. `end no_moves when no_legal_turn`"),
            );
        }
        if l.rounds.is_none() {
            // `scored` rules keep a match's tally and `round` rules set up
            // its next round: without `match ends when …` there is none.
            for st in statements.iter().filter(|st| st.word.name == "rule") {
                if let Some((at, moment)) = st.args.windows(2).find_map(|w| {
                    let moment = w[1].as_word().filter(|m| ["round", "scored"].contains(m));
                    (w[0].as_word() == Some("at")).then_some((w[1].span, moment?))
                }) {
                    self.err(
                        Diagnostic::at(at, format!("a `{moment}` rule in a game of one round"), "never runs")
                            .hint("a match says when it is over: add `match ends when …` (judged as each round ends)"),
                    );
                }
            }
        }
        let marks = self.marks(&scope);
        if has_errors(&self.diagnostics) {
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
            setup: l.setup,
            tracks,
            sowing: l.sowing,
            notation: self.notation.clone(),
            phases: l.phases,
            vars: self.vars.clone(),
            rules: l.rules,
            ends: l.ends,
            score: l.score.unwrap_or_else(default_score),
            estimate: l.estimate,
            endless: l.endless,
            pass: l.pass.flatten(),
            put: l.put.flatten(),
            take: l.take.flatten(),
            owner: l.owner,
            last_mover: self.vars.iter().position(|v| v.name == expr::LAST_MOVER),
            rounds: l.rounds.flatten(),
            starter: self.vars.iter().position(|v| v.name == expr::STARTER),
            round_winner: self.vars.iter().position(|v| v.name == expr::ROUND_WINNER),
            passes: self.vars.iter().position(|v| v.name == expr::PASSES),
            turns_passed: self.vars.iter().position(|v| v.name == expr::TURNS_PASSED),
            passed: self.vars.iter().position(|v| v.name == expr::PASSED),
            resume: self.vars.iter().position(|v| v.name == expr::RESUME),
            marks,
            options: self.settings.clone(),
        })
    }
}

/// Whether a rule says `again from PLACE`.
fn again_from(statements: &[Statement]) -> bool {
    statements.iter().any(|s| {
        (s.word.name == "again" && s.args.first().and_then(Expr::as_word) == Some("from"))
            || s.block.as_ref().is_some_and(|(_, b)| again_from(b))
    })
}

/// Whether a word appears anywhere in the statements' expressions.
fn mentions(statements: &[Statement], word: &str) -> bool {
    fn in_expr(e: &Expr, word: &str) -> bool {
        match &e.kind {
            ExprKind::Word(w) => w == word,
            ExprKind::Call(name, args) => {
                name.name == word || args.iter().any(|a| in_expr(a, word))
            }
            ExprKind::Unary(_, a) => in_expr(a, word),
            ExprKind::Binary(_, a, b) => in_expr(a, word) || in_expr(b, word),
            ExprKind::Int(_) | ExprKind::Str(_) => false,
        }
    }
    statements.iter().any(|s| {
        s.args.iter().chain(tail(s)).any(|e| in_expr(e, word))
            || s.block.as_ref().is_some_and(|(_, b)| mentions(b, word))
    })
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
