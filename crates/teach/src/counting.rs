//! Deletion: why a standard Bloom filter cannot remove a key, and how a counting Bloom filter
//! (Fan, Cao, Almeida, Broder, "Summary Cache", 2000) can. A standard filter's bit may have
//! been set by several keys; clearing a removed key's bits also clears bits other keys need,
//! and those keys then test "absent" although they are still there: false negatives. A counting
//! filter keeps a small counter per position (4 bits here, as in the paper) and decrements it.

use serde::Serialize;

use super::interval::{wilson, Rate};
use super::model::{Bits, Model};
use tsfile_bloom::error::{Error, Result};

/// 4-bit counters: 15 is the ceiling (a counter that reached it stays there, never
/// decremented, so it can only cause false positives, never false negatives).
pub const COUNTER_MAX: u8 = 15;

/// A counting Bloom filter over a model's positions.
#[derive(Clone, Debug)]
pub struct CountingFilter {
    pub model: Model,
    counters: Vec<u8>,
    /// Counters that reached the ceiling.
    pub saturated: u64,
}

impl CountingFilter {
    pub fn new(model: Model) -> CountingFilter {
        CountingFilter { model, counters: vec![0; model.m as usize], saturated: 0 }
    }

    /// Increments the key's k counters (a position hit twice by one key counts twice).
    pub fn add(&mut self, key: &[u8], scratch: &mut Vec<u32>) {
        self.model.positions(key, scratch);
        for &b in scratch.iter() {
            let c = &mut self.counters[b as usize];
            if *c < COUNTER_MAX {
                *c += 1;
                if *c == COUNTER_MAX {
                    self.saturated += 1;
                }
            }
        }
    }

    /// Decrements the key's k counters (not the saturated ones). Only for a key that was added.
    pub fn remove(&mut self, key: &[u8], scratch: &mut Vec<u32>) {
        self.model.positions(key, scratch);
        for &b in scratch.iter() {
            let c = &mut self.counters[b as usize];
            if *c > 0 && *c < COUNTER_MAX {
                *c -= 1;
            }
        }
    }

    pub fn may_contain(&self, key: &[u8], scratch: &mut Vec<u32>) -> bool {
        self.model.positions(key, scratch);
        scratch.iter().all(|&b| self.counters[b as usize] > 0)
    }

    pub fn counter(&self, bit: u32) -> u8 {
        self.counters[bit as usize]
    }
}

/// One position of the removed key, before and after.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VictimBit {
    pub bit: u32,
    /// How many of the keys (the victim included) set this bit.
    pub owners: u32,
    /// The counting filter's counter before and after the removal.
    pub counter_before: u8,
    pub counter_after: u8,
}

/// The deletion demonstration for one set of keys.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Deletion {
    pub n: u64,
    pub m: u32,
    pub k: u32,
    /// The key removed (lossy UTF-8) and its index among the keys.
    pub victim: String,
    pub victim_index: usize,
    pub victim_bits: Vec<VictimBit>,
    /// Standard filter, the victim's bits cleared: the other keys that now test "absent".
    pub standard_false_negatives: u64,
    /// The first few of them.
    pub standard_examples: Vec<String>,
    /// The victim itself after the clearing (always "absent").
    pub standard_victim: &'static str,
    /// Counting filter, the victim decremented: keys still there that test "absent" (0 unless
    /// the counters fail), and what the victim now tests ("maybe" would be a false positive).
    pub counting_false_negatives: u64,
    pub counting_victim: &'static str,
    /// Every key removed in turn (at most `trials` of them) from the standard filter: the share
    /// of removals that create at least one false negative, and the mean number they create.
    pub removals_with_loss: Rate,
    pub mean_false_negatives: f64,
    /// Memory: m bits against m 4-bit counters.
    pub standard_bytes: f64,
    pub counting_bytes: f64,
    /// The claim's answer ("holds": clearing made false negatives, counting none; else "depends") and its sentence.
    pub answer: &'static str,
    pub headline: String,
    pub findings: Vec<String>,
}

/// Each key's distinct positions, and which keys set each bit.
struct Owners {
    positions: Vec<Vec<u32>>,
    /// (bit, key) pairs sorted by bit: the keys that set each bit (each key once), in n·k
    /// entries rather than one list per bit (a file's filter may have millions of bits).
    pairs: Vec<(u32, u32)>,
}

impl Owners {
    fn of<K: AsRef<[u8]>>(keys: &[K], model: Model) -> Owners {
        let mut scratch = Vec::new();
        let positions: Vec<Vec<u32>> = keys
            .iter()
            .map(|k| {
                model.positions(k.as_ref(), &mut scratch);
                let mut p = scratch.clone();
                p.sort_unstable();
                p.dedup();
                p
            })
            .collect();
        let mut pairs: Vec<(u32, u32)> =
            positions.iter().enumerate().flat_map(|(i, ps)| ps.iter().map(move |&b| (b, i as u32))).collect();
        pairs.sort_unstable();
        Owners { positions, pairs }
    }

