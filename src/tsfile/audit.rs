//! Which writer made this filter? Every indexed path is hashed under each
//! hypothesis (tail variant × time columns inserted × trailing null tags kept ×
//! charset) and the stored bit vector is rebuilt; a hypothesis holds when it
//! reproduces the stored bits exactly (docs/writers.md §2–4 and §6). A probe then rests on
//! the hashes the audit reproduced ([`super::probe`]).

use crate::encoder::{BuiltIn, PathEncoder};
use crate::error::join;
use crate::filter::{BloomFilter, FilterHash};
use crate::hash::{bit_index, hash32_seeds, variants_can_differ, TailVariant, MAX_SEEDS};
use crate::path::Charset;
use crate::tsfile::{Paths, Series};
use std::borrow::Cow;

/// What the audit of a cheap-hash filter says ([`AuditStatus::UnsupportedHash`]).
pub const CHEAP_HASH_SUMMARY: &str = "the filter uses TsFile's experimental cheap hash (Java's Objects.hash of \
     the path and the seed), which this reader does not evaluate: its bits cannot be rebuilt from the index, \
     so they are neither confirmed nor found inconsistent, and every probe is 'unknown'";

/// The writer of a cheap-hash filter, as far as its marker tells.
pub const CHEAP_HASH_WRITER: &str = "Java writer with the experimental cheap hash (unreleased)";

/// The hash a probe uses when no audit established one: Java's, over the path's UTF-8.
pub const DEFAULT_HASH: (TailVariant, Charset) = (TailVariant::Java, Charset::Utf8);

/// The writer assumed where no hypothesis reproduces the stored bits, or there is no audit (a
/// bit's provenance, the teaching panel's file): [`DEFAULT_HASH`] over every key of the index,
/// time columns inserted and trailing null tags kept.
pub const DEFAULT_HYPOTHESIS: Hypothesis =
    Hypothesis { variant: DEFAULT_HASH.0, time_columns: true, trailing_nulls_kept: true, charset: DEFAULT_HASH.1 };

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hypothesis {
    pub variant: TailVariant,
    /// Time columns of aligned devices inserted as `device.`.
    pub time_columns: bool,
    /// Trailing null tags kept in the path (C++ 2.5.0) or dropped (Java).
    pub trailing_nulls_kept: bool,
    pub charset: Charset,
}

impl Hypothesis {
    /// Who writes filters this way, in words. Without time columns in the file, the
    /// writers that differ only in inserting them cannot be told apart.
    pub fn writer(&self, file_has_time_columns: bool) -> String {
        if self.charset != Charset::Utf8 {
            // Only a JVM hashes its default charset; the C++ writers hash the stored UTF-8.
            return format!("Java writer on a JVM whose default charset is {}", self.charset.as_str());
        }
        let base = match (self.variant, self.time_columns, file_has_time_columns) {
            (TailVariant::ZeroExtended, true, true) => "C++ tsfile >= 2.5 writer",
            (TailVariant::ZeroExtended, false, true) => "C++ tsfile writer up to 2025-02 built for ARM",
            (TailVariant::Java, true, true) => "Java writer",
            (TailVariant::Java, false, true) => "C++ tsfile writer up to 2025-02 on x86-64",
            (TailVariant::ZeroExtended, _, false) => {
                "C++ tsfile writer with a zero-extended tail (tsfile >= 2.5, or an older build for ARM)"
            }
            (TailVariant::Java, _, false) => "Java writer, or a C++ tsfile writer up to 2025-02 on x86-64",
        };
        base.to_string()
    }

    /// The hypothesis in words; `time_columns`/`trailing_nulls`: whether the file has any,
    /// so that dimensions which change nothing are left out.
    pub fn describe(&self, time_columns: bool, trailing_nulls: bool) -> String {
        // Pushed piece by piece: `format!` + `join` here cost the wasm build ~1.5 KB.
        let mut out =
            String::from(if self.variant == TailVariant::Java { "sign-extended tail" } else { "zero-extended tail" });
        if time_columns {
            out.push_str(if self.time_columns { ", time columns inserted" } else { ", time columns not inserted" });
        }
        if trailing_nulls {
            out.push_str(if self.trailing_nulls_kept {
                ", trailing null tags kept"
            } else {
                ", trailing null tags dropped"
            });
        }
        if self.charset != Charset::Utf8 {
            out.push_str(", ");
            out.push_str(self.charset.as_str());
            out.push_str(" path bytes");
        }
        out
    }

