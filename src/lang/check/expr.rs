//! Lowers expressions to the IR's typed values, reporting every mistake:
//! unknown names (with a "did you mean"), values of the wrong kind, ranges
//! that cannot hold, names used where they mean nothing.

use std::collections::HashMap;

use crate::diagnostic::{did_you_mean, sorted, Diagnostic, Kind, Span};
use crate::ir::{ArithOp, CmpOp, Cond, Num, PitId, Place, Player, Region, Sees, VarAt, Who};
use crate::syntax::ast::{BinaryOp, Expr, ExprKind, UnaryOp};

/// What the names of an expression can refer to.
#[derive(Clone, Copy)]
pub struct Scope<'a> {
    /// Player names.
    pub players: &'a [String],
    /// Pit labels.
    pub labels: &'a HashMap<String, PitId>,
    /// Named per-player regions, by name → index.
    pub regions: &'a HashMap<String, usize>,
    /// Named per-player pits, by name → index.
    pub named_pits: &'a HashMap<String, usize>,
    /// Definitions (`let`), by name.
    pub lets: &'a HashMap<String, Definition>,
    /// Phases, by name → index.
    pub phases: &'a HashMap<String, usize>,
    /// End rules, by name → index (`ended(NAME)`).
    pub ends: &'a HashMap<String, usize>,
    /// Variables, by name.
    pub vars: &'a [crate::ir::Var],
    /// The notation's letters.
    pub letters: &'a [String],
    /// The notation's flags.
    pub flags: &'a [String],
    /// The options, with the values in force.
    pub settings: &'a [crate::ir::Setting],
    /// Which turn words make sense here.
    pub context: Context,
    /// The variables naming a player (or none) known to name one here
    /// (a rule's `when` says so for its actions), by index.
    pub not_none: &'a [usize],
}

/// A `let` definition.
#[derive(Debug, Clone)]
pub struct Definition {
    /// Parameter names.
    pub params: Vec<String>,
    /// The body.
    pub body: Expr,
    /// Where the name is defined.
    pub span: Span,
}

/// Where an expression is judged: what it can see there (the moment
/// table's `Sees`, read by the checker and the engine alike), and how the
/// place is named in messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Context {
    /// The words that mean something here.
    pub sees: Sees,
    /// Where this is, for messages ("in an `end` rule").
    pub what: &'static str,
}

/// A lowered value of some kind.
#[derive(Debug, Clone)]
pub enum Value {
    /// A number.
    Num(Num),
    /// A condition.
    Cond(Cond),
    /// A place.
    Place(Place),
    /// A player.
    Who(Who),
    /// A set of pits.
    Region(Region),
    /// `a..b`.
    Range(Num, Num),
    /// A variable's instance.
    Var(usize, crate::ir::VarAt),
    /// A word that is not a name here (a keyword argument such as `all`).
    Keyword(String),
    /// An option whose values are words (by index in the scope's settings).
    Setting(usize),
}

impl Value {
    pub(super) fn kind(&self) -> &'static str {
        match self {
            Value::Num(_) => "a number",
            Value::Cond(_) => "a condition",
            Value::Place(_) => "a place",
            Value::Who(_) => "a player",
            Value::Region(_) => "a region",
            Value::Range(..) => "a range",
            Value::Var(..) => "a variable",
            Value::Keyword(_) => "a word",
            Value::Setting(_) => "an option",
        }
    }
}

/// How many times a region is cut by `first(REGION, N)`, the cuts it is
/// built on included.
fn cuts(r: &Region) -> usize {
    match r {
        Region::First(inner, _) => 1 + cuts(inner),
        Region::Where(inner, _) => cuts(inner),
        Region::Board
        | Region::Side(_)
        | Region::Named(..)
        | Region::FirstCaptures(_)
        | Region::Path(..) => 0,
    }
}

/// The built-in functions, for "did you mean".
pub const FUNCTIONS: &[&str] = &[
    "count",
    "sum",
    "if",
    "pits",
    "going",
    "ended",
    "chose",
    "has_capture",
    "no_legal_turn",
    "first_captures",
    "seeds",
    "store",
    "hand",
    "owner",
    "opposite",
    "behind",
    "front",
    "across",
    "next",
    "prev",
    "along",
    "ahead",
    "path",
    "back",
    "first",
    "side",
    "before",
];
/// The name of the variable that holds the player who moved last (and of
/// its key in a position's `state`), declared where a file reads it.
pub const LAST_MOVER: &str = "last_mover";
/// The player who moved first in the current round, a variable of the
/// game the engine keeps where a file reads it.
pub const STARTER: &str = "starter";
/// The winner of the last round ended (`none`: none yet, or a draw),
/// likewise.
pub const ROUND_WINNER: &str = "round_winner";
/// The turns passed in a row just before now (0 after a turn that is not
/// a pass), a number the engine keeps where a file reads it.
pub const PASSES: &str = "passes";
/// The whole turns passed in a row just before now: as [`PASSES`], but a
/// pass its mover makes moving again (after `again`) is none, and counts
/// 0 (Ludii's "all passed"), likewise.
pub const TURNS_PASSED: &str = "turns_passed";
/// The pit the mover goes on from after an `again from` (`none` after any
/// other turn), a variable of the game the engine keeps where a file
/// says `again from` or reads it.
pub const RESUME: &str = "resume";
/// Whether a player's last play was a pass (`passed(north) == yes`), a
/// variable of each player the engine keeps where a file reads it.
pub const PASSED: &str = "passed";
/// The variables the engine keeps, never a rule's to set.
pub const KEPT: &[&str] = &[
    LAST_MOVER,
    STARTER,
    ROUND_WINNER,
    PASSES,
    TURNS_PASSED,
    RESUME,
    PASSED,
];

/// The built-in words, for "did you mean".
pub const WORDS: &[&str] = &[
    "mover",
    "opponent",
    "last",
    "origin",
    "lifted",
    "here",
    "player",
    "total",
    "out_of_play",
    "board",
    "no_legal_turn",
    "repeated",
    "cut",
    "last_seed",
    "last_mover",
    "starter",
    "round_winner",
    "true",
    "false",
    "captured",
    "sowings",
    "passes",
    "turns_passed",
    "resume",
    "passed",
];

/// Lowers expressions in a scope, collecting diagnostics.
pub struct Lowerer<'a> {
    scope: Scope<'a>,
    /// Everything found wrong so far.
    pub diagnostics: Vec<Diagnostic>,
    /// The definitions being expanded, innermost last: what each one's
    /// parameters were given, and the frame the arguments are read in
    /// (the caller's). A definition's body sees its own parameters only.
    frames: Vec<Frame>,
    /// The frame names are read in now (`None`: outside every definition).
    current: Option<usize>,
    /// How deep the expression being lowered nests, definitions expanded.
    depth: usize,
    /// Definitions being expanded, to catch one that refers to itself.
    expanding: Vec<String>,
    /// Expressions lowered so far: definitions that use each other several
    /// times can grow without bound, so the total is capped.
    lowered: usize,
    /// The variables naming a player (or none) known to name one where
    /// the expression now lowered is judged: the scope's, and what the
    /// left of an `and` (or the condition of an `if`) being lowered says.
    not_none: Vec<usize>,
}

