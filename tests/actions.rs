//! Turns numbered (`sow::actions`): in random games of every shipped
//! variant whose turns can be numbered, each legal turn has its own
//! number, below the count, which names it back and is written as the
//! notation writes the turn, whatever the position.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sow::actions::Actions;
use sow::notation::write_turn;
use sow::{Game, Variant};

#[test]
fn every_legal_turn_has_its_own_number_which_names_it_back() {
    let mut numbered = 0;
    for name in sow::variants::names() {
        let v = Variant::shipped(name).expect("a shipped variant");
        let Ok(actions) = Actions::of(&v.engine.rules) else {
            continue;
        };
        numbered += 1;
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..3 {
            let mut game = Game::new(v.engine.clone()).expect("a start");
            for _ in 0..400 {
                let legal = game.legal_turns().to_vec();
                if legal.is_empty() {
                    break;
                }
                let numbers = actions.legal(&game);
                assert_eq!(numbers.len(), legal.len(), "{name}: a number for each turn");
                assert!(numbers.windows(2).all(|w| w[0] < w[1]), "{name}: distinct");
                for &t in &legal {
                    let n = actions.number(t).expect("a number");
                    assert!(n < actions.count(), "{name}: {n} past {}", actions.count());
                    assert_eq!(
                        actions.turn(&game, n),
                        Some(t),
                        "{name}: {n} names its turn"
                    );
                    assert_eq!(
                        actions.written(&v.engine.rules, n),
                        Some(write_turn(&game, t)),
                        "{name}: number {n} is written as its turn"
                    );
                }
                let t = legal[rng.gen_range(0..legal.len())];
                game.play(t).expect("a turn within the limit");
            }
        }
    }
    assert!(numbered >= 34, "only {numbered} variants numbered");
}

#[test]
fn a_turn_of_choices_at_each_sowing_is_refused_by_name() {
    let omweso = Variant::shipped("omweso").unwrap();
    let why = Actions::of(&omweso.engine.rules).unwrap_err();
    assert!(why.contains("answered at each sowing"), "{why}");
}

#[test]
fn the_count_covers_pits_letters_flags_pass_and_the_store() {
    let oware = Variant::shipped("oware-abapa").unwrap();
    let a = Actions::of(&oware.engine.rules).unwrap();
    assert_eq!(a.count(), 12);
    // (Pits in the order the board lists them: North's row first, `f … a`.)
    assert_eq!(a.written(&oware.engine.rules, 0).as_deref(), Some("f"));
    assert_eq!(a.written(&oware.engine.rules, 12), None);
    // Bao: 32 pits, with no letter or L or R, with and without `+`.
    let bao = Variant::shipped("bao-la-kiswahili").unwrap();
    let b = Actions::of(&bao.engine.rules).unwrap();
    assert_eq!(b.count(), 32 * 3 * 2);
    // Azigo sows from the store: `store:1` … `store:1000` after its pits.
    let azigo = Variant::shipped("azigo").unwrap();
    let z = Actions::of(&azigo.engine.rules).unwrap();
    let pits = azigo.engine.rules.pits.len();
    assert_eq!(z.count(), pits + 1000);
    assert_eq!(
        z.written(&azigo.engine.rules, pits).as_deref(),
        Some("store:1")
    );
}