    /// The bytes the writer hashed for `s` under this hypothesis (the charset as `encoder` has it).
    pub fn path(&self, s: &Series, encoder: &dyn PathEncoder) -> Vec<u8> {
        self.key(s, &s.path(), encoder).into_owned()
    }

    /// [`Hypothesis::path`] from the record's stored path `stored` ([`Series::path`]),
    /// borrowed when the hypothesis hashes it as it is (UTF-8, or an ASCII path).
    fn key<'a>(&self, s: &Series, stored: &'a [u8], encoder: &dyn PathEncoder) -> Cow<'a, [u8]> {
        let raw = if !self.trailing_nulls_kept && s.device.has_trailing_null() {
            Cow::Owned(s.device.series_path(&s.measurement, true))
        } else {
            Cow::Borrowed(stored)
        };
        if let Ok(Cow::Owned(v)) = encoder.encode(&raw, self.charset) {
            return Cow::Owned(v);
        }
        raw
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct HypothesisResult {
    pub hypothesis: Hypothesis,
    pub reproduces: bool,
    /// Bits that differ between the stored vector and the rebuilt one.
    pub differing_bits: u64,
    /// Indexed paths (incl. time columns when inserted) that test absent in the stored filter.
    pub indexed_absent: usize,
}

closed_set! {
    pub enum AuditStatus {
        /// The file has no Bloom filter.
        NoFilter => "no_filter",
        /// Exactly one tail variant (and charset) reproduces the bits.
        Established => "established",
        /// The bits are reproduced, but by more than one variant (every path's tail is ASCII, say).
        Ambiguous => "ambiguous",
        /// No hypothesis reproduces the stored bits.
        NotReproduced => "not_reproduced",
        /// The filter's bits were set by a hash this reader does not evaluate (the experimental cheap
        /// hash, docs/writers.md §7): they cannot be rebuilt, so nothing is confirmed or found wrong.
        UnsupportedHash => "unsupported_hash",
    }
}

