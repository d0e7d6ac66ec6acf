//! Properties every variant must have, shipped or not: seeds are conserved
//! by every turn of random games; a position saved mid-game and resumed
//! gives the same game; `perft` equals the leaves found by walking the
//! legal turns one by one; every turn's notation reads back as itself; a
//! turn shown step by step is the same turn, each step one seed or rule.

use crate::common;

use common::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use sow::{Game, Variant};

/// Every shipped variant and every test-only variant.
fn all_variants() -> Vec<Variant> {
    let mut v: Vec<Variant> = sow::variants::names().into_iter().map(shipped).collect();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/variants");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for f in files {
        let src = std::fs::read_to_string(&f).unwrap();
        v.push(
            Variant::from_source(&f.display().to_string(), &src)
                .unwrap_or_else(|d| panic!("{}: {d:?}", f.display())),
        );
    }
    assert!(v.len() >= 4);
    v
}

/// Of 200 random games of 500 plies at most, how many must end: all but
/// a few, except in games whose rules let play go round for ever. For a
/// catalogue or Ludii game, that is read from its oracle: all but a few if
/// every one of its 30 random games ended within its cap (MancalaGames'
/// 400 plies or less, Ludii's 600), else a third as large a share as ended
/// there (Kâra's KR20, Azigo's
/// AZ15 and the matches that go on round after round, DK25, PL25, …).
fn must_finish(name: &str) -> usize {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let ludii = root.join(format!("tests/oracles/ludii/{name}.txt.gz"));
    if ludii.exists() {
        let text = gunzip(&ludii);
        // Ludii's games stop at 600 plies (`capped`).
        let ended = text
            .lines()
            .filter(|l| l.starts_with("r ") && !l.contains("\"stop\":\"capped\""))
            .count();
        return rate(ended);
    }
    let data = root.join(format!("tests/oracles/catalogue/{name}.jsonl.gz"));
    if !data.exists() {
        return match name {
            // OR13: a match ends only when a round leaves a player fewer
            // than 4 seeds, which random play all but never does in 500
            // plies.
            "oware-match" => 0,
            _ => 190,
        };
    }
    // (Only the fields read here are read: the records are large.)
    #[derive(serde::Deserialize)]
    struct Record {
        index: u64,
        chosen: usize,
        moves: Vec<Move>,
    }
    #[derive(serde::Deserialize)]
    struct Move {
        #[serde(default)]
        ended: bool,
    }
    let text = gunzip(&data);
    let mut ended = std::collections::BTreeSet::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let r: Record = serde_json::from_str(line).unwrap();
        if r.moves[r.chosen].ended {
            ended.insert(r.index);
        }
    }
    rate(ended.len())
}

/// The plies a random game is played to: an oracle's own cap, Ludii's
/// 600 (where each relay lap the mover is asked for is a ply), else 500.
fn most_plies(name: &str) -> usize {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    if root
        .join(format!("tests/oracles/ludii/{name}.txt.gz"))
        .exists()
    {
        600
    } else {
        500
    }
}

/// The random games of 200 that must finish, from how many of an oracle's
/// 30 did (within its cap of 400 or 600 plies): where all of them ended,
/// nearly all of ours must; where some did, ours must end at a third of
/// their rate; a game that ended once or twice in thirty sets no rate to
/// hold.
fn rate(ended: usize) -> usize {
    match ended {
        30 => 190,
        n if n < 3 => 0,
        n => 200 * n / 30 / 3,
    }
}

/// A legal turn at random, a pass offered beside other turns taken one
/// time in eight: a pass that ends a phase (both players passing in a
/// row end Lisolo's rearranging) is one turn among hundreds, which play
/// uniform at random would all but never leave.
fn random_turn(legal: &[sow::Turn], rng: &mut ChaCha8Rng) -> sow::Turn {
    if legal.len() > 1 && legal.contains(&sow::Turn::PASS) && rng.gen_range(0..8) == 0 {
        return sow::Turn::PASS;
    }
    legal[rng.gen_range(0..legal.len())]
}

