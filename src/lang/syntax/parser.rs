//! Turns pest's parse tree into the syntax tree, and pest's errors into
//! diagnostics that name what was expected in words.

use pest::iterators::Pair;
use pest::Parser as _;

use super::ast::{BinaryOp, Expr, ExprKind, Statement, UnaryOp, Word};
use crate::diagnostic::{Diagnostic, Kind, Span};

#[derive(pest_derive::Parser)]
#[grammar = "grammar/sow.pest"]
struct SowParser;

/// How deep brackets and expressions may nest. Far beyond any real rule;
/// it keeps parsing and checking within the stack.
pub use crate::limits::MAX_NESTING as MAX_DEPTH;

/// Parses a variant file into statements.
pub fn parse(source: &str) -> Result<Vec<Statement>, Diagnostic> {
    too_deep(source)?;
    let mut pairs = SowParser::parse(Rule::file, source).map_err(|e| syntax_error(source, e))?;
    let file = pairs.next().expect("the file rule matched");
    file.into_inner()
        .filter(|p| p.as_rule() == Rule::statement)
        .map(statement)
        .collect()
}

fn nested_too_deep(at: Span) -> Diagnostic {
    Diagnostic::at(at, format!("nested more than {MAX_DEPTH} deep"), "too deep")
        .hint("split the expression with `let` definitions")
        .kind(Kind::Limit)
}

/// Brackets nested beyond [`MAX_DEPTH`], found before the parser recurses
/// into them.
fn too_deep(source: &str) -> Result<(), Diagnostic> {
    let (mut depth, mut in_string, mut in_comment) = (0usize, false, false);
    let mut escaped = false;
    for (i, c) in source.char_indices() {
        match c {
            // A line ends comments and strings (the grammar's NEWLINE:
            // `\n`, `\r\n` or `\r` alone).
            '\n' | '\r' => (in_comment, in_string) = (false, false),
            _ if in_comment => {}
            '"' if !escaped => in_string = !in_string,
            '#' if !in_string => in_comment = true,
            '(' | '{' if !in_string => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(nested_too_deep(Span::new(i, i + 1)));
                }
            }
            ')' | '}' if !in_string => depth = depth.saturating_sub(1),
            _ => {}
        }
        escaped = in_string && c == '\\' && !escaped;
    }
    Ok(())
}

fn span(pair: &Pair<Rule>) -> Span {
    let s = pair.as_span();
    Span::new(s.start(), s.end())
}

fn word(pair: Pair<Rule>) -> Word {
    Word {
        name: pair.as_str().to_string(),
        span: span(&pair),
    }
}

fn statement(pair: Pair<Rule>) -> Result<Statement, Diagnostic> {
    let whole = span(&pair);
    let mut inner = pair.into_inner();
    let head = word(inner.next().expect("a statement starts with a word"));
    let mut stmt = Statement {
        word: head,
        args: Vec::new(),
        tail: None,
        equals: false,
        block: None,
        span: whole,
    };
    for p in inner {
        match p.as_rule() {
            Rule::expr | Rule::keyword => stmt.args.push(arg(p)?),
            Rule::separator => {
                stmt.equals = p.as_str().starts_with('=');
                stmt.tail = Some((span(&p), Vec::new()));
            }
            Rule::tail => {
                let args = p.into_inner().map(arg).collect::<Result<_, _>>()?;
                if let Some((_, tail)) = &mut stmt.tail {
                    *tail = args;
                }
            }
            Rule::block => {
                let s = span(&p);
                let body = p
                    .into_inner()
                    .filter(|q| q.as_rule() == Rule::statement)
                    .map(statement)
                    .collect::<Result<_, _>>()?;
                stmt.block = Some((s, body));
            }
            other => unreachable!("statement child {other:?}"),
        }
    }
    Ok(stmt)
}

/// An argument: a keyword (kept as a word) or an expression.
fn arg(pair: Pair<Rule>) -> Result<Expr, Diagnostic> {
    if pair.as_rule() == Rule::keyword {
        return Ok(Expr {
            kind: ExprKind::Word(pair.as_str().to_string()),
            span: span(&pair),
        });
    }
    expr(pair, 0)
}

