//! Syntax: the pest grammar (`grammar/sow.pest`) and the syntax tree.

pub mod ast;
mod parser;

pub use parser::parse;
