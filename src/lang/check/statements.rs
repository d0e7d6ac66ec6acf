//! The statements of a variant file, as one table: the checker dispatches
//! on it, and composition (`crate::load`) reads from it which statements
//! are found by a name, which stand once in a file, and which hold lines a
//! file can change one by one.

/// The kinds of top-level statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatementKind {
    /// `variant NAME`
    Variant,
    /// `title "…"`
    Title,
    /// `players A B`
    Players,
    /// `board { row …; store …; mark … }`
    Board,
    /// `region NAME { P: labels }`
    Region,
    /// `pit NAME { P: label }`
    Pit,
    /// `let NAME(params) = EXPR`
    Let,
    /// `var NAME per SCOPE: values`
    Var,
    /// `phase NAME [when C]`
    Phase,
    /// `setup { seeds …; hands …; first …; total … }`
    Setup,
    /// `track [OWNER]: places`
    Track,
    /// `sow { take …; direction …; skip …; enter … }`
    Sow,
    /// `notation { letter …; flag …; ignore … }`
    Notation,
    /// `option NAME default V: values`
    Option,
    /// `rule NAME at MOMENT … { actions }`
    Rule,
    /// `end NAME [at once] when C [winner|loser P]`
    End,
    /// `score N`
    Score,
    /// `estimate N`
    Estimate,
    /// `endless: POLICY`
    Endless,
    /// `pass when C`
    Pass,
    /// `put N from hand|store into REGION [when C]`
    Put,
    /// `take all|N from REGION [to PLACE] [when C]`
    Take,
    /// `owner follows VAR`
    Owner,
    /// `match ends when C`
    Match,
}

/// How a base's statement is found again, to be replaced or removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// By its word and the name after it (`rule capture`, `let f`).
    Named,
    /// By its word: a file has one (`board`, `score`).
    Once,
    /// By its word and the owner after it, if any (`track south`).
    Owner,
}

/// One statement of the table.
#[derive(Debug, Clone, Copy)]
pub struct StatementSpec {
    /// The word that begins it.
    pub word: &'static str,
    /// What it is.
    pub kind: StatementKind,
    /// How composition finds it.
    pub key: Key,
    /// Its block's lines can be changed one by one (`replace setup hands 10`).
    pub lines: bool,
}

const fn spec(word: &'static str, kind: StatementKind, key: Key, lines: bool) -> StatementSpec {
    StatementSpec {
        word,
        kind,
        key,
        lines,
    }
}

/// Every top-level statement.
pub const STATEMENTS: &[StatementSpec] = &[
    spec("variant", StatementKind::Variant, Key::Once, false),
    spec("title", StatementKind::Title, Key::Once, false),
    spec("players", StatementKind::Players, Key::Once, false),
    spec("board", StatementKind::Board, Key::Once, true),
    spec("region", StatementKind::Region, Key::Named, false),
    spec("pit", StatementKind::Pit, Key::Named, false),
    spec("let", StatementKind::Let, Key::Named, false),
    spec("var", StatementKind::Var, Key::Named, false),
    spec("phase", StatementKind::Phase, Key::Named, false),
    spec("setup", StatementKind::Setup, Key::Once, true),
    spec("track", StatementKind::Track, Key::Owner, false),
    spec("sow", StatementKind::Sow, Key::Once, true),
    spec("notation", StatementKind::Notation, Key::Once, true),
    spec("rule", StatementKind::Rule, Key::Named, false),
    spec("end", StatementKind::End, Key::Named, false),
    spec("score", StatementKind::Score, Key::Once, false),
    spec("estimate", StatementKind::Estimate, Key::Once, false),
    spec("endless", StatementKind::Endless, Key::Once, false),
    spec("pass", StatementKind::Pass, Key::Once, false),
    spec("put", StatementKind::Put, Key::Once, false),
    spec("take", StatementKind::Take, Key::Once, false),
    spec("owner", StatementKind::Owner, Key::Once, false),
    spec("match", StatementKind::Match, Key::Once, false),
    spec("option", StatementKind::Option, Key::Named, false),
];

/// The words that build on another variant (resolved when a variant is
/// loaded, see `crate::load`).
pub const CHANGES: &[&str] = &["extends", "replace", "remove", "add"];

/// The statement a word begins, if it begins one.
pub fn statement(word: &str) -> Option<&'static StatementSpec> {
    STATEMENTS.iter().find(|s| s.word == word)
}

/// The words a misspelt top-level word may have meant: the statements, and
/// the words that build on another variant.
pub fn suggested() -> impl Iterator<Item = &'static str> {
    STATEMENTS
        .iter()
        .map(|s| s.word)
        .chain(CHANGES.iter().copied())
}
