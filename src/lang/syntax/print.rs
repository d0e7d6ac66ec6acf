//! Writes statements back as a variant file: what `sow show` prints. The
//! text parses to the same statements (spans aside); comments are not kept.

use super::ast::{BinaryOp, Expr, ExprKind, Statement, UnaryOp};

/// Binding power of an infix operator, as the parser has it.
fn power(op: BinaryOp) -> u8 {
    match op {
        BinaryOp::Or => 1,
        BinaryOp::And => 2,
        BinaryOp::Eq
        | BinaryOp::Ne
        | BinaryOp::Lt
        | BinaryOp::Le
        | BinaryOp::Gt
        | BinaryOp::Ge
        | BinaryOp::In => 4,
        BinaryOp::Range => 5,
        BinaryOp::Add | BinaryOp::Sub => 6,
        BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => 7,
    }
}

/// `not` binds looser than comparisons (3), `-` tighter than everything.
const NOT_POWER: u8 = 3;

/// Statements as text, one a line, blocks indented by two spaces.
pub fn print(statements: &[Statement]) -> String {
    let mut out = String::new();
    for s in statements {
        statement(&mut out, s, 0);
    }
    out
}

fn statement(out: &mut String, s: &Statement, indent: usize) {
    out.push_str(&"  ".repeat(indent));
    out.push_str(&s.word.name);
    for a in &s.args {
        out.push(' ');
        out.push_str(&expr(a));
    }
    if let Some((_, tail)) = &s.tail {
        out.push_str(if s.equals { " =" } else { ":" });
        for a in tail {
            out.push(' ');
            out.push_str(&expr(a));
        }
    }
    if let Some((_, block)) = &s.block {
        out.push_str(" {\n");
        for b in block {
            statement(out, b, indent + 1);
        }
        out.push_str(&"  ".repeat(indent));
        out.push('}');
    }
    out.push('\n');
}

/// An expression as text, with brackets only where the parser needs them.
pub fn expr(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Int(n) => n.to_string(),
        ExprKind::Str(s) => {
            let escaped = s
                .replace('\\', "\\\\")
                .replace('"', "\\\"")
                .replace('\n', "\\n");
            format!("\"{escaped}\"")
        }
        ExprKind::Word(w) => w.clone(),
        ExprKind::Call(name, args) => {
            let args: Vec<String> = args.iter().map(expr).collect();
            format!("{}({})", name.name, args.join(", "))
        }
        ExprKind::Unary(UnaryOp::Not, a) => {
            // The operand of `not` stops at `and` and `or`.
            format!("not {}", operand(a, NOT_POWER, true))
        }
        ExprKind::Unary(UnaryOp::Neg, a) => format!("-{}", operand(a, u8::MAX, true)),
        ExprKind::Binary(op, a, b) => {
            let p = power(*op);
            // Left-associative: a left operand as tight binds without
            // brackets; a right one needs them.
            format!(
                "{} {} {}",
                operand(a, p, false),
                op.symbol(),
                operand(b, p, true)
            )
        }
    }
}

/// An operand of an operator of power `p`, bracketed when it would not
/// stay whole: an infix operator looser than `p` (or as loose, on the
/// right), or a `not` under a tighter operator.
fn operand(e: &Expr, p: u8, right: bool) -> String {
    let bracket = match &e.kind {
        ExprKind::Binary(op, ..) => power(*op) < p || (right && power(*op) == p),
        ExprKind::Unary(UnaryOp::Not, _) => p > NOT_POWER,
        _ => false,
    };
    if bracket {
        format!("({})", expr(e))
    } else {
        expr(e)
    }
}
