//! The filters the experiments build and measure: one bit vector, and the two ways the
//! lesson compares of choosing a key's k positions in it: TsFile's k seeded Murmur128 runs
//! (`|hash32| mod m` per seed, docs/bloom-filter.md §4) and LevelDB's double hashing from one
//! 32-bit `BloomHash` (`h + j·δ mod m`, δ = h rotated right by 17; docs/leveldb-filter.md §2).

use serde::Serialize;

use super::interval::{wilson, Rate};
use tsfile_bloom::error::{Error, Result};
use tsfile_bloom::filter::{false_positive_probability, fpp_from_fill};
use tsfile_bloom::hash::{bit_index, hash32_seeds, TailVariant, SEEDS};
use tsfile_bloom::leveldb::{bloom_hash, probe_hashes};

/// How a key's k bit positions are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hashing {
    /// k Murmur128 runs with TsFile's seeds (k ≤ 8), in the given tail variant.
    TsFile(TailVariant),
    /// LevelDB's double hashing from one `BloomHash` (k ≤ 30).
    LevelDb,
}

impl Hashing {
    pub fn as_str(self) -> &'static str {
        match self {
            Hashing::TsFile(TailVariant::Java) => "tsfile",
            Hashing::TsFile(TailVariant::ZeroExtended) => "tsfile-zero-extended",
            Hashing::LevelDb => "leveldb",
        }
    }

    /// How many hash computations one key costs: k Murmur128 runs, or one `BloomHash`.
    pub fn hashes_per_key(self, k: u32) -> u32 {
        match self {
            Hashing::TsFile(_) => k,
            Hashing::LevelDb => 1,
        }
    }
}

/// A geometry and a hashing: what decides where a key's bits go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Model {
    pub hashing: Hashing,
    pub m: u32,
    pub k: u32,
}

impl Model {
    /// Checks the geometry: m ≥ 1; k in 1..=8 for TsFile's seeds, 1..=30 for LevelDB's probes.
    pub fn new(hashing: Hashing, m: u32, k: u32) -> Result<Model> {
        let k_max = match hashing {
            Hashing::TsFile(_) => SEEDS.len() as u32,
            Hashing::LevelDb => tsfile_bloom::leveldb::MAX_K,
        };
        if m == 0 || m > i32::MAX as u32 {
            return Err(Error::invalid_argument(format!("m: {m} bits is outside 1 to 2,147,483,647")));
        }
        if k == 0 || k > k_max {
            return Err(Error::invalid_argument(format!("k: {k} is outside 1 to {k_max} for {}", hashing.as_str())));
        }
        Ok(Model { hashing, m, k })
    }

    /// The key's k positions, in probe order, into `out` (cleared first).
    pub fn positions(&self, key: &[u8], out: &mut Vec<u32>) {
        out.clear();
        match self.hashing {
            Hashing::TsFile(v) => {
                let hs = hash32_seeds(key, &SEEDS[..self.k as usize], v);
                out.extend(hs[..self.k as usize].iter().map(|&h| bit_index(h, self.m)));
            }
            Hashing::LevelDb => out.extend(probe_hashes(bloom_hash(key), self.k).map(|h| h % self.m)),
        }
    }

    /// `(1 − e^(−kn/m))^k` for `n` keys.
    pub fn formula(&self, n: f64) -> f64 {
        false_positive_probability(n, self.m, self.k)
    }
}

/// A bit vector of `m` bits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bits {
    words: Vec<u64>,
    m: u32,
}

impl Bits {
    pub fn new(m: u32) -> Bits {
        Bits { words: vec![0; (m as usize).div_ceil(64)], m }
    }

    /// From LSB-first bytes (TsFile's and LevelDB's order); missing bytes are zero, bits at or
    /// past `m` are ignored.
    pub fn from_bytes(bytes: &[u8], m: u32) -> Bits {
        let mut b = Bits::new(m);
        for (i, &byte) in bytes.iter().enumerate().take((m as usize).div_ceil(8)) {
            for j in 0..8 {
                let bit = i * 8 + j;
                if byte >> j & 1 == 1 && bit < m as usize {
                    b.set(bit as u32);
                }
            }
        }
        b
    }

