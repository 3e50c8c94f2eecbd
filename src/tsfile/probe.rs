//! The soundness rule (docs/bloom-filter.md §7, docs/writers.md §6): which hashes a probe of a
//! file consults and when "absent" is sound. [`VerdictRule::decide`] is the rule's one body;
//! every probe route goes through it — a single probe with its per-seed records and reason
//! ([`probe_file_reasoned`]), the batches and the listing ([`VerdictRule::verdict`]), the fast
//! scan (src/tsfile/wire/scan.rs).

use super::audit::{Audit, DEFAULT_HASH};
use super::verdict::{FileVerdict, Reason};
use crate::encoder::{BuiltIn, PathEncoder};
use crate::filter::{BloomFilter, FilterHash, Probe, Verdict};
use crate::hash::{variants_can_differ, TailVariant};
use crate::path::Charset;

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
    let established = audit.and_then(Audit::established);
    (established, established.unwrap_or(DEFAULT_HASH))
}

/// Probes `path` (UTF-8, as stored in the index) in a file's filter, with the charsets built
/// into this crate. `audit`: the file's audit, or None when the index has not been read.
/// `variant`/`charset` choose the hash whose bits are reported; the verdict still rests on the
/// candidate hashes: "absent" only when every candidate says so (docs/bloom-filter.md,
/// soundness), "unknown" when the audit reproduced nothing.
pub fn probe_file(
    filter: &BloomFilter,
    audit: Option<&Audit>,
    path: &[u8],
    variant: Option<TailVariant>,
    charset: Option<Charset>,
) -> crate::Result<FileProbe> {
    let (mut p, reason) = probe_file_reasoned(filter, audit, path, variant, charset, &BuiltIn)?;
    p.reason = reason.text(audit);
    Ok(p)
}

/// [`probe_file`] with the charsets `encoder` supplies and the reason as a [`Reason`] (`reason`
/// left empty): the probes of one file share a handful of reasons, so a caller probing one path
/// after another formats a reason only when it changes.
pub fn probe_file_reasoned(
    filter: &BloomFilter,
    audit: Option<&Audit>,
    path: &[u8],
    variant: Option<TailVariant>,
    charset: Option<Charset>,
    encoder: &dyn PathEncoder,
) -> crate::Result<(FileProbe, Reason)> {
    probe_by_rule(filter, &VerdictRule::new(audit, variant, charset), path, encoder)
}

/// [`probe_file_reasoned`] under a rule already chosen: choosing one walks the audit's results
/// (~125 ns of a single probe's ~800 in the wasm module), so a reader keeps its file's rule
/// ([`TsFileReader::probe_filter_reasoned`](super::TsFileReader::probe_filter_reasoned)).
pub fn probe_by_rule(
    filter: &BloomFilter,
    rule: &VerdictRule,
    path: &[u8],
    encoder: &dyn PathEncoder,
) -> crate::Result<(FileProbe, Reason)> {
    // A cheap-hash filter is not probed at all: its verdicts are "unknown" (VerdictRule::verdict)
    // and a reader reports it without a probe (TsFileReader::probe_filter_reasoned).
    let filter = filter.murmur()?;
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
            Reason::AllSet { used, confirmed, writer, unsettled: rule.before_index && !path.is_ascii() }
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

/// The soundness rule for one file and one choice of hash ([`probe_file`]'s and every
/// batch's), its hashes chosen once: they depend only on the file's audit and the overrides.
/// [`VerdictRule::verdict`] stops at the first clear bit like Java's `contains`.
#[derive(Clone, Debug)]
pub struct VerdictRule {
    /// The hash probed first (the reported one in `probe_file`).
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
    /// choose the hash as in [`probe_file`].
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

    /// `path`'s verdict (UTF-8, as stored in the index), exactly as [`probe_file`] gives it,
    /// without per-seed records or reasons.
    /// A filter of a hash this reader does not evaluate (the cheap hash) says "unknown" for every path.
    pub fn verdict(&self, filter: &BloomFilter, path: &[u8], encoder: &dyn PathEncoder) -> crate::Result<FileVerdict> {
        if filter.hash() != FilterHash::Murmur128 {
            return Ok(FileVerdict::Unknown);
        }
        let all_set = |(v, cs): (TailVariant, Charset)| Ok(filter.might_contain(&encoder.encode(path, cs)?, v));
        Ok(self.decide(path, all_set(self.used)?, |i| all_set(self.others[i]))?.verdict())
    }
}
