//! The step-through: one key inserted into or looked up in a filter, one hash function at a
//! time, with every number the learner needs to follow it (the key's bytes, each hash, the bit
//! index and the bit before and after). A lookup stops at the first clear bit, as Java's
//! `BloomFilter.contains` and LevelDB's `KeyMayMatch` do: the later hashes are never computed.
//! The sentences are made here, from the same numbers as the steps.

use serde::Serialize;

use tsfile_bloom::error::{Error, Result};
use tsfile_bloom::hash::{hash32, TailVariant, SEEDS};
use tsfile_bloom::leveldb::{bloom_hash, delta, probe_hashes};

/// Insert or look up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Insert,
    Query,
}

impl Op {
    /// [`Op::from_name`], with the sentence for a name that is neither.
    pub fn named(name: &str) -> Result<Op> {
        Op::from_name(name).ok_or_else(|| Error::invalid_argument(format!("op: {name:?} is not 'insert' or 'query'")))
    }

    pub fn from_name(name: &str) -> Option<Op> {
        match name {
            "insert" | "add" => Some(Op::Insert),
            "query" | "test" => Some(Op::Query),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Op::Insert => "insert",
            Op::Query => "query",
        }
    }
}

/// One hash function's step.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Step {
    /// 0-based position among the k hash functions.
    pub index: u32,
    /// TsFile: the seed of this Murmur128 run.
    pub seed: Option<u32>,
    /// TsFile: the signed hash32; LevelDB: h + j·δ (mod 2³²). `None` for a step Java or LevelDB
    /// never reaches.
    pub hash: Option<f64>,
    pub bit: Option<u32>,
    /// The bit before this step (an insert may set a bit twice: the second finds it set).
    pub was_set: Option<bool>,
    /// "set" (0→1), "already-set", "found-set", "found-clear" or "not-computed".
    pub action: &'static str,
    pub text: String,
}

/// A whole step-through.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Trace {
    /// "tsfile" or "leveldb".
    pub scheme: &'static str,
    pub op: &'static str,
    pub m: u32,
    pub k: u32,
    /// TsFile: the tail variant hashed with.
    pub variant: Option<&'static str>,
    pub key: Vec<u8>,
    /// Murmur128 reads 16-byte blocks; the last `len mod 16` bytes are the tail.
    pub tail_len: u32,
    /// LevelDB: BloomHash(key) and δ = h rotated right by 17.
    pub leveldb_hash: Option<u32>,
    pub leveldb_delta: Option<u32>,
    pub steps: Vec<Step>,
    /// A lookup's answer: "absent" or "maybe"; an insert's is none.
    pub verdict: Option<&'static str>,
    /// The step a lookup stopped at (its first clear bit).
    pub stopped_at: Option<u32>,
    /// An insert: how many bits went from 0 to 1.
    pub flipped: u32,
    /// The bits after the insert (for a lookup, unchanged): LSB-first, ⌈m/8⌉ bytes.
    #[serde(skip)]
    pub bits_after: Vec<u8>,
    pub summary: String,
}

fn get(bits: &[u8], bit: u32) -> bool {
    bits.get((bit / 8) as usize).is_some_and(|b| b >> (bit % 8) & 1 == 1)
}

fn logical(bits: &[u8], m: u32) -> Vec<u8> {
    let mut v = vec![0u8; (m as usize).div_ceil(8)];
    let n = v.len().min(bits.len());
    v[..n].copy_from_slice(&bits[..n]);
    v
}

fn check(m: u32, k: u32, k_max: u32) -> Result<()> {
    if m == 0 || m > i32::MAX as u32 {
        return Err(Error::invalid_argument(format!("m: {m} bits is outside 1 to 2,147,483,647")));
    }
    if k == 0 || k > k_max {
        return Err(Error::invalid_argument(format!("k: {k} is outside 1 to {k_max}")));
    }
    Ok(())
}

