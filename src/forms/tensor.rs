//! A position as numbers, for learning programs (OpenSpiel's observation
//! tensor): the seeds of each cell (pits in board order, then the stores),
//! each player's hand, each variable's value (the index of its value, slot
//! by slot: a pit's state, such as a house still standing), then who is to
//! move, one number a player (1 for the one to move).
//!
//! Where a flag is answered at each sowing, a turn is chosen by several
//! numbers (see [`crate::actions`]), and the turn half chosen is part of
//! the state: then follow 1 while a turn is half chosen (else 0 and the
//! rest 0), its pit (one number a pit, 1 for the pit), its letter (one
//! number for none and one a letter), its other flags (one a flag), the
//! flag's answers so far (one a sowing, 1 to 31: 1 where flagged) and the
//! sowings answered (one a sowing: 1 up to the last answered). The length
//! is fixed by the variant.

use crate::actions::Partial;
use crate::engine::{Position, Turn};
use crate::Variant;

/// How many numbers a position of `v` is.
pub fn size(v: &Variant) -> usize {
    let start = v.engine.start_position();
    start.cells.len() + 2 + start.vars.len() + 2 + choosing(v)
}

/// How many numbers say the turn half chosen (none where a turn is one
/// number).
fn choosing(v: &Variant) -> usize {
    let (r, n) = (&v.engine.rules, &v.engine.rules.notation);
    match n.per_sowing {
        Some(_) => {
            let sowings = 2 * Turn::MARKED_SOWINGS as usize;
            1 + r.pits.len() + n.letters.len() + 1 + (n.flags.len() - 1) + sowings
        }
        None => 0,
    }
}

/// Writes `pos` of `v` as numbers into `out` (cleared first), with the
/// turn half chosen in it.
pub fn write(v: &Variant, pos: &Position, partial: Option<Partial>, out: &mut Vec<f32>) {
    out.clear();
    out.extend(pos.cells.iter().map(|&c| c as f32));
    out.extend(pos.hands.iter().map(|&h| h as f32));
    out.extend(pos.vars.iter().map(|&x| x as f32));
    out.extend((0..2).map(|p| (pos.to_move == Some(p)) as u8 as f32));
    let (r, n) = (&v.engine.rules, &v.engine.rules.notation);
    let Some(per_sowing) = n.per_sowing else {
        return;
    };
    let start = out.len();
    out.resize(start + choosing(v), 0.0);
    let Some(p) = partial else {
        return;
    };
    let t = p.turn();
    let one = |b: bool| b as u8 as f32;
    let mut at = start;
    out[at] = 1.0;
    at += 1;
    for k in 0..r.pits.len() {
        out[at + k] = one(usize::from(t.pit) == k);
    }
    at += r.pits.len();
    for k in 0..=n.letters.len() {
        let letter = k.checked_sub(1).map_or(Turn::NO_LETTER, |l| l as u8);
        out[at + k] = one(t.choice == letter);
    }
    at += n.letters.len() + 1;
    for (k, i) in (0..n.flags.len()).filter(|&i| i != per_sowing).enumerate() {
        out[at + k] = one(t.flags >> i & 1 == 1);
    }
    at += n.flags.len() - 1;
    for k in 0..Turn::MARKED_SOWINGS {
        out[at + k as usize] = one(t.marks() >> k & 1 == 1);
        out[at + (Turn::MARKED_SOWINGS + k) as usize] = one(k < p.after());
    }
}
