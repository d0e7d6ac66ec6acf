//! Syntax: the pest grammar (`grammar/sow.pest`) and the syntax tree.

pub mod ast;
mod parser;
mod print;

pub use parser::parse;
pub use print::{expr as print_expr, print};