/// The verdict and the closing sentence of a run of steps.
fn finish(op: Op, steps: &[Step], k: u32) -> (Option<&'static str>, Option<u32>, u32, String) {
    match op {
        Op::Insert => {
            let flipped = steps.iter().filter(|s| s.action == "set").count() as u32;
            let summary = format!(
                "Inserted: {flipped} of {k} bit{} went from 0 to 1{}.",
                if k == 1 { "" } else { "s" },
                if flipped < k { "; the others were already set, by other keys or by this key's own earlier hash" } else { "" }
            );
            (None, None, flipped, summary)
        }
        Op::Query => match steps.iter().find(|s| s.action == "found-clear") {
            Some(s) => {
                let rest = k - s.index - 1;
                let summary = format!(
                    "Definitely absent: bit {} is 0, so this key was never inserted{}.",
                    s.bit.unwrap_or(0),
                    if rest > 0 {
                        format!(" (the lookup stops here: the remaining {rest} hash{} never computed)", if rest == 1 { " is" } else { "es are" })
                    } else {
                        String::new()
                    }
                );
                (Some("absent"), Some(s.index), 0, summary)
            }
            None => (
                Some("maybe"),
                None,
                0,
                format!("Maybe present: all {k} bits are 1. Either the key was inserted, or other keys set every one of them (a false positive); only the index or the data can tell."),
            ),
        },
    }
}

/// What one probe does at bit `bit` that `was` set: on an insert it sets it in `now`; a query
/// stops (`stopped`) at the first clear bit. Its action's name and words.
fn act(op: Op, was: bool, now: &mut [u8], bit: u32, stopped: &mut bool) -> (&'static str, &'static str) {
    match (op, was) {
        (Op::Insert, false) => {
            now[(bit / 8) as usize] |= 1 << (bit % 8);
            ("set", "was 0: set it to 1")
        }
        (Op::Insert, true) => ("already-set", "was already 1: nothing changes"),
        (Op::Query, true) => ("found-set", "is 1: keep going"),
        (Op::Query, false) => {
            *stopped = true;
            ("found-clear", "is 0: definitely absent, stop")
        }
    }
}

/// Steps through `key` in a TsFile filter of `m` bits and `k` seeds whose bits are `bits`
/// (LSB-first; missing bytes are zero).
pub fn tsfile(op: Op, key: &[u8], bits: &[u8], m: u32, k: u32, variant: TailVariant) -> Result<Trace> {
    check(m, k, SEEDS.len() as u32)?;
    let mut now = logical(bits, m);
    let mut steps = Vec::with_capacity(k as usize);
    let mut stopped = false;
    for (j, &seed) in SEEDS[..k as usize].iter().enumerate() {
        let j = j as u32;
        if stopped {
            steps.push(Step {
                index: j,
                seed: Some(seed),
                hash: None,
                bit: None,
                was_set: None,
                action: "not-computed",
                text: format!("seed {seed}: not computed — the lookup already has its answer"),
            });
            continue;
        }
        let h = hash32(key, seed, variant);
        let bit = tsfile_bloom::hash::bit_index(h, m);
        let was = get(&now, bit);
        let abs = if h == i32::MIN {
            "0 (hash32 is −2³¹, which Java maps to 0)".to_string()
        } else {
            h.unsigned_abs().to_string()
        };
        let head = format!("seed {seed}: Murmur128 → hash32 = {h}; |hash32| mod {m} = {abs} mod {m} = bit {bit}");
        let (action, tail) = act(op, was, &mut now, bit, &mut stopped);
        steps.push(Step {
            index: j,
            seed: Some(seed),
            hash: Some(h as f64),
            bit: Some(bit),
            was_set: Some(was),
            action,
            text: format!("{head}, which {tail}."),
        });
    }
    let (verdict, stopped_at, flipped, summary) = finish(op, &steps, k);
    Ok(Trace {
        scheme: "tsfile",
        op: op.as_str(),
        m,
        k,
        variant: Some(variant.as_str()),
        tail_len: (key.len() % 16) as u32,
        key: key.to_vec(),
        leveldb_hash: None,
        leveldb_delta: None,
        steps,
        verdict,
        stopped_at,
        flipped,
        bits_after: now,
        summary,
    })
}

