//! Fuzz target `position`: see `sow::fuzz::position`.
fn main() {
    afl::fuzz!(|data: &[u8]| {
        sow::fuzz::position(data);
    });
}
