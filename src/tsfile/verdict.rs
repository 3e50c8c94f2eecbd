//! What a probe of a file answers and why: the [`FileVerdict`], the [`Reason`] behind it and its
//! words ([`Reason::sentence`]), and what the file's index says about the path ([`Listed`]). The rule that decides is in
//! [`super::probe`].

use super::audit::Audit;
use crate::hash::{TailVariant, SEEDS};
use crate::path::Charset;

closed_set! {
    /// The answer for one path in one file.
    pub enum FileVerdict {
        /// Sound: the path is not in the file.
        Absent => "absent",
        /// Every probed bit is set (under the variant used); look in the index.
        Maybe => "maybe",
        /// The bits say absent, but that answer cannot be trusted for this file.
        Unknown => "unknown",
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

closed_set! {
    /// What a probe means for a reader deciding whether to read the file: the verdict and what the
    /// index says, taken together (each name is the verdict's own where the index adds nothing, so a
    /// probe made without reading the index decides as its verdict says).
    pub enum Decision {
        /// The file does not hold the path: the filter says absent (soundly), or the index, read to
        /// its end, does not list it and the filter cannot answer. Skip the file.
        Absent => "absent",
        /// The index lists the path: read the file (whatever the filter says).
        Indexed => "indexed",
        /// Every probed bit is set but the index, read to its end, does not list the path.
        FalsePositive => "false_positive",
        /// Every probed bit is set and the index is not read (or could not be): read the file to know.
        Maybe => "maybe",
        /// The filter cannot answer (no filter, or bits that cannot be trusted: the reason says
        /// which) and the index does not settle it: read the file.
        Unknown => "unknown",
    }
}

impl Decision {
    /// The decision of a probe whose verdict is `verdict` and whose index says `listed`.
    pub fn of(verdict: FileVerdict, listed: Listed) -> Decision {
        match (listed, verdict) {
            // The index is the truth where it was read: a filter that says absent of a listed
            // series disagrees with it (the reason says so), and the file holds the series.
            (Listed::Yes, _) => Decision::Indexed,
            (_, FileVerdict::Absent) => Decision::Absent,
            (Listed::No, FileVerdict::Maybe) => Decision::FalsePositive,
            (Listed::No, FileVerdict::Unknown) => Decision::Absent,
            (_, FileVerdict::Maybe) => Decision::Maybe,
            (_, FileVerdict::Unknown) => Decision::Unknown,
        }
    }

    /// Whether a reader must open the file for the path: unless the file does not hold it
    /// (absent) or only the filter says it might and the index refutes it (a false positive).
    pub fn must_read(self) -> bool {
        !matches!(self, Decision::Absent | Decision::FalsePositive)
    }

    /// The decision in words, as the CLI's text and the page say it (js/core-tables.js
    /// `DECISION_WORDS`): what it means, then what the reader does.
    pub fn words(self) -> &'static str {
        match self {
            Decision::Absent => "absent: skip this file",
            Decision::Indexed => "in the index: read this file",
            Decision::FalsePositive => "false positive: the filter says maybe, the index does not list it",
            Decision::Maybe => "maybe: read the file to know",
            Decision::Unknown => "unknown: the filter cannot answer, read the file",
        }
    }
}

/// What a probe of a file without a Bloom filter says ([`Reason::NoFilter`]).
pub const NO_FILTER_REASON: &str = "the file has no Bloom filter; look the path up in the index";

/// Why a file probe says what it says ([`super::probe::FileProbe::reason`] is its sentence,
/// [`Reason::sentence`]), which crosses to JS as a plain string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The file has no Bloom filter (its probes are "unknown").
    NoFilter,
    /// The filter's bits were set by the experimental cheap hash, which this reader does not
    /// evaluate (its probes are "unknown").
    CheapHash,
    /// Every probed bit is set under the hash used. `writer`: the hash used is forced off the
    /// ones the file's index reproduces, and every one of those finds a clear bit — the first of
    /// them and its clear seeds (bit j: seed j), so the words can say the writer never added the
    /// path and a reader hashing as `used` reads the index for nothing. `unsettled`: the index
    /// is not read and the path is not ASCII, so the writer's hash, once established, may find a
    /// clear bit.
    AllSet {
        used: (TailVariant, Charset),
        confirmed: bool,
        writer: Option<((TailVariant, Charset), u8)>,
        unsettled: bool,
    },
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

/// A hash as the words name it: its variant and charset (`java / GBK`).
fn hash((v, cs): (TailVariant, Charset)) -> String {
    format!("{} / {}", v.as_str(), cs.as_str())
}

/// A hash in "the … hash": UTF-8 goes unnamed (`the java hash`).
fn the_hash(used: (TailVariant, Charset)) -> String {
    if used.1 == Charset::Utf8 {
        used.0.as_str().to_string()
    } else {
        hash(used)
    }
}

/// The clear seeds of a mask (bit j: seed j): "the bit of seed 5 is", "the bits of seeds 5, 7 are".
fn clear_seeds(clear: u8) -> String {
    let seeds: Vec<String> = (0..SEEDS.len()).filter(|j| clear >> j & 1 == 1).map(|j| SEEDS[j].to_string()).collect();
    if seeds.len() == 1 {
        format!("the bit of seed {} is", seeds[0])
    } else {
        format!("the bits of seeds {} are", seeds.join(", "))
    }
}

impl Reason {
    /// The sentence, for the file whose audit is `audit` (it may quote its summary), ending in
    /// what the index says about the path.
    pub fn sentence(&self, audit: Option<&Audit>, listed: Listed) -> String {
        let mut s = self.text(audit);
        s.push_str(self.index_words(listed));
        s
    }

    /// The sentence without what the index says.
    pub fn text(&self, audit: Option<&Audit>) -> String {
        match *self {
            Reason::NoFilter => NO_FILTER_REASON.to_string(),
            Reason::CheapHash => "the filter was written with TsFile's experimental cheap hash (Java's Objects.hash of the path object and the seed), which this reader does not evaluate, so its bits cannot show the path absent; look the path up in the index".to_string(),
            Reason::AllSet { used, writer: Some((other, clear)), .. } => format!(
                "every probed bit is set under the {} hash, so the path may be present; but under {}, the hash the file's index reproduces, {} clear: the writer never added this path, and a reader hashing as {} would read the index for nothing",
                hash(used), hash(other), clear_seeds(clear), hash(used)
            ),
            Reason::AllSet { used, confirmed, .. } => format!(
                "every probed bit is set under the {} hash{}; the path may be present",
                the_hash(used),
                if confirmed { " (confirmed by the file's index)" } else { "" }
            ),
            Reason::AuditReproducedNothing => {
                format!("a probed bit is clear, but {}", audit.map_or("the audit reproduced nothing", |a| &a.summary))
            }
            Reason::AllSetUnderOther { used, other, wrong, clear } => {
                let (used, seeds) = (hash(used), clear_seeds(clear));
                let whose = if wrong {
                    format!(", the hash the file's index reproduces: a reader hashing as {used} would wrongly conclude “definitely absent” and skip this file")
                } else {
                    ", which may be the writer's".to_string()
                };
                format!("{seeds} clear under the {used} hash, but every bit is set under {}{whose}; the path may be present", hash(other))
            }
            Reason::CharsetNotEstablished => "a probed bit is clear under both UTF-8 tail variants, but this path is not ASCII and no audit established the file's charset: a Java writer hashes its JVM's default charset".to_string(),
            Reason::ClearConfirmed { used } => {
                format!("a probed bit is clear under the {} hash, which the file's index confirms", the_hash(used))
            }
            Reason::ClearAsciiTail => "a probed bit is clear; this path's tail is ASCII, so every tail variant hashes it the same way".to_string(),
            Reason::ClearUnderEvery { consulted } => {
                format!("a probed bit is clear under every candidate hash ({consulted} consulted)")
            }
        }
    }

    /// What the sentence ends in: what the index says about the path, and before it is read
    /// whether reading it may change the verdict.
    fn index_words(&self, listed: Listed) -> &'static str {
        // Held back only by not knowing the writer's hash: reading the index may settle it.
        let may_settle = matches!(
            self,
            Reason::CharsetNotEstablished | Reason::AllSetUnderOther { .. } | Reason::AllSet { unsettled: true, .. }
        );
        match (listed, self.verdict()) {
            (Listed::NotRead, _) if may_settle => {
                "; the index has not been read: its audit may establish the writer's hash and show the path absent"
            }
            (Listed::NotRead, _) => "; the index has not been read",
            (Listed::Yes, FileVerdict::Absent) => "; yet the index lists this series: the filter disagrees with the index",
            (Listed::Yes, _) => "; the index lists this series",
            (Listed::No, FileVerdict::Maybe) => "; the index does not list this series: a false positive",
            (Listed::No, _) => "; the index does not list this series",
            (Listed::Unreadable, _) => "; the index could not be read to its end, so no audit checked the writer's hash, and the series listed before the error do not include this one",
        }
    }

    /// The verdict this reason gives.
    pub fn verdict(&self) -> FileVerdict {
        match self {
            Reason::AllSet { .. } | Reason::AllSetUnderOther { .. } => FileVerdict::Maybe,
            Reason::NoFilter | Reason::CheapHash | Reason::AuditReproducedNothing | Reason::CharsetNotEstablished => {
                FileVerdict::Unknown
            }
            Reason::ClearConfirmed { .. } | Reason::ClearAsciiTail | Reason::ClearUnderEvery { .. } => {
                FileVerdict::Absent
            }
        }
    }
}
