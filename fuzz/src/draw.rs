//! Fuzz target `draw`: see `sow::fuzz::draw`.
fn main() {
    afl::fuzz!(|data: &[u8]| {
        sow::fuzz::draw(data);
    });
}