    pub fn m(&self) -> u32 {
        self.m
    }

    pub fn set(&mut self, i: u32) {
        self.words[(i / 64) as usize] |= 1 << (i % 64);
    }

    pub fn clear(&mut self, i: u32) {
        self.words[(i / 64) as usize] &= !(1 << (i % 64));
    }

    pub fn get(&self, i: u32) -> bool {
        self.words[(i / 64) as usize] >> (i % 64) & 1 == 1
    }

    pub fn count(&self) -> u64 {
        self.words.iter().map(|w| w.count_ones() as u64).sum()
    }

    /// LSB-first bytes, `ceil(m / 8)` of them.
    pub fn to_bytes(&self) -> Vec<u8> {
        let len = (self.m as usize).div_ceil(8);
        self.words.iter().flat_map(|w| w.to_le_bytes()).take(len).collect()
    }
}

/// The bits (LSB-first, ⌈m/8⌉ bytes) of a LevelDB-hashed filter of `m` bits and `k` probes over
/// `keys`: what CreateFilter writes when its m is this one (an insert's step-through into a
/// filter that LevelDB will rebuild one key larger).
pub fn leveldb_bits<K: AsRef<[u8]>>(keys: &[K], m: u32, k: u32) -> Result<Vec<u8>> {
    let mut f = Filter::new(Model::new(Hashing::LevelDb, m, k)?);
    f.add_all(keys);
    Ok(f.bits.to_bytes())
}

/// A filter: a model and its bits, with the keys it holds counted.
#[derive(Clone, Debug)]
pub struct Filter {
    pub model: Model,
    pub bits: Bits,
    pub n: u64,
    scratch: Vec<u32>,
}

impl Filter {
    pub fn new(model: Model) -> Filter {
        Filter { model, bits: Bits::new(model.m), n: 0, scratch: Vec::with_capacity(model.k as usize) }
    }

    /// A filter over stored bits (a file's): `n` is the number of keys it is known to hold.
    pub fn from_bits(model: Model, bits: Bits, n: u64) -> Filter {
        Filter { model, bits, n, scratch: Vec::with_capacity(model.k as usize) }
    }

    pub fn add(&mut self, key: &[u8]) {
        let mut pos = std::mem::take(&mut self.scratch);
        self.model.positions(key, &mut pos);
        for &b in &pos {
            self.bits.set(b);
        }
        self.scratch = pos;
        self.n += 1;
    }

    pub fn add_all<K: AsRef<[u8]>>(&mut self, keys: &[K]) {
        for k in keys {
            self.add(k.as_ref());
        }
    }

    /// The verdict as Java's `contains` and LevelDB's `KeyMayMatch` give it: false at the
    /// first clear bit.
    pub fn may_contain(&mut self, key: &[u8]) -> bool {
        let mut pos = std::mem::take(&mut self.scratch);
        self.model.positions(key, &mut pos);
        let r = pos.iter().all(|&b| self.bits.get(b));
        self.scratch = pos;
        r
    }

    /// How many of `keys` test "maybe".
    pub fn count_maybe<K: AsRef<[u8]>>(&mut self, keys: impl IntoIterator<Item = K>) -> (u64, u64) {
        let (mut maybe, mut total) = (0, 0);
        for k in keys {
            total += 1;
            maybe += self.may_contain(k.as_ref()) as u64;
        }
        (maybe, total)
    }

    /// The measured false-positive rate of `absent` keys (none of them added), beside the
    /// formula for the keys held and the fill's own estimate.
    pub fn measure<K: AsRef<[u8]>>(&mut self, absent: impl IntoIterator<Item = K>) -> Measurement {
        let (maybe, total) = self.count_maybe(absent);
        let m = self.model.m as f64;
        let set = self.bits.count();
        let fill = set as f64 / m;
        let n = self.n as f64;
        Measurement {
            hashing: self.model.hashing.as_str(),
            n: self.n,
            m: self.model.m,
            k: self.model.k,
            bits_per_key: if self.n > 0 { m / n } else { f64::INFINITY },
            set_bits: set,
            fill,
            // 1 − e^(−kn/m): the fill the formula assumes.
            expected_fill: 1.0 - (-(self.model.k as f64) * n / m).exp(),
            formula: self.model.formula(n),
            from_fill: fpp_from_fill(fill, self.model.k),
            fp: wilson(maybe, total),
        }
    }
}

