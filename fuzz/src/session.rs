//! Fuzz target `session`: see `sow::fuzz::session`.
fn main() {
    afl::fuzz!(|data: &[u8]| {
        sow::fuzz::session(data);
    });
}
