//! The board as a picture (SVG): the rows as the text board draws them
//! (North on top), each pit a circle with its seeds counted and its label
//! and marks under it, the stores at the ends, hands, the last move's pit
//! ringed, and a line saying who moves or how the game ended. Any board a
//! variant declares is drawn: its rows, stores and marks say it all. Each
//! pit is a group `data-pit="LABEL" data-seeds="N"`, each store one
//! `data-store="PLAYER"`, its count the text of class `seeds`: the
//! playground finds, clicks and animates them.

use std::fmt::Write as _;

use crate::engine::Game;
use crate::ir::Store;
use crate::Variant;

/// A pit's circle, and the space a pit takes across.
const PIT: f64 = 56.0;
const STEP: f64 = 68.0;
/// A row's height: the circle and its label.
const ROW: f64 = 84.0;
const MARGIN: f64 = 16.0;
/// A store's width, beside the rows.
const STORE: f64 = 76.0;
/// The title above, the status line below.
const HEAD: f64 = 34.0;
const FOOT: f64 = 40.0;

/// Text safe inside an SVG element or attribute: markup escaped, a line
/// break or tab drawn as a space, and a character XML does not allow (or a
/// control character) drawn as U+FFFD.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(' '),
            '\u{fffe}' | '\u{ffff}' => out.push('\u{fffd}'),
            c if c.is_control() => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// Draws the game's position; `last` is the pit the last move started
/// from (an index in the rules' pits), ringed.
pub fn board(v: &Variant, game: &Game, last: Option<u16>) -> String {
    let r = &v.engine.rules;
    let pos = game.position();
    let n = r.pits.len();
    let columns = r.pits.iter().map(|p| p.column + 1).max().unwrap_or(1);
    let store_at = |side: Store| (0..2).find(|&p| r.stores[p] == Some(side));
    let (left, right) = (store_at(Store::Left), store_at(Store::Right));
    let x0 = MARGIN + if left.is_some() { STORE + 8.0 } else { 0.0 };
    let rows_w = columns as f64 * STEP;
    let width = x0 + rows_w + if right.is_some() { STORE + 8.0 } else { 0.0 } + MARGIN;
    let rows_h = r.rows.len().max(1) as f64 * ROW;
    let height = HEAD + rows_h + FOOT + MARGIN;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">"##
    );
    let _ = writeln!(
        s,
        r##"<rect width="{width}" height="{height}" fill="#f4ead5"/>"##
    );
    let _ = writeln!(
        s,
        r##"<text x="{MARGIN}" y="24" font-size="18" font-weight="bold" fill="#3b2a14">{}</text>"##,
        esc(&r.title)
    );
    let _ = writeln!(
        s,
        r##"<rect x="{}" y="{}" width="{}" height="{rows_h}" rx="18" fill="#b5854b" stroke="#6b4a22" stroke-width="2"/>"##,
        MARGIN,
        HEAD,
        width - 2.0 * MARGIN
    );
    // The players' halves: North's rows on top.
    let half = r.rows.len() / 2;
    for (i, row) in r.rows.iter().enumerate() {
        let y = HEAD + i as f64 * ROW;
        if i == half && half > 0 {
            let _ = writeln!(
                s,
                r##"<line x1="{x0}" y1="{y}" x2="{}" y2="{y}" stroke="#6b4a22" stroke-width="1" stroke-dasharray="4 4"/>"##,
                x0 + rows_w
            );
        }
        for &id in &row.pits {
            let pit = &r.pits[id as usize];
            let cx = x0 + pit.column as f64 * STEP + STEP / 2.0;
            let cy = y + 8.0 + PIT / 2.0;
            let marks = v.engine.marks(pos, id);
            let ring = if last == Some(id) {
                r##" stroke="#e8590c" stroke-width="5""##
            } else if !marks.is_empty() {
                r##" stroke="#1c3d5a" stroke-width="3" stroke-dasharray="6 3""##
            } else {
                r##" stroke="#6b4a22" stroke-width="1.5""##
            };
            let seeds = pos.cells[id as usize];
            let _ = writeln!(
                s,
                r##"<g class="pit" data-pit="{}" data-seeds="{seeds}">"##,
                esc(&pit.label)
            );
            let _ = writeln!(
                s,
                r##"<circle cx="{cx}" cy="{cy}" r="{}" fill="#8a5a2b"{ring}><title>{}</title></circle>"##,
                PIT / 2.0,
                esc(&pit.label)
            );
            let _ = writeln!(
                s,
                r##"<text class="seeds" x="{cx}" y="{}" font-size="20" text-anchor="middle" fill="#fffaf0">{seeds}</text>"##,
                cy + 7.0,
            );
            let _ = writeln!(
                s,
                r##"<text x="{cx}" y="{}" font-size="12" text-anchor="middle" fill="#2b1d0e">{}{}</text>"##,
                cy + PIT / 2.0 + 14.0,
                esc(&pit.label),
                esc(&marks)
            );
            s.push_str("</g>\n");
        }
    }
    for (side, x) in [(left, MARGIN + 4.0), (right, x0 + rows_w + 4.0)] {
        let Some(p) = side else { continue };
        let (y, h) = (HEAD + 8.0, rows_h - 16.0);
        let seeds = pos.cells[n + p];
        let _ = writeln!(
            s,
            r##"<g class="store" data-store="{}" data-seeds="{seeds}">"##,
            esc(&r.players[p])
        );
        let _ = writeln!(
            s,
            r##"<rect x="{x}" y="{y}" width="{}" height="{h}" rx="30" fill="#8a5a2b" stroke="#6b4a22" stroke-width="1.5"/>"##,
            STORE - 8.0
        );
        let cx = x + (STORE - 8.0) / 2.0;
        let _ = writeln!(
            s,
            r##"<text class="seeds" x="{cx}" y="{}" font-size="24" text-anchor="middle" fill="#fffaf0">{seeds}</text>"##,
            y + h / 2.0 + 8.0,
        );
        let _ = writeln!(
            s,
            r##"<text x="{cx}" y="{}" font-size="12" text-anchor="middle" fill="#fffaf0">{}</text>"##,
            y + h - 10.0,
            esc(&r.players[p])
        );
        s.push_str("</g>\n");
    }
    let mut status = Vec::new();
    for p in 0..r.seats() {
        if pos.hands[p] > 0 || r.setup.hands[p] > 0 {
            status.push(format!("{} hand {}", r.players[p], pos.hands[p]));
        }
    }
    match (game.outcome(), pos.to_move) {
        (Some(o), _) => status.push(format!("game over: {}", crate::render::result_text(r, o))),
        (None, Some(p)) => status.push(format!("{} to move", r.player_name(p).unwrap_or("?"))),
        // (A finished game's last position read alone: its result not
        // known.)
        (None, None) => status.push("game over".to_string()),
    }
    if game.rounds() > 0 {
        status.push(format!("round {}", game.rounds() + 1));
    }
    let _ = writeln!(
        s,
        r##"<text class="status" x="{MARGIN}" y="{}" font-size="15" fill="#3b2a14">{}</text>"##,
        HEAD + rows_h + 26.0,
        esc(&status.join(" · "))
    );
    s.push_str("</svg>\n");
    s
}
