//! The forms a position and a turn take: JSON (the contract for
//! programs), the text board, an SVG picture, and turn notation.

pub mod json;
pub mod notation;
pub mod render;
pub mod svg;
