//! Playing games through the library: a move list played turn by turn,
//! random games, and counting move paths (`perft`). The command line and
//! scripts call these; so can any program.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::diagnostic::{Diagnostic, Span};
use crate::engine::{Game, TooLong, Turn};
use crate::notation::{parse_turn, write_turn};

/// Splits a move list into tokens with their byte offsets.
pub fn tokens(moves: &str) -> Vec<(usize, &str)> {
    let mut v = Vec::new();
    let mut start = None;
    for (i, c) in moves.char_indices() {
        match (c.is_whitespace() || c == ',', start) {
            (true, Some(s)) => {
                v.push((s, &moves[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        v.push((s, &moves[s..]));
    }
    v
}

/// Plays one written turn (the move list's token at byte `at`), with
/// errors pointing into the list; returns the turn, and as written back.
pub fn play_written(game: &mut Game, at: usize, token: &str) -> Result<(Turn, String), Diagnostic> {
    let turn = parse_turn(game, token).map_err(|mut d| {
        if let Some((span, _)) = &mut d.span {
            *span = Span::new(at + span.start, at + span.end);
        }
        d
    })?;
    let written = write_turn(game, turn);
    game.play(turn).map_err(|_| {
        Diagnostic::at(
            Span::new(at, at + token.len()),
            format!("`{token}`, or listing the turns after it, did not finish within the engine's limit"),
            "runs too long",
        )
        .hint(crate::limits::TOO_LONG)
    })?;
    Ok((turn, written))
}

/// Counts the whole-turn paths of `depth` turns from a game (a finished
/// game is a leaf where it ends).
pub fn perft(game: &Game, depth: u32) -> Result<u64, TooLong> {
    match count(game, depth, &|| false) {
        Ok(n) => Ok(n),
        Err(Halted::TooLong | Halted::Stopped) => Err(TooLong),
    }
}

/// Why a count of paths stopped.
enum Halted {
    TooLong,
    /// `stop` said so.
    Stopped,
}

/// [`perft`], asking `stop` at each position more than a turn from the
/// leaves.
fn count(game: &Game, depth: u32, stop: &dyn Fn() -> bool) -> Result<u64, Halted> {
    fn walk(stack: &mut [Game], depth: usize, stop: &dyn Fn() -> bool) -> Result<u64, Halted> {
        let (head, rest) = stack.split_first_mut().expect("a game per level");
        if depth == 0 || head.outcome().is_some() {
            return Ok(1);
        }
        if depth > 1 && stop() {
            return Err(Halted::Stopped);
        }
        let mut n = 0;
        for i in 0..head.legal_turns().len() {
            let t = head.legal_turns()[i];
            let child = &mut rest[0];
            child
                .play_from(head, t)
                .map_err(|TooLong| Halted::TooLong)?;
            n += walk(rest, depth - 1, stop)?;
        }
        Ok(n)
    }
    let mut stack: Vec<Game> = (0..=depth).map(|_| game.clone()).collect();
    walk(&mut stack, depth as usize, stop)
}

/// [`perft`] on `jobs` threads, the paths after each first turn counted
/// apart (with a progress bar over the first turns unless `quiet`).
/// Returns the paths counted, and how many of the first turns' paths
/// were (fewer than all when Ctrl-C, or the [`crate::runs::Cancel`] it
/// runs under, stopped it).
pub fn perft_split(
    game: &Game,
    depth: u32,
    jobs: usize,
    quiet: bool,
) -> Result<(u64, u64, u64), TooLong> {
    if depth == 0 || game.outcome().is_some() {
        return Ok((1, 0, 0));
    }
    let legal = game.legal_turns();
    let of = legal.len() as u64;
    let cancel = crate::runs::Cancel::current();
    let mut children = Vec::with_capacity(legal.len());
    for &t in legal {
        let mut child = game.clone();
        match child.play_from(game, t) {
            Ok(()) => children.push(std::sync::Mutex::new(child)),
            // (Stopped within the turn: no first turn's paths counted.)
            Err(TooLong) if cancel.stopped() => return Ok((0, 0, of)),
            Err(TooLong) => return Err(TooLong),
        }
    }
    let progress = crate::runs::Progress::new(of, "first turns", quiet);
    let (mut n, mut failed) = (0, false);
    let done = crate::runs::in_order(
        of,
        jobs,
        &progress,
        || (),
        |_, i| {
            let child = children[i as usize].lock().ok()?;
            match count(&child, depth - 1, &|| cancel.stopped()) {
                Ok(k) => Some(Ok(k)),
                // (A turn stopped within is stopped, not past the limit.)
                Err(Halted::TooLong) if cancel.stopped() => None,
                Err(Halted::TooLong) => Some(Err(TooLong)),
                // Ctrl-C: this first turn's count is left out.
                Err(Halted::Stopped) => None,
            }
        },
        |_, r| match r {
            Ok(k) => {
                n += k;
                true
            }
            Err(TooLong) => {
                failed = true;
                false
            }
        },
    );
    if failed {
        return Err(TooLong);
    }
    Ok((n, done, of))
}

/// Walks the same paths as [`perft`], calling `ended` with the turns
/// (as written) of every path on which the game ends within `depth`
/// turns, and the game at its end. Returns the number of paths.
pub fn finished_lines(
    game: &Game,
    depth: u32,
    ended: &mut dyn FnMut(&[String], &Game),
) -> Result<u64, TooLong> {
    fn walk(
        stack: &mut [Game],
        depth: usize,
        line: &mut Vec<String>,
        ended: &mut dyn FnMut(&[String], &Game),
    ) -> Result<u64, TooLong> {
        let (head, rest) = stack.split_first_mut().expect("a game per level");
        if head.outcome().is_some() {
            ended(line, head);
            return Ok(1);
        }
        if depth == 0 {
            return Ok(1);
        }
        let mut n = 0;
        for i in 0..head.legal_turns().len() {
            let t = head.legal_turns()[i];
            line.push(write_turn(head, t));
            let child = &mut rest[0];
            child.play_from(head, t)?;
            n += walk(rest, depth - 1, line, ended)?;
            line.pop();
        }
        Ok(n)
    }
    let mut stack: Vec<Game> = (0..=depth).map(|_| game.clone()).collect();
    walk(&mut stack, depth as usize, &mut Vec::new(), ended)
}

/// One random game, recording the turns' notation if asked. Returns the
/// number of turns played, or, when a turn runs past the engine's limit,
/// the ply and the turn. A game whose work is asked to stop
/// (`runs::stopped`) stops early: the caller that asked knows it.
pub fn random_game(
    game: &mut Game,
    rng: &mut ChaCha8Rng,
    max_plies: Option<u32>,
    mut record: Option<&mut Vec<String>>,
) -> Result<u32, (u32, String)> {
    let mut plies = 0;
    while game.outcome().is_none() && max_plies.is_none_or(|m| plies < m) {
        // (Now and then: a game of cheap turns is over in microseconds.)
        if plies % 64 == 63 && crate::runs::stopped() {
            break;
        }
        let legal = game.legal_turns();
        if legal.is_empty() {
            break;
        }
        let t = legal[rng.gen_range(0..legal.len())];
        if let Some(r) = record.as_deref_mut() {
            r.push(write_turn(game, t));
        }
        if game.play(t).is_err() {
            return Err((plies + 1, write_turn(game, t)));
        }
        plies += 1;
    }
    Ok(plies)
}