#[test]
fn random_games_conserve_seeds_and_notation_round_trips() {
    all_variants().par_iter().for_each(|v| {
        let start = Game::new(v.engine.clone()).unwrap();
        let total = start.position().total();
        let mut finished = 0;
        let plies = most_plies(v.name());
        for g in 0..200u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(g);
            let mut game = start.clone();
            for _ in 0..plies {
                if game.outcome().is_some() {
                    finished += 1;
                    break;
                }
                let legal = game.legal_turns().to_vec();
                assert!(
                    !legal.is_empty(),
                    "{}: a game goes on with no legal turn",
                    v.name()
                );
                for &t in &legal {
                    let written = sow::notation::write_turn(&game, t);
                    assert_eq!(
                        v.parse_turn(&game, &written).unwrap(),
                        t,
                        "{}: `{written}` reads back",
                        v.name()
                    );
                }
                let t = random_turn(&legal, &mut rng);
                game.play(t).unwrap();
                // (At the end of the game, `remove` takes seeds out of it;
                // during it, in variants whose rules say so.)
                if game.outcome().is_none() && !v.engine.rules.loses_seeds() {
                    assert_eq!(
                        game.position().total(),
                        total,
                        "{}: seeds conserved in game {g}",
                        v.name()
                    );
                } else {
                    assert!(game.position().total() <= total, "{}: seeds made", v.name());
                }
            }
        }
        assert!(
            finished >= must_finish(v.name()),
            "{}: only {finished} of 200 random games finished",
            v.name()
        );
    });
}

#[test]
fn a_saved_position_resumes_the_same_game() {
    all_variants().par_iter().for_each(|v| {
        for g in 0..20u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(1000 + g);
            let mut game = Game::new(v.engine.clone()).unwrap();
            let mut moves = Vec::new();
            while game.outcome().is_none() && moves.len() < 300 {
                let legal = game.legal_turns();
                let t = random_turn(legal, &mut rng);
                moves.push(t);
                game.play(t).unwrap();
            }
            // Replay, saving and reloading at the middle.
            let cut = moves.len() / 2;
            let mut first = Game::new(v.engine.clone()).unwrap();
            for &t in &moves[..cut] {
                first.play(t).unwrap();
            }
            let saved = sow::json::position(v, &first).to_string();
            let mut resumed = sow::json::read_position(v, &saved)
                .unwrap_or_else(|d| panic!("{}: {d}\n{saved}", v.name()));
            assert_eq!(
                resumed.position(),
                first.position(),
                "{}: the position reads back",
                v.name()
            );
            assert_eq!(
                resumed.legal_turns(),
                first.legal_turns(),
                "{}: same legal turns",
                v.name()
            );
            for &t in &moves[cut..] {
                resumed.play(t).unwrap();
            }
            assert_eq!(
                resumed.position(),
                game.position(),
                "{}: game {g} resumed",
                v.name()
            );
            assert_eq!(
                resumed.outcome(),
                game.outcome(),
                "{}: game {g} outcome",
                v.name()
            );
        }
    });
}

/// Leaves found by walking the legal turns one at a time.
fn walk(game: &Game, depth: u32) -> u64 {
    if depth == 0 || game.outcome().is_some() {
        return 1;
    }
    game.legal_turns()
        .iter()
        .map(|&t| {
            let mut next = game.clone();
            next.play(t).unwrap();
            walk(&next, depth - 1)
        })
        .sum()
}

#[test]
fn perft_equals_walking_the_moves() {
    all_variants().par_iter().for_each(|v| {
        let game = Game::new(v.engine.clone()).unwrap();
        // To depth 4, or short of it where the next depth would hold
        // millions of leaves (a variant of hundreds of turns a ply).
        let first = sow::play::perft(&game, 1).unwrap();
        for depth in 1..=4 {
            let leaves = sow::play::perft(&game, depth).unwrap();
            assert_eq!(leaves, walk(&game, depth), "{} depth {depth}", v.name());
            if leaves.saturating_mul(first) > 5_000_000 {
                break;
            }
        }
    });
}

