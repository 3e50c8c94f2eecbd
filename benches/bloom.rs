//! Native benchmarks of the Rust core (criterion; `cargo bench --bench bloom`).
//!
//! Every per-path benchmark runs over a batch of realistic TsFile series paths and
//! declares `Throughput::Elements(batch)`, so "time / element" is the cost of one path.
//! `scripts/bench.mjs` reads the results (target/criterion/**/new/) to put the native
//! figures next to the wasm ones; BENCHMARKS.md has the figures of one run.
//!
//! Path sets (the same generators live in scripts/bench.mjs):
//! * ASCII:     `root.sg{1..4}.d{0..49}.s{0..49}`      e.g. `root.sg1.d42.s17` (14-17 bytes)
//! * non-ASCII: `t1.{北京|上海|广州|深圳}.泵{0..624}.{温度℃|压力|流量|转速}`
//!   e.g. `t1.北京.泵1.温度℃` (21-27 bytes; the `len mod 16` tail holds bytes >= 0x80,
//!   so the Java and zero-extended variants really take different values).
//! * absent paths: the same shapes under `root.sg9…` / `t2.…`, never added.

use criterion::{black_box, criterion_group, BenchmarkId, Criterion, Throughput};
use std::io::Cursor;
use std::time::Duration;
use tsfile_bloom::{hash32, BloomFilter, SeedProbe, TailVariant};

#[path = "files/tsfile.rs"]
mod files;

/// Paths per iteration for the per-path groups.
const BATCH: usize = 1000;
/// What the Java writer sizes for a file with 10,000 series at the default error rate.
const SERIES: usize = 10_000;

const CITIES: [&str; 4] = ["北京", "上海", "广州", "深圳"];
const MEASUREMENTS: [&str; 4] = ["温度℃", "压力", "流量", "转速"];

fn ascii_path(i: usize, sg_base: usize) -> String {
    format!("root.sg{}.d{}.s{}", sg_base + i / 2500, (i / 50) % 50, i % 50)
}

fn non_ascii_path(i: usize, table: usize) -> String {
    format!("t{table}.{}.泵{}.{}", CITIES[i % 4], i / 16, MEASUREMENTS[(i / 4) % 4])
}

/// `n` present paths and `n` absent paths of one shape.
fn path_sets(non_ascii: bool, n: usize) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let make = |i: usize, absent: bool| -> Vec<u8> {
        if non_ascii {
            non_ascii_path(i, if absent { 2 } else { 1 }).into_bytes()
        } else {
            ascii_path(i, if absent { 9 } else { 1 }).into_bytes()
        }
    };
    ((0..n).map(|i| make(i, false)).collect(), (0..n).map(|i| make(i, true)).collect())
}

/// A filter sized by Java for 10,000 series (62,353 bits, k = 5) holding `paths`.
fn full_filter(paths: &[Vec<u8>], variant: TailVariant) -> BloomFilter {
    let mut f = BloomFilter::with_capacity(SERIES as i32, 0.05);
    for p in paths {
        f.add(p, variant);
    }
    f
}

/// The hash32 value of the `murmur3` crate's x64-128 output, folded the TsFile way.
fn stock_hash32(key: &[u8], seed: u32) -> i32 {
    let h = murmur3::murmur3_x64_128(&mut Cursor::new(key), seed).unwrap();
    let (h1, h2) = (h as u64, (h >> 64) as u64);
    h1.wrapping_add(h2) as i32
}

// ---------------------------------------------------------------------------------------
// Realistic paths: the shape scripts/gen-bench-fixtures.py writes and
// scripts/bench.mjs uses: device `i / 40`, measurement `i % 40`, every 4th device
// non-ASCII; 42-52 UTF-8 bytes.

const MEAS_EN: [&str; 8] =
    ["temperature", "pressure", "flow_rate", "rotation_speed", "vibration_x", "vibration_y", "voltage", "current"];