/// Binding power of each infix operator (higher binds tighter).
fn infix(rule: Rule) -> (BinaryOp, u8) {
    match rule {
        Rule::or => (BinaryOp::Or, 1),
        Rule::and => (BinaryOp::And, 2),
        Rule::eq => (BinaryOp::Eq, 4),
        Rule::ne => (BinaryOp::Ne, 4),
        Rule::lt => (BinaryOp::Lt, 4),
        Rule::le => (BinaryOp::Le, 4),
        Rule::gt => (BinaryOp::Gt, 4),
        Rule::ge => (BinaryOp::Ge, 4),
        Rule::in_ => (BinaryOp::In, 4),
        Rule::range => (BinaryOp::Range, 5),
        Rule::add => (BinaryOp::Add, 6),
        Rule::sub => (BinaryOp::Sub, 6),
        Rule::mul => (BinaryOp::Mul, 7),
        Rule::div => (BinaryOp::Div, 7),
        Rule::rem => (BinaryOp::Rem, 7),
        other => unreachable!("not an infix operator: {other:?}"),
    }
}

/// `not` binds looser than comparisons, `-` tighter than everything.
const NOT_POWER: u8 = 3;
const NEG_POWER: u8 = 8;

/// An expression, `depth` levels inside others.
fn expr(pair: Pair<Rule>, depth: usize) -> Result<Expr, Diagnostic> {
    let mut tokens = pair.into_inner().peekable();
    climb(&mut tokens, 0, depth)
}

type Tokens<'i> = std::iter::Peekable<pest::iterators::Pairs<'i, Rule>>;

fn climb(tokens: &mut Tokens, min_power: u8, depth: usize) -> Result<Expr, Diagnostic> {
    let mut lhs = unary(tokens, depth)?;
    // Each operator adds a level to the tree (`a and b and c` is two deep).
    let mut levels = depth;
    while let Some(op) = tokens.peek() {
        let (op, power) = infix(op.as_rule());
        if power <= min_power {
            break;
        }
        tokens.next();
        levels += 1;
        let rhs = climb(tokens, power, levels)?;
        if levels > MAX_DEPTH {
            return Err(nested_too_deep(lhs.span.to(rhs.span)));
        }
        let s = lhs.span.to(rhs.span);
        lhs = Expr {
            kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
            span: s,
        };
    }
    Ok(lhs)
}

fn unary(tokens: &mut Tokens, depth: usize) -> Result<Expr, Diagnostic> {
    let next = tokens.next().expect("an operand");
    let (op, power) = match next.as_rule() {
        Rule::not => (UnaryOp::Not, NOT_POWER),
        Rule::neg => (UnaryOp::Neg, NEG_POWER),
        _ => return primary(next, depth),
    };
    let start = span(&next);
    if depth > MAX_DEPTH {
        return Err(nested_too_deep(start));
    }
    let operand = climb(tokens, power, depth + 1)?;
    let s = start.to(operand.span);
    Ok(Expr {
        kind: ExprKind::Unary(op, Box::new(operand)),
        span: s,
    })
}

fn primary(pair: Pair<Rule>, depth: usize) -> Result<Expr, Diagnostic> {
    let s = span(&pair);
    let kind = match pair.as_rule() {
        Rule::int => match pair.as_str().parse::<i64>() {
            Ok(n) => ExprKind::Int(n),
            // Too large to be a count: the checker rejects it by range.
            Err(_) => ExprKind::Int(i64::MAX),
        },
        Rule::string => {
            let raw = pair.into_inner().next().map_or("", |p| p.as_str());
            ExprKind::Str(unescape(raw))
        }
        Rule::word => ExprKind::Word(pair.as_str().to_string()),
        Rule::call => {
            let mut inner = pair.into_inner();
            let name = word(inner.next().expect("a callee"));
            let args = inner
                .map(|a| expr(a, depth + 1))
                .collect::<Result<_, _>>()?;
            ExprKind::Call(name, args)
        }
        Rule::expr => return expr(pair, depth + 1),
        other => unreachable!("not a primary: {other:?}"),
    };
    Ok(Expr { kind, span: s })
}

