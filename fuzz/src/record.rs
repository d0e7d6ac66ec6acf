//! Fuzz target `record`: see `sow::fuzz::record`.
fn main() {
    afl::fuzz!(|data: &[u8]| {
        sow::fuzz::record(data);
    });
}