/// One definition being expanded.
struct Frame {
    /// Each parameter and the expression given for it.
    args: Vec<(String, Expr)>,
    /// The frame the arguments are read in.
    caller: Option<usize>,
    /// How many definitions were being expanded where it was used (the
    /// arguments are read inside those only).
    expanding: usize,
}

use crate::limits::{MAX_EXPANDED_DEPTH, MAX_EXPANSION, MAX_PITS, MAX_REGION_CUTS};

impl<'a> Lowerer<'a> {
    /// A region given as an argument (`count`, `pits`, `sum`).
    fn region_arg(&mut self, e: &Expr) -> Option<Region> {
        match self.value(e)? {
            Value::Region(r) => Some(r),
            other => self.wrong_kind(e, "a region", &other, "`side(mover)` or a declared region"),
        }
    }

    /// A number judged for one pit at a time (`here`), likewise.
    pub fn num_on_here(&mut self, e: &Expr) -> Option<Num> {
        let saved = self.scope.context;
        self.scope.context.sees.here = true;
        let n = self.num(e);
        self.scope.context = saved;
        n
    }

    /// A count, or a range of counts `LOW..HIGH` (its highest), judged
    /// for one pit at a time (`here`), likewise: a put's.
    pub fn counts_on_here(&mut self, e: &Expr) -> Option<(Num, Option<Num>)> {
        let saved = self.scope.context;
        self.scope.context.sees.here = true;
        let v = self.value(e);
        self.scope.context = saved;
        match v? {
            Value::Num(n) => Some((n, None)),
            Value::Range(lo, hi) => Some((lo, Some(hi))),
            other => self.wrong_kind(
                e,
                "a number or a range",
                &other,
                "a count such as `2`, or `1..hand(mover)`",
            ),
        }
    }

    /// A place judged for one pit at a time (`here`), likewise: where a
    /// region's captures go, what a chain takes of each pit walked.
    pub fn place_on_here(&mut self, e: &Expr) -> Option<Place> {
        let saved = self.scope.context;
        self.scope.context.sees.here = true;
        let p = self.place(e);
        self.scope.context = saved;
        p
    }

    /// A condition judged for one pit at a time (`here`), as well as for
    /// what the expression around it knows.
    pub fn cond_on_here(&mut self, e: &Expr) -> Option<Cond> {
        let saved = self.scope.context;
        self.scope.context.sees.here = true;
        let c = self.cond(e);
        self.scope.context = saved;
        c
    }

    /// A sowing's `skip when`: judged of each place a seed would fall into
    /// (`here`), `last_seed` saying whether that seed is the lap's last.
    pub fn cond_on_sown(&mut self, e: &Expr) -> Option<Cond> {
        let saved = self.scope.context;
        self.scope.context.sees.dropping = true;
        let c = self.cond_on_here(e);
        self.scope.context = saved;
        c
    }

    pub fn new(scope: Scope<'a>) -> Self {
        Lowerer {
            diagnostics: Vec::new(),
            frames: Vec::new(),
            current: None,
            depth: 0,
            expanding: Vec::new(),
            lowered: 0,
            not_none: scope.not_none.to_vec(),
            scope,
        }
    }

    fn error(&mut self, d: Diagnostic) -> Option<Value> {
        self.diagnostics.push(d);
        None
    }

    /// A number option compared for equality with a number outside its
    /// range is an error (the comparison could never hold, or always would).
    fn option_in_range(&mut self, a: &Expr, b: &Expr, e: &Expr) -> Option<()> {
        let sc = &self.scope;
        for (x, y) in [(a, b), (b, a)] {
            let (ExprKind::Word(w), ExprKind::Int(k)) = (&x.kind, &y.kind) else {
                continue;
            };
            // Names that would be found first.
            if sc.players.contains(w) || sc.labels.contains_key(w) || sc.lets.contains_key(w) {
                continue;
            }
            let Some(o) = sc.settings.iter().find(|o| &o.name == w) else {
                continue;
            };
            if let crate::ir::Choices::Range(lo, hi) = o.choices {
                if !(lo..=hi).contains(k) {
                    let d = Diagnostic::at(
                        e.span,
                        format!("option `{w}` is never {k}: its values are {lo}..{hi}"),
                        "out of the option's range",
                    )
                    .hint(format!("compare `{w}` with a number from {lo} to {hi}"));
                    self.error(d);
                    return None;
                }
            }
        }
        Some(())
    }

    /// Lowers a condition.
    pub fn cond(&mut self, e: &Expr) -> Option<Cond> {
        match self.value(e)? {
            Value::Cond(c) => Some(c),
            other => self.wrong_kind(
                e,
                "a condition",
                &other,
                "a comparison such as `seeds(last) == 0`",
            ),
        }
    }

    /// Lowers a number.
    pub fn num(&mut self, e: &Expr) -> Option<Num> {
        match self.value(e)? {
            Value::Num(n) => Some(n),
            Value::Place(p) => self.wrong_kind(
                e,
                "a number",
                &Value::Place(p),
                "use `seeds(…)` for the seeds in a place",
            ),
            other => self.wrong_kind(
                e,
                "a number",
                &other,
                "a count such as `seeds(last)` or `3`",
            ),
        }
    }

    /// Lowers a place.
    pub fn place(&mut self, e: &Expr) -> Option<Place> {
        match self.value(e)? {
            Value::Place(p) => Some(p),
            other => self.wrong_kind(
                e,
                "a place",
                &other,
                "a pit label, `last`, `origin`, `store(mover)`, …",
            ),
        }
    }

    /// Lowers a player.
    pub fn who(&mut self, e: &Expr) -> Option<Who> {
        match self.value(e)? {
            Value::Who(w) => Some(w),
            // A variable of the game whose values are the players' names
            // (and `none`): the player it names (`store(last_mover)`).
            Value::Var(i, crate::ir::VarAt::Game) if self.names_players(i) => Some(Who::Var(i)),
            other => self.wrong_kind(
                e,
                "a player",
                &other,
                "`mover`, `opponent`, a player's name or `owner(…)`",
            ),
        }
    }

    /// [`Lowerer::who`] for a player whose pits, store, hand or variable
    /// are read (`side(P)`): a warning where P can be `none` (a variable
    /// naming the players, or none) and nothing here says it names one,
    /// since `side(none)` holds no pits and reads 0 silently.
    pub fn whose(&mut self, e: &Expr) -> Option<Who> {
        let w = self.who(e)?;
        if let Some(var) = self.can_be_none(&w) {
            if !self.not_none.contains(&var) {
                let name = self.scope.vars[var].name.clone();
                self.diagnostics.push(
                    Diagnostic::at(
                        e.span,
                        format!("`{name}` can be `none` here, naming no player"),
                        "maybe none",
                    )
                    .hint(format!(
                        "where it is none this reads nothing (no pits, no store, 0 seeds); say it names a player first: `{name} != none and …`, or `if({name} != none, …, …)`"
                    ))
                    .kind(Kind::Warning),
                );
            }
        }
        Some(w)
    }

    /// The variable a player can be `none` through, if it can.
    fn can_be_none(&self, w: &Who) -> Option<usize> {
        match w {
            Who::Var(i) => self.scope.vars[*i]
                .values
                .iter()
                .any(|v| v == "none")
                .then_some(*i),
            Who::Other(inner) => self.can_be_none(inner),
            Who::Mover | Who::Opponent | Who::Player(_) | Who::Owner(_) | Who::Each => None,
        }
    }