/// A turn shown step by step (the playground's sowing) ends where the same
/// turn played at full speed does, and its steps are what they say: a
/// lift empties one pit of what it takes, a sowing step adds one seed to
/// one cell, and nothing else changes between steps.
#[test]
fn a_turn_shown_step_by_step_is_the_same_turn() {
    use sow::engine::StepKind;
    all_variants().par_iter().for_each(|v| {
        let name = v.engine.rules.name.clone();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let (mut steps, mut sown, mut sowings) = (0usize, 0usize, 0usize);
        for _ in 0..20 {
            let mut fast = Game::new(v.engine.clone()).unwrap();
            let mut shown = fast.clone();
            shown.show_turns(true);
            for _ in 0..300 {
                if fast.outcome().is_some() || fast.legal_turns().is_empty() {
                    break;
                }
                let legal = fast.legal_turns();
                let t = random_turn(legal, &mut rng);
                let before = shown.position().clone();
                let (a, b) = (fast.play(t), shown.play(t));
                assert_eq!(a.is_ok(), b.is_ok(), "{name}: {t:?}");
                if a.is_err() {
                    break;
                }
                assert_eq!(fast.position(), shown.position(), "{name}: {t:?}");
                assert_eq!(fast.legal_turns(), shown.legal_turns(), "{name}");
                assert_eq!(fast.outcome(), shown.outcome(), "{name}");
                sowings += usize::from(t != sow::Turn::PASS && !t.sows_nothing());
                let Some(s) = shown.shown() else { continue };
                assert!(!s.cut, "{name}: a turn of over 10,000 steps");
                let mut prev = &before.cells;
                for f in &s.frames {
                    steps += 1;
                    let changed: Vec<usize> = (0..f.cells.len())
                        .filter(|&c| f.cells[c] != prev[c])
                        .collect();
                    match f.kind {
                        StepKind::Sow | StepKind::Put => {
                            let c = f.at[0] as usize;
                            if f.kind == StepKind::Sow {
                                sown += 1;
                                assert_eq!(f.cells[c], prev[c] + 1, "{name}: {t:?} sows one seed");
                            } else {
                                // Held seeds, all at once, into one pit.
                                assert!(f.cells[c] > prev[c], "{name}: {t:?} puts seeds");
                            }
                            // (A turn from the store lifts from it unseen, a
                            // put takes from a store or a hand.)
                            assert!(
                                changed
                                    .iter()
                                    .all(|&d| d == c || d >= v.engine.rules.pits.len()),
                                "{name}: {t:?}: {changed:?}"
                            );
                        }
                        StepKind::Take => {
                            // One pit's seeds out of the game, or to the
                            // place the take names: only they change.
                            let c = f.at[0] as usize;
                            assert!(f.cells[c] < prev[c], "{name}: {t:?} takes seeds");
                            assert!(
                                changed.iter().all(|&d| f.at.contains(&(d as u16))),
                                "{name}: {t:?}: {changed:?}"
                            );
                        }
                        StepKind::Lift => {
                            let c = f.at[0] as usize;
                            assert!(f.cells[c] <= prev[c], "{name}: {t:?}");
                            assert!(changed.iter().all(|&d| d == c), "{name}: {t:?}");
                        }
                        StepKind::Rule => {
                            assert!(f.at.iter().all(|&c| f.cells[c as usize] < prev[c as usize]));
                        }
                    }
                    prev = &f.cells;
                }
            }
        }
        // (Quela's random games never leave the rearranging: every turn
        // of theirs moves a seed, none sows.)
        assert!(steps > 0, "{name}: no step shown");
        assert!(
            sowings == 0 || sown > 0,
            "{name}: {sowings} turns sowed, no seed shown sown"
        );
    });
}