const MEAS_CN: [&str; 8] = ["温度", "压力", "流量", "转速", "振动X", "振动Y", "电压", "电流"];

/// Series path `i` of the realistic shape (must match scripts/bench.mjs and the generator).
pub fn real_path(i: usize) -> String {
    let (d, m) = (i / 40, i % 40);
    if d % 4 == 3 {
        format!("root.华东.工厂{:02}.风机_{:05}.{}_{}", d % 16, d, MEAS_CN[m % 8], m)
    } else {
        format!("root.plant_{:02}.line_{}.turbine_{:05}.{}_{}", d % 16, d % 5, d, MEAS_EN[m % 8], m)
    }
}

/// Series in the realistic filter, and the probe batch: half of them indexed paths, half absent.
const REAL_SERIES: usize = 100_000;
const REAL_BATCH: usize = 10_000;
/// The 1M-path build.
const BUILD_N: usize = 1_000_000;

fn real_batch() -> Vec<Vec<u8>> {
    (0..REAL_BATCH)
        .map(|i| if i % 2 == 0 { real_path((i * 7919) % REAL_SERIES) } else { real_path(REAL_SERIES + i) }.into_bytes())
        .collect()
}

/// What `WasmBloomFilter::probeStaged` computes, natively: per key a set-bit mask and
/// (hash32, bit) per seed, into one flat buffer (the JS `probeMany(…, {compact})` result).
fn probe_flat(filter: &BloomFilter, keys: &[Vec<u8>], v: TailVariant, out: &mut Vec<i32>) {
    out.clear();
    for key in keys {
        let mask_at = out.len();
        out.push(0);
        let mut mask = 0i32;
        let mut probes = [SeedProbe::NONE; tsfile_bloom::filter::MAXIMAL_HASH_FUNCTION_SIZE as usize];
        let probes = &mut probes[..filter.hash_function_count() as usize];
        filter.probe_into(key, v, probes);
        for (j, s) in probes.iter().enumerate() {
            mask |= (s.set as i32) << j;
            out.push(s.hash32);
            out.push(s.bit as i32);
        }
        out[mask_at] = mask;
    }
}

fn bench_real(c: &mut Criterion) {
    let v = TailVariant::Java;
    let mut filter = BloomFilter::with_capacity(REAL_SERIES as i32, 0.05);
    for i in 0..REAL_SERIES {
        filter.add(real_path(i).as_bytes(), v);
    }
    assert_eq!((filter.bit_count(), filter.hash_function_count()), (623_523, 5));
    let batch = real_batch();
    assert!(batch.iter().all(|p| (30..=60).contains(&p.len())));
    assert!(batch.iter().step_by(2).all(|p| filter.might_contain(p, v)));
    let mut g = c.benchmark_group("real");
    g.throughput(Throughput::Elements(REAL_BATCH as u64));
    g.bench_function("probe_flat/java", |b| {
        let mut out = Vec::with_capacity(REAL_BATCH * 11);
        b.iter(|| {
            probe_flat(&filter, black_box(&batch), v, &mut out);
            out.len()
        })
    });
    g.bench_function("might_contain/java", |b| {
        b.iter(|| batch.iter().filter(|p| filter.might_contain(black_box(p), v)).count())
    });
    g.bench_function("probe/java", |b| {
        b.iter(|| batch.iter().map(|p| filter.probe(black_box(p), v).probes.len()).sum::<usize>())
    });
    g.bench_function("hash32x5/java", |b| {
        b.iter(|| {
            let mut acc = 0i32;
            for p in &batch {
                for &seed in &tsfile_bloom::SEEDS[..5] {
                    acc ^= hash32(black_box(p), seed, v);
                }
            }
            acc
        })
    });
    g.finish();

    let paths: Vec<Vec<u8>> = (0..BUILD_N).map(|i| real_path(i).into_bytes()).collect();
    let mut g = c.benchmark_group("build");
    g.throughput(Throughput::Elements(BUILD_N as u64));
    g.sample_size(10);
    g.bench_function("add_1m/java", |b| {
        b.iter(|| {
            let mut f = BloomFilter::with_capacity(BUILD_N as i32, 0.05);
            for p in &paths {
                f.add(black_box(p), v);
            }
            f.bit_count()
        })
    });
    g.finish();
}

