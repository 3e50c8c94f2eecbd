//! Everything `inspect` does on arbitrary bytes: metadata, the index walk, the audit and
//! a probe of every listed series. Seeded from the real-writer fixtures, so mutations
//! reach the index nodes and TimeseriesMetadata runs.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tsfile_bloom::{audit, probe, tsfile, verdict};

fuzz_target!(|data: &[u8]| {
    let Ok(meta) = tsfile::read_metadata(data) else { return };
    let walk = tsfile::walk_index(data, &meta);
    if let Some(e) = &walk.error {
        assert!(e.offset().is_some_and(|o| o <= data.len() as u64), "{e}");
    }
    let a = audit::audit(meta.bloom.filter.as_ref(), &walk.series);
    if let Some(f) = meta.bloom.filter.as_ref() {
        for s in walk.series.iter().take(64) {
            let p = probe::probe_file(f, Some(&a), &s.path(), None, None).expect("UTF-8 needs no charset");
            if a.reproduced() && (!s.is_time_column() || a.matching().all(|h| h.time_columns)) {
                // A reproduced filter holds every indexed path: no false negatives.
                assert_ne!(p.verdict, verdict::FileVerdict::Absent, "{}", String::from_utf8_lossy(&s.path()));
            }
        }
    }
});
