//! The other two Bao descriptions against bao-la-kiswahili, point by point
//! (the P-table of docs/rules/bao-interpretation.md): for every point
//! where `bao-zanzibar` or `bao-east-africa` differs, a position where the
//! two variants part, with both outcomes asserted.

use crate::common;

use common::bao::*;
use common::*;
use sow::{Game, Variant};

fn kiswahili() -> Variant {
    shipped("bao-la-kiswahili")
}
fn zanzibar() -> Variant {
    shipped("bao-zanzibar")
}
fn east_africa() -> Variant {
    shipped("bao-east-africa")
}

/// The game after `m` from a position.
fn after(v: &Variant, pits: &[(&str, u32)], hands: [u32; 2], houses: [bool; 2], m: &str) -> Game {
    let mut g = position(v, pits, hands, houses, "south");
    play(v, &mut g, m);
    g
}

fn house(v: &Variant, g: &Game) -> (u32, String) {
    let status = state(v, g)["house_status"]["south"]
        .as_str()
        .unwrap()
        .to_string();
    (pit(g, "A5"), status)
}

// --- P8: the house in the mtaji stage

#[test]
fn p8_zanzibar_a_mtaji_takasa_ending_in_the_house_stops_there() {
    // A3R ends in the functional house (7). Kiswahili relays it like any
    // hole, which destroys it; Zanzibar keeps its namua role (Z7, Z10).
    let pits = [("A3", 2), ("A5", 6), ("a1", 1)];
    let k = after(&kiswahili(), &pits, [0, 0], [true, false], "A3R");
    assert_eq!(house(&kiswahili(), &k), (0, "gone".into()));
    let z = after(&zanzibar(), &pits, [0, 0], [true, false], "A3R");
    assert_eq!(house(&zanzibar(), &z), (7, "standing".into()));
}

#[test]
fn p8_p15_zanzibar_a_mtaji_capture_ending_in_the_house_may_stop_or_go_on() {
    // A3L ends in A1 (occupied) facing a8 (5): the capture is sown from A1
    // rightwards and ends in the house (6). Kiswahili: the first capture of
    // the mtaji stage ends the houses (P15), so the house is relayed, and
    // there is no choice. Zanzibar: stop (A3L) or safari (A3L+), Z14.
    let pits = [("A1", 1), ("A3", 2), ("A5", 5), ("a8", 5), ("a1", 2)];
    let start = |v: &Variant| position(v, &pits, [0, 0], [true, true], "south");
    let with_safari = |v: &Variant| legal(&start(v)).contains(&"A3L+".to_string());
    assert!(!with_safari(&kiswahili()));
    assert!(with_safari(&zanzibar()));
    let k = after(&kiswahili(), &pits, [0, 0], [true, true], "A3L");
    assert_eq!(house(&kiswahili(), &k), (0, "gone".into()));
    let z = after(&zanzibar(), &pits, [0, 0], [true, true], "A3L");
    assert_eq!(house(&zanzibar(), &z), (6, "standing".into()));
    let z = after(&zanzibar(), &pits, [0, 0], [true, true], "A3L+");
    assert_eq!(house(&zanzibar(), &z), (0, "gone".into()));
}

#[test]
fn p8_east_africa_the_square_hole_starts_only_a_capturing_turn_in_stage_two() {
    // No capture anywhere: Kiswahili may start a takasa from its house
    // (standing, 8 seeds); East Africa's square hole may not (E11).
    let pits = [("A3", 2), ("A5", 8), ("a1", 1)];
    let starts = |v: &Variant| {
        legal(&position(v, &pits, [0, 0], [true, false], "south"))
            .iter()
            .any(|m| m.starts_with("A5"))
    };
    assert!(starts(&kiswahili()));
    assert!(!starts(&east_africa()));
    // Once the square hole has lost its status, it is a hole like any other.
    let lost = legal(&position(
        &east_africa(),
        &pits,
        [0, 0],
        [false, false],
        "south",
    ));
    assert!(lost.iter().any(|m| m.starts_with("A5")), "{lost:?}");
}

// --- P7: the square hole with exactly six seeds (East Africa's E9)

