//! Fuzz target `play`: see `sow::fuzz::play`.
fn main() {
    afl::fuzz!(|data: &[u8]| {
        sow::fuzz::play(data);
    });
}
