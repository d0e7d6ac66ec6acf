//! The variants shipped with sow, embedded in the binary.

/// Every shipped variant: name and source text.
pub const SHIPPED: &[(&str, &str)] = &[
    (
        "oware-abapa",
        include_str!("../../variants/oware-abapa.sow"),
    ),
    ("kalah", include_str!("../../variants/kalah.sow")),
    (
        "bao-la-kiswahili",
        include_str!("../../variants/bao-la-kiswahili.sow"),
    ),
    (
        "bao-la-kujifunza",
        include_str!("../../variants/bao-la-kujifunza.sow"),
    ),
    ("wari", include_str!("../../variants/wari.sow")),
    (
        "bao-zanzibar",
        include_str!("../../variants/bao-zanzibar.sow"),
    ),
    (
        "bao-east-africa",
        include_str!("../../variants/bao-east-africa.sow"),
    ),
    ("tihbat", include_str!("../../variants/tihbat.sow")),
    ("dakon", include_str!("../../variants/dakon.sow")),
    ("pallanguli", include_str!("../../variants/pallanguli.sow")),
    ("bechi", include_str!("../../variants/bechi.sow")),
    ("olinda", include_str!("../../variants/olinda.sow")),
    ("lamlameta", include_str!("../../variants/lamlameta.sow")),
    ("namnam", include_str!("../../variants/namnam.sow")),
    ("weg", include_str!("../../variants/weg.sow")),
    (
        "oware-match",
        include_str!("../../variants/oware-match.sow"),
    ),
    (
        "bohnenspiel",
        include_str!("../../variants/bohnenspiel.sow"),
    ),
    ("mangala-ii", include_str!("../../variants/mangala-ii.sow")),
    ("songo", include_str!("../../variants/songo.sow")),
    ("kale", include_str!("../../variants/kale.sow")),
    ("wari-mg", include_str!("../../variants/wari-mg.sow")),
    (
        "cross-kalah",
        include_str!("../../variants/cross-kalah.sow"),
    ),
    ("kalah-mg", include_str!("../../variants/kalah-mg.sow")),
    ("alemungula", include_str!("../../variants/alemungula.sow")),
    ("achochodi", include_str!("../../variants/achochodi.sow")),
    (
        "tchuka-ruma",
        include_str!("../../variants/tchuka-ruma.sow"),
    ),
    (
        "tchuka-ruma-solitaire",
        include_str!("../../variants/tchuka-ruma-solitaire.sow"),
    ),
    (
        "toguz-kumalak",
        include_str!("../../variants/toguz-kumalak.sow"),
    ),
    ("kara", include_str!("../../variants/kara.sow")),
    ("qelat", include_str!("../../variants/qelat.sow")),
    ("enkeshui", include_str!("../../variants/enkeshui.sow")),
    ("ayoayo", include_str!("../../variants/ayoayo.sow")),
    ("deka", include_str!("../../variants/deka.sow")),
    ("ba-awa", include_str!("../../variants/ba-awa.sow")),
    ("azigo", include_str!("../../variants/azigo.sow")),
    ("omweso", include_str!("../../variants/omweso.sow")),
    (
        "pallanguli-single",
        include_str!("../../variants/pallanguli-single.sow"),
    ),
    (
        "leb-bbut-ahbochen",
        include_str!("../../variants/leb-bbut-ahbochen.sow"),
    ),
];

/// The source of a shipped variant.
pub fn source(name: &str) -> Option<&'static str> {
    SHIPPED.iter().find(|(n, _)| *n == name).map(|(_, s)| *s)
}

/// The names of the shipped variants.
pub fn names() -> Vec<&'static str> {
    SHIPPED.iter().map(|(n, _)| *n).collect()
}
