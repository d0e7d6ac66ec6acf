//! The syntax tree of a variant file: statements and expressions with byte
//! spans, as written. Nothing here knows what a statement means.

use crate::diagnostic::Span;

/// One statement: `word args… [: tail…] [{ block }]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Statement {
    /// The leading word (`board`, `rule`, `capture`, …).
    pub word: Word,
    /// Arguments before the separator.
    pub args: Vec<Expr>,
    /// Arguments after `:` or `=`, with the separator's span.
    pub tail: Option<(Span, Vec<Expr>)>,
    /// Whether the separator is `=` (rather than `:`).
    pub equals: bool,
    /// Nested statements in braces, with the span of the braces.
    pub block: Option<(Span, Vec<Statement>)>,
    /// The whole statement.
    pub span: Span,
}

/// A word with its span.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    /// The text.
    pub name: String,
    /// Where it stands.
    pub span: Span,
}

/// An expression with its span.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    /// What kind of expression.
    pub kind: ExprKind,
    /// Where it stands.
    pub span: Span,
}

/// The kinds of expression.
#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    /// A whole number.
    Int(i64),
    /// A quoted string.
    Str(String),
    /// A bare word: a name, a label, a keyword argument.
    Word(String),
    /// `name(args…)`.
    Call(Word, Vec<Expr>),
    /// `not e`, `-e`.
    Unary(UnaryOp, Box<Expr>),
    /// `a op b`.
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
}

/// Prefix operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnaryOp {
    /// `not`
    Not,
    /// `-`
    Neg,
}

/// Infix operators, loosest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryOp {
    /// `or`
    Or,
    /// `and`
    And,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `in`
    In,
    /// `..`
    Range,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
}

impl BinaryOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Or => "or",
            BinaryOp::And => "and",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::In => "in",
            BinaryOp::Range => "..",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
        }
    }
}

impl Expr {
    /// The expression's text when it is a bare word.
    pub fn as_word(&self) -> Option<&str> {
        match &self.kind {
            ExprKind::Word(w) => Some(w),
            _ => None,
        }
    }
}
