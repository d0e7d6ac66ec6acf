//! Memory for the solver's large arrays (the table, the databases'
//! levels): an anonymous mapping, zero until a page is first touched, and
//! on Linux advised onto huge pages. Both are read at random over many
//! gigabytes, and on small pages most reads would miss the TLB: Kalah(6,4)
//! with a 16 GiB budget searched 1.6 times as many positions a second on
//! huge pages (the book's performance chapter).

/// `len` bytes (at least one), zero until touched.
pub(super) fn anonymous(len: usize) -> Result<memmap2::MmapMut, String> {
    let map = memmap2::MmapOptions::new()
        .len(len.max(1))
        .map_anon()
        .map_err(|e| format!("no memory for {len} bytes: {e}"))?;
    // (A hint: where the system gives no huge pages, small ones serve.)
    #[cfg(target_os = "linux")]
    let _ = map.advise(memmap2::Advice::HugePage);
    Ok(map)
}
