//! The forms a position and a turn take: JSON (the contract for
//! programs), the text board, an SVG picture, turn notation, turns
//! numbered and positions as numbers (for learning programs).

pub mod actions;
pub mod json;
pub mod notation;
pub mod render;
pub mod svg;
pub mod tensor;