fn unescape(raw: &str) -> String {
    let mut out = String::new();
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some(other) => out.push(other),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// What each grammar rule is, in words a user understands. Exhaustive on
/// purpose: a new grammar rule must be given a name here.
fn describe(rule: Rule) -> &'static str {
    match rule {
        Rule::EOI => "the end of the file",
        Rule::WHITESPACE => "a space",
        Rule::COMMENT => "a comment",
        Rule::file => "a variant file",
        Rule::statements => "statements",
        Rule::end_of_statement => "the end of the line or `;`",
        Rule::arg => "an argument",
        Rule::keyword => "a keyword such as `when`",
        Rule::infix => "an operator",
        Rule::prefix => "`not` or `-`",
        Rule::primary => "a value",
        Rule::word_char => "a letter or digit",
        Rule::word_end => "the end of a word",
        Rule::statement => "a statement",
        Rule::tail => "arguments",
        Rule::separator => "`:` or `=`",
        Rule::block => "a `{ … }` block",
        Rule::expr => "an expression",
        Rule::call => "a call such as `seeds(last)`",
        Rule::callee => "a name followed by `(`",
        Rule::range => "`..`",
        Rule::eq => "`==`",
        Rule::ne => "`!=`",
        Rule::le => "`<=`",
        Rule::ge => "`>=`",
        Rule::lt => "`<`",
        Rule::gt => "`>`",
        Rule::add => "`+`",
        Rule::sub => "`-`",
        Rule::mul => "`*`",
        Rule::div => "`/`",
        Rule::rem => "`%`",
        Rule::and => "`and`",
        Rule::or => "`or`",
        Rule::in_ => "`in`",
        Rule::not => "`not`",
        Rule::neg => "`-`",
        Rule::reserved => "a reserved word",
        Rule::word => "a name",
        Rule::word_chars => "a name",
        Rule::int => "a number",
        Rule::string => "a quoted string",
        Rule::inner => "the text of a string",
    }
}

fn syntax_error(source: &str, err: pest::error::Error<Rule>) -> Diagnostic {
    use pest::error::{ErrorVariant, InputLocation};
    let at = match err.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let found = describe_found(source, at);
    let (message, hint) = match &err.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            // Operators are many and rarely what was meant: name them once.
            let operator = |r: &Rule| {
                matches!(
                    r,
                    Rule::range
                        | Rule::eq
                        | Rule::ne
                        | Rule::le
                        | Rule::ge
                        | Rule::lt
                        | Rule::gt
                        | Rule::add
                        | Rule::sub
                        | Rule::mul
                        | Rule::div
                        | Rule::rem
                        | Rule::and
                        | Rule::or
                        | Rule::in_
                )
            };
            let mut expected: Vec<&str> = positives
                .iter()
                .filter(|r| !operator(r))
                .map(|r| describe(*r))
                .collect();
            if positives.iter().any(operator) {
                expected.push("an operator");
            }
            expected.sort_unstable();
            expected.dedup();
            let list = match expected.len() {
                0 => "something else".to_string(),
                1 => expected[0].to_string(),
                _ => {
                    let (last, rest) = expected.split_last().expect("two or more");
                    format!("{} or {}", rest.join(", "), last)
                }
            };
            (
                format!("syntax error: unexpected {found}"),
                format!("expected {list} here"),
            )
        }
        ErrorVariant::CustomError { message } => (message.clone(), String::new()),
    };
    // `extends base.sow`: a path unquoted.
    let line = &source[source[..at].rfind('\n').map_or(0, |i| i + 1)..];
    let line = line.lines().next().unwrap_or("").trim();
    let hint = match line.strip_prefix("extends") {
        Some(path) if source[at..].starts_with(['.', '/']) => {
            let path = path.trim().split('#').next().unwrap_or("").trim();
            let quoted = format!("a path goes in quotes: `extends \"{path}\"`");
            match path.strip_suffix(".sow") {
                Some(name) if !name.contains('/') => format!(
                    "{quoted}; a shipped variant, or a file beside this one, is named without `.sow`: `extends {name}`"
                ),
                _ => quoted,
            }
        }
        _ => hint,
    };
    let end = (at + source[at..].chars().next().map_or(0, char::len_utf8)).min(source.len());
    let mut d = Diagnostic::at(Span::new(at, end), message, format!("unexpected {found}"))
        .kind(Kind::Syntax);
    if !hint.is_empty() {
        d = d.hint(hint);
    }
    d
}

fn describe_found(source: &str, at: usize) -> String {
    match source[at..].chars().next() {
        None => "end of file".to_string(),
        Some('\n') | Some('\r') => "end of line".to_string(),
        Some(c) => format!("`{c}`"),
    }
}
