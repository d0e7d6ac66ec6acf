//! Fuzz target `python`: see `sow::fuzz::python`.
fn main() {
    afl::fuzz!(|data: &[u8]| {
        sow::fuzz::python(data);
    });
}