    /// The keys that set `bit`.
    fn of_bit(&self, bit: u32) -> &[(u32, u32)] {
        let lo = self.pairs.partition_point(|&(b, _)| b < bit);
        let hi = self.pairs.partition_point(|&(b, _)| b <= bit);
        &self.pairs[lo..hi]
    }

    /// The keys that lose a bit when key v's bits are cleared.
    fn hurt(&self, v: usize) -> Vec<u32> {
        let mut h: Vec<u32> = self.positions[v]
            .iter()
            .flat_map(|&b| self.of_bit(b).iter().map(|&(_, j)| j))
            .filter(|&j| j as usize != v)
            .collect();
        h.sort_unstable();
        h.dedup();
        h
    }
}

/// The standard filter after clearing key v's bits: the other keys that now test "absent"
/// (how many, the first few), and what the victim tests.
struct Cleared {
    false_negatives: u64,
    examples: Vec<String>,
    victim: &'static str,
}

fn clear_victim<K: AsRef<[u8]>>(keys: &[K], model: Model, owners: &Owners, v: usize) -> Cleared {
    let mut bits = Bits::new(model.m);
    for &b in owners.positions.iter().flatten() {
        bits.set(b);
    }
    for &b in &owners.positions[v] {
        bits.clear(b);
    }
    let mut scratch = Vec::new();
    let mut tests_maybe = |k: &[u8]| {
        model.positions(k, &mut scratch);
        scratch.iter().all(|&b| bits.get(b))
    };
    let mut cleared = Cleared { false_negatives: 0, examples: Vec::new(), victim: "absent" };
    for (j, k) in keys.iter().enumerate() {
        if j != v && !tests_maybe(k.as_ref()) {
            cleared.false_negatives += 1;
            if cleared.examples.len() < 5 {
                cleared.examples.push(String::from_utf8_lossy(k.as_ref()).into_owned());
            }
        }
    }
    if tests_maybe(keys[v].as_ref()) {
        cleared.victim = "maybe";
    }
    cleared
}

/// The counting filter after decrementing key v's counters: its positions before and after,
/// the other keys that now test "absent", and what the victim tests.
struct Decremented {
    victim_bits: Vec<VictimBit>,
    false_negatives: u64,
    victim: &'static str,
}

fn decrement_victim<K: AsRef<[u8]>>(keys: &[K], model: Model, owners: &Owners, v: usize) -> Decremented {
    let mut scratch = Vec::new();
    let mut cf = CountingFilter::new(model);
    for k in keys {
        cf.add(k.as_ref(), &mut scratch);
    }
    let victim_key = keys[v].as_ref();
    let before: Vec<u8> = owners.positions[v].iter().map(|&b| cf.counter(b)).collect();
    cf.remove(victim_key, &mut scratch);
    let victim_bits = owners.positions[v]
        .iter()
        .zip(before)
        .map(|(&b, c)| VictimBit {
            bit: b,
            owners: owners.of_bit(b).len() as u32,
            counter_before: c,
            counter_after: cf.counter(b),
        })
        .collect();
    let false_negatives =
        keys.iter().enumerate().filter(|&(j, k)| j != v && !cf.may_contain(k.as_ref(), &mut scratch)).count() as u64;
    let victim = if cf.may_contain(victim_key, &mut scratch) { "maybe" } else { "absent" };
    Decremented { victim_bits, false_negatives, victim }
}

/// Every one of the first `t` keys removed in turn from the standard filter: the share of
/// removals that create at least one false negative, and the mean number they create.
fn removals(owners: &Owners, t: usize) -> (Rate, f64) {
    let (mut lossy, mut total_fn) = (0u64, 0u64);
    for i in 0..t {
        let h = owners.hurt(i).len() as u64;
        lossy += (h > 0) as u64;
        total_fn += h;
    }
    (wilson(lossy, t as u64), total_fn as f64 / t as f64)
}

/// Removes `keys[victim]` (None: the first key whose removal hurts another, else the first)
/// from a standard and from a counting filter built over `keys` with `model`.
pub fn deletion<K: AsRef<[u8]>>(keys: &[K], model: Model, victim: Option<usize>, trials: usize) -> Result<Deletion> {
    if keys.len() < 2 {
        return Err(Error::invalid_argument("keys: the demonstration needs at least 2 keys"));
    }
    if victim.is_some_and(|v| v >= keys.len()) {
        return Err(Error::invalid_argument(format!(
            "victim: index {} is past the {} keys",
            victim.unwrap_or(0),
            keys.len()
        )));
    }
    let owners = Owners::of(keys, model);
    let v = victim.unwrap_or_else(|| (0..keys.len()).find(|&v| !owners.hurt(v).is_empty()).unwrap_or(0));
    let standard = clear_victim(keys, model, &owners, v);
    let counting = decrement_victim(keys, model, &owners, v);
    let t = trials.clamp(1, keys.len());
    let (removals_with_loss, mean) = removals(&owners, t);
    let holds = standard.false_negatives > 0 && counting.false_negatives == 0;
    let headline = if holds {
        "Clearing a removed key's bits made other keys test “absent”; the counting filter removed it without a false negative."
    } else {
        "This removal cleared no bit another key needs: no false negative this time; try another key."
    };
    Ok(Deletion {
        answer: if holds { "holds" } else { "depends" },
        headline: headline.into(),
        n: keys.len() as u64,
        m: model.m,
        k: model.k,
        victim: String::from_utf8_lossy(keys[v].as_ref()).into_owned(),
        victim_index: v,
        victim_bits: counting.victim_bits,
        standard_false_negatives: standard.false_negatives,
        standard_examples: standard.examples,
        standard_victim: standard.victim,
        counting_false_negatives: counting.false_negatives,
        counting_victim: counting.victim,
        removals_with_loss,
        mean_false_negatives: mean,
        standard_bytes: (model.m as f64 / 8.0).ceil(),
        counting_bytes: (model.m as f64 / 2.0).ceil(),
        findings: Vec::new(),
    }
    .with_findings(t))
}

