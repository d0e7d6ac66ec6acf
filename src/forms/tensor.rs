//! A position as numbers, for learning programs (OpenSpiel's observation
//! tensor): the seeds of each cell (pits in board order, then the stores),
//! each player's hand, each variable's value (the index of its value, slot
//! by slot: a pit's state, such as a house still standing), then who is to
//! move, one number a player (1 for the one to move). The length is fixed
//! by the variant.

use crate::engine::Position;
use crate::Variant;

/// How many numbers a position of `v` is.
pub fn size(v: &Variant) -> usize {
    let start = v.engine.start_position();
    start.cells.len() + 2 + start.vars.len() + 2
}

/// Writes `pos` as numbers into `out` (cleared first).
pub fn write(pos: &Position, out: &mut Vec<f32>) {
    out.clear();
    out.extend(pos.cells.iter().map(|&c| c as f32));
    out.extend(pos.hands.iter().map(|&h| h as f32));
    out.extend(pos.vars.iter().map(|&x| x as f32));
    out.extend((0..2).map(|p| (pos.to_move == Some(p)) as u8 as f32));
}