    /// The variables naming a player (or none) that a condition, where it
    /// holds, says name one: `V != none`, `V == south`, those of any part
    /// of an `and` or of every part of an `or`, and of each part of an
    /// `or` that does not hold.
    pub fn names_one(&self, c: &Cond) -> Vec<usize> {
        let none = |i: usize, v: usize| {
            self.scope.vars[i].values.get(v).map(String::as_str) == Some("none")
        };
        match c {
            Cond::Not(inner) => match &**inner {
                Cond::VarIs(i, VarAt::Game, v) if none(*i, *v) => vec![*i],
                Cond::Or(parts) => parts
                    .iter()
                    .flat_map(|p| self.names_one(&Cond::Not(Box::new(p.clone()))))
                    .collect(),
                _ => Vec::new(),
            },
            Cond::VarIs(i, VarAt::Game, v) if !none(*i, *v) => vec![*i],
            Cond::SamePlayer(Who::Var(i), Who::Player(_))
            | Cond::SamePlayer(Who::Player(_), Who::Var(i)) => vec![*i],
            // (What every part of an `or` says: `last_mover == south` is
            // one, for each player, of `south` being that player and the
            // variable naming them.)
            Cond::Or(parts) => {
                let each: Vec<Vec<usize>> = parts.iter().map(|p| self.names_one(p)).collect();
                each.first().map_or(Vec::new(), |first| {
                    first
                        .iter()
                        .copied()
                        .filter(|i| each.iter().all(|e| e.contains(i)))
                        .collect()
                })
            }
            Cond::And(parts) => parts.iter().flat_map(|p| self.names_one(p)).collect(),
            _ => Vec::new(),
        }
    }

    /// Whether every value of a variable is a player's name or `none`,
    /// the players each named.
    fn names_players(&self, var: usize) -> bool {
        let values = &self.scope.vars[var].values;
        let players = self.scope.players;
        values.iter().all(|v| v == "none" || players.contains(v))
            && players.iter().all(|p| values.contains(p))
    }

    fn wrong_kind<T>(&mut self, e: &Expr, want: &str, got: &Value, hint: &str) -> Option<T> {
        let msg = match got {
            Value::Keyword(w) => format!("unknown name `{w}`: expected {want}"),
            _ => format!("expected {want}, found {}", got.kind()),
        };
        let mut d = Diagnostic::at(e.span, msg, format!("not {want}"));
        let suggestion = match got {
            Value::Keyword(w) => self.suggest(w),
            _ => None,
        };
        d = match (suggestion, got) {
            // `n-1` is one word (names may hold `-`): a subtraction has spaces.
            (_, Value::Keyword(w)) if w.contains('-') => d.hint(format!(
                "`{w}` reads as one name; a subtraction has spaces: `{}`",
                w.replace('-', " - ")
            )),
            (Some(s), _) => d.hint(format!("did you mean `{s}`?")),
            (None, _) => d.hint(format!("expected {hint}")),
        };
        if let Value::Keyword(w) = got {
            d = d.kind(Kind::Unknown(w.as_str().into()));
        }
        self.error(d);
        None
    }

    fn suggest(&self, word: &str) -> Option<String> {
        let s = self.scope;
        let names = WORDS
            .iter()
            .copied()
            .chain(s.players.iter().map(String::as_str))
            .chain(sorted(s.labels.keys()))
            .chain(sorted(s.lets.keys()));
        did_you_mean(word, names).map(str::to_string)
    }

    /// Lowers an expression to a value of whatever kind it has. A word that
    /// names nothing comes back as [`Value::Keyword`]; callers that expect a
    /// value report it.
    pub fn value(&mut self, e: &Expr) -> Option<Value> {
        self.depth += 1;
        let v = if self.depth > MAX_EXPANDED_DEPTH {
            if self.depth == MAX_EXPANDED_DEPTH + 1 {
                self.diagnostics.push(
                    Diagnostic::limit(
                        e.span,
                        format!("this nests more than {MAX_EXPANDED_DEPTH} deep once definitions are expanded"),
                        "too deep",
                    )
                    .hint("definitions used inside definitions add up: use fewer levels"),
                );
            }
            None
        } else {
            self.lower(e)
        };
        self.depth -= 1;
        v
    }