#[test]
fn p7_east_africa_a_square_hole_of_six_is_sown_whole() {
    // The house alone in the inner row, 6 seeds, namua: Kiswahili taxes it
    // (the seed in, two out: 5 stay, it stands); East Africa adds the seed
    // and sows all 7, and the hole loses its status (E9, E13).
    let pits = [("A5", 6), ("a5", 9), ("a3", 2)];
    let k = after(&kiswahili(), &pits, [10, 10], [true, true], "A5R");
    assert_eq!(house(&kiswahili(), &k), (5, "standing".into()));
    let e = after(&east_africa(), &pits, [10, 10], [true, true], "A5R");
    assert_eq!(house(&east_africa(), &e), (0, "gone".into()));
    // With more than six both tax it.
    let pits = [("A5", 9), ("a5", 9), ("a3", 2)];
    let e = after(&east_africa(), &pits, [10, 10], [true, true], "A5R");
    assert_eq!(house(&east_africa(), &e), (8, "standing".into()));
}

// --- P9: the 16-seed rule

#[test]
fn p9_only_kiswahili_keeps_sixteen_seeds_from_capturing() {
    // A2 (17) goes round and ends in A3 (occupied) facing a6 (2).
    let pits = [("A2", 17), ("A3", 1), ("a6", 2), ("a1", 1)];
    let k = after(&kiswahili(), &pits, [0, 0], [false, false], "A2R");
    assert_eq!(pit(&k, "a6"), 2, "kiswahili: a takasa");
    for v in [zanzibar(), east_africa()] {
        let g = after(&v, &pits, [0, 0], [false, false], "A2R");
        assert_eq!(pit(&g, "a6"), 0, "{}: a capture", v.name());
    }
}

// --- P10: a takasa from the inner row first

#[test]
fn p10_east_africa_a_takasa_may_start_from_the_outer_row() {
    let pits = [("A3", 2), ("B3", 2), ("a1", 1)];
    let outer = |v: &Variant| {
        legal(&position(v, &pits, [0, 0], [false, false], "south"))
            .iter()
            .any(|m| m.starts_with('B'))
    };
    assert!(!outer(&kiswahili()));
    assert!(!outer(&zanzibar()), "Z10 keeps the preference");
    assert!(outer(&east_africa()));
}

// --- P11: takasia

#[test]
fn p11_only_kiswahili_has_takasia() {
    // The E30 example: after South's A7L, Kiswahili blocks North's a4.
    let text = std::fs::read_to_string(oracle("bao/e30_takasia.json")).unwrap();
    let data: serde_json::Value = serde_json::from_str(&text).unwrap();
    let pits: Vec<(String, u32)> = data["before"]["pits"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, n)| (k.clone(), n.as_u64().unwrap() as u32))
        .collect();
    let pits: Vec<(&str, u32)> = pits.iter().map(|(k, n)| (k.as_str(), *n)).collect();
    let north_from_a4 = |v: &Variant| {
        let g = after(v, &pits, [0, 0], [false, false], "A7L");
        legal(&g).iter().any(|m| m.starts_with("a4"))
    };
    assert!(!north_from_a4(&kiswahili()));
    assert!(north_from_a4(&zanzibar()));
    assert!(north_from_a4(&east_africa()));
}

// --- P15: the first capture of the mtaji stage and the houses

#[test]
fn p15_only_kiswahili_ends_the_houses_at_the_first_mtaji_capture() {
    // A3L captures a8's seeds far from either house.
    let pits = [
        ("A1", 1),
        ("A3", 2),
        ("A6", 6),
        ("a8", 2),
        ("a3", 6),
        ("a1", 2),
    ];
    let statuses = |v: &Variant| {
        let g = after(v, &pits, [0, 0], [true, true], "A3L");
        let st = state(v, &g);
        [
            st["house_status"]["south"].clone(),
            st["house_status"]["north"].clone(),
        ]
    };
    assert_eq!(statuses(&kiswahili()), ["gone", "gone"]);
    assert_eq!(statuses(&zanzibar()), ["standing", "standing"]);
    assert_eq!(statuses(&east_africa()), ["standing", "standing"]);
}

// --- The derived files hold only what differs.

#[test]
fn the_descriptions_are_small_files_on_top_of_kiswahili() {
    let lines = |name: &str| {
        sow::variants::source(name)
            .unwrap()
            .lines()
            .filter(|l| !l.trim().is_empty())
            .count()
    };
    let base = lines("bao-la-kiswahili");
    for name in ["bao-zanzibar", "bao-east-africa"] {
        assert!(
            lines(name) * 3 < base,
            "{name}: {} non-blank lines, base {base}",
            lines(name)
        );
        assert!(sow::variants::source(name)
            .unwrap()
            .contains("extends bao-la-kiswahili"));
    }
}
