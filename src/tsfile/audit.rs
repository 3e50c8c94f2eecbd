//! Which writer made this filter? Every indexed path is hashed under each
//! hypothesis (tail variant × time columns inserted × trailing null tags kept ×
//! charset) and the stored bit vector is rebuilt; a hypothesis holds when it
//! reproduces the stored bits exactly (docs/writers.md §2–4 and §6).
//! Probing a path then says which variant it rests on and whether "absent" is sound.

use crate::encoder::{BuiltIn, PathEncoder};
use crate::filter::{BloomFilter, Probe, Verdict};
use crate::hash::{bit_index, hash32_seeds, variants_can_differ, TailVariant, MAX_SEEDS, SEEDS};
use crate::path::Charset;
use crate::tsfile::Series;
use std::borrow::Cow;

/// Every record's path as stored ([`Series::path`]), back to back: built once per walk and
/// shared by the audit, the listing's verdicts and the index lookup. (A path allocated per
/// series and per use was most of the wasm module's time to read a large index.)
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Paths {
    bytes: Vec<u8>,
    /// Record i's path is `bytes[bounds[i]..bounds[i + 1]]`.
    bounds: Vec<usize>,
}

impl Paths {
    pub fn new(series: &[Series]) -> Paths {
        let mut p =
            Paths { bytes: Vec::with_capacity(series.len() * 32), bounds: Vec::with_capacity(series.len() + 1) };
        p.bounds.push(0);
        for s in series {
            s.extend_path(&mut p.bytes);
            p.bounds.push(p.bytes.len());
        }
        p
    }

