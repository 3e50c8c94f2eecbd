//! Bounded memory on hostile input: a counting global allocator records the peak
//! bytes live while opening, walking and auditing each file. Hostile lengths and
//! counts (2^31, 2^63) must cost nothing beyond the bytes actually present.

#![cfg(not(target_arch = "wasm32"))]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicIsize, Ordering};
use std::sync::Mutex;
use tsfile_bloom::{audit, tsfile, BloomFilter};

struct Counting;

// Signed: a block freed while measuring may have been allocated before.
static LIVE: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);
// Tests run on several threads; measurements must not overlap.
static SERIAL: Mutex<()> = Mutex::new(());

thread_local! {
    // Only the measuring thread counts: the test harness's other threads allocate too (a
    // finished test's output, the next test's thread), which once pushed a peak over its bound.
    static MEASURING: Cell<bool> = const { Cell::new(false) };
}

fn measuring() -> bool {
    MEASURING.try_with(Cell::get).unwrap_or(false)
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if measuring() {
            let now = LIVE.fetch_add(layout.size() as isize, Ordering::SeqCst) + layout.size() as isize;
            PEAK.fetch_max(now, Ordering::SeqCst);
        }
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if measuring() {
            LIVE.fetch_sub(layout.size() as isize, Ordering::SeqCst);
        }
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Peak bytes allocated by this thread (above what was live before) while `f` runs.
fn peak_of<T>(f: impl FnOnce() -> T) -> usize {
    let _g = SERIAL.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    LIVE.store(0, Ordering::SeqCst);
    PEAK.store(0, Ordering::SeqCst);
    MEASURING.with(|m| m.set(true));
    let out = f();
    MEASURING.with(|m| m.set(false));
    let peak = PEAK.load(Ordering::SeqCst);
    drop(out);
    peak as usize
}

fn inspect(data: &[u8]) -> usize {
    peak_of(|| {
        let Ok(meta) = tsfile::read_metadata(data) else { return 0 };
        let walk = tsfile::walk_index(data, &meta);
        let a = audit::audit(meta.bloom.filter.as_ref(), &walk.series);
        a.results.len() + walk.series.len()
    })
}

#[test]
fn hostile_filter_lengths_allocate_nothing() {
    // byte_length 2^31-1 with 3 bytes present; bit_count 2^31-1 and k 5 with one stored byte;
    // a varint for 2^63 (over-long).
    let cases: [&[u8]; 3] = [
        &[0xff, 0xff, 0xff, 0xff, 0x07, 1, 2, 3],
        &[0x01, 0x01, 0xff, 0xff, 0xff, 0xff, 0x07, 0x05],
        &[0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01],
    ];
    for bytes in cases {
        let peak = peak_of(|| BloomFilter::decode(bytes, 0).map(|(f, _)| f.map(|f| f.set_bits())));
        // An error message and, for the valid huge-m filter, its one stored byte.
        assert!(peak < 1024, "{bytes:?}: {peak} bytes");
    }
}

#[test]
fn hostile_fixtures_cost_about_what_a_small_valid_file_costs() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tsfile");
    let small = std::fs::read(dir.join("tree_1series.tsfile")).unwrap();
    let baseline = inspect(&small);
    assert!(baseline > 0);
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.starts_with("hostile_") || !name.ends_with(".tsfile") {
            continue;
        }
        let data = std::fs::read(&path).unwrap();
        let peak = inspect(&data);
        // Hostile fixtures are mutations of 1-series files: a file-sized read plus the
        // small structures a valid file needs, never anything sized by a hostile field.
        assert!(peak <= baseline * 3 / 2 + 4096, "{name}: peak {peak} bytes vs {baseline} for a valid file");
        checked += 1;
    }
    assert!(checked >= 20, "hostile fixtures missing");
}

#[test]
fn huge_counts_in_metadata_are_rejected_before_allocating() {
    // A v4 file whose TsFileMetadata claims 2^31-1 tables, then 2^31-1 columns, in 20 bytes.
    for body in [&[0xff, 0xff, 0xff, 0xff, 0x07][..], &[0x00, 0xff, 0xff, 0xff, 0xff, 0x07]] {
        let mut file = b"TsFile\x04".to_vec();
        file.extend_from_slice(&[0u8; 8]);
        let start = file.len();
        file.extend_from_slice(body);
        file.extend_from_slice(&[0u8; 12]);
        let size = (file.len() - start) as i32;
        file.extend_from_slice(&size.to_be_bytes());
        file.extend_from_slice(b"TsFile");
        let mut err = None;
        let peak = peak_of(|| err = tsfile::read_metadata(&file[..]).err());
        assert_eq!(err.map(|e| e.kind.as_str()), Some("bad_count"));
        assert!(peak < 4096, "{peak} bytes");
    }
}

/// The counter itself: without it every bound above would hold vacuously.
#[test]
fn the_counter_sees_this_threads_allocations() {
    let peak = peak_of(|| vec![1u8; 5000]);
    assert!((5000..6000).contains(&peak), "{peak}");
    assert_eq!(peak_of(|| 0), 0);
}