/// A bit vector's fill and the false-positive rate it gives a key never added (the sandbox's
/// measured figures).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Fill {
    pub set_bits: u64,
    pub fill: f64,
    pub fpp_from_fill: f64,
}

impl Fill {
    /// The fill of `bits` for a filter of `k` probes per key.
    pub fn of(bits: &Bits, k: u32) -> Fill {
        let set_bits = bits.count();
        let fill = if bits.m() == 0 { 0.0 } else { set_bits as f64 / bits.m() as f64 };
        Fill { set_bits, fill, fpp_from_fill: fpp_from_fill(fill, k) }
    }
}

/// One measured filter.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Measurement {
    pub hashing: &'static str,
    pub n: u64,
    pub m: u32,
    pub k: u32,
    pub bits_per_key: f64,
    pub set_bits: u64,
    pub fill: f64,
    pub expected_fill: f64,
    /// `(1 − e^(−kn/m))^k`.
    pub formula: f64,
    /// `fill^k`: what this filter's own fill predicts.
    pub from_fill: f64,
    /// The measured false positives among the absent probes, with the 95 % interval.
    pub fp: Rate,
}

#[cfg(test)]
mod tests {
    use super::*;
    use tsfile_bloom::filter::BloomFilter;

    #[test]
    fn fill_counts_the_set_bits_below_m_and_raises_the_fill_to_k() {
        // 0b1011_0001, 0x0f (4 bits below m = 12), then a byte past m whose bits do not count.
        let b = Bits::from_bytes(&[0b1011_0001, 0x0f, 0xff], 12);
        let f = Fill::of(&b, 3);
        assert_eq!(f.set_bits, 4 + 4);
        assert_eq!(f.fill, 8.0 / 12.0);
        assert!((f.fpp_from_fill - (8.0f64 / 12.0) * (8.0 / 12.0) * (8.0 / 12.0)).abs() < 1e-15);
        assert_eq!(Fill::of(&Bits::new(0), 5), Fill { set_bits: 0, fill: 0.0, fpp_from_fill: 0.0 });
    }

    #[test]
    fn positions_match_the_package_filters() {
        // TsFile: the same bits as tsfile_bloom::filter's BloomFilter; spec vectors for root.sg1.d1.s1.
        let model = Model::new(Hashing::TsFile(TailVariant::Java), 256, 5).unwrap();
        let mut pos = Vec::new();
        model.positions(b"root.sg1.d1.s1", &mut pos);
        assert_eq!(pos, [188, 32, 58, 183, 12]);
        let mut f = Filter::new(model);
        let mut g = BloomFilter::new(256, 5).unwrap();
        for i in 0..40 {
            let key = format!("root.sg.d{i}.温度");
            f.add(key.as_bytes());
            g.add(key.as_bytes(), TailVariant::Java);
        }
        assert_eq!(f.bits.to_bytes(), g.logical_bits());
        // LevelDB: the same bits as its policy's CreateFilter when m is the policy's.
        let keys: Vec<Vec<u8>> = (0..50u32).map(|i| format!("key{i:05}").into_bytes()).collect();
        let ldb = tsfile_bloom::leveldb::BloomFilterPolicy::new(10).create_filter(&keys);
        let model = Model::new(Hashing::LevelDb, (ldb.len() as u32 - 1) * 8, 6).unwrap();
        let mut f = Filter::new(model);
        f.add_all(&keys);
        assert_eq!(f.bits.to_bytes(), ldb[..ldb.len() - 1]);
        assert!(Bits::from_bytes(&ldb[..ldb.len() - 1], model.m) == f.bits);
    }

    #[test]
    fn geometry_is_checked() {
        assert!(Model::new(Hashing::TsFile(TailVariant::Java), 256, 9).is_err());
        assert!(Model::new(Hashing::LevelDb, 256, 30).is_ok());
        assert!(Model::new(Hashing::LevelDb, 0, 3).is_err());
    }
}
