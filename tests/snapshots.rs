//! Snapshots for review (insta): the rules IR of every shipped variant,
//! each shipped variant as `sow show` prints it, and the rendered
//! diagnostics of invalid variant files (alone, and built on others). Each
//! invalid file also states, on its first line, what its diagnostics must
//! say; that assertion is the proof, the snapshot the review. That `sow
//! show` prints the same game is asserted: its text lowers to an equal IR.

use sow::diagnostic::render_all;
use sow::Variant;

/// A path under the package, relative to it (as the tests run there), so
/// that file names in messages do not depend on the machine.
fn relative(path: &std::path::Path) -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}

fn load(path: &std::path::Path) -> Variant {
    sow::load::load(&relative(path), std::path::Path::new(""), &[])
        .unwrap_or_else(|e| panic!("{}", e.render()))
}

fn read(path: &std::path::Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn rules_ir_of_every_shipped_variant() {
    insta::glob!("../variants", "*.sow", |path| {
        insta::assert_yaml_snapshot!(load(path).engine.rules);
    });
}

/// `sow show` prints one file that is the same game: checked on its own,
/// it lowers to the IR the variant has (for every shipped variant, and
/// with options given).
#[test]
fn show_prints_the_same_game_as_one_file() {
    let same = |v: &Variant, what: &str| {
        let shown = sow::load::show(v);
        assert!(
            !shown.contains("extends") && !shown.contains("replace "),
            "{what}"
        );
        let again = Variant::from_source("shown.sow", &shown)
            .unwrap_or_else(|e| panic!("{what}: the shown file is rejected:\n{}", e.render()));
        assert_eq!(again.engine.rules, v.engine.rules, "{what}");
        shown
    };
    insta::glob!("../variants", "*.sow", |path| {
        let v = load(path);
        insta::assert_snapshot!(same(&v, &relative(path)));
        // Every option at every value.
        for o in v.engine.rules.options.clone() {
            let values = match &o.choices {
                sow::ir::Choices::Words(w) => w.clone(),
                sow::ir::Choices::Range(lo, hi) => vec![lo.to_string(), hi.to_string()],
            };
            for value in values {
                let with = v.with_options(&[(o.name.clone(), value.clone())]).unwrap();
                assert_eq!(
                    with.engine
                        .rules
                        .options
                        .iter()
                        .find(|s| s.name == o.name)
                        .unwrap()
                        .value,
                    value
                );
                same(
                    &with,
                    &format!("{} with {}={value}", relative(path), o.name),
                );
            }
        }
    });
}

/// Composition errors: each file under `tests/compose` whose name starts
/// with `bad_` is rejected with what its first line expects.
#[test]
fn diagnostics_of_composition_errors() {
    let mut count = 0;
    insta::glob!("compose", "bad_*.sow", |path| {
        count += 1;
        let name = relative(path);
        let err = sow::load::load(&name, std::path::Path::new(""), &[])
            .expect_err("an invalid file is rejected");
        let rendered = err.render();
        let expect = read(path)
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# expect: "))
            .map(str::to_string)
            .expect("a `# expect:` line");
        assert!(
            rendered.contains(&expect),
            "{name}: expected `{expect}` in\n{rendered}"
        );
        for e in &err.diagnostics {
            assert!(e.hint.is_some(), "{name}: `{}` has no hint", e.message);
        }
        insta::assert_snapshot!(rendered);
    });
    assert!(count >= 6, "at least 6 composition errors, found {count}");
}

/// An unknown option and a value out of range name what is wrong and what
/// would be right.
#[test]
fn diagnostics_of_bad_options() {
    let load = |options: &[(&str, &str)]| {
        let options: Vec<(String, String)> = options
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        sow::load::load("oware-abapa", std::path::Path::new(""), &options)
            .expect_err("rejected")
            .render()
    };
    let unknown = load(&[("grand_slm", "forbidden")]);
    assert!(
        unknown.contains("has no option `grand_slm`")
            && unknown.contains("did you mean `grand_slam`?"),
        "{unknown}"
    );
    insta::assert_snapshot!("unknown_option", unknown);
    let bad = load(&[("grand_slam", "sometimes")]);
    assert!(
        bad.contains("`sometimes` is not a value of option `grand_slam`"),
        "{bad}"
    );
    assert!(
        bad.contains("capture_nothing | forbidden | take_all"),
        "{bad}"
    );
    insta::assert_snapshot!("bad_option_value", bad);
    let range = sow::load::load_text(
        "seeds.sow",
        &sow::variants::source("oware-abapa")
            .unwrap()
            .replace(
                "  seeds 4                           # O2",
                "  seeds pit_seeds\n  # O2",
            )
            .replace("  total 48                          # O2 48 seeds\n", "")
            .replace(
                "variant oware-abapa",
                "variant oware-abapa\noption pit_seeds default 4: 1..6",
            ),
        std::path::Path::new(""),
        &[("pit_seeds".to_string(), "9".to_string())],
    )
    .expect_err("out of range")
    .render();
    assert!(
        range.contains("`9` is not a value of option `pit_seeds`") && range.contains("1..6"),
        "{range}"
    );
    insta::assert_snapshot!("option_out_of_range", range);
}

#[test]
fn diagnostics_of_invalid_variant_files() {
    let mut count = 0;
    insta::glob!("invalid", "*.sow", |path| {
        count += 1;
        let src = read(path);
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let errors = sow::compile(&src).expect_err("an invalid file is rejected");
        let rendered = render_all(&errors, &name, &src);
        let expect = src
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# expect: "))
            .expect("a `# expect:` line");
        assert!(
            rendered.contains(expect),
            "{name}: expected `{expect}` in\n{rendered}"
        );
        // Every error points somewhere and says what would be right.
        for e in &errors {
            assert!(e.hint.is_some(), "{name}: `{}` has no hint", e.message);
        }
        insta::assert_snapshot!(rendered);
    });
    assert!(count >= 12, "at least 12 invalid files, found {count}");
}

/// Warnings: a file that checks, with a construct that may not do what it
/// reads as (a player that can be `none` whose pits are read), said once
/// where nothing says it names a player; the file still loads.
#[test]
fn warnings_of_a_file_that_checks() {
    let text = "extends kalah
variant warned
rule give at end {
  capture side(last_mover) to store(south)    # warned: none before the first turn
}
rule give_named at end when last_mover != none {
  capture side(last_mover) to store(north)    # named by the rule's condition
}
end odd when last_mover != none and seeds(side(last_mover)) == 99
replace score seeds(store(player)) + if(last_mover == south, seeds(side(last_mover)), 0)
";
    let v = Variant::from_source("warned.sow", text).unwrap_or_else(|e| panic!("{}", e.render()));
    assert_eq!(v.warnings.len(), 1, "{:?}", v.warnings);
    let w = &v.warnings[0];
    assert_eq!(w.kind, sow::diagnostic::Kind::Warning);
    let rendered = v.sources.render_all(&v.warnings);
    assert!(
        rendered.contains("warned.sow:4:16")
            && rendered.contains("`last_mover` can be `none` here"),
        "{rendered}"
    );
    insta::assert_snapshot!("none_as_a_player", rendered);
}

/// No shipped variant has a warning: each says where a player that can be
/// `none` names one before reading their pits.
#[test]
fn no_shipped_variant_warns() {
    for name in sow::variants::names() {
        let v = Variant::shipped(name).unwrap();
        assert!(
            v.warnings.is_empty(),
            "{name}:\n{}",
            v.sources.render_all(&v.warnings)
        );
    }
}
