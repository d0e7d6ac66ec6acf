//! Fuzz target `moves`: see `sow::fuzz::moves`.
fn main() {
    afl::fuzz!(|data: &[u8]| {
        sow::fuzz::moves(data);
    });
}
