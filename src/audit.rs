//! Which writer made this filter? Every indexed path is hashed under each
//! hypothesis (tail variant × time columns inserted × trailing null tags kept ×
//! charset) and the stored bit vector is rebuilt; a hypothesis holds when it
//! reproduces the stored bits exactly (tsfile-format.md §10-11, Q1-Q5).
//! Probing a path then says which variant it rests on and whether "absent" is sound.

use crate::filter::{BloomFilter, Probe, Verdict};
use crate::hash::{bit_index, hash32_seeds, variants_can_differ, TailVariant, MAX_SEEDS};
use crate::path::{transcode, Charset};
use crate::tsfile::Series;

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
        let base = match (self.variant, self.time_columns, file_has_time_columns) {
            (TailVariant::ZeroExtended, true, true) => "C++ tsfile >= 2.5 writer",
            (TailVariant::ZeroExtended, false, true) => "C++ tsfile writer up to 2025-02 built for ARM",
            (TailVariant::Java, true, true) => "Java writer",
            (TailVariant::Java, false, true) => "C++ tsfile writer up to 2025-02 on x86-64",
            (TailVariant::ZeroExtended, _, false) => "C++ tsfile writer with a zero-extended tail (tsfile >= 2.5, or an older build for ARM)",
            (TailVariant::Java, _, false) => "Java writer, or a C++ tsfile writer up to 2025-02 on x86-64",
        };
        if self.charset == Charset::Utf8 {
            base.to_string()
        } else {
            format!("{base} on a JVM whose default charset is {}", self.charset.as_str())
        }
    }

    /// The hypothesis in words; `time_columns`/`trailing_nulls`: whether the file has any,
    /// so that dimensions which change nothing are left out.
    pub fn describe(&self, time_columns: bool, trailing_nulls: bool) -> String {
        // Pushed piece by piece: `format!` + `join` here cost the wasm build ~1.5 KB.
        let mut out = String::from(if self.variant == TailVariant::Java { "sign-extended tail" } else { "zero-extended tail" });
        if time_columns {
            out.push_str(if self.time_columns { ", time columns inserted" } else { ", time columns not inserted" });
        }
        if trailing_nulls {
            out.push_str(if self.trailing_nulls_kept { ", trailing null tags kept" } else { ", trailing null tags dropped" });
        }
        if self.charset != Charset::Utf8 {
            out.push_str(", ");
            out.push_str(self.charset.as_str());
            out.push_str(" path bytes");
        }
        out
    }

    fn path(&self, s: &Series) -> Vec<u8> {
        let raw = s.device.series_path(&s.measurement, !self.trailing_nulls_kept);
        match transcode(&raw, self.charset) {
            Ok(std::borrow::Cow::Owned(v)) => v,
            _ => raw,
        }
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AuditStatus {
    /// The file has no Bloom filter.
    NoFilter,
    /// Exactly one tail variant (and charset) reproduces the bits.
    Established,
    /// The bits are reproduced, but by more than one variant (every path's tail is ASCII, say).
    Ambiguous,
    /// No hypothesis reproduces the stored bits.
    NotReproduced,
}

impl AuditStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            AuditStatus::NoFilter => "no_filter",
            AuditStatus::Established => "established",
            AuditStatus::Ambiguous => "ambiguous",
            AuditStatus::NotReproduced => "not_reproduced",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Audit {
    pub status: AuditStatus,
    /// Every hypothesis tried, in order.
    pub results: Vec<HypothesisResult>,
    /// The variant every reproducing hypothesis shares, if they share one.
    pub variant: Option<TailVariant>,
    pub charset: Option<Charset>,
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

/// Rebuilds the filter's bits from the index under each hypothesis.
pub fn audit(filter: Option<&BloomFilter>, series: &[Series]) -> Audit {
    let time_column_count = series.iter().filter(|s| s.is_time_column()).count();
    let any_trailing_null = series.iter().any(|s| s.device.has_trailing_null());
    let non_ascii_tail_paths = series.iter().filter(|s| variants_can_differ(&s.path())).count();
    let any_non_ascii = series.iter().any(|s| !s.path().is_ascii());
    let base = Audit {
        status: AuditStatus::NoFilter,
        results: Vec::new(),
        variant: None,
        charset: None,
        series_count: series.len() - time_column_count,
        time_column_count,
        non_ascii_tail_paths,
        summary: String::new(),
    };
    let Some(filter) = filter else {
        return Audit { summary: "the file has no Bloom filter; every path must be looked up in the index".into(), ..base };
    };
    let stored = filter.logical_bits();

    // Only vary the dimensions that can change a path.
    let time_options: &[bool] = if time_column_count > 0 { &[true, false] } else { &[true] };
    let null_options: &[bool] = if any_trailing_null { &[true, false] } else { &[true] };
    let try_charsets = |charsets: &[Charset]| -> Vec<HypothesisResult> {
        // Each path is built once per (charset, trailing-null choice) and hashed once per
        // variant (once in all when its tail is ASCII); every hypothesis then only ORs bits.
        let mut table: Vec<(Hypothesis, HypothesisResult)> = Vec::new();
        for &charset in charsets {
            for &trailing_nulls_kept in null_options {
                let probe = Hypothesis { variant: TailVariant::Java, time_columns: true, trailing_nulls_kept, charset };
                let paths: Vec<Vec<u8>> = series.iter().map(|s| probe.path(s)).collect();
                let java = positions(filter, &paths, TailVariant::Java, None);
                let zero = positions(filter, &paths, TailVariant::ZeroExtended, Some(&java));
                for variant in TailVariant::ALL {
                    let pos = if variant == TailVariant::Java { &java } else { &zero };
                    for &time_columns in time_options {
                        let h = Hypothesis { variant, time_columns, trailing_nulls_kept, charset };
                        table.push((h, rebuild(filter, &stored, series, pos, h)));
                    }
                }
            }
        }
        // Report in a stable order: charset, variant, time columns, trailing nulls.
        let mut out = Vec::with_capacity(table.len());
        for &charset in charsets {
            for variant in TailVariant::ALL {
                for &time_columns in time_options {
                    for &trailing_nulls_kept in null_options {
                        let h = Hypothesis { variant, time_columns, trailing_nulls_kept, charset };
                        if let Some(i) = table.iter().position(|(t, _)| *t == h) {
                            out.push(table.swap_remove(i).1);
                        }
                    }
                }
            }
        }
        out
    };
    let mut results = try_charsets(&[Charset::Utf8]);
    if !results.iter().any(|r| r.reproduces) && any_non_ascii {
        // A Java writer on a JVM with a non-UTF-8 default charset (Q5).
        let others: Vec<Charset> =
            Charset::ALL.iter().copied().filter(|c| *c != Charset::Utf8 && c.is_available()).collect();
        results.extend(try_charsets(&others));
    }

    let mut audit = Audit { results, ..base };
    let candidates = audit.candidates();
    let variants: Vec<TailVariant> = dedup(candidates.iter().map(|c| c.0));
    let charsets: Vec<Charset> = dedup(candidates.iter().map(|c| c.1));
    audit.variant = (variants.len() == 1).then(|| variants[0]);
    audit.charset = (charsets.len() == 1).then(|| charsets[0]);
    let first = audit.matching().next().copied();
    audit.status = match (first, audit.variant) {
        (None, _) => AuditStatus::NotReproduced,
        (Some(_), Some(_)) => AuditStatus::Established,
        (Some(_), None) => AuditStatus::Ambiguous,
    };
    audit.summary = match (audit.status, first) {
        (AuditStatus::Established, Some(h)) => {
            let mut writers = String::new();
            for w in dedup(audit.matching().map(|h| h.writer(time_column_count > 0))) {
                if !writers.is_empty() {
                    writers.push_str(" or ");
                }
                writers.push_str(&w);
            }
            format!(
                "bits reproduced exactly: {} ({}){}",
                writers,
                h.describe(time_column_count > 0, any_trailing_null),
                if audit.matching().count() > 1 { "; the other differences do not change any path of this file" } else { "" }
            )
        }
        (AuditStatus::Ambiguous, Some(h)) => format!(
            "ambiguous: the bits are reproduced exactly, but every indexed path's tail is ASCII, so the Java and \
             zero-extended hashes agree and the writer's variant cannot be told ({}); paths with a non-ASCII tail are \
             checked under both",
            if h.time_columns && time_column_count > 0 { "time columns inserted" } else { "no time columns involved" }
        ),
        _ => {
            let best = audit.results.iter().min_by_key(|r| r.differing_bits);
            format!(
                "no hypothesis reproduces the filter — 'definitely absent' is not trustworthy for this file{}",
                best.map(|b| {
                    format!(
                        " (closest: {}, {} bits differ)",
                        b.hypothesis.describe(time_column_count > 0, any_trailing_null),
                        b.differing_bits
                    )
                })
                .unwrap_or_default()
            )
        }
    };
    audit
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
    paths: &[Vec<u8>],
    variant: TailVariant,
    reuse: Option<&[[u32; MAX_SEEDS]]>,
) -> Vec<[u32; MAX_SEEDS]> {
    let m = filter.bit_count();
    paths
        .iter()
        .enumerate()
        .map(|(i, p)| match reuse {
            Some(java) if !variants_can_differ(p) => java[i],
            _ => {
                let h = hash32_seeds(p, filter.seeds(), variant);
                let mut bits = [0u32; MAX_SEEDS];
                for (b, h) in bits.iter_mut().zip(h) {
                    *b = bit_index(h, m);
                }
                bits
            }
        })
        .collect()
}

/// Rebuilds the bit vector from precomputed positions under one hypothesis and compares.
fn rebuild(filter: &BloomFilter, stored: &[u8], series: &[Series], pos: &[[u32; MAX_SEEDS]], h: Hypothesis) -> HypothesisResult {
    let k = filter.hash_function_count() as usize;
    let mut rebuilt = vec![0u8; stored.len()];
    let mut indexed_absent = 0;
    for (s, bits) in series.iter().zip(pos) {
        if s.is_time_column() && !h.time_columns {
            continue;
        }
        let mut present = true;
        for &b in &bits[..k] {
            let (byte, mask) = ((b / 8) as usize, 1u8 << (b % 8));
            present &= stored[byte] & mask != 0;
            rebuilt[byte] |= mask;
        }
        if !present {
            indexed_absent += 1;
        }
    }
    let differing_bits: u64 = stored.iter().zip(&rebuilt).map(|(a, b)| (a ^ b).count_ones() as u64).sum();
    HypothesisResult { hypothesis: h, reproduces: differing_bits == 0, differing_bits, indexed_absent }
}

/// The answer for one path in one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileVerdict {
    /// Sound: the path is not in the file.
    Absent,
    /// Every probed bit is set (under the variant used); look in the index.
    Maybe,
    /// The bits say absent, but that answer cannot be trusted for this file.
    Unknown,
}

impl FileVerdict {
    pub fn as_str(self) -> &'static str {
        match self {
            FileVerdict::Absent => "absent",
            FileVerdict::Maybe => "maybe",
            FileVerdict::Unknown => "unknown",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct FileProbe {
    pub verdict: FileVerdict,
    pub variant: TailVariant,
    pub charset: Charset,
    /// The file's own index confirmed this variant (and charset).
    pub confirmed: bool,
    pub reason: String,
    /// The probe under the variant used.
    pub probe: Probe,
    /// Probes under the other candidates consulted, if any.
    pub others: Vec<(TailVariant, Charset, Probe)>,
}

/// Probes `path` (UTF-8, as stored in the index) in a file's filter.
/// `audit`: the file's audit, or None when the index has not been read (then both
/// known tail variants with UTF-8 are the candidates). `variant`/`charset` force a choice.
pub fn probe_file(
    filter: &BloomFilter,
    audit: Option<&Audit>,
    path: &[u8],
    variant: Option<TailVariant>,
    charset: Option<Charset>,
) -> crate::Result<FileProbe> {
    let candidates: Vec<(TailVariant, Charset)> = match audit {
        Some(a) if a.reproduced() => a.candidates(),
        Some(_) => Vec::new(),
        None => vec![(TailVariant::Java, Charset::Utf8), (TailVariant::ZeroExtended, Charset::Utf8)],
    };
    let established = audit.filter(|a| a.status == AuditStatus::Established).and_then(|a| a.variant.zip(a.charset));
    let used_variant = variant.or(established.map(|e| e.0)).unwrap_or(TailVariant::Java);
    let used_charset = charset.or(established.map(|e| e.1)).unwrap_or(Charset::Utf8);
    let confirmed = established == Some((used_variant, used_charset));
    let key = |cs: Charset| transcode(path, cs);
    let probe = filter.probe(&key(used_charset)?, used_variant);
    let mut others = Vec::new();
    for &(v, cs) in &candidates {
        if (v, cs) != (used_variant, used_charset) {
            others.push((v, cs, filter.probe(&key(cs)?, v)));
        }
    }
    let vname = |v: TailVariant, cs: Charset| {
        if cs == Charset::Utf8 { v.as_str().to_string() } else { format!("{} / {}", v.as_str(), cs.as_str()) }
    };
    let (verdict, reason) = if probe.verdict == Verdict::Maybe {
        (
            FileVerdict::Maybe,
            format!(
                "every probed bit is set under the {} hash{}; the path may be present — confirm in the index",
                vname(used_variant, used_charset),
                if confirmed { " (confirmed by the file's index)" } else { "" }
            ),
        )
    } else if let Some(a) = audit.filter(|a| !a.reproduced()) {
        (FileVerdict::Unknown, format!("a probed bit is clear, but {}", a.summary))
    } else if confirmed {
        (
            FileVerdict::Absent,
            format!("a probed bit is clear under the {} hash, which the file's index confirms", vname(used_variant, used_charset)),
        )
    } else if let Some((v, cs, _)) = others.iter().find(|o| o.2.verdict == Verdict::Maybe) {
        (
            FileVerdict::Maybe,
            format!(
                "absent under the {} hash but every bit is set under {}; the writer's variant is not established, so the path may be present",
                vname(used_variant, used_charset),
                vname(*v, *cs)
            ),
        )
    } else {
        let consulted = 1 + others.len();
        (
            FileVerdict::Absent,
            if !variants_can_differ(&key(used_charset)?) && consulted == 1 {
                "a probed bit is clear; this path's tail is ASCII, so every tail variant hashes it the same way".to_string()
            } else {
                format!("a probed bit is clear under every candidate hash ({consulted} consulted)")
            },
        )
    };
    Ok(FileProbe { verdict, variant: used_variant, charset: used_charset, confirmed, reason, probe, others })
}
