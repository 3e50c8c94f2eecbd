//! The keys the experiments insert and probe: a seeded generator (SplitMix64, so a run can be
//! repeated from its seed) and the key families the lesson compares. Every family yields
//! distinct keys for distinct indices, so "absent" probes (indices past the inserted ones)
//! are absent by construction, not by luck.

use serde::Serialize;

/// SplitMix64 (Steele, Lea, Flood 2014): small, fast, and every seed gives a full-period stream.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0), by Lemire's multiply-shift (the bias is below 2⁻³² for the
    /// small n used here).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() >> 32) * n) >> 32
    }
}

const ALNUM: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";

/// Which keys an experiment uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    /// IoTDB-style series paths sharing a long prefix, numbered in order:
    /// `root.sg<g>.d<i / 10>.s<i % 10>` (ten sensors per device).
    Prefix,
    /// The textbook's advice: an ordered prefix and a random suffix,
    /// `root.sg<g>.d<i / 10>.` + 6 random characters.
    PrefixRandomSuffix,
    /// Random characters, each key as long as the `Prefix` key with the same index (so length
    /// does not differ between the families).
    Random,
    /// Paths whose Murmur128 tail holds a non-ASCII byte (the last character is 温度's 度):
    /// `root.sg<g>.d<i>.温度`, padded so the tail is never empty.
    NonAsciiTail,
}

impl Family {
    pub const ALL: [Family; 4] = [Family::Prefix, Family::PrefixRandomSuffix, Family::Random, Family::NonAsciiTail];

    pub fn as_str(self) -> &'static str {
        match self {
            Family::Prefix => "prefix",
            Family::PrefixRandomSuffix => "prefix-random-suffix",
            Family::Random => "random",
            Family::NonAsciiTail => "non-ascii-tail",
        }
    }

    pub fn from_name(name: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.as_str() == name)
    }

    /// Key `i` of group `g`. Random characters come from `rng`; the index is always part of
    /// the key (in the prefix, or as the length and a leading counter), so keys never repeat.
    pub fn key(self, g: u32, i: u64, rng: &mut Rng) -> Vec<u8> {
        match self {
            Family::Prefix => format!("root.sg{g}.d{}.s{}", i / 10, i % 10).into_bytes(),
            Family::PrefixRandomSuffix => {
                let mut k = format!("root.sg{g}.d{}.", i / 10).into_bytes();
                for _ in 0..6 {
                    k.push(ALNUM[rng.below(ALNUM.len() as u64) as usize]);
                }
                k
            }
            Family::Random => {
                let len = Family::Prefix.key(g, i, rng).len();
                // A unique head (the index in base 36, then '~' which ALNUM never yields), then
                // random characters up to the length.
                let mut k = Vec::with_capacity(len);
                let mut v = i;
                loop {
                    k.push(ALNUM[(v % 36) as usize]);
                    v /= 36;
                    if v == 0 {
                        break;
                    }
                }
                k.push(b'~');
                // The head is moved to the end so the random characters lead (as random keys do).
                let head = k.len();
                while k.len() < len.max(head + 4) {
                    k.push(ALNUM[rng.below(ALNUM.len() as u64) as usize]);
                }
                k.rotate_left(head);
                k
            }
            Family::NonAsciiTail => {
                // 度 is e5 ba a6: with the path a multiple of 16 bytes plus 1, the tail is a6 alone.
                let mut k = format!("root.sg{g}.d{i}.温").into_bytes();
                while (k.len() + 3) % 16 != 1 {
                    k.insert(k.len() - 3, b'_');
                }
                k.extend_from_slice("度".as_bytes());
                k
            }
        }
    }

    /// Keys `start..start + count` of group `g`.
    pub fn keys(self, g: u32, start: u64, count: u64, rng: &mut Rng) -> Vec<Vec<u8>> {
        (start..start + count).map(|i| self.key(g, i, rng)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn splitmix64_reference() {
        // Vigna's splitmix64.c (prng.di.unimi.it): seeded with 0, the stream starts
        // 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f; seeded with 1234567, as below.
        let mut r = Rng::new(0);
        assert_eq!(
            [r.next_u64(), r.next_u64(), r.next_u64()],
            [0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f]
        );
        let mut r = Rng::new(1234567);
        assert_eq!(r.next_u64(), 6457827717110365317);
        assert_eq!(r.next_u64(), 3203168211198807973);
        assert_eq!(r.next_u64(), 9817491932198370423);
    }

    #[test]
    fn families_are_distinct_and_shaped() {
        let mut rng = Rng::new(7);
        for f in Family::ALL {
            let keys = f.keys(3, 0, 5000, &mut rng);
            let set: HashSet<_> = keys.iter().collect();
            assert_eq!(set.len(), keys.len(), "{f:?} repeats a key");
            assert_eq!(Family::from_name(f.as_str()), Some(f));
        }
        assert_eq!(Family::Prefix.key(1, 123, &mut rng), b"root.sg1.d12.s3");
        let r = Family::Random.key(1, 123, &mut rng);
        assert_eq!(r.len(), b"root.sg1.d12.s3".len());
        for i in [0u64, 9, 99, 12345] {
            let k = Family::NonAsciiTail.key(0, i, &mut rng);
            assert_eq!(k.len() % 16, 1, "{}", String::from_utf8_lossy(&k));
            assert_eq!(*k.last().unwrap(), 0xa6);
        }
    }
}
