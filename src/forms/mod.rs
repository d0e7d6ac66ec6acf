//! The forms a position and a turn take: JSON (the contract for
//! programs), the text board, an SVG picture, turn notation, and turns
//! numbered (for programs that name moves by number).

pub mod actions;
pub mod json;
pub mod notation;
pub mod render;
pub mod svg;
