//! What a probe of a file answers and why: the [`FileVerdict`], the [`Reason`] behind it — its
//! sentence, the no-filter one included ([`NO_FILTER_REASON`]) — and what the file's index says
//! about the path ([`Listed`]). The rule that decides is in [`super::probe`].

use super::audit::Audit;
use crate::hash::{TailVariant, MAX_SEEDS, SEEDS};
use crate::path::Charset;

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

serialize_as_str!(FileVerdict);

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

/// What a probe of a file without a Bloom filter says ([`Reason::NoFilter`]).
pub const NO_FILTER_REASON: &str = "the file has no Bloom filter; look the path up in the index";

/// Why a file probe says what it says ([`super::probe::FileProbe::reason`] is its text). It crosses to JS as
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
