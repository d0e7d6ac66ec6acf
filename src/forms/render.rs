//! The text board, drawn as a person looks at it: the rows top to bottom
//! as the variant declares them (North on top), labels beside counts,
//! stores at the ends.

use std::fmt::Write as _;

use crate::engine::{Game, Outcome};
use crate::ir::{Rules, Store};
use crate::Variant;

/// Draws the game's position, with a line saying who moves or how it ended.
pub fn board(v: &Variant, game: &Game) -> String {
    let r = &v.engine.rules;
    let pos = game.position();
    let n = r.pits.len();
    // The widest a label with every mark, or a count of all the seeds in
    // play, can be: the board keeps its width from ply to ply.
    let marks: usize = r.marks.iter().map(|m| m.symbol.chars().count()).sum();
    let total: u64 = pos.cells.iter().map(|&c| u64::from(c)).sum::<u64>()
        + pos.hands.iter().map(|&h| u64::from(h)).sum::<u64>();
    let digits = total.to_string().len();
    let width = r
        .pits
        .iter()
        .map(|p| p.label.len() + marks)
        .chain(std::iter::once(digits))
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
        .map(|&p| r.players[p].len().max(digits))
        .max()
        .unwrap_or(0)
        + 2;
    let mut out = String::new();
    let cells = |ids: &[u16], f: &dyn Fn(u16) -> String| -> String {
        ids.iter().map(|&i| right(&f(i), width)).collect::<String>()
    };
    let half = r.rows.len() / 2;
    // The stores are drawn between the players' halves, or under a
    // solitaire's one row.
    let stores_after = half.saturating_sub(1);
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
        if i == stores_after && (left.is_some() || right_store.is_some()) {
            let l = left.map_or(String::new(), |p| right(&store_text(p), margin - 2));
            let rr = right_store.map_or(String::new(), |p| right(&store_text(p), digits));
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
    for p in 0..r.seats() {
        if r.stores[p].is_some() {
            status.push(format!("{} store {}", r.players[p], pos.cells[n + p]));
        }
        if pos.hands[p] > 0 || r.setup.hands[p] > 0 {
            status.push(format!("{} hand {}", r.players[p], pos.hands[p]));
        }
    }
    let out_of_play = r.setup.out_of_play(pos.total());
    if r.seeds_leave() && out_of_play != 0 {
        status.push(format!("{out_of_play} out of play"));
    }
    match (game.outcome(), pos.to_move) {
        (Some(o), _) => {
            let who = who_won(r, o);
            let scores: Vec<String> = r
                .players
                .iter()
                .zip(o.scores)
                .map(|(name, score)| format!("{name} {score}"))
                .collect();
            status.push(format!(
                "game over ({}): {who}, {}",
                o.reason,
                scores.join(" – ")
            ));
        }
        (None, Some(p)) => status.push(format!("{} to move", r.player_name(p).unwrap_or("?"))),
        // (A finished game's last position read alone: its result not
        // known.)
        (None, None) => status.push("game over".to_string()),
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

/// Who won, in words: "south wins", "draw", or for a solitaire lost
/// "solo loses".
fn who_won(r: &Rules, o: &Outcome) -> String {
    match o.winner {
        Some(p) => match r.player_name(p) {
            Some(name) => format!("{name} wins"),
            None => format!("{} loses", r.players[0]),
        },
        None => "draw".to_string(),
    }
}

/// An outcome in a few words: who won and by which end rule ("south wins
/// (no_seeds)").
pub fn result_text(r: &Rules, o: &Outcome) -> String {
    format!("{} ({})", who_won(r, o), o.reason)
}

/// A count with thousands separated: 1,234,567.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
