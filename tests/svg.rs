//! Boards drawn as SVG (issue 12): every shipped variant's board, at the
//! start and in mid-game, rendered to pixels by resvg; each pit drawn
//! where the picture says, the stores and the last move's ring there, the
//! text drawn (where the machine has fonts); `sow draw` and `sow play
//! --format svg` from the command line; the README's picture up to date.

use crate::common;

use common::bin::sow_with;
use common::shipped;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use resvg::{tiny_skia, usvg};
use sow::{Game, Variant};

/// The numbers of an attribute of every element named `tag`.
fn attrs(svg: &str, tag: &str, attr: &str) -> Vec<f32> {
    svg.split(&format!("<{tag} "))
        .skip(1)
        .filter_map(|el| {
            let key = format!(" {attr}=\"");
            let el = format!(" {el}");
            let at = el.find(&key)? + key.len();
            el[at..].split('"').next()?.parse().ok()
        })
        .collect()
}

struct Picture {
    pixmap: tiny_skia::Pixmap,
    fonts: bool,
}

fn render(svg: &str) -> Picture {
    let mut options = usvg::Options::default();
    options.fontdb_mut().load_system_fonts();
    // Whatever fonts the machine has stand for the ones the picture asks.
    let family = options
        .fontdb
        .faces()
        .next()
        .and_then(|f| f.families.first())
        .map(|(name, _)| name.clone());
    let fonts = family.is_some();
    if let Some(family) = family {
        options.fontdb_mut().set_sans_serif_family(family);
    }
    let tree = usvg::Tree::from_str(svg, &options).expect("the SVG parses");
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    Picture { pixmap, fonts }
}

impl Picture {
    fn rgb(&self, x: f32, y: f32) -> [u8; 3] {
        let p = self
            .pixmap
            .pixel(x as u32, y as u32)
            .unwrap_or_else(|| panic!("({x}, {y}) is in the picture"));
        [p.red(), p.green(), p.blue()]
    }
}

const BACKGROUND: [u8; 3] = [0xf4, 0xea, 0xd5];
const PIT: [u8; 3] = [0x8a, 0x5a, 0x2b];
const RING: [u8; 3] = [0xe8, 0x59, 0x0c];

fn near(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter().zip(b).all(|(&x, y)| x.abs_diff(y) <= 8)
}

