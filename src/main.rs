//! The `sow` binary: everything is in the library; this only exits.

fn main() {
    std::process::exit(sow::cli::main());
}