    pub fn len(&self) -> usize {
        self.bounds.len().saturating_sub(1)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Record `i`'s path.
    pub fn get(&self, i: usize) -> &[u8] {
        &self.bytes[self.bounds[i]..self.bounds[i + 1]]
    }

    /// Whether every path is ASCII. Path by path: a call per path is compiled optimised
    /// after a few calls, while one long loop would run in the engine's baseline code to the
    /// end (wasm has no on-stack replacement).
    pub fn is_ascii(&self) -> bool {
        (0..self.len()).all(|i| self.get(i).is_ascii())
    }
}

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

serialize_as_str!(AuditStatus, FileVerdict);

impl AuditStatus {
    /// `no_filter`, `established`, `ambiguous` or `not_reproduced`, as serialized.
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
        let (_, default) = default_hash(Some(self));
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
                let mut keys: Vec<Cow<[u8]>> = Vec::with_capacity(series.len());
                for (i, s) in series.iter().enumerate() {
                    keys.push(probe.key(s, paths.get(i), encoder));
                }
                let java = positions(filter, &keys, TailVariant::Java, None);
                let zero = positions(filter, &keys, TailVariant::ZeroExtended, Some(&java));
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
    audit.summary = match (audit.status, first) {
        (AuditStatus::Established, Some(h)) => {
            let preferred = audit.charset;
            let mut writers = String::new();
            for w in dedup(
                audit.matching().filter(|h| Some(h.charset) == preferred).map(|h| h.writer(time_column_count > 0)),
            ) {
                if !writers.is_empty() {
                    writers.push_str(" or ");
                }
                writers.push_str(&w);
            }
            // Joined by hand, as in Charset::from_name (`join` weighs on the wasm build).
            let mut alike = String::new();
            for c in audit.charsets.iter().skip(1) {
                if !alike.is_empty() {
                    alike.push_str(", ");
                }
                alike.push_str(c.as_str());
            }
            format!(
                "bits reproduced exactly: {} ({}){}{}",
                writers,
                h.describe(time_column_count > 0, any_trailing_null),
                if alike.is_empty() {
                    String::new()
                } else {
                    format!("; {alike} encodes every indexed path alike, so probes consult it too")
                },
                if audit.matching().filter(|h| Some(h.charset) == preferred).count() > 1 {
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
            if h.time_columns && time_column_count > 0 { "time columns inserted" } else { "no time columns involved" }
        ),
        _ => {
            let best = audit.results.iter().min_by_key(|r| r.differing_bits);
            format!(
                "no hypothesis reproduces the filter — 'definitely absent' is not trustworthy for this file{}{}",
                if audit.charsets_unavailable.is_empty() {
                    ""
                } else {
                    " (the multi-byte JVM charsets were not available to try)"
                },
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
    /// Every verdict, in the order of its code (src/tsfile/wire/).
    pub const ALL: [FileVerdict; 3] = [FileVerdict::Absent, FileVerdict::Maybe, FileVerdict::Unknown];

    /// `absent`, `maybe` or `unknown`, as serialized.
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

/// The (variant, charset) pairs whose hash may be the writer's: those the audit
/// reproduced, or — before the index is read — both known tail variants with UTF-8.
/// Empty when the audit reproduced nothing.
fn candidates(audit: Option<&Audit>) -> Vec<(TailVariant, Charset)> {
    match audit {
        Some(a) if a.reproduced() => a.candidates(),
        Some(_) => Vec::new(),
        None => vec![(TailVariant::Java, Charset::Utf8), (TailVariant::ZeroExtended, Charset::Utf8)],
    }
}

/// The hash a probe reports by default: the established variant in the file's charset.
fn default_hash(audit: Option<&Audit>) -> (Option<(TailVariant, Charset)>, (TailVariant, Charset)) {
    let established = audit.filter(|a| a.status == AuditStatus::Established).and_then(|a| a.variant.zip(a.charset));
    (established, established.unwrap_or((TailVariant::Java, Charset::Utf8)))
}

/// Probes `path` (UTF-8, as stored in the index) in a file's filter, with the
/// charsets built into this crate. See [`probe_file_with`].
pub fn probe_file(
    filter: &BloomFilter,
    audit: Option<&Audit>,
    path: &[u8],
    variant: Option<TailVariant>,
    charset: Option<Charset>,
) -> crate::Result<FileProbe> {
    probe_file_with(filter, audit, path, variant, charset, &BuiltIn)
}

/// Probes `path` in a file's filter. `audit`: the file's audit, or None when the index
/// has not been read. `variant`/`charset` choose the hash whose bits are reported;
/// the verdict still rests on the candidate hashes: "absent" only when every candidate
/// says so (docs/bloom-filter.md, soundness), "unknown" when the audit reproduced nothing.
pub fn probe_file_with(
    filter: &BloomFilter,
    audit: Option<&Audit>,
    path: &[u8],
    variant: Option<TailVariant>,
    charset: Option<Charset>,
    encoder: &dyn PathEncoder,
) -> crate::Result<FileProbe> {
    let (mut p, reason) = probe_file_reasoned(filter, audit, path, variant, charset, encoder)?;
    p.reason = reason.text(audit);
    Ok(p)
}

/// [`probe_file_with`] with the reason as a [`Reason`] (`reason` left empty): the probes of
/// one file share a handful of reasons, so a caller probing one path after another formats
/// a reason only when it changes.
pub fn probe_file_reasoned(
    filter: &BloomFilter,
    audit: Option<&Audit>,
    path: &[u8],
    variant: Option<TailVariant>,
    charset: Option<Charset>,
    encoder: &dyn PathEncoder,
) -> crate::Result<(FileProbe, Reason)> {
    let rule = VerdictRule::new(audit, variant, charset);
    let (used_variant, used_charset) = rule.used;
    let used = rule.used;
    let key = |cs: Charset| encoder.encode(path, cs);
    let probe = filter.probe(&key(used_charset)?, used_variant);
    let mut others = Vec::with_capacity(rule.others.len());
    for &(v, cs) in &rule.others {
        others.push((v, cs, filter.probe(&key(cs)?, v)));
    }
    // The rule decides (VerdictRule::decide, as for every batch); the reason says which step did
    // and with what facts.
    let decided = rule.decide(path, probe.verdict == Verdict::Maybe, |i| Ok(others[i].2.verdict == Verdict::Maybe))?;
    // Bit j: seed j's bit is clear in `p`.
    let clear_of = |p: &Probe| p.probes.iter().enumerate().fold(0u8, |m, (j, s)| m | u8::from(!s.set) << j);
    let confirmed = rule.confirmed;
    let reason = match decided {
        Decision::UsedAllSet => {
            // A hash forced off the ones the index reproduces, while every one of those finds a
            // clear bit: the writer never added the path, which the forced hash cannot see.
            let writer = match others.first() {
                Some((v, cs, p))
                    if rule.reproduced
                        && !rule.used_is_candidate
                        && others.iter().all(|o| o.2.verdict == Verdict::Absent) =>
                {
                    Some(((*v, *cs), clear_of(p)))
                }
                _ => None,
            };
            Reason::AllSet { used, confirmed, writer }
        }
        Decision::Untrusted => Reason::AuditReproducedNothing,
        Decision::OtherAllSet(i) => {
            let (v, cs, _) = &others[i];
            // The index reproduces the other hash but not the one used (forced off the writer's).
            let wrong = !rule.before_index && !rule.used_is_candidate;
            Reason::AllSetUnderOther { used, other: (*v, *cs), wrong, clear: clear_of(&probe) }
        }
        Decision::CharsetNotEstablished => Reason::CharsetNotEstablished,
        Decision::Clear if confirmed && others.is_empty() => Reason::ClearConfirmed { used },
        Decision::Clear => {
            let consulted = others.len() + usize::from(rule.used_is_candidate);
            if consulted == 1 && !variants_can_differ(&key(used_charset)?) && !confirmed {
                Reason::ClearAsciiTail
            } else {
                Reason::ClearUnderEvery { consulted }
            }
        }
    };
    let verdict = decided.verdict();
    let p = FileProbe {
        verdict,
        variant: used_variant,
        charset: used_charset,
        confirmed,
        reason: String::new(),
        probe,
        others,
    };
    Ok((p, reason))
}

/// What a probe of a file without a Bloom filter says ([`Reason::NoFilter`]).
pub const NO_FILTER_REASON: &str = "the file has no Bloom filter; look the path up in the index";

/// Why a file probe says what it says ([`FileProbe::reason`] is its text). It crosses to JS as
/// numbers at the end of a probe record (src/tsfile/wire/record.rs `file_probe`), and js/reasons.js words it
/// exactly as [`Reason::text_listed`] does (tests/reasons.rs checks the two agree): the
/// sentences stay out of the size-budgeted module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The file has no Bloom filter (its probes are "unknown").
    NoFilter,
    /// Every probed bit is set under the hash used. `writer`: the hash used is forced off the
    /// ones the file's index reproduces, and every one of those finds a clear bit — the first of
    /// them and its clear seeds (bit j: seed j), so the words can say the writer never added the
    /// path and a reader hashing as `used` reads the index for nothing.
    AllSet { used: (TailVariant, Charset), confirmed: bool, writer: Option<((TailVariant, Charset), u8)> },
    /// A bit is clear, but the audit reproduced nothing (its summary says why).
    AuditReproducedNothing,
    /// A bit is clear under the hash used, but every bit is set under another candidate.
    /// `clear`: bit j set when seed j's bit is clear under `used`; `wrong`: the file's index
    /// reproduces `other` and not `used` (a hash forced off the writer's), so a reader hashing
    /// as `used` would wrongly skip the file.
    AllSetUnderOther { used: (TailVariant, Charset), other: (TailVariant, Charset), wrong: bool, clear: u8 },
    /// A bit is clear, the path is not ASCII and no audit established the charset.
    CharsetNotEstablished,
    /// A bit is clear under the hash the file's index confirms.
    ClearConfirmed { used: (TailVariant, Charset) },
    /// A bit is clear and the path's tail is ASCII: every tail variant agrees.
    ClearAsciiTail,
    /// A bit is clear under every candidate hash.
    ClearUnderEvery { consulted: usize },
}

impl Reason {
    /// The sentence, for the file whose audit is `audit`.
    pub fn text(&self, audit: Option<&Audit>) -> String {
        let full = |(v, cs): (TailVariant, Charset)| format!("{} / {}", v.as_str(), cs.as_str());
        // "the bit of seed 5 is", "the bits of seeds 7, 19 are" (bit j of `clear`: seed j).
        let seeds_clear = |clear: u8| {
            let seeds: Vec<String> =
                (0..MAX_SEEDS).filter(|j| clear >> j & 1 == 1).map(|j| SEEDS[j].to_string()).collect();
            match &seeds[..] {
                [one] => format!("the bit of seed {one} is"),
                _ => format!("the bits of seeds {} are", seeds.join(", ")),
            }
        };
        let name = |(v, cs): (TailVariant, Charset)| {
            if cs == Charset::Utf8 {
                v.as_str().to_string()
            } else {
                format!("{} / {}", v.as_str(), cs.as_str())
            }
        };
        match *self {
            Reason::NoFilter => NO_FILTER_REASON.to_string(),
            Reason::AllSet { used, confirmed, writer: None } => format!(
                "every probed bit is set under the {} hash{}; the path may be present",
                name(used),
                if confirmed { " (confirmed by the file's index)" } else { "" }
            ),
            Reason::AllSet { used, writer: Some((writer, clear)), .. } => format!(
                "every probed bit is set under the {} hash, so the path may be present; but under {}, the hash the \
                 file's index reproduces, {} clear: the writer never added this path, and a reader hashing as {} \
                 would read the index for nothing",
                full(used),
                full(writer),
                seeds_clear(clear),
                full(used)
            ),
            Reason::AuditReproducedNothing => {
                format!("a probed bit is clear, but {}", audit.map_or("the audit reproduced nothing", |a| &a.summary))
            }
            Reason::AllSetUnderOther { used, other, wrong, clear } => {
                format!(
                    "{} clear under the {} hash, but every bit is set under {}, {}; the path may be present",
                    seeds_clear(clear),
                    full(used),
                    full(other),
                    if wrong {
                        format!(
                            "the hash the file's index reproduces: a reader hashing as {} would wrongly conclude \
                             “definitely absent” and skip this file",
                            full(used)
                        )
                    } else {
                        "which may be the writer's".to_string()
                    }
                )
            }
            Reason::CharsetNotEstablished => {
                "a probed bit is clear under both UTF-8 tail variants, but this path is not ASCII and \
                 no audit established the file's charset: a Java writer hashes its JVM's default charset"
                    .to_string()
            }
            Reason::ClearConfirmed { used } => {
                format!("a probed bit is clear under the {} hash, which the file's index confirms", name(used))
            }
            Reason::ClearAsciiTail => {
                "a probed bit is clear; this path's tail is ASCII, so every tail variant hashes it the same way"
                    .to_string()
            }
            Reason::ClearUnderEvery { consulted } => {
                format!("a probed bit is clear under every candidate hash ({consulted} consulted)")
            }
        }
    }
}

/// What the file's index says about a probed path (the index is the other half of a probe's
/// facts: a verdict's sentence says whether it was read, lists the path, or could not be read).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listed {
    /// The index has not been read.
    NotRead = 0,
    /// The index lists the path as a series.
    Yes = 1,
    /// The index, read to its end, does not list the path.
    No = 2,
    /// The index walk stopped at an error, and the series listed before it do not include the path.
    Unreadable = 3,
}

impl Listed {
    /// A probe's `indexed`: whether the index lists the path, None when it cannot tell.
    pub fn indexed(self) -> Option<bool> {
        match self {
            Listed::Yes => Some(true),
            Listed::No => Some(false),
            Listed::NotRead | Listed::Unreadable => None,
        }
    }
}

impl Reason {
    /// The verdict this reason gives.
    pub fn verdict(&self) -> FileVerdict {
        match self {
            Reason::AllSet { .. } | Reason::AllSetUnderOther { .. } => FileVerdict::Maybe,
            Reason::NoFilter | Reason::AuditReproducedNothing | Reason::CharsetNotEstablished => FileVerdict::Unknown,
            Reason::ClearConfirmed { .. } | Reason::ClearAsciiTail | Reason::ClearUnderEvery { .. } => {
                FileVerdict::Absent
            }
        }
    }

    /// The reason as four numbers, for js/reasons.js to word: its kind (0 no filter, 1 all
    /// set, 2 the audit reproduced nothing, 3 all set under another candidate, 4 charset not
    /// established, 5 clear and confirmed, 6 clear with an ASCII tail, 7 clear under every
    /// candidate), a flag (kind 1: `writer` is known; kind 3: `wrong`), the candidates
    /// consulted (kind 7), and what the
    /// index says (0 not read, 1 lists the path, 2 does not, 3 could not be read to its end).
    /// The rest of what the words say (the hashes, the clear seeds, the other candidate) is in
    /// the probe itself.
    pub fn codes(&self, listed: Listed) -> [i32; 4] {
        let (kind, wrong, consulted) = match *self {
            Reason::NoFilter => (0, false, 0),
            Reason::AllSet { writer, .. } => (1, writer.is_some(), 0),
            Reason::AuditReproducedNothing => (2, false, 0),
            Reason::AllSetUnderOther { wrong, .. } => (3, wrong, 0),
            Reason::CharsetNotEstablished => (4, false, 0),
            Reason::ClearConfirmed { .. } => (5, false, 0),
            Reason::ClearAsciiTail => (6, false, 0),
            Reason::ClearUnderEvery { consulted } => (7, false, consulted as i32),
        };
        [kind, i32::from(wrong), consulted, listed as i32]
    }

    /// [`Reason::text`] followed by what the index says about the path.
    pub fn text_listed(&self, audit: Option<&Audit>, listed: Listed) -> String {
        let mut s = self.text(audit);
        s.push_str(match (listed, self.verdict()) {
            (Listed::NotRead, _) => "; the index has not been read",
            (Listed::Yes, FileVerdict::Absent) => {
                "; yet the index lists this series: the filter disagrees with the index"
            }
            (Listed::Yes, _) => "; the index lists this series",
            (Listed::No, FileVerdict::Maybe) => "; the index does not list this series: a false positive",
            (Listed::No, _) => "; the index does not list this series",
            (Listed::Unreadable, _) => {
                "; the index could not be read to its end, so no audit checked the writer's hash, and the series \
                 listed before the error do not include this one"
            }
        });
        s
    }
}

/// Which step of the soundness rule decided a verdict ([`VerdictRule::decide`], the rule's one
/// body: every probe route — single probes with their reasons, batches, listings, the fast
/// scan — goes through it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Every probed bit is set under the hash used: maybe.
    UsedAllSet,
    /// A bit is clear, but the audit reproduced nothing: unknown.
    Untrusted,
    /// A bit is clear under the hash used, but every bit is set under the other candidate `i`
    /// (in [`VerdictRule`]'s order, the first that is): maybe.
    OtherAllSet(usize),
    /// A bit is clear under every candidate, but the index is not read and the path is not ASCII
    /// (a Java writer hashes its JVM's default charset): unknown.
    CharsetNotEstablished,
    /// A bit is clear under every candidate hash: absent.
    Clear,
}

impl Decision {
    /// The verdict this step gives.
    pub fn verdict(self) -> FileVerdict {
        match self {
            Decision::UsedAllSet | Decision::OtherAllSet(_) => FileVerdict::Maybe,
            Decision::Untrusted | Decision::CharsetNotEstablished => FileVerdict::Unknown,
            Decision::Clear => FileVerdict::Absent,
        }
    }
}

/// The soundness rule for one file and one choice of hash ([`probe_file_with`]'s and every
/// batch's), its hashes chosen once: they depend only on the file's audit and the overrides.
/// [`VerdictRule::verdict`] stops at the first clear bit like Java's `contains`.
pub struct VerdictRule {
    /// The hash probed first (the reported one in `probe_file_with`).
    used: (TailVariant, Charset),
    /// The other candidate hashes, consulted before a sound "absent".
    others: Vec<(TailVariant, Charset)>,
    /// The audit reproduced nothing: a clear bit means "unknown".
    untrusted: bool,
    /// No audit yet: a non-ASCII path's charset is not established.
    before_index: bool,
    /// The audit reproduced the bits.
    reproduced: bool,
    /// The hash used is one of the candidates (a forced one may not be).
    used_is_candidate: bool,
    /// The audit established the hash used.
    confirmed: bool,
}

impl VerdictRule {
    /// `audit`: the file's audit, or None before the index is read; `variant`/`charset`
    /// choose the hash as in [`probe_file_with`].
    pub fn new(audit: Option<&Audit>, variant: Option<TailVariant>, charset: Option<Charset>) -> VerdictRule {
        let (established, default) = default_hash(audit);
        let used = (variant.unwrap_or(default.0), charset.unwrap_or(default.1));
        // The other candidates in place (one allocation per rule: a probe makes one).
        let mut others = candidates(audit);
        let used_is_candidate = others.contains(&used);
        others.retain(|&c| c != used);
        VerdictRule {
            used,
            others,
            untrusted: audit.is_some_and(|a| !a.reproduced()),
            before_index: audit.is_none(),
            reproduced: audit.is_some_and(Audit::reproduced),
            used_is_candidate,
            confirmed: established.is_some() && used_is_candidate,
        }
    }

    /// The hash probed first: `(variant, charset)`.
    pub fn used(&self) -> (TailVariant, Charset) {
        self.used
    }

    /// The rule: `used_all_set`, whether every probed bit is set under the hash used;
    /// `other_all_set(i)`, the same under the other candidate `i`, asked in order until one says yes.
    #[inline(always)]
    pub fn decide(
        &self,
        path: &[u8],
        used_all_set: bool,
        mut other_all_set: impl FnMut(usize) -> crate::Result<bool>,
    ) -> crate::Result<Decision> {
        if used_all_set {
            return Ok(Decision::UsedAllSet);
        }
        if self.untrusted {
            return Ok(Decision::Untrusted);
        }
        for i in 0..self.others.len() {
            if other_all_set(i)? {
                return Ok(Decision::OtherAllSet(i));
            }
        }
        Ok(if self.before_index && !path.is_ascii() { Decision::CharsetNotEstablished } else { Decision::Clear })
    }

    /// `path`'s verdict (UTF-8, as stored in the index), exactly as [`probe_file_with`] gives it,
    /// without per-seed records or reasons.
    pub fn verdict(&self, filter: &BloomFilter, path: &[u8], encoder: &dyn PathEncoder) -> crate::Result<FileVerdict> {
        let all_set = |(v, cs): (TailVariant, Charset)| Ok(filter.might_contain(&encoder.encode(path, cs)?, v));
        Ok(self.decide(path, all_set(self.used)?, |i| all_set(self.others[i]))?.verdict())
    }
}