fn variant_name(v: TailVariant) -> &'static str {
    v.as_str()
}

fn bench_hash(c: &mut Criterion) {
    let mut g = c.benchmark_group("hash32");
    g.throughput(Throughput::Elements(BATCH as u64));
    for (shape, non_ascii) in [("ascii", false), ("non-ascii", true)] {
        let (paths, _) = path_sets(non_ascii, BATCH);
        // Sanity, not timing: the zero-extended variant is a stock MurmurHash3 x64-128.
        for p in &paths {
            assert_eq!(hash32(p, 5, TailVariant::ZeroExtended), stock_hash32(p, 5));
        }
        if non_ascii {
            assert!(paths.iter().all(|p| hash32(p, 5, TailVariant::Java) != hash32(p, 5, TailVariant::ZeroExtended)));
        }
        for v in TailVariant::ALL {
            g.bench_with_input(BenchmarkId::new(variant_name(v), shape), &paths, |b, paths| {
                b.iter(|| {
                    let mut acc = 0i32;
                    for p in paths {
                        acc ^= hash32(black_box(p), 5, v);
                    }
                    acc
                })
            });
        }
        g.bench_with_input(BenchmarkId::new("murmur3-crate", shape), &paths, |b, paths| {
            b.iter(|| {
                let mut acc = 0i32;
                for p in paths {
                    acc ^= stock_hash32(black_box(p), 5);
                }
                acc
            })
        });
    }
    g.finish();
}

fn bench_probe(c: &mut Criterion) {
    let mut g = c.benchmark_group("probe");
    g.throughput(Throughput::Elements(BATCH as u64));
    let cases: [(&str, bool, TailVariant, &str); 6] = [
        ("ascii", false, TailVariant::Java, "hit"),
        ("ascii", false, TailVariant::Java, "miss"),
        ("ascii", false, TailVariant::ZeroExtended, "hit"),
        ("non-ascii", true, TailVariant::Java, "hit"),
        ("non-ascii", true, TailVariant::ZeroExtended, "hit"),
        ("non-ascii", true, TailVariant::Java, "miss"),
    ];
    for (shape, non_ascii, v, kind) in cases {
        let (present, absent) = path_sets(non_ascii, SERIES);
        let filter = full_filter(&present, v);
        let batch: Vec<Vec<u8>> = if kind == "hit" { present[..BATCH].to_vec() } else { absent[..BATCH].to_vec() };
        if kind == "hit" {
            assert!(batch.iter().all(|p| filter.might_contain(p, v)));
        }
        let param = format!("{shape}/{}/{kind}", variant_name(v));
        g.bench_with_input(BenchmarkId::new("probe", &param), &batch, |b, batch| {
            b.iter(|| {
                let mut n = 0usize;
                for p in batch {
                    n += filter.probe(black_box(p), v).probes.len();
                }
                n
            })
        });
        g.bench_with_input(BenchmarkId::new("might_contain", &param), &batch, |b, batch| {
            b.iter(|| batch.iter().filter(|p| filter.might_contain(black_box(p), v)).count())
        });
    }
    g.finish();
}

fn bench_add(c: &mut Criterion) {
    let mut g = c.benchmark_group("add");
    g.throughput(Throughput::Elements(SERIES as u64));
    for (shape, non_ascii, v) in [
        ("ascii", false, TailVariant::Java),
        ("non-ascii", true, TailVariant::Java),
        ("non-ascii", true, TailVariant::ZeroExtended),
    ] {
        let (paths, _) = path_sets(non_ascii, SERIES);
        // One iteration: Java's sizing for 10,000 series, then all 10,000 paths.
        g.bench_with_input(BenchmarkId::new(variant_name(v), shape), &paths, |b, paths| {
            b.iter(|| {
                let mut f = BloomFilter::with_capacity(SERIES as i32, 0.05);
                for p in paths {
                    f.add(black_box(p), v);
                }
                f
            })
        });
    }
    g.finish();
}

