//! Turns numbered (`sow::actions`): in random games of every shipped
//! variant, each legal turn is chosen by numbers below the count, each
//! legal where it is taken, which name it back and, written one after the
//! other, write it as the notation does, whatever the position; a turn of
//! one number where no flag is answered at each sowing, and in Omweso
//! turns of several where the answers matter.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sow::actions::{Actions, Chosen, END};
use sow::notation::write_turn;
use sow::{Game, Variant};

#[test]
fn every_legal_turn_is_chosen_by_its_numbers() {
    let mut longest = 0;
    for name in sow::variants::names() {
        let v = Variant::shipped(name).expect("a shipped variant");
        let (actions, rules) = (Actions::of(&v.engine.rules), &v.engine.rules);
        let per_sowing = rules.notation.per_sowing.is_some();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..3 {
            let mut game = Game::new(v.engine.clone()).expect("a start");
            for _ in 0..400 {
                let legal = game.legal_turns().to_vec();
                if legal.is_empty() {
                    break;
                }
                let firsts = actions.legal(&game, None);
                assert!(firsts.windows(2).all(|w| w[0] < w[1]), "{name}: distinct");
                if !per_sowing {
                    assert_eq!(firsts.len(), legal.len(), "{name}: one number a turn");
                }
                for &t in &legal {
                    let numbers = actions.numbers(&game, t).unwrap_or_else(|| {
                        panic!("{name}: {} ({t:?}) has no numbers", write_turn(&game, t))
                    });
                    assert_eq!(Some(numbers[0]), actions.number(t), "{name}");
                    assert!(per_sowing || numbers.len() == 1, "{name}: one number");
                    assert!(numbers.len() <= actions.most_per_turn(), "{name}");
                    longest = longest.max(numbers.len());
                    // Taken one by one, each is legal where it is taken,
                    // and the last gives the turn whole.
                    let (mut partial, mut whole, mut text) = (None, None, String::new());
                    for (i, &n) in numbers.iter().enumerate() {
                        assert!(n < actions.count(), "{name}: {n} past {}", actions.count());
                        assert_eq!(whole, None, "{name}: a number after the turn");
                        let here = actions.legal(&game, partial);
                        assert!(here.contains(&n), "{name}: {n} not in {here:?}");
                        match actions.choose(&game, partial, n) {
                            Some(Chosen::Whole(w)) => whole = Some(w),
                            Some(Chosen::Partial(p)) => {
                                let taken = actions.taken(p);
                                assert_eq!(&taken[..], &numbers[..=i], "{name}: taken");
                                partial = Some(p);
                            }
                            None => panic!("{name}: {n} chooses nothing"),
                        }
                        let piece = actions.written(rules, n).expect("written");
                        if piece != END {
                            text.push_str(&piece);
                        }
                    }
                    assert_eq!(whole, Some(t), "{name}: {numbers:?} name their turn");
                    assert_eq!(text, write_turn(&game, t), "{name}: {numbers:?} write it");
                }
                let t = legal[rng.gen_range(0..legal.len())];
                game.play(t).expect("a turn within the limit");
            }
        }
    }
    assert!(longest >= 3, "no turn was chosen by three numbers or more");
}

/// Omweso's turns: 32 pits, with a letter or none, then `<1` … `<31`
/// and `end`. A number that is not legal where it is taken chooses
/// nothing.
#[test]
fn a_flag_answered_at_each_sowing_is_chosen_by_answers() {
    let omweso = Variant::shipped("omweso").unwrap();
    let (a, rules) = (Actions::of(&omweso.engine.rules), &omweso.engine.rules);
    assert_eq!(a.count(), 32 * 3 + 31 + 1);
    assert_eq!(a.most_per_turn(), 33);
    assert_eq!(a.written(rules, 96).as_deref(), Some("<1"));
    assert_eq!(a.written(rules, 126).as_deref(), Some("<31"));
    assert_eq!(a.written(rules, 127).as_deref(), Some(END));
    assert_eq!(a.written(rules, 128), None);
    let game = Game::new(omweso.engine.clone()).unwrap();
    assert_eq!(a.choose(&game, None, 96), None, "an answer is no turn");
    let legal = a.legal(&game, None);
    assert!(a.choose(&game, None, legal[0]).is_some());
    let illegal = (0..96).find(|n| !legal.contains(n)).unwrap();
    assert_eq!(a.choose(&game, None, illegal), None);
}

#[test]
fn the_count_covers_pits_letters_flags_pass_and_the_store() {
    let oware = Variant::shipped("oware-abapa").unwrap();
    let a = Actions::of(&oware.engine.rules);
    assert_eq!(a.count(), 12);
    // (Pits in the order the board lists them: North's row first, `f … a`.)
    assert_eq!(a.written(&oware.engine.rules, 0).as_deref(), Some("f"));
    assert_eq!(a.written(&oware.engine.rules, 12), None);
    // Bao: 32 pits, with no letter or L or R, with and without `+`.
    let bao = Variant::shipped("bao-la-kiswahili").unwrap();
    let b = Actions::of(&bao.engine.rules);
    assert_eq!(b.count(), 32 * 3 * 2);
    // Azigo sows from the store: `store:1` … `store:1000` after its pits.
    let azigo = Variant::shipped("azigo").unwrap();
    let z = Actions::of(&azigo.engine.rules);
    let pits = azigo.engine.rules.pits.len();
    assert_eq!(z.count(), pits + 1000);
    assert_eq!(
        z.written(&azigo.engine.rules, pits).as_deref(),
        Some("store:1")
    );
}

/// Puts are numbered after the other turns, one number a pit in the
/// board's order: Sungka's 14 pits, its pass, then a put into each.
#[test]
fn puts_are_numbered_after_the_other_turns() {
    let v = Variant::shipped("sungka").unwrap();
    let (a, rules) = (Actions::of(&v.engine.rules), &v.engine.rules);
    assert_eq!(a.count(), 14 + 1 + 14);
    assert_eq!(a.written(rules, 14).as_deref(), Some("pass"));
    let first = &rules.pits[0].label;
    assert_eq!(a.written(rules, 15), Some(format!("put:{first}")));
    let last = &rules.pits[13].label;
    assert_eq!(a.written(rules, 28), Some(format!("put:{last}")));
    assert_eq!(a.written(rules, 29), None);
}
