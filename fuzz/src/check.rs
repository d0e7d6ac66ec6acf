//! Fuzz target `check`: see `sow::fuzz::check`.
fn main() {
    afl::fuzz!(|data: &[u8]| {
        sow::fuzz::check(data);
    });
}
