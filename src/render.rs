//! The text board, drawn as a person looks at it: the rows top to bottom
//! as the variant declares them (North on top), labels beside counts,
//! stores at the ends.

use std::fmt::Write as _;

use crate::engine::Game;
use crate::ir::Store;
use crate::Variant;

/// Draws the game's position, with a line saying who moves or how it ended.
pub fn board(v: &Variant, game: &Game) -> String {
    let r = &v.engine.rules;
    let pos = game.position();
    let n = r.pits.len();
    let width = r
        .pits
        .iter()
        .enumerate()
        .map(|(i, p)| p.label.len() + v.engine.marks(pos, i as u16).chars().count())
        .chain(pos.cells.iter().map(|c| c.to_string().len()))
        .max()
        .unwrap_or(1)
        + 2;
    let store_text = |p: usize| match r.stores[p] {
        Some(_) => pos.cells[n + p].to_string(),
        None => String::new(),
    };
    let left: Option<usize> = (0..2).find(|&p| r.stores[p] == Some(Store::Left));
    let right_store: Option<usize> = (0..2).find(|&p| r.stores[p] == Some(Store::Right));
    let margin = [left, right_store]
        .iter()
        .flatten()
        .map(|&p| r.players[p].len().max(store_text(p).len()))
        .max()
        .unwrap_or(0)
        + 2;
    let mut out = String::new();
    let cells = |ids: &[u16], f: &dyn Fn(u16) -> String| -> String {
        ids.iter().map(|&i| right(&f(i), width)).collect::<String>()
    };
    let half = r.rows.len() / 2;
    for (i, row) in r.rows.iter().enumerate() {
        let labels = cells(&row.pits, &|id| {
            format!("{}{}", r.pits[id as usize].label, v.engine.marks(pos, id))
        });
        let counts = cells(&row.pits, &|id| pos.cells[id as usize].to_string());
        let pad = " ".repeat(margin);
        if i < half {
            let _ = writeln!(out, "{pad}{labels}");
            let _ = writeln!(out, "{pad}{counts}");
        } else {
            let _ = writeln!(out, "{pad}{counts}");
            let _ = writeln!(out, "{pad}{labels}");
        }
        if i + 1 == half && (left.is_some() || right_store.is_some()) {
            let l = left.map_or(String::new(), |p| right(&store_text(p), margin - 2));
            let rr = right_store.map_or(String::new(), store_text);
            let row_width = width * row.pits.len();
            let _ = writeln!(
                out,
                "{}{}  {rr}",
                left_aligned(&l, margin),
                " ".repeat(row_width)
            );
        }
    }
    let mut status = Vec::new();
    for p in 0..2 {
        if r.stores[p].is_some() {
            status.push(format!("{} store {}", r.players[p], pos.cells[n + p]));
        }
        if pos.hands[p] > 0 || r.setup.hands[p] > 0 {
            status.push(format!("{} hand {}", r.players[p], pos.hands[p]));
        }
    }
    match (game.outcome(), pos.to_move) {
        (Some(o), _) => {
            let who = match o.winner {
                Some(p) => format!("{} wins", r.players[p as usize]),
                None => "draw".to_string(),
            };
            status.push(format!(
                "game over ({}): {who}, {} {} – {} {}",
                o.reason, r.players[0], o.scores[0], r.players[1], o.scores[1]
            ));
        }
        (None, Some(p)) => status.push(format!("{} to move", r.players[p as usize])),
        (None, None) => {}
    }
    let _ = writeln!(out, "{}", status.join(" · "));
    out
}

/// `text` right-aligned in `width` characters. (Padding by hand: the
/// formatter's width is at most 65,535, and labels and names may be
/// longer.)
fn right(text: &str, width: usize) -> String {
    let pad = width.saturating_sub(text.chars().count());
    format!("{}{text}", " ".repeat(pad))
}

/// `text` left-aligned in `width` characters.
fn left_aligned(text: &str, width: usize) -> String {
    let pad = width.saturating_sub(text.chars().count());
    format!("{text}{}", " ".repeat(pad))
}