/// (name, encoded filter): the Java sizing for 10,000 series filled with them, and the
/// minimal 256-bit filter (what Java picks for <= 41 series) holding 20.
fn encoded_filters() -> Vec<(&'static str, Vec<u8>)> {
    let (paths, _) = path_sets(false, SERIES);
    let big = full_filter(&paths, TailVariant::Java);
    assert_eq!((big.bit_count(), big.hash_function_count()), (62_353, 5));
    let mut small = BloomFilter::with_capacity(20, 0.05);
    for p in &paths[..20] {
        small.add(p, TailVariant::Java);
    }
    assert_eq!(small.bit_count(), 256);
    vec![("62353-bit", big.encode()), ("256-bit", small.encode())]
}

fn bench_decode_encode(c: &mut Criterion) {
    let filters = encoded_filters();
    let mut g = c.benchmark_group("decode");
    for (name, bytes) in &filters {
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_with_input(BenchmarkId::from_parameter(name), bytes, |b, bytes| {
            b.iter(|| BloomFilter::decode(black_box(bytes), 0).unwrap().0.unwrap())
        });
    }
    g.finish();

    let mut g = c.benchmark_group("encode");
    for (name, bytes) in &filters {
        let f = BloomFilter::decode(bytes, 0).unwrap().0.unwrap();
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_with_input(BenchmarkId::from_parameter(name), &f, |b, f| b.iter(|| black_box(f).encode()));
    }
    g.finish();
}

fn bench_with_capacity(c: &mut Criterion) {
    let mut g = c.benchmark_group("with_capacity");
    for n in [10_000i32, 20] {
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, &n| {
            b.iter(|| BloomFilter::with_capacity(black_box(n), black_box(0.05)))
        });
    }
    g.finish();
}

// Short runs keep `npm run bench` within a few minutes on a 2-core machine.
fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20)
}

criterion_group! {
    name = bloom;
    config = config();
    targets = bench_real, files::bench_open, files::bench_index, bench_hash, bench_probe, bench_add, bench_decode_encode, bench_with_capacity
}
/// `TSFB_PROFILE=probe|build|hash` runs one fixed workload once and exits (no criterion), for
/// `valgrind --tool=callgrind target/release/deps/bloom-* --bench` (instruction counts are
/// stable on a shared machine, timings are not). BENCHMARKS.md quotes these counts.
fn profile(what: &str) {
    let v = TailVariant::Java;
    let mut filter = BloomFilter::with_capacity(REAL_SERIES as i32, 0.05);
    let batch = real_batch();
    match what {
        "probe" => {
            for i in 0..REAL_SERIES {
                filter.add(real_path(i).as_bytes(), v);
            }
            let mut out = Vec::with_capacity(REAL_BATCH * 11);
            let mut n = 0;
            for _ in 0..10 {
                probe_flat(&filter, black_box(&batch), v, &mut out);
                n += out.len();
            }
            println!("probe_flat: {n} values");
        }
        "build" => {
            let paths: Vec<Vec<u8>> = (0..BUILD_N).map(|i| real_path(i).into_bytes()).collect();
            let mut f = BloomFilter::with_capacity(BUILD_N as i32, 0.05);
            for p in &paths {
                f.add(black_box(p), v);
            }
            println!("build: {} bits set", f.set_bits());
        }
        _ => panic!("TSFB_PROFILE=probe|build"),
    }
}

fn main() {
    if let Ok(what) = std::env::var("TSFB_PROFILE") {
        return profile(&what);
    }
    bloom();
    Criterion::default().configure_from_args().final_summary();
}
