//! Arbitrary bytes as a LevelDB table: open (footer, CRC-checked blocks, Snappy, filter
//! and index blocks) and route/probe a few keys; typed errors only, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tsfile_bloom::leveldb::{self, LevelDbTable};

fuzz_target!(|data: &[u8]| {
    // Also exercise the filter reader directly on the raw bytes.
    let _ = leveldb::probe_filter(b"key", data);
    match LevelDbTable::open(data) {
        Ok(t) => {
            for key in [&b""[..], b"a", b"key-1", b"\xff\xff\xff\xff"] {
                let p = t.probe(key);
                assert!(p.probes.iter().all(|b| (b.bit as usize) < data.len() * 8));
            }
            for i in 0..t.filters.len() {
                assert!(t.filter_bytes(i).is_some());
            }
        }
        Err(e) => assert!(e.offset().is_some_and(|o| o <= data.len() as u64), "{e}"),
    }
});