/// A game `plies` random turns in (fewer if it ends), and the pit the
/// last turn started from.
fn played(v: &Variant, plies: u32, seed: u64) -> (Game, Option<u16>) {
    let mut game = Game::new(v.engine.clone()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut last = None;
    for _ in 0..plies {
        if game.outcome().is_some() || game.legal_turns().is_empty() {
            break;
        }
        let legal = game.legal_turns();
        let t = legal[rng.gen_range(0..legal.len())];
        game.play(t).unwrap();
        last = (usize::from(t.pit) < v.engine.rules.pits.len()).then_some(t.pit);
    }
    (game, last)
}

/// Every shipped board, at the start and 25 turns in, renders: a circle
/// a pit, each painted where it is said to be, a store a rect beside the
/// rows where the variant has stores, the last move's pit ringed, the
/// seed counts and labels drawn as text.
#[test]
fn every_shipped_board_renders() {
    for name in sow::variants::names() {
        let v = shipped(name);
        let r = &v.engine.rules;
        for plies in [0, 25] {
            let (game, last) = played(&v, plies, 5);
            let svg = sow::svg::board(&v, &game, last);
            let pic = render(&svg);
            assert!(near(pic.rgb(2.0, 2.0), BACKGROUND), "{name}: background");
            let (cx, cy, radius) = (
                attrs(&svg, "circle", "cx"),
                attrs(&svg, "circle", "cy"),
                attrs(&svg, "circle", "r"),
            );
            assert_eq!(cx.len(), r.pits.len(), "{name}: a circle a pit");
            for ((&x, &y), &rad) in cx.iter().zip(&cy).zip(&radius) {
                // Inside the circle, clear of its ring and its count.
                let inside = pic.rgb(x - rad + 8.0, y);
                assert!(near(inside, PIT), "{name}: pit at ({x}, {y}) is {inside:?}");
            }
            if let Some(id) = last {
                let k = r
                    .rows
                    .iter()
                    .flat_map(|row| &row.pits)
                    .position(|&p| p == id);
                let k = k.expect("a drawn pit");
                let ring = pic.rgb(cx[k] - radius[k], cy[k]);
                assert!(near(ring, RING), "{name}: last move ringed, not {ring:?}");
            }
            let stores = r.stores.iter().flatten().count();
            // The board's rect and one a store.
            assert_eq!(
                attrs(&svg, "rect", "rx").len(),
                1 + stores,
                "{name}: stores"
            );
            let marked =
                (0..r.pits.len()).any(|i| !v.engine.marks(game.position(), i as u16).is_empty());
            assert_eq!(
                svg.contains("stroke-dasharray=\"6 3\""),
                marked,
                "{name}: marked pits dashed"
            );
            if pic.fonts {
                // The counts are white on the pits.
                let white = pic
                    .pixmap
                    .pixels()
                    .iter()
                    .filter(|p| p.red() > 240 && p.green() > 240 && p.blue() > 225)
                    .count();
                assert!(white > 20 * r.pits.len(), "{name}: text drawn ({white} px)");
            }
        }
    }
}

/// `sow draw POS.json` draws a saved position; `sow play --format svg`
/// writes a picture a ply into a folder, naming each on standard output.
#[test]
fn draw_and_play_write_pictures() {
    let dir = std::env::temp_dir().join(format!("sow-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("plies");
    let out_s = out.to_str().unwrap();
    let r = sow_with(
        &[
            "play", "kalah", "--moves", "C F", "--format", "svg", "--dir", out_s,
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let files: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(files.len(), 3, "{}", r.stdout);
    let pic = std::fs::read_to_string(out.join("ply-0002.svg")).unwrap();
    render(&pic);
    assert!(pic.contains(r##"stroke="#e8590c""##), "F ringed");
    let pos = dir.join("pos.json");
    let json = sow_with(&["play", "kalah", "--moves", "C F", "--format", "json"], "");
    let last: serde_json::Value =
        serde_json::from_str(json.stdout.lines().last().unwrap()).unwrap();
    std::fs::write(&pos, last["position"].to_string()).unwrap();
    let drawn = sow_with(&["draw", pos.to_str().unwrap(), "--last", "F"], "");
    assert_eq!(drawn.code, 0, "{}", drawn.stderr);
    assert_eq!(drawn.stdout, pic, "the same picture of the same position");
    let bad = sow_with(&["draw", pos.to_str().unwrap(), "--last", "Q"], "");
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr.contains("no pit of kalah is labelled `Q`"),
        "{}",
        bad.stderr
    );
}

/// Issue 42, item 10: `sow draw` refused the last position of a finished
/// game (`"to_move": null`). It draws it, as `sow play --format svg`
/// drew that ply.
#[test]
fn draw_draws_a_finished_games_last_position() {
    let dir = std::env::temp_dir().join(format!("sow-svg-over-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let args = [
        "play", "kalah", "--south", "random", "--north", "random", "--seed", "4",
    ];
    let json = sow_with(&[&args[..], &["--format", "json"]].concat(), "");
    let last: serde_json::Value =
        serde_json::from_str(json.stdout.lines().last().unwrap()).unwrap();
    assert!(last["outcome"].is_object(), "{last}");
    assert_eq!(last["position"]["to_move"], serde_json::Value::Null);
    let pos = dir.join("over.json");
    std::fs::write(&pos, last["position"].to_string()).unwrap();
    let drawn = sow_with(&["draw", pos.to_str().unwrap()], "");
    assert_eq!(drawn.code, 0, "{}", drawn.stderr);
    render(&drawn.stdout);
    let out = dir.join("plies");
    let pics = sow_with(
        &[
            &args[..],
            &["--format", "svg", "--dir", out.to_str().unwrap()],
        ]
        .concat(),
        "",
    );
    let last_pic = std::fs::read_to_string(pics.stdout.lines().last().unwrap()).unwrap();
    // (The play's picture rings the last move's pit; the position alone
    // does not say which it was.)
    let plies = json.stdout.lines().count() - 1;
    let moved = last["move"].as_str().unwrap();
    let ringed = sow_with(&["draw", pos.to_str().unwrap(), "--last", moved], "");
    // The same picture, but that the result is not known from the
    // position alone.
    let status = |svg: &str| {
        svg.split(r#"<text class="status""#)
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(status(&ringed.stdout), status(&last_pic), "ply {plies}");
    assert!(
        ringed.stdout.contains(">game over</text>"),
        "{}",
        ringed.stdout
    );
    // Nothing is played from it.
    let moves = sow_with(&["moves", "kalah", "--from", pos.to_str().unwrap()], "");
    assert_eq!(moves.code, 1);
    assert!(
        moves.stderr.contains("a finished game cannot be resumed"),
        "{}",
        moves.stderr
    );
}

/// The README's picture is what `sow draw` draws of its position.
#[test]
fn the_readme_picture_is_current() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let r = sow_with(&["draw", "docs/bao-position.json", "--last", "A4"], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let committed = std::fs::read_to_string(root.join("docs/bao-board.svg")).unwrap();
    assert_eq!(
        r.stdout, committed,
        "redraw it: sow draw docs/bao-position.json --last A4 > docs/bao-board.svg"
    );
    assert!(std::fs::read_to_string(root.join("README.md"))
        .unwrap()
        .contains("docs/bao-board.svg"));
}
