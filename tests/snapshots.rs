//! Snapshots for review (insta): the rules IR of every shipped variant and
//! the rendered diagnostics of invalid variant files. Each invalid file
//! also states, on its first line, what its diagnostics must say; that
//! assertion is the proof, the snapshot the review.

use sow::diagnostic::render_all;

fn read(path: &std::path::Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn rules_ir_of_every_shipped_variant() {
    insta::glob!("../variants", "*.sow", |path| {
        let rules =
            sow::compile(&read(path)).unwrap_or_else(|d| panic!("{}: {d:?}", path.display()));
        insta::assert_yaml_snapshot!(rules);
    });
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