impl Deletion {
    /// Its sentences, `t` keys removed in turn: what clearing did, what decrementing did, the
    /// removals in turn, and the counters' price.
    fn with_findings(mut self, t: usize) -> Deletion {
        let (name, standard_fn, counting_fn, counting_victim) =
            (&self.victim, self.standard_false_negatives, self.counting_false_negatives, self.counting_victim);
        let (bits, r, mean) = (self.victim_bits.len(), &self.removals_with_loss, self.mean_false_negatives);
        self.findings = vec![
            format!(
                "Clearing the {bits} bit{} of {name} in the standard filter made {standard_fn} other key{} test “absent” although {} still there: false negatives, data a reader would skip.",
                if bits == 1 { "" } else { "s" },
                if standard_fn == 1 { "" } else { "s" },
                if standard_fn == 1 { "it is" } else { "they are" },
            ),
            format!(
                "The counting filter decremented the same positions instead: {counting_fn} false negative{}; {name} now tests “{counting_victim}”{}.",
                if counting_fn == 1 { "" } else { "s" },
                if counting_victim == "maybe" { " (other keys still cover every one of its positions: a false positive, never a false negative)" } else { "" }
            ),
            format!(
                "Removing each of {t} keys in turn: {:.1} % of the removals would create at least one false negative (95 % interval {:.1}–{:.1} %), {mean:.2} on average.",
                100.0 * r.rate,
                100.0 * r.low,
                100.0 * r.high
            ),
            format!(
                "The price: {} bytes of 4-bit counters against {} bytes of bits — four times the memory. TsFiles and SSTables never need it: they are immutable, and a deletion is written as a new file whose filter is built from scratch.",
                self.counting_bytes, self.standard_bytes
            ),
        ];
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Hashing;
    use tsfile_bloom::hash::TailVariant;
    use tsfile_bloom::BloomFilter;

    #[test]
    fn clearing_creates_false_negatives_and_counting_does_not() {
        let model = Model::new(Hashing::TsFile(TailVariant::Java), 256, 5).unwrap();
        let keys: Vec<String> = (0..40).map(|i| format!("root.demo.d{}.s{}", i / 4, i % 4)).collect();
        let d = deletion(&keys, model, None, 1000).unwrap();
        assert!(d.standard_false_negatives > 0);
        assert_eq!(d.counting_false_negatives, 0);
        assert_eq!(d.standard_victim, "absent");
        assert_eq!(d.answer, "holds");
        assert!(d.headline.starts_with("Clearing a removed key's bits made other keys test “absent”"));
        // The oracle: the crate's BloomFilter over the other keys, probed with each of them,
        // after the victim's bits are cleared from a copy of its bits.
        let v = d.victim_index;
        let mut full = BloomFilter::new(256, 5).unwrap();
        for k in &keys {
            full.add(k.as_bytes(), TailVariant::Java);
        }
        let mut bytes = full.logical_bits();
        for p in full.probe(keys[v].as_bytes(), TailVariant::Java).probes {
            bytes[(p.bit / 8) as usize] &= !(1 << (p.bit % 8));
        }
        let cleared = Bits::from_bytes(&bytes, 256);
        let mut scratch = Vec::new();
        let lost = keys
            .iter()
            .enumerate()
            .filter(|&(j, k)| {
                model.positions(k.as_bytes(), &mut scratch);
                j != v && !scratch.iter().all(|&b| cleared.get(b))
            })
            .count() as u64;
        assert_eq!(lost, d.standard_false_negatives);
        // Each victim bit's counter dropped by one per hash of the victim that hit it.
        assert!(d.victim_bits.iter().all(|b| b.counter_after < b.counter_before && b.owners >= 1));
        assert!(d.removals_with_loss.rate > 0.5, "40 keys in 256 bits share most bits");
    }

    #[test]
    fn too_few_keys_or_a_bad_victim_are_errors() {
        let model = Model::new(Hashing::LevelDb, 64, 2).unwrap();
        assert!(deletion(&["a"], model, None, 10).is_err());
        assert!(deletion(&["a", "b"], model, Some(2), 10).unwrap_err().message.starts_with("victim"));
    }
}
