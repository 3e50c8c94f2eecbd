//! Measures LevelDB's Bloom filter false-positive rate against the textbook formula
//! (1 - e^(-kn/m))^k for several bits_per_key and key counts. At high k the measured
//! rate exceeds the formula: LevelDB derives all k probes from one 32-bit hash by double
//! hashing (h += rotr(h, 17)), so in small filters probe sequences collide.
//!   cargo run --release --example leveldb_fp
use tsfile_bloom::leveldb::{key_may_match, BloomFilterPolicy};

fn main() {
    const ABSENT: usize = 200_000;
    println!("| bits_per_key | k | keys n | bits m | measured FP | formula | measured / formula |");
    println!("|---:|---:|---:|---:|---:|---:|---:|");
    for bpk in [4u32, 10, 20, 30] {
        for n in [8usize, 64, 1_000, 10_000] {
            let policy = BloomFilterPolicy::new(bpk);
            let keys: Vec<Vec<u8>> = (0..n).map(|i| format!("user-key-{i:08}").into_bytes()).collect();
            let filter = policy.create_filter(&keys);
            let m = (filter.len() - 1) as f64 * 8.0;
            let k = policy.k() as f64;
            let fp = (0..ABSENT).filter(|i| key_may_match(format!("absent-{i:09}").as_bytes(), &filter)).count();
            let measured = fp as f64 / ABSENT as f64;
            let formula = (1.0 - (-k * n as f64 / m).exp()).powf(k);
            println!(
                "| {bpk} | {} | {n} | {m} | {measured:.6} | {formula:.6} | {:.2} |",
                policy.k(),
                if formula > 0.0 { measured / formula } else { f64::NAN }
            );
        }
    }
}