impl AuditStatus {
    /// Whether the filter agrees with the index: there is none, or a writer hypothesis rebuilds
    /// its bits exactly (so every indexed series tests maybe). What `verify` checks.
    pub fn consistent(self) -> bool {
        matches!(self, AuditStatus::NoFilter | AuditStatus::Established | AuditStatus::Ambiguous)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Audit {
    pub status: AuditStatus,
    /// Every hypothesis tried, in order.
    pub results: Vec<HypothesisResult>,
    /// The variant every reproducing hypothesis shares, if they share one.
    pub variant: Option<TailVariant>,
    /// The charset the file was hashed in: the first of [`Audit::charsets`] in
    /// [`Charset::ALL`] order (the most common JVM default first).
    pub charset: Option<Charset>,
    /// Every charset some reproducing hypothesis uses. Several when they encode every
    /// indexed path alike (GBK and GB18030, say); probes then consult them all.
    pub charsets: Vec<Charset>,
    /// Charsets the audit would have tried but the encoder could not supply (the wasm
    /// module before the charsets module is loaded). Non-empty only when nothing
    /// reproduced in the charsets that were available: load them and audit again.
    pub charsets_unavailable: Vec<Charset>,
    pub series_count: usize,
    pub time_column_count: usize,
    /// Indexed paths whose last `len mod 16` bytes include one >= 0x80 (the variants can differ).
    pub non_ascii_tail_paths: usize,
    /// One sentence for people.
    pub summary: String,
}

impl Audit {
    pub fn matching(&self) -> impl Iterator<Item = &Hypothesis> {
        self.results.iter().filter(|r| r.reproduces).map(|r| &r.hypothesis)
    }

    pub fn reproduced(&self) -> bool {
        matches!(self.status, AuditStatus::Established | AuditStatus::Ambiguous)
    }

    /// Which result is taken as the writer's hypothesis (`writerHypothesis` in the JS API, the
    /// provenance's keys, `indexedItems`, the named writer): the first that reproduces the bits
    /// under the hash a probe uses by default (the established variant and charset, else Java's
    /// with UTF-8), else the first that reproduces them; None when none does.
    pub fn writer_hypothesis(&self) -> Option<usize> {
        let default = self.established().unwrap_or(DEFAULT_HASH);
        let mut first = None;
        for (i, r) in self.results.iter().enumerate() {
            if r.reproduces {
                if (r.hypothesis.variant, r.hypothesis.charset) == default {
                    return Some(i);
                }
                first = first.or(Some(i));
            }
        }
        first
    }

    /// The hash the audit established: its one variant in the file's charset.
    pub fn established(&self) -> Option<(TailVariant, Charset)> {
        (self.status == AuditStatus::Established).then(|| self.variant.zip(self.charset)).flatten()
    }

    /// The (variant, charset) pairs a probe must consult for a sound "absent".
    pub fn candidates(&self) -> Vec<(TailVariant, Charset)> {
        let mut out: Vec<(TailVariant, Charset)> = Vec::new();
        for h in self.matching() {
            if !out.contains(&(h.variant, h.charset)) {
                out.push((h.variant, h.charset));
            }
        }
        out
    }
}

/// Rebuilds the filter's bits from the index under each hypothesis, with the
/// charsets built into this crate.
pub fn audit(filter: Option<&BloomFilter>, series: &[Series]) -> Audit {
    audit_with(filter, series, &BuiltIn)
}

/// [`audit`] with the charsets `encoder` supplies.
pub fn audit_with(filter: Option<&BloomFilter>, series: &[Series], encoder: &dyn PathEncoder) -> Audit {
    audit_paths(filter, series, &Paths::new(series), encoder)
}

/// [`audit_with`] given the records' paths (`paths`: [`Paths::new`] of `series`).
pub fn audit_paths(filter: Option<&BloomFilter>, series: &[Series], paths: &Paths, encoder: &dyn PathEncoder) -> Audit {
    let time_column_count = series.iter().filter(|s| s.is_time_column()).count();
    let any_trailing_null = series.iter().any(|s| s.device.has_trailing_null());
    let non_ascii_tail_paths = (0..paths.len()).filter(|&i| variants_can_differ(paths.get(i))).count();
    let any_non_ascii = !paths.is_ascii();
    let base = Audit {
        status: AuditStatus::NoFilter,
        results: Vec::new(),
        variant: None,
        charset: None,
        charsets: Vec::new(),
        charsets_unavailable: Vec::new(),
        series_count: series.len() - time_column_count,
        time_column_count,
        non_ascii_tail_paths,
        summary: String::new(),
    };
    let Some(filter) = filter else {
        return Audit {
            summary: "the file has no Bloom filter; every path must be looked up in the index".into(),
            ..base
        };
    };
    if filter.hash() == FilterHash::Cheap {
        return Audit { status: AuditStatus::UnsupportedHash, summary: CHEAP_HASH_SUMMARY.into(), ..base };
    }
    let files = Files {
        filter,
        stored: filter.logical_bits(),
        series,
        paths,
        encoder,
        // Only vary the dimensions that can change a path.
        time_options: if time_column_count > 0 { &[true, false] } else { &[true] },
        null_options: if any_trailing_null { &[true, false] } else { &[true] },
    };
    let try_charsets = |charsets: &[Charset]| files.try_charsets(charsets);
    let mut results = try_charsets(&[Charset::Utf8]);
    let mut charsets_unavailable = Vec::new();
    if !results.iter().any(|r| r.reproduces) && any_non_ascii {
        // A Java writer on a JVM whose default charset is not UTF-8 (docs/writers.md).
        let (others, missing): (Vec<Charset>, Vec<Charset>) =
            Charset::ALL.iter().copied().filter(|c| *c != Charset::Utf8).partition(|c| encoder.has(*c));
        results.extend(try_charsets(&others));
        if !results.iter().any(|r| r.reproduces) {
            charsets_unavailable = missing;
        }
    }

    let mut audit = Audit { results, charsets_unavailable, ..base };
    let candidates = audit.candidates();
    let variants: Vec<TailVariant> = dedup(candidates.iter().map(|c| c.0));
    audit.charsets = dedup(candidates.iter().map(|c| c.1));
    audit.variant = (variants.len() == 1).then(|| variants[0]);
    audit.charset = audit.charsets.first().copied();
    let first = audit.matching().next().copied();
    audit.status = match (first, audit.variant) {
        (None, _) => AuditStatus::NotReproduced,
        (Some(_), Some(_)) => AuditStatus::Established,
        (Some(_), None) => AuditStatus::Ambiguous,
    };
    audit.summary = audit.summarize(first, time_column_count > 0, any_trailing_null);
    audit
}

impl Audit {
    /// The audit's one sentence for people, once its status is known; `first`: the first
    /// hypothesis that reproduces the bits, `has_time`: the file has time columns.
    fn summarize(&self, first: Option<Hypothesis>, has_time: bool, any_trailing_null: bool) -> String {
        match (self.status, first) {
            (AuditStatus::Established, Some(h)) => {
                let preferred = self.charset;
                let writers = dedup(self.matching().filter(|h| Some(h.charset) == preferred).map(|h| h.writer(has_time)));
                let alike = join(self.charsets.iter().skip(1).map(|c| c.as_str()), ", ");
                format!(
                    "bits reproduced exactly: {} ({}){}{}",
                    join(writers, " or "),
                    h.describe(has_time, any_trailing_null),
                    if alike.is_empty() {
                        String::new()
                    } else {
                        format!("; {alike} encodes every indexed path alike, so probes consult it too")
                    },
                    if self.matching().filter(|h| Some(h.charset) == preferred).count() > 1 {
                        "; the other differences do not change any path of this file"
                    } else {
                        ""
                    }
                )
            }
            (AuditStatus::Ambiguous, Some(h)) => format!(
                "ambiguous: the bits are reproduced exactly, but every indexed path's tail is ASCII, so the Java and \
                 zero-extended hashes agree and the writer's variant cannot be told ({}); paths with a non-ASCII tail are \
                 checked under both",
                if h.time_columns && has_time { "time columns inserted" } else { "no time columns involved" }
            ),
            _ => {
                let best = self.results.iter().min_by_key(|r| r.differing_bits);
                format!(
                    "no hypothesis reproduces the filter — 'definitely absent' is not trustworthy for this file{}{}",
                    if self.charsets_unavailable.is_empty() {
                        ""
                    } else {
                        " (the multi-byte JVM charsets were not available to try)"
                    },
                    best.map(|b| {
                        format!(
                            " (closest: {}, {} bits differ)",
                            b.hypothesis.describe(has_time, any_trailing_null),
                            b.differing_bits
                        )
                    })
                    .unwrap_or_default()
                )
            }
        }
    }
}

/// One file as the audit tries hypotheses on it: its filter and stored bits, its records and
/// their paths, and the dimensions that can change one of them.
struct Files<'a> {
    filter: &'a BloomFilter,
    stored: Vec<u8>,
    series: &'a [Series],
    paths: &'a Paths,
    encoder: &'a dyn PathEncoder,
    time_options: &'static [bool],
    null_options: &'static [bool],
}

impl Files<'_> {
    /// Every hypothesis in `charsets`, in a stable order: charset, variant, time columns,
    /// trailing nulls.
    fn try_charsets(&self, charsets: &[Charset]) -> Vec<HypothesisResult> {
        let (filter, series) = (self.filter, self.series);
        let mut out = Vec::new();
        for &charset in charsets {
            // Each path is built once per trailing-null choice and hashed once per variant (once
            // in all when its tail is ASCII): `pos[n][v]`; every hypothesis then only ORs bits.
            let pos: Vec<[Vec<[u32; MAX_SEEDS]>; 2]> = self
                .null_options
                .iter()
                .map(|&trailing_nulls_kept| {
                    let probe =
                        Hypothesis { variant: TailVariant::Java, time_columns: true, trailing_nulls_kept, charset };
                    let keys: Vec<Cow<[u8]>> =
                        series.iter().enumerate().map(|(i, s)| probe.key(s, self.paths.get(i), self.encoder)).collect();
                    let java = positions(filter, &keys, TailVariant::Java, None);
                    let zero = positions(filter, &keys, TailVariant::ZeroExtended, Some(&java));
                    [java, zero]
                })
                .collect();
            for (v, variant) in TailVariant::ALL.into_iter().enumerate() {
                for &time_columns in self.time_options {
                    for (n, &trailing_nulls_kept) in self.null_options.iter().enumerate() {
                        let h = Hypothesis { variant, time_columns, trailing_nulls_kept, charset };
                        out.push(rebuild(filter, &self.stored, series, &pos[n][v], h));
                    }
                }
            }
        }
        out
    }
}