    fn lower(&mut self, e: &Expr) -> Option<Value> {
        self.lowered += 1;
        if self.lowered > MAX_EXPANSION {
            if self.lowered == MAX_EXPANSION + 1 {
                self.diagnostics.push(
                    Diagnostic::limit(e.span, format!("this expands to more than {MAX_EXPANSION} expressions"), "too large once definitions are expanded")
                        .hint("a definition used several times inside another multiplies; use fewer nested uses"),
                );
            }
            return None;
        }
        match &e.kind {
            ExprKind::Int(n) => {
                if *n > 1_000_000 {
                    return self.error(
                        Diagnostic::at(e.span, "number too large", "more than 1000000")
                            .hint("counts in a variant are at most 1000000"),
                    );
                }
                Some(Value::Num(Num::Int(*n)))
            }
            ExprKind::Str(_) => self.error(
                Diagnostic::at(e.span, "a string is not a value here", "a string")
                    .hint("strings are only for titles; write a name or a number"),
            ),
            ExprKind::Word(w) => self.word(w, e),
            ExprKind::Call(name, args) => self.call(&name.name, name.span, args, e),
            ExprKind::Unary(UnaryOp::Not, inner) => {
                Some(Value::Cond(Cond::Not(Box::new(self.cond(inner)?))))
            }
            ExprKind::Unary(UnaryOp::Neg, inner) => {
                let n = self.num(inner)?;
                Some(Value::Num(Num::Arith(
                    ArithOp::Sub,
                    Box::new(Num::Int(0)),
                    Box::new(n),
                )))
            }
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, e),
        }
    }

    fn word(&mut self, w: &str, e: &Expr) -> Option<Value> {
        let s = self.scope;
        let ctx = s.context;
        if let Some(frame) = self.current.map(|i| &self.frames[i]) {
            if let Some((_, arg)) = frame.args.iter().find(|(p, _)| p == w) {
                // An argument means what it meant where it was given.
                let (arg, caller) = (arg.clone(), frame.caller);
                let inner = self.expanding.split_off(frame.expanding);
                let saved = std::mem::replace(&mut self.current, caller);
                let v = self.value(&arg);
                self.current = saved;
                self.expanding.extend(inner);
                return v;
            }
        }
        let need = |ok: bool, what: &str, this: &mut Self| -> Option<()> {
            if ok {
                Some(())
            } else {
                this.diagnostics.push(
                    Diagnostic::at(
                        e.span,
                        format!("`{w}` means nothing {}", ctx.what),
                        "not defined here",
                    )
                    .hint(format!("`{w}` is {what}")),
                );
                None
            }
        };
        let v = match w {
            "mover" => {
                need(
                    ctx.sees.mover,
                    "the player to move, known only during a turn",
                    self,
                )?;
                Value::Who(Who::Mover)
            }
            "opponent" => {
                need(
                    ctx.sees.mover,
                    "the other player, known only during a turn",
                    self,
                )?;
                if let [one] = self.scope.players {
                    return self.error(
                        Diagnostic::at(e.span, "a solitaire has no opponent", "one player").hint(
                            format!(
                                "`players {one}` declares one player: write `mover` or `{one}`"
                            ),
                        ),
                    );
                }
                Value::Who(Who::Opponent)
            }
            "player" => {
                need(
                    ctx.sees.each,
                    "the player being scored, known only in `score` and `estimate`",
                    self,
                )?;
                Value::Who(Who::Each)
            }
            "last" => {
                need(
                    ctx.sees.last,
                    "where the last seed landed, known from the `land` moment on",
                    self,
                )?;
                Value::Place(Place::Last)
            }
            "origin" => {
                need(
                    ctx.sees.origin,
                    "the pit the turn started from, known during a turn",
                    self,
                )?;
                Value::Place(Place::Origin)
            }
            word @ (LAST_MOVER | STARTER | ROUND_WINNER | PASSES | TURNS_PASSED | RESUME) => {
                // The player who played the turn that led here, who moved
                // first in the round, who won the last round, the turns
                // passed in a row: variables of the game the checker
                // declares where a file reads them.
                match self.scope.vars.iter().position(|v| v.name == word) {
                    Some(i) if self.scope.vars[i].numbers.is_some() => {
                        Value::Num(Num::Var(i, crate::ir::VarAt::Game))
                    }
                    Some(i) => Value::Var(i, crate::ir::VarAt::Game),
                    None => return None,
                }
            }
            "lifted" => {
                need(
                    ctx.sees.last,
                    "the pit last lifted to be sown, known once a sowing has been made",
                    self,
                )?;
                Value::Place(Place::Lifted)
            }
            "here" => {
                need(
                    ctx.sees.here,
                    "the pit being judged, known only in `chain … while`, in `pits`, `count` and `sum` (`pits(side(mover), seeds(here) > 0)`), in a region capture's `to` and in `put`'s count and `when`",
                    self,
                )?;
                Value::Place(Place::Here)
            }
            "total" => Value::Num(Num::Total),
            "out_of_play" => Value::Num(Num::OutOfPlay),
            "board" => Value::Region(Region::Board),
            "true" => Value::Cond(Cond::True),
            "false" => Value::Cond(Cond::Not(Box::new(Cond::True))),
            "no_legal_turn" => {
                need(
                    ctx.sees.ending,
                    "whether the player to move has a legal turn, known only to an end rule judged before a turn",
                    self,
                )?;
                Value::Cond(Cond::NoLegalTurn(Who::Mover))
            }
            "last_seed" => {
                need(
                    ctx.sees.dropping,
                    "whether the seed just dropped is its sowing's last, known only at the `drop` moment",
                    self,
                )?;
                Value::Cond(Cond::LastSeed)
            }
            "cut" => {
                need(
                    ctx.sees.cut,
                    "whether the turn just played was stopped by `sowings at most N`, known only to end rules judged before a turn and at the `end` moment",
                    self,
                )?;
                Value::Cond(Cond::Cut)
            }
            "repeated" => {
                need(
                    ctx.sees.ending,
                    "whether the position was seen before, known only to an end rule judged before a turn",
                    self,
                )?;
                Value::Cond(Cond::Repeated)
            }
            "captured" => {
                need(
                    ctx.sees.last,
                    "the seeds captured so far this turn, known from the `land` moment on",
                    self,
                )?;
                Value::Num(Num::Captured)
            }
            "sowings" => {
                need(
                    ctx.sees.last,
                    "the sowings made so far this turn, known from the `land` moment on",
                    self,
                )?;
                Value::Num(Num::Sowings)
            }
            _ => {
                if let Some(p) = s.players.iter().position(|p| p == w) {
                    Value::Who(Who::Player(p as Player))
                } else if let Some(&id) = s.labels.get(w) {
                    Value::Place(Place::Pit(id))
                } else if let Some(def) = s.lets.get(w) {
                    return self.expand(w, def, &[], e);
                } else if let Some(&i) = s.phases.get(w) {
                    need(
                        ctx.sees.phases,
                        "a phase: the game is in the first phase whose condition holds, so a phase's condition names none",
                        self,
                    )?;
                    Value::Cond(Cond::InPhase(i))
                } else if let Some(i) = s.settings.iter().position(|o| o.name == w) {
                    let o = &s.settings[i];
                    match (&o.choices, o.value.parse::<i64>()) {
                        (crate::ir::Choices::Range(..), Ok(n)) => Value::Num(Num::Int(n)),
                        _ => Value::Setting(i),
                    }
                } else if let Some(i) = s
                    .vars
                    .iter()
                    .position(|v| v.name == w && v.scope == crate::ir::VarScope::Game)
                {
                    match s.vars[i].numbers {
                        // A number held by the game: a number.
                        Some(_) => Value::Num(Num::Var(i, crate::ir::VarAt::Game)),
                        None => Value::Var(i, crate::ir::VarAt::Game),
                    }
                } else {
                    Value::Keyword(w.to_string())
                }
            }
        };
        Some(v)
    }

    fn expand(&mut self, name: &str, def: &Definition, args: &[Expr], at: &Expr) -> Option<Value> {
        if def.params.len() != args.len() {
            return self.error(
                Diagnostic::at(
                    at.span,
                    format!(
                        "`{name}` takes {} argument(s), found {}",
                        def.params.len(),
                        args.len()
                    ),
                    "wrong number of arguments",
                )
                .related(def.span, "defined here"),
            );
        }
        if self.expanding.iter().any(|n| n == name) {
            return self.error(
                Diagnostic::at(
                    at.span,
                    format!("`{name}` refers to itself"),
                    "used inside its own definition",
                )
                .related(def.span, "defined here")
                .hint("a definition may use earlier definitions, not itself"),
            );
        }
        self.frames.push(Frame {
            args: def
                .params
                .iter()
                .cloned()
                .zip(args.iter().cloned())
                .collect(),
            caller: self.current,
            expanding: self.expanding.len(),
        });
        self.expanding.push(name.to_string());
        let saved = self.current.replace(self.frames.len() - 1);
        let before = self.diagnostics.len();
        let v = self.value(&def.body);
        self.current = saved;
        self.expanding.pop();
        self.frames.pop();
        // Point errors inside a definition at the use as well.
        for d in &mut self.diagnostics[before..] {
            if d.related.len() < 3 && !d.related.iter().any(|(s, _)| *s == at.span) {
                d.related.push((at.span, format!("used here as `{name}`")));
            }
        }
        v
    }

    fn arity(
        &mut self,
        name: &str,
        span: Span,
        args: &[Expr],
        n: usize,
        usage: &str,
    ) -> Option<()> {
        if args.len() == n {
            return Some(());
        }
        self.error(
            Diagnostic::at(
                span,
                format!("`{name}` takes {n} argument(s), found {}", args.len()),
                "wrong number of arguments",
            )
            .hint(format!("write `{usage}`")),
        )?;
        None
    }

    fn call(&mut self, name: &str, span: Span, args: &[Expr], e: &Expr) -> Option<Value> {
        let s = self.scope;
        match name {
            "seeds" => {
                self.arity(name, span, args, 1, "seeds(last)")?;
                match self.value(&args[0])? {
                    Value::Place(p) => Some(Value::Num(Num::Seeds(p))),
                    Value::Region(r) => Some(Value::Num(Num::SeedsIn(r))),
                    other => self.wrong_kind(
                        &args[0],
                        "a place or a region",
                        &other,
                        "`seeds(last)` or `seeds(side(opponent))`",
                    ),
                }
            }
            "store" => {
                self.arity(name, span, args, 1, "store(mover)")?;
                Some(Value::Place(Place::Store(self.whose(&args[0])?)))
            }
            "hand" => {
                self.arity(name, span, args, 1, "hand(mover)")?;
                Some(Value::Num(Num::Hand(self.whose(&args[0])?)))
            }
            "owner" => {
                self.arity(name, span, args, 1, "owner(last)")?;
                Some(Value::Who(Who::Owner(Box::new(self.place(&args[0])?))))
            }
            "opponent" => {
                self.arity(name, span, args, 1, "opponent(starter)")?;
                Some(Value::Who(Who::Other(Box::new(self.who(&args[0])?))))
            }
            "opposite" => {
                self.arity(name, span, args, 1, "opposite(last)")?;
                Some(Value::Place(Place::Opposite(Box::new(
                    self.place(&args[0])?,
                ))))
            }
            "behind" => {
                self.arity(name, span, args, 1, "behind(opposite(last))")?;
                Some(Value::Place(Place::Behind(Box::new(self.place(&args[0])?))))
            }
            "front" => {
                self.arity(name, span, args, 1, "front(last)")?;
                Some(Value::Place(Place::Front(Box::new(self.place(&args[0])?))))
            }
            "across" => {
                self.arity(name, span, args, 1, "across(last)")?;
                Some(Value::Place(Place::Across(Box::new(self.place(&args[0])?))))
            }
            "along" => {
                // along(PLACE, N): N steps along the mover's track as it is
                // listed, every place counted, N judged on the position
                self.arity(name, span, args, 2, "along(lifted, before(seeds(lifted)))")?;
                let place = self.place(&args[0]);
                let steps = self.num(&args[1]);
                Some(Value::Place(Place::Stepped(
                    Box::new(place?),
                    Box::new(steps?),
                )))
            }
            "next" | "prev" | "ahead" | "back" => {
                // next(PLACE), next(PLACE, N): N steps along the mover's
                // track; ahead(PLACE, N): along the way the sowing goes
                let usage = format!("{name}(last) or {name}(last, 2)");
                let sowing = matches!(name, "ahead" | "back");
                if sowing && !s.context.sees.last {
                    return self.error(
                        Diagnostic::at(
                            span,
                            format!("`{name}` means nothing {}", s.context.what),
                            "no sowing here",
                        )
                        .hint(format!("`{name}(…)` steps the way the sowing now going on runs; `{}(…)` steps along the track", if name == "ahead" { "next" } else { "prev" })),
                    );
                }
                if args.len() != 1 {
                    self.arity(name, span, args, 2, &usage)?;
                }
                let place = self.place(&args[0])?;
                // The steps are fixed when the file is read: a number, or a
                // definition or a definition's parameter that stands for one.
                let steps = match args.get(1) {
                    None => 1,
                    Some(a) => match self.value(a)? {
                        Value::Num(Num::Int(n)) if (1..=MAX_PITS as i64).contains(&n) => n as i32,
                        _ => {
                            return self.error(
                                Diagnostic::at(
                                    a.span,
                                    format!(
                                        "the steps along the track are a fixed number from 1 to {MAX_PITS}"
                                    ),
                                    "not a number of steps",
                                )
                                .hint(format!(
                                    "write `{name}(last, 2)` (the steps cannot change in play: a count such as `seeds(last)` is not known when the file is read); `{}` goes the other way",
                                    match name {
                                        "next" => "prev",
                                        "prev" => "next",
                                        "ahead" => "back",
                                        _ => "ahead",
                                    }
                                )),
                            )
                        }
                    },
                };
                let steps = if matches!(name, "next" | "ahead") {
                    steps
                } else {
                    -steps
                };
                let place = Box::new(place);
                Some(Value::Place(if sowing {
                    Place::Ahead(place, steps)
                } else {
                    Place::Along(place, steps)
                }))
            }
            "path" => {
                // path(A, B): the pits from A to B the way the sowing runs
                if !s.context.sees.last {
                    return self.error(
                        Diagnostic::at(span, format!("`path` means nothing {}", s.context.what), "no sowing here")
                            .hint("`path(lifted, last)` is the pits the lap going on sowed, the way it ran: use it where a sowing has been made (`land`, `capture`, `drop`)"),
                    );
                }
                self.arity(name, span, args, 2, "path(lifted, last)")?;
                let from = self.place(&args[0]);
                let to = self.place(&args[1]);
                Some(Value::Region(Region::Path(Box::new(from?), Box::new(to?))))
            }
            "first" => {
                // first(REGION): a place; first(REGION, N): a region
                if !(1..=2).contains(&args.len()) {
                    return self.error(
                        Diagnostic::at(
                            span,
                            format!("`first` takes 1 or 2 arguments, found {}", args.len()),
                            "wrong number of arguments",
                        )
                        .hint("write `first(side(mover))` for a pit, `first(refill(south), 3)` for a region"),
                    );
                }
                if let Some(n) = args.get(1) {
                    let region = self.region_arg(&args[0]);
                    let n = self.num(n)?;
                    let region = region?;
                    if cuts(&region) >= MAX_REGION_CUTS {
                        return self.error(
                            Diagnostic::at(span, format!("a region is cut by `first(…, N)` at most {MAX_REGION_CUTS} times"), "cut once too often")
                                .hint("take the pits wanted with one `first(REGION, N)`"),
                        );
                    }
                    return Some(Value::Region(Region::First(Box::new(region), Box::new(n))));
                }
                match self.value(&args[0])? {
                    Value::Region(r) => Some(Value::Place(Place::First(Box::new(r)))),
                    other => self.wrong_kind(
                        &args[0],
                        "a region",
                        &other,
                        "`first(side(mover))` or `first(pits(REGION, CONDITION))`",
                    ),
                }
            }
            "side" => {
                self.arity(name, span, args, 1, "side(opponent)")?;
                Some(Value::Region(Region::Side(self.whose(&args[0])?)))
            }
            "no_legal_turn" => {
                self.arity(name, span, args, 1, "no_legal_turn(opponent)")?;
                if !s.context.sees.foresees {
                    return self.error(
                        Diagnostic::at(span, format!("`no_legal_turn` means nothing {}", s.context.what), "not known here")
                            .hint("whether a player could move is known before a turn (end rules, `pass when …`), at `after`, and once the game or a round is over (`end`, `scored`, `round`, `match ends`)"),
                    );
                }
                Some(Value::Cond(Cond::NoLegalTurn(self.who(&args[0])?)))
            }
            "has_capture" | "first_captures" => {
                self.arity(name, span, args, 1, &format!("{name}(opponent)"))?;
                if !s.context.sees.ahead {
                    return self.error(
                        Diagnostic::at(span, format!("`{name}` means nothing {}", s.context.what), "no look ahead here")
                            .hint(format!("`{name}(…)` looks at the turns a player could play next: use it at the `after` moment")),
                    );
                }
                let w = self.who(&args[0])?;
                Some(if name == "has_capture" {
                    Value::Cond(Cond::HasCapture(w))
                } else {
                    Value::Region(Region::FirstCaptures(w))
                })
            }
            "if" => {
                // if(CONDITION, NUMBER, NUMBER), if(CONDITION, PLACE, PLACE)
                self.arity(name, span, args, 3, "if(seeds(last) > 3, 2, 0)")?;
                let c = self.cond(&args[0]);
                let known = self.not_none.len();
                let named = c.iter().flat_map(|c| self.names_one(c)).collect::<Vec<_>>();
                self.not_none.extend(named);
                let a = self.value(&args[1]);
                self.not_none.truncate(known);
                match a? {
                    Value::Place(a) => {
                        let b = self.place(&args[2]);
                        Some(Value::Place(Place::If(
                            Box::new(c?),
                            Box::new(a),
                            Box::new(b?),
                        )))
                    }
                    Value::Num(a) => {
                        let b = self.num(&args[2]);
                        Some(Value::Num(Num::If(Box::new(c?), Box::new(a), Box::new(b?))))
                    }
                    other => self.wrong_kind(
                        &args[1],
                        "a number or a place",
                        &other,
                        "`if(C, 2, 0)` gives a number, `if(C, last, origin)` a place",
                    ),
                }
            }
            "sum" => {
                // sum(REGION, NUMBER on `here`)
                let usage = "sum(side(mover), seeds(here) % 2)";
                self.arity(name, span, args, 2, usage)?;
                let region = self.region_arg(&args[0])?;
                let n = self.num_on_here(&args[1])?;
                Some(Value::Num(Num::SumOver(region, Box::new(n))))
            }
            "count" | "pits" => {
                // count(REGION, CONDITION on `here`), pits(REGION, CONDITION on `here`)
                let usage = match name {
                    "count" => "count(inner(mover), seeds(here) >= 2)",
                    _ => "pits(side(mover), seeds(here) > 0)",
                };
                self.arity(name, span, args, 2, usage)?;
                let region = self.region_arg(&args[0])?;
                let c = Box::new(self.cond_on_here(&args[1])?);
                Some(match name {
                    "count" => Value::Num(Num::Count(region, c)),
                    _ => Value::Region(Region::Where(Box::new(region), c)),
                })
            }
            "ended" => {
                self.arity(name, span, args, 1, "ended(clear_win)")?;
                if !s.context.sees.ended {
                    return self.error(
                        Diagnostic::at(
                            span,
                            format!("`ended` means nothing {}", s.context.what),
                            "not ended here",
                        )
                        .hint("`ended(NAME)` asks which end rule ended the game or the round: at the `end`, `scored` and `round` moments and in `match ends when`"),
                    );
                }
                let word = args[0].as_word().unwrap_or_default();
                match s.ends.get(word) {
                    Some(&i) => Some(Value::Cond(Cond::Ended(i))),
                    None => {
                        let d = Diagnostic::at(
                            args[0].span,
                            format!("`{word}` is not an end rule"),
                            "no such end rule",
                        );
                        let mut names: Vec<&str> = s.ends.keys().map(String::as_str).collect();
                        names.sort_unstable();
                        let list = names.join(", ");
                        self.error(d.suggest(word, names, format!("the end rules: {list}")))
                    }
                }
            }
            "going" => {
                self.arity(name, span, args, 1, "going(forward)")?;
                if !s.context.sees.last {
                    return self.error(
                        Diagnostic::at(
                            span,
                            format!("`going` means nothing {}", s.context.what),
                            "no sowing here",
                        )
                        .hint("`going(…)` asks which way the sowing now going on runs"),
                    );
                }
                match args[0].as_word() {
                    Some("forward") => {
                        Some(Value::Cond(Cond::Going(crate::ir::Direction::Forward)))
                    }
                    Some("backward") => {
                        Some(Value::Cond(Cond::Going(crate::ir::Direction::Backward)))
                    }
                    _ => self.error(
                        Diagnostic::at(
                            args[0].span,
                            "a sowing goes `forward` or `backward` along the track",
                            "not a direction",
                        )
                        .hint("write `going(forward)`"),
                    ),
                }
            }
            "chose" => {
                self.arity(name, span, args, 1, "chose(L)")?;
                if !s.context.sees.chose {
                    return self.error(
                        Diagnostic::at(
                            span,
                            format!("`chose` means nothing {}", s.context.what),
                            "no turn here",
                        )
                        .hint("`chose(…)` asks how the turn was written"),
                    );
                }
                let mark = match &args[0].kind {
                    ExprKind::Word(w) | ExprKind::Str(w) => w.clone(),
                    _ => String::new(),
                };
                if let Some(i) = s.letters.iter().position(|l| *l == mark) {
                    Some(Value::Cond(Cond::Chose(i)))
                } else if let Some(i) = s.flags.iter().position(|f| *f == mark) {
                    Some(Value::Cond(Cond::Flagged(i)))
                } else {
                    let known: Vec<&str> = s
                        .letters
                        .iter()
                        .chain(s.flags.iter())
                        .map(String::as_str)
                        .collect();
                    self.error(
                        Diagnostic::at(args[0].span, format!("`{mark}` is not a letter or flag of the notation"), "undeclared mark")
                            .hint(if known.is_empty() {
                                "declare it in `notation { letter L: left }` or `notation { flag \"+\" }`".to_string()
                            } else {
                                format!("the notation declares: {}", known.join(" "))
                            }),
                    )
                }
            }
            "before" => {
                self.arity(name, span, args, 1, "before(seeds(side(opponent)))")?;
                if !s.context.sees.mover {
                    return self.error(
                        Diagnostic::at(
                            span,
                            format!("`before` means nothing {}", s.context.what),
                            "no turn here",
                        )
                        .hint("`before(…)` is a value at the start of the turn"),
                    );
                }
                match self.value(&args[0])? {
                    Value::Num(n) => Some(Value::Num(Num::Before(Box::new(n)))),
                    other => self.wrong_kind(
                        &args[0],
                        "a number",
                        &other,
                        "a count such as `seeds(side(opponent))`",
                    ),
                }
            }
            _ => {
                if let Some(&i) = s.regions.get(name) {
                    self.arity(name, span, args, 1, &format!("{name}(mover)"))?;
                    return Some(Value::Region(Region::Named(i, self.whose(&args[0])?)));
                }
                if let Some(&i) = s.named_pits.get(name) {
                    self.arity(name, span, args, 1, &format!("{name}(mover)"))?;
                    return Some(Value::Place(Place::Named(i, self.whose(&args[0])?)));
                }
                if let Some(def) = s.lets.get(name) {
                    return self.expand(name, def, args, e);
                }
                if let Some(i) = s.vars.iter().position(|v| v.name == name) {
                    return self.var(i, span, args);
                }
                // A built-in word given arguments (`total(south)`).
                if WORDS.contains(&name) {
                    return self.error(
                        Diagnostic::at(
                            span,
                            format!("`{name}` takes no arguments"),
                            "a word, not a function",
                        )
                        .hint(format!("write `{name}` alone")),
                    );
                }
                let candidates = FUNCTIONS
                    .iter()
                    .copied()
                    .chain(sorted(s.regions.keys()))
                    .chain(sorted(s.named_pits.keys()))
                    .chain(sorted(s.lets.keys()));
                // `name(player)` reads like a region or a named pit.
                let region_like = args.len() == 1 && {
                    let saved = self.diagnostics.len();
                    let is_player = matches!(self.value(&args[0]), Some(Value::Who(_)));
                    self.diagnostics.truncate(saved);
                    is_player
                };
                if region_like {
                    // In the order the file declares them (the maps have none).
                    let in_order = |m: &'a HashMap<String, usize>| {
                        let mut v: Vec<(usize, &'a str)> =
                            m.iter().map(|(k, &i)| (i, k.as_str())).collect();
                        v.sort_unstable();
                        v.into_iter().map(|(_, k)| k)
                    };
                    let known: Vec<&str> =
                        in_order(s.regions).chain(in_order(s.named_pits)).collect();
                    let mut d = Diagnostic::at(
                        span,
                        format!("no region or named pit is called `{name}`"),
                        "undeclared region",
                    );
                    let otherwise = if known.is_empty() {
                        format!(
                            "declare `region {name} {{ … }}` or a row group `row south {name}: …`"
                        )
                    } else {
                        format!(
                            "the file declares {}; or declare `region {name} {{ … }}`",
                            known.join(", ")
                        )
                    };
                    d = d.suggest(
                        name,
                        known.iter().copied().chain(FUNCTIONS.iter().copied()),
                        otherwise,
                    );
                    return self.error(d.kind(Kind::Unknown(name.into())));
                }
                let d = Diagnostic::unknown(
                    Some(span),
                    name,
                    format!("unknown function `{name}`"),
                    "not a function",
                    candidates,
                    format!(
                        "functions are {}, and the regions and named pits the file declares",
                        FUNCTIONS.join(", ")
                    ),
                );
                self.error(d)
            }
        }
    }

    fn binary(&mut self, op: BinaryOp, a: &Expr, b: &Expr, e: &Expr) -> Option<Value> {
        match op {
            BinaryOp::And | BinaryOp::Or => {
                // What the left of an `and` says names a player holds on
                // its right (`last_mover != none and seeds(side(last_mover)) …`),
                // and what the left of an `or` says names none fails on its
                // right (`round_winner == none or seeds(side(round_winner)) …`).
                let x = self.cond(a);
                let known = self.not_none.len();
                let named = x
                    .iter()
                    .flat_map(|c| match op {
                        BinaryOp::And => self.names_one(c),
                        _ => self.names_one(&Cond::Not(Box::new(c.clone()))),
                    })
                    .collect::<Vec<_>>();
                self.not_none.extend(named);
                let y = self.cond(b);
                self.not_none.truncate(known);
                let (x, y) = (x?, y?);
                let mut parts = Vec::new();
                for c in [x, y] {
                    match (op, c) {
                        (BinaryOp::And, Cond::And(v)) | (BinaryOp::Or, Cond::Or(v)) => {
                            parts.extend(v)
                        }
                        (_, c) => parts.push(c),
                    }
                }
                Some(Value::Cond(if op == BinaryOp::And {
                    Cond::And(parts)
                } else {
                    Cond::Or(parts)
                }))
            }
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => {
                let (x, y) = (self.num(a), self.num(b));
                let arith = match op {
                    BinaryOp::Add => ArithOp::Add,
                    BinaryOp::Sub => ArithOp::Sub,
                    BinaryOp::Mul => ArithOp::Mul,
                    BinaryOp::Div => ArithOp::Div,
                    _ => ArithOp::Rem,
                };
                // Numbers known when the file is read are worked out then
                // (`next(last, holes - 1)` takes a fixed number of steps).
                Some(Value::Num(match (x?, y?) {
                    (Num::Int(x), Num::Int(y)) => Num::Int(arith.apply(x, y)),
                    (x, y) => Num::Arith(arith, Box::new(x), Box::new(y)),
                }))
            }
            BinaryOp::Range => {
                let (x, y) = (self.num(a), self.num(b));
                let (x, y) = (x?, y?);
                if let (Num::Int(lo), Num::Int(hi)) = (&x, &y) {
                    if lo > hi {
                        return self.error(
                            Diagnostic::at(
                                e.span,
                                format!("the range {lo}..{hi} is empty"),
                                "no number lies in it",
                            )
                            .hint(format!("a range runs from low to high: `{hi}..{lo}`")),
                        );
                    }
                }
                Some(Value::Range(x, y))
            }
            BinaryOp::In => {
                let lhs = self.value(a)?;
                let rhs = self.value(b)?;
                match (lhs, rhs) {
                    (Value::Num(n), Value::Range(lo, hi)) => {
                        if let (Num::Int(lo), Some(max)) = (&lo, never_above(&n)) {
                            if *lo > max {
                                return self.never(e, "the number can never reach the range");
                            }
                        }
                        Some(Value::Cond(Cond::InRange(n, lo, hi)))
                    }
                    (Value::Place(p), Value::Region(r)) => Some(Value::Cond(Cond::PlaceIn(p, r))),
                    (l, r) => {
                        let d = Diagnostic::at(
                            e.span,
                            format!("cannot ask whether {} is in {}", l.kind(), r.kind()),
                            "mismatched `in`",
                        )
                        .hint("write `number in low..high` or `place in region`");
                        self.error(d)
                    }
                }
            }
            BinaryOp::Eq
            | BinaryOp::Ne
            | BinaryOp::Lt
            | BinaryOp::Le
            | BinaryOp::Gt
            | BinaryOp::Ge => {
                let cmp = match op {
                    BinaryOp::Eq => CmpOp::Eq,
                    BinaryOp::Ne => CmpOp::Ne,
                    BinaryOp::Lt => CmpOp::Lt,
                    BinaryOp::Le => CmpOp::Le,
                    BinaryOp::Gt => CmpOp::Gt,
                    _ => CmpOp::Ge,
                };
                let equality = matches!(cmp, CmpOp::Eq | CmpOp::Ne);
                if equality {
                    self.option_in_range(a, b, e)?;
                }
                let lhs = self.value(a);
                let rhs = self.value(b);
                let (lhs, rhs) = (lhs?, rhs?);
                let wrap = |c: Cond| {
                    if cmp == CmpOp::Ne {
                        Cond::Not(Box::new(c))
                    } else {
                        c
                    }
                };
                match (lhs, rhs) {
                    (Value::Setting(i), Value::Keyword(w))
                    | (Value::Keyword(w), Value::Setting(i))
                        if equality =>
                    {
                        // An option is known before the game: the comparison is a constant.
                        let o = &self.scope.settings[i];
                        if !o.choices.allows(&w) {
                            let mut d = Diagnostic::at(
                                e.span,
                                format!("`{w}` is not a value of option `{}`", o.name),
                                "unknown value",
                            );
                            if let crate::ir::Choices::Words(values) = &o.choices {
                                d = d.suggest(
                                    &w,
                                    values.iter().map(String::as_str),
                                    format!("`{}` is one of: {}", o.name, values.join(", ")),
                                );
                            }
                            return self.error(d);
                        }
                        let holds = Cond::True;
                        Some(Value::Cond(if (o.value == w) == (cmp == CmpOp::Eq) {
                            holds
                        } else {
                            Cond::Not(Box::new(holds))
                        }))
                    }
                    (Value::Var(v, at), Value::Keyword(w))
                    | (Value::Keyword(w), Value::Var(v, at))
                        if equality =>
                    {
                        let var = &self.scope.vars[v];
                        match var.values.iter().position(|x| *x == w) {
                            Some(value) => Some(Value::Cond(wrap(Cond::VarIs(v, at, value)))),
                            None => {
                                let mut d = Diagnostic::at(
                                    e.span,
                                    format!("`{w}` is not a value of `{}`", var.name),
                                    "unknown value",
                                );
                                d = d.suggest(
                                    &w,
                                    var.values.iter().map(String::as_str),
                                    format!("`{}` is one of: {}", var.name, var.values.join(", ")),
                                );
                                self.error(d)
                            }
                        }
                    }
                    // A variable valued by the players' names, and a player:
                    // it holds that player's name.
                    (Value::Var(v, at), Value::Who(w)) | (Value::Who(w), Value::Var(v, at))
                        if equality =>
                    {
                        let values = self.player_values(v, e)?;
                        Some(Value::Cond(wrap(Cond::Or(
                            (0..2)
                                .map(|p| {
                                    Cond::And(vec![
                                        Cond::SamePlayer(w.clone(), Who::Player(p as Player)),
                                        Cond::VarIs(v, at.clone(), values[p]),
                                    ])
                                })
                                .collect(),
                        ))))
                    }
                    (Value::Num(x), Value::Num(y)) => {
                        if let Some(d) = impossible(cmp, &x, &y) {
                            return self.never(e, &d);
                        }
                        Some(Value::Cond(Cond::Compare(cmp, x, y)))
                    }
                    (Value::Place(x), Value::Place(y)) if equality => {
                        Some(Value::Cond(wrap(Cond::SamePlace(x, y))))
                    }
                    (Value::Who(x), Value::Who(y)) if equality => {
                        Some(Value::Cond(wrap(Cond::SamePlayer(x, y))))
                    }
                    (Value::Keyword(w), _) => self.wrong_kind(
                        a,
                        "a value",
                        &Value::Keyword(w),
                        "a number, place or player",
                    ),
                    (_, Value::Keyword(w)) => self.wrong_kind(
                        b,
                        "a value",
                        &Value::Keyword(w),
                        "a number, place or player",
                    ),
                    (l, r) => {
                        let d = Diagnostic::at(
                            e.span,
                            format!("cannot compare {} with {}", l.kind(), r.kind()),
                            "mismatched comparison",
                        )
                        .hint(if l.kind() == r.kind() {
                            "places and players compare only with `==` and `!=`".to_string()
                        } else {
                            "compare numbers with numbers, places with places, players with players (`seeds(…)` turns a place into a number)".to_string()
                        });
                        self.error(d)
                    }
                }
            }
        }
    }

    /// The indices of the players' names among a variable's values, when
    /// both are values of it; else an error at `e`.
    pub fn player_values(&mut self, v: usize, e: &Expr) -> Option<[usize; 2]> {
        let var = &self.scope.vars[v];
        let players = self.scope.players;
        // (A solitaire's second seat, which never moves, reads as its one
        // player.)
        let name = |p: usize| &players[p.min(players.len() - 1)];
        let at = |p: usize| var.values.iter().position(|x| x == name(p));
        if let (Some(a), Some(b)) = (at(0), at(1)) {
            return Some([a, b]);
        }
        let d = Diagnostic::at(
            e.span,
            format!(
                "`{}`'s values are not the players' names: it holds no player",
                var.name
            ),
            "not a player's variable",
        )
        .hint(format!(
            "compare it with one of its values ({}), or name its values {}",
            var.values.join(", "),
            crate::ir::Rules::players_text(players)
        ));
        self.error(d);
        None
    }

    /// A variable's instance: `name(player)`, `name(pit)` or `name`.
    pub fn var(&mut self, i: usize, span: Span, args: &[Expr]) -> Option<Value> {
        use crate::ir::VarAt;
        // A variable holding a number is a number (`wins(south) + 1`),
        // but for every pit of a region at once, which only `set` takes.
        Some(match self.var_at(i, span, args)? {
            Value::Var(i, at) if self.scope.vars[i].numbers.is_some() => match at {
                VarAt::Pits(r) => Value::Var(i, VarAt::Pits(r)),
                at @ (VarAt::Game | VarAt::Player(_) | VarAt::Pit(_)) => {
                    Value::Num(Num::Var(i, at))
                }
            },
            other => other,
        })
    }

    fn var_at(&mut self, i: usize, span: Span, args: &[Expr]) -> Option<Value> {
        use crate::ir::{VarAt, VarScope};
        let var = &self.scope.vars[i];
        let name = var.name.clone();
        match var.scope {
            VarScope::Game => {
                self.arity(&name, span, args, 0, &name)?;
                Some(Value::Var(i, VarAt::Game))
            }
            VarScope::Player => {
                self.arity(&name, span, args, 1, &format!("{name}(mover)"))?;
                Some(Value::Var(i, VarAt::Player(self.whose(&args[0])?)))
            }
            VarScope::Pit => {
                self.arity(&name, span, args, 1, &format!("{name}(last)"))?;
                match self.value(&args[0])? {
                    Value::Place(p) => Some(Value::Var(i, VarAt::Pit(p))),
                    // Every pit of a region: only `set` takes it.
                    Value::Region(r) => Some(Value::Var(i, VarAt::Pits(r))),
                    other => self.wrong_kind(
                        &args[0],
                        "a place or a region",
                        &other,
                        "`last` or `side(mover)`",
                    ),
                }
            }
        }
    }

    fn never<T>(&mut self, e: &Expr, why: &str) -> Option<T> {
        self.error(
            Diagnostic::at(e.span, "this condition can never hold", why.to_string())
                .hint("seed counts are never negative; check the bound"),
        );
        None
    }
}

/// The largest value a number can take, where that is known (it is never
/// above this); `None` when unbounded.
fn never_above(n: &Num) -> Option<i64> {
    match n {
        Num::Int(k) => Some(*k),
        _ => None,
    }
}

/// Why a comparison between counts can never hold, if it cannot.
fn impossible(cmp: CmpOp, x: &Num, y: &Num) -> Option<String> {
    let count = |n: &Num| {
        matches!(
            n,
            Num::Seeds(_) | Num::SeedsIn(_) | Num::Hand(_) | Num::Total | Num::OutOfPlay
        )
    };
    match (x, y) {
        (n, Num::Int(k)) if count(n) => match cmp {
            CmpOp::Lt if *k <= 0 => Some(format!("a count is never below {k}")),
            CmpOp::Le | CmpOp::Eq if *k < 0 => Some(format!("a count is never {k} or less")),
            _ => None,
        },
        (Num::Int(k), n) if count(n) => match cmp {
            CmpOp::Gt if *k <= 0 => Some(format!("a count is never below {k}")),
            CmpOp::Ge | CmpOp::Eq if *k < 0 => Some(format!("a count is never {k} or less")),
            _ => None,
        },
        _ => None,
    }
}
