//! What a probe of a file answers and why: the [`FileVerdict`], the [`Reason`] behind it and how
//! its words say it ([`Reason::phrase`]; the texts and sentence forms are [`super::words`]), and
//! what the file's index says about the path ([`Listed`]). The rule that decides is in
//! [`super::probe`].

use super::audit::Audit;
use super::words::{Phrase, Template, Text, TEXTS};
use crate::hash::TailVariant;
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
pub const NO_FILTER_REASON: &str = TEXTS[Text::NoFilter as usize];

/// Why a file probe says what it says ([`super::probe::FileProbe::reason`] is its text). How
/// its words say it is [`Reason::phrase`], which crosses to JS as numbers at the end of a probe
/// record (src/tsfile/wire/record.rs `file_probe`): the sentences stay out of the size-budgeted
/// module, and js/reasons.js only fills the form the phrase names.
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

impl Reason {
    /// The sentence, for the file whose audit is `audit`, with what the index says about the
    /// path.
    pub fn text_listed(&self, audit: Option<&Audit>, listed: Listed) -> String {
        self.phrase(listed, audit.is_some()).text(audit.map_or("", |a| &a.summary))
    }

    /// The sentence alone, without what the index says.
    pub fn text(&self, audit: Option<&Audit>) -> String {
        self.phrase(Listed::NotRead, audit.is_some()).sentence(audit.map_or("", |a| &a.summary))
    }

    /// How the words say it, with what the index says (`listed`); `has_audit`: whether the file
    /// has an audit, whose summary is quoted where it reproduced nothing.
    pub fn phrase(&self, listed: Listed, has_audit: bool) -> Phrase {
        use Template as T;
        let none = crate::audit::DEFAULT_HASH; // a value the template does not name
        let template = match *self {
            Reason::NoFilter => T::NoFilter,
            Reason::CheapHash => T::CheapHash,
            Reason::AllSet { writer: Some(_), .. } => T::AllSetNotTheWriters,
            Reason::AllSet { confirmed: true, .. } => T::AllSetConfirmed,
            Reason::AllSet { .. } => T::AllSet,
            Reason::AuditReproducedNothing if has_audit => T::ReproducedNothing,
            Reason::AuditReproducedNothing => T::NoAudit,
            Reason::AllSetUnderOther { wrong: true, .. } => T::SetUnderTheWriters,
            Reason::AllSetUnderOther { .. } => T::SetUnderOther,
            Reason::CharsetNotEstablished => T::CharsetNotEstablished,
            Reason::ClearConfirmed { .. } => T::ClearConfirmed,
            Reason::ClearAsciiTail => T::ClearAsciiTail,
            Reason::ClearUnderEvery { .. } => T::ClearUnderEvery,
        };
        let used = match *self {
            Reason::AllSet { used, .. } | Reason::AllSetUnderOther { used, .. } | Reason::ClearConfirmed { used } => {
                used
            }
            _ => none,
        };
        let (other, clear) = match *self {
            Reason::AllSet { writer: Some(w), .. } => w,
            Reason::AllSetUnderOther { other, clear, .. } => (other, clear),
            _ => (none, 0),
        };
        let count = match *self {
            Reason::ClearUnderEvery { consulted } => consulted as u32,
            _ => 0,
        };
        // Where the words say "the java hash", UTF-8 goes unnamed.
        let by_name = matches!(template, T::AllSet | T::AllSetConfirmed | T::ClearConfirmed);
        let used_charset = (!(by_name && used.1 == Charset::Utf8)).then_some(used.1);
        let one = clear.count_ones() == 1;
        let seeds = if one { (Text::BitOfSeed, clear, Text::Is) } else { (Text::BitsOfSeeds, clear, Text::Are) };
        // Held back only by not knowing the writer's hash: reading the index may settle it.
        let may_settle = matches!(
            self,
            Reason::CharsetNotEstablished | Reason::AllSetUnderOther { .. } | Reason::AllSet { unsettled: true, .. }
        );
        let listed = match (listed, self.verdict()) {
            (Listed::NotRead, _) if may_settle => Text::IndexNotReadMaySettle,
            (Listed::NotRead, _) => Text::IndexNotRead,
            (Listed::Yes, FileVerdict::Absent) => Text::IndexListsYet,
            (Listed::Yes, _) => Text::IndexLists,
            (Listed::No, FileVerdict::Maybe) => Text::IndexListsNotFalsePositive,
            (Listed::No, _) => Text::IndexListsNot,
            (Listed::Unreadable, _) => Text::IndexUnreadable,
        };
        Phrase { template, used: (used.0, used_charset), other, seeds, count, listed }
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