fn dedup<T: PartialEq>(items: impl Iterator<Item = T>) -> Vec<T> {
    let mut out = Vec::new();
    for i in items {
        if !out.contains(&i) {
            out.push(i);
        }
    }
    out
}

/// The k bit positions of each path under `variant`. With `reuse` (the Java positions of
/// the same paths), paths whose tail is ASCII are not hashed again: both variants agree.
fn positions(
    filter: &BloomFilter,
    paths: &[Cow<[u8]>],
    variant: TailVariant,
    reuse: Option<&[[u32; MAX_SEEDS]]>,
) -> Vec<[u32; MAX_SEEDS]> {
    let m = filter.bit_count();
    paths
        .iter()
        .enumerate()
        .map(|(i, p)| match reuse {
            Some(java) if !variants_can_differ(p) => java[i],
            _ => bit_indexes(p, filter, variant, m),
        })
        .collect()
}

/// The k bit positions of one path. Out of line on purpose: called once per path, it is
/// compiled optimised after a few calls, while a loop inside one long call runs in the
/// engine's baseline code to its end (wasm has no on-stack replacement).
#[inline(never)]
fn bit_indexes(path: &[u8], filter: &BloomFilter, variant: TailVariant, m: u32) -> [u32; MAX_SEEDS] {
    let h = hash32_seeds(path, filter.seeds(), variant);
    let mut bits = [0u32; MAX_SEEDS];
    for (b, h) in bits.iter_mut().zip(h).take(filter.seeds().len()) {
        *b = bit_index(h, m);
    }
    bits
}

