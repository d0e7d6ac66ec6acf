//! Fuzz target `api`: see `sow::fuzz::api`.
fn main() {
    afl::fuzz!(|data: &[u8]| {
        sow::fuzz::api(data);
    });
}
