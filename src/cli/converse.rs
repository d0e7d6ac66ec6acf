//! The conversation mode (`sow moves --from -`): a program sends positions
//! and is answered, one JSON line for each.

use std::io::{self, Write};

use super::args::Format;
use super::output::{fail_plain, fail_usage, Checked, Failed};
use super::pick::{no_first, variant_of, Pick};
use crate::limits::Line;
use crate::{json, Variant};

/// `moves --from -`: positions read as JSON Lines on standard input, each
/// answered by one line, `{"moves": [...]}` or `{"error": "..."}`, flushed
/// at once; an error in one position does not stop the next.
pub(super) fn converse<W: Write>(
    out: &mut Checked<W>,
    pick: &Pick,
    format: Format,
) -> Result<(), Failed> {
    no_first(pick, "each position read says who is to move")?;
    if format != Format::Json {
        return Err(fail_usage(
            "`--from -` answers each position in JSON: add `--format json`",
        ));
    }
    let v = variant_of(pick, None)?;
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut line = Vec::new();
    loop {
        let read = crate::limits::read_line(&mut input, &mut line)
            .map_err(|e| fail_plain(format!("cannot read standard input: {e}")))?;
        let answer = match read {
            Line::End => return Ok(()),
            // A blank line asks nothing.
            Line::Read if line.trim_ascii().is_empty() => continue,
            Line::Read => answer(&v, &line),
            Line::TooLong => serde_json::json!({
                "error": format!("a position is at most {} bytes", crate::limits::MAX_FILE_BYTES)
            }),
        };
        let _ = writeln!(out, "{answer}");
        let _ = out.flush();
        if out.lost() {
            return Ok(());
        }
    }
}

/// The answer to one line of a conversation.
fn answer(v: &Variant, line: &[u8]) -> serde_json::Value {
    let error = |message: String| serde_json::json!({ "error": message });
    let Ok(text) = std::str::from_utf8(line) else {
        return error("a position is UTF-8 text".into());
    };
    let game = match json::read_position(v, text.trim_end()) {
        Ok(game) => game,
        Err(d) => {
            return error(match &d.hint {
                Some(h) => format!("{} ({h})", d.message),
                None => d.message.clone(),
            })
        }
    };
    let mut moves = Vec::new();
    for &t in game.legal_turns() {
        let mut next = game.clone();
        if let Err(e) = next.play(t) {
            return error(e.to_string());
        }
        moves.push(json::moved(v, &game, t, &next));
    }
    serde_json::json!({ "moves": moves })
}