/// Rebuilds the bit vector from precomputed positions under one hypothesis and compares.
fn rebuild(
    filter: &BloomFilter,
    stored: &[u8],
    series: &[Series],
    pos: &[[u32; MAX_SEEDS]],
    h: Hypothesis,
) -> HypothesisResult {
    let k = filter.hash_function_count() as usize;
    let mut rebuilt = vec![0u8; stored.len()];
    let mut indexed_absent = 0;
    for (s, bits) in series.iter().zip(pos) {
        if s.is_time_column() && !h.time_columns {
            continue;
        }
        if !insert(stored, &mut rebuilt, &bits[..k]) {
            indexed_absent += 1;
        }
    }
    let differing_bits: u64 = stored.iter().zip(&rebuilt).map(|(a, b)| (a ^ b).count_ones() as u64).sum();
    HypothesisResult { hypothesis: h, reproduces: differing_bits == 0, differing_bits, indexed_absent }
}

/// Sets `bits` in `rebuilt`; whether every one of them is set in `stored`. Out of line for the engine's
/// optimising compiler, as [`bit_indexes`].
#[inline(never)]
fn insert(stored: &[u8], rebuilt: &mut [u8], bits: &[u32]) -> bool {
    let mut present = true;
    for &b in bits {
        let (byte, mask) = ((b / 8) as usize, 1u8 << (b % 8));
        present &= stored[byte] & mask != 0;
        rebuilt[byte] |= mask;
    }
    present
}
