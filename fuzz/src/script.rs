//! Fuzz target `script`: see `sow::fuzz::script`.
fn main() {
    afl::fuzz!(|data: &[u8]| {
        sow::fuzz::script(data);
    });
}