/// Steps through `key` in a LevelDB filter: `bits` is the bit array (without the k byte), m its
/// length in bits.
pub fn leveldb(op: Op, key: &[u8], bits: &[u8], m: u32, k: u32) -> Result<Trace> {
    check(m, k, tsfile_bloom::leveldb::MAX_K)?;
    let mut now = logical(bits, m);
    let h0 = bloom_hash(key);
    let mut steps = Vec::with_capacity(k as usize);
    let mut stopped = false;
    for (j, h) in (0..k).zip(probe_hashes(h0, k)) {
        if stopped {
            steps.push(Step {
                index: j,
                seed: None,
                hash: None,
                bit: None,
                was_set: None,
                action: "not-computed",
                text: format!("probe {}: not computed — KeyMayMatch already returned", j + 1),
            });
            continue;
        }
        let bit = h % m;
        let was = get(&now, bit);
        let head = if j == 0 {
            format!("probe 1: h = BloomHash(key) = {h}; h mod {m} = bit {bit}")
        } else {
            format!("probe {}: h + {j}·δ = {h} (mod 2³²); mod {m} = bit {bit}", j + 1)
        };
        let (action, tail) = act(op, was, &mut now, bit, &mut stopped);
        steps.push(Step {
            index: j,
            seed: None,
            hash: Some(h as f64),
            bit: Some(bit),
            was_set: Some(was),
            action,
            text: format!("{head}, which {tail}."),
        });
    }
    let (verdict, stopped_at, flipped, summary) = finish(op, &steps, k);
    Ok(Trace {
        scheme: "leveldb",
        op: op.as_str(),
        m,
        k,
        variant: None,
        tail_len: (key.len() % 4) as u32,
        key: key.to_vec(),
        leveldb_hash: Some(h0),
        leveldb_delta: Some(delta(h0)),
        steps,
        verdict,
        stopped_at,
        flipped,
        bits_after: now,
        summary,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tsfile_bloom::filter::BloomFilter;

    #[test]
    fn tsfile_insert_then_query_follow_the_spec_vectors() {
        // docs/bloom-filter.md §4: root.sg1.d1.s1, k = 5, m = 256.
        let t = tsfile(Op::Insert, b"root.sg1.d1.s1", &[], 256, 5, TailVariant::Java).unwrap();
        let hashes: Vec<f64> = t.steps.iter().map(|s| s.hash.unwrap()).collect();
        assert_eq!(hashes, [-575222460.0, 1097775904.0, 15867706.0, -1201631927.0, 511072268.0]);
        let bits: Vec<u32> = t.steps.iter().map(|s| s.bit.unwrap()).collect();
        assert_eq!(bits, [188, 32, 58, 183, 12]);
        assert_eq!(t.flipped, 5);
        let mut f = BloomFilter::new(256, 5).unwrap();
        f.add(b"root.sg1.d1.s1", TailVariant::Java);
        assert_eq!(t.bits_after, f.logical_bits());
        // Looking it up finds all five set.
        let q = tsfile(Op::Query, b"root.sg1.d1.s1", &t.bits_after, 256, 5, TailVariant::Java).unwrap();
        assert_eq!(q.verdict, Some("maybe"));
        assert!(q.steps.iter().all(|s| s.action == "found-set"));
        // Another key stops at its first clear bit; later seeds are not computed.
        let q = tsfile(Op::Query, b"root.ln.wf01.wt01.temperature", &t.bits_after, 256, 5, TailVariant::Java).unwrap();
        assert_eq!((q.verdict, q.stopped_at), (Some("absent"), Some(0)));
        assert_eq!(q.steps[0].bit, Some(203));
        assert!(q.steps[1..].iter().all(|s| s.action == "not-computed" && s.hash.is_none()));
        assert!(q.summary.contains("remaining 4 hashes are never computed"), "{}", q.summary);
    }

    #[test]
    fn leveldb_steps_match_the_policy() {
        let keys = [b"key000".to_vec(), b"key001".to_vec()];
        let f = tsfile_bloom::leveldb::BloomFilterPolicy::new(10).create_filter(&keys);
        let (arr, k) = (&f[..f.len() - 1], f[f.len() - 1] as u32);
        let m = arr.len() as u32 * 8;
        let t = leveldb(Op::Query, b"key000", arr, m, k).unwrap();
        let p = tsfile_bloom::leveldb::probe_filter(b"key000", &f);
        assert_eq!(t.verdict, Some("maybe"));
        assert_eq!(
            t.steps.iter().map(|s| s.bit.unwrap() as u64).collect::<Vec<_>>(),
            p.probes.iter().map(|b| b.bit).collect::<Vec<_>>()
        );
        let ins = leveldb(Op::Insert, b"key002", arr, m, k).unwrap();
        let f3 =
            tsfile_bloom::leveldb::BloomFilterPolicy::new(10).create_filter(&[&keys[0][..], &keys[1][..], b"key002"]);
        // Three keys at 10 bits/key still get the 64-bit floor: the same m, so the bits agree.
        assert_eq!(ins.bits_after, f3[..f3.len() - 1]);
    }

    #[test]
    fn bad_geometry_is_an_argument_error() {
        assert_eq!(
            tsfile(Op::Query, b"x", &[], 0, 5, TailVariant::Java).unwrap_err().kind.as_str(),
            "invalid_argument"
        );
        assert!(tsfile(Op::Query, b"x", &[], 256, 9, TailVariant::Java).is_err());
        assert!(leveldb(Op::Query, b"x", &[], 64, 31).is_err());
    }
}
