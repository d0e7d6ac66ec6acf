//! Fuzz target `http`: see `sow::fuzz::http`.
fn main() {
    afl::fuzz!(|data: &[u8]| {
        sow::fuzz::http(data);
    });
}
