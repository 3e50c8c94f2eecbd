//! Native benchmarks over the large fixtures in bench-data/ (part of `cargo bench --bench bloom`,
//! groups `open` and `index`). The fixtures are written by the real C++ writer
//! (`scripts/gen-bench-fixtures.py`, run by scripts/bench.sh); a missing one is skipped.
//!
//! * open/{big_1g,small_1m}: envelope + TsFileMetadata through a FileSource (what opening costs
//!   natively), with the bytes read printed once.
//! * index/walk: walking the 8 MB index region of the 100,000-series file (region in memory).
//! * index/audit: the audit alone (every hypothesis rebuilds the filter from the index).
//! * index/walk+audit: both, what `TsFile.audit()` does after reading the region.

use criterion::{black_box, Criterion};
use std::path::PathBuf;
use tsfile_bloom::hash::{bit_index, hash32_seeds, variants_can_differ};
use tsfile_bloom::source::{CountingSource, FileSource, ReadAt};
use tsfile_bloom::{audit, tsfile, TailVariant};

fn fixture(name: &str) -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("bench-data").join(format!("{name}.tsfile"));
    if p.exists() {
        Some(p)
    } else {
        eprintln!(
            "[benches/tsfile] {} missing: run scripts/gen-bench-fixtures.py (scripts/bench.sh does)",
            p.display()
        );
        None
    }
}

pub fn bench_open(c: &mut Criterion) {
    let mut g = c.benchmark_group("open");
    for name in ["big_1g", "small_1m"] {
        let Some(path) = fixture(name) else { continue };
        let src = CountingSource::new(FileSource::open(&path).unwrap());
        let meta = tsfile::read_metadata(&src).unwrap();
        eprintln!(
            "[benches/tsfile] open {name}: {} bytes, TsFileMetadata {} bytes, index region {} bytes, read {} bytes in {} reads",
            src.size().unwrap(),
            meta.envelope.metadata_size,
            meta.envelope.metadata_offset - meta.meta_offset,
            src.reads.borrow().iter().map(|&(_, len)| len as u64).sum::<u64>(),
            src.reads.borrow().len()
        );
        g.bench_function(name, |b| {
            b.iter(|| {
                let src = FileSource::open(black_box(&path)).unwrap();
                tsfile::read_metadata(&src).unwrap().meta_offset
            })
        });
    }
    g.finish();
}

pub fn bench_index(c: &mut Criterion) {
    let Some(path) = fixture("series_100k") else { return };
    let src = FileSource::open(&path).unwrap();
    let meta = tsfile::read_metadata(&src).unwrap();
    let len = (meta.envelope.metadata_offset - meta.meta_offset) as usize;
    let region = src.read_at(meta.meta_offset, len).unwrap();
    let walk = tsfile::walk_index_region(&meta, &region);
    assert!(walk.error.is_none());
    assert_eq!(walk.series.len(), 100_000);
    let filter = meta.bloom.filter.as_ref();
    let a = audit::audit(filter, &walk.series);
    eprintln!("[benches/tsfile] audit of series_100k: {} ({} hypotheses)", a.status.as_str(), a.results.len());
    let mut g = c.benchmark_group("index");
    g.sample_size(10);
    g.bench_function("walk", |b| b.iter(|| tsfile::walk_index_region(&meta, black_box(&region)).series.len()));
    g.bench_function("audit", |b| b.iter(|| audit::audit(filter, black_box(&walk.series)).results.len()));
    // What the audit could cost (not the crate's audit.rs, a measurement of the limit): each
    // path built once, one multi-seed hash per path and variant (shared by the
    // "indexed but absent" check and the rebuild), ASCII-tail paths hashed once for both
    // variants, bits rebuilt into words and compared with the stored vector.
    let f = filter.expect("series_100k has a filter");
    let stored = f.logical_bits();
    let proto = |series: &[tsfile::Series]| -> (u64, u64) {
        let m = f.bit_count();
        let k = f.hash_function_count() as usize;
        let words = (m as usize).div_ceil(64);
        let mut rebuilt = [vec![0u64; words], vec![0u64; words]];
        let mut absent = [0u64; 2];
        for s in series {
            let path = s.path();
            let java = hash32_seeds(&path, f.seeds(), TailVariant::Java);
            let zero = if variants_can_differ(&path) {
                hash32_seeds(&path, f.seeds(), TailVariant::ZeroExtended)
            } else {
                java
            };
            for (v, hs) in [java, zero].iter().enumerate() {
                let mut all = true;
                for &h in &hs[..k] {
                    let bit = bit_index(h, m) as usize;
                    all &= f.get(bit as u32);
                    rebuilt[v][bit / 64] |= 1 << (bit % 64);
                }
                absent[v] += !all as u64;
            }
        }
        let diff = |r: &Vec<u64>| -> u64 {
            stored
                .chunks(8)
                .zip(r)
                .map(|(c, w)| {
                    let mut a = [0u8; 8];
                    a[..c.len()].copy_from_slice(c);
                    (u64::from_le_bytes(a) ^ w).count_ones() as u64
                })
                .sum()
        };
        (diff(&rebuilt[0]) + absent[0], diff(&rebuilt[1]) + absent[1])
    };
    let (dj, dz) = proto(&walk.series);
    let want = |v: TailVariant| {
        a.results.iter().find(|r| r.hypothesis.variant == v).map(|r| r.differing_bits + r.indexed_absent as u64)
    };
    assert_eq!(
        (Some(dj), Some(dz)),
        (want(TailVariant::Java), want(TailVariant::ZeroExtended)),
        "prototype audit disagrees"
    );
    g.bench_function("audit-limit", |b| b.iter(|| proto(black_box(&walk.series))));
    g.bench_function("walk+audit", |b| {
        b.iter(|| {
            let w = tsfile::walk_index_region(&meta, black_box(&region));
            audit::audit(filter, &w.series).results.len()
        })
    });
    g.finish();
}
