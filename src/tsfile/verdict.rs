//! What a probe of a file answers and why: the [`FileVerdict`], the [`Reason`] behind it — its
//! sentence, the no-filter one included ([`NO_FILTER_REASON`]) — and what the file's index says
//! about the path ([`Listed`]). The rule that decides is in [`super::probe`].

use super::audit::Audit;
use crate::hash::{TailVariant, SEEDS};
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

macro_rules! texts {
    ($($name:ident => $text:literal,)*) => {
        /// The fixed pieces of a reason's words ([`TEMPLATES`]); a piece's code is its index in
        /// [`TEXTS`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Text {
            $(#[doc = $text] $name,)*
        }

        /// Every [`Text`]'s words, in the order of its code (the package's js/core-tables.js is
        /// generated from here: tests/generated.rs).
        pub const TEXTS: &[&str] = &[$($text,)*];
    };
}

texts! {
    NoFilter => "the file has no Bloom filter; look the path up in the index",
    EveryBitSetUnder => "every probed bit is set under the ",
    Hash => " hash",
    ConfirmedByIndex => " (confirmed by the file's index)",
    MayBePresent => "; the path may be present",
    SoMayBeButUnder => " hash, so the path may be present; but under ",
    IndexReproduces => ", the hash the file's index reproduces, ",
    NeverAdded => " clear: the writer never added this path, and a reader hashing as ",
    ReadsForNothing => " would read the index for nothing",
    BitClearBut => "a probed bit is clear, but ",
    ReproducedNothing => "the audit reproduced nothing",
    ClearUnderThe => " clear under the ",
    ButEveryBitSetUnder => " hash, but every bit is set under ",
    IndexReproducesWrongly => ", the hash the file's index reproduces: a reader hashing as ",
    WronglySkips => " would wrongly conclude “definitely absent” and skip this file",
    MaybeTheWriters => ", which may be the writer's",
    CharsetNotEstablished => "a probed bit is clear under both UTF-8 tail variants, but this path is not ASCII and no audit established the file's charset: a Java writer hashes its JVM's default charset",
    BitClearUnderThe => "a probed bit is clear under the ",
    IndexConfirms => " hash, which the file's index confirms",
    AsciiTail => "a probed bit is clear; this path's tail is ASCII, so every tail variant hashes it the same way",
    ClearUnderEvery => "a probed bit is clear under every candidate hash (",
    Consulted => " consulted)",
    BitOfSeed => "the bit of seed ",
    Is => " is",
    BitsOfSeeds => "the bits of seeds ",
    Comma => ", ",
    Are => " are",
    Slash => " / ",
    IndexNotRead => "; the index has not been read",
    IndexListsYet => "; yet the index lists this series: the filter disagrees with the index",
    IndexLists => "; the index lists this series",
    IndexListsNotFalsePositive => "; the index does not list this series: a false positive",
    IndexListsNot => "; the index does not list this series",
    IndexUnreadable => "; the index could not be read to its end, so no audit checked the writer's hash, and the series listed before the error do not include this one",
}

/// What a probe of a file without a Bloom filter says ([`Reason::NoFilter`]).
pub const NO_FILTER_REASON: &str = TEXTS[Text::NoFilter as usize];

/// A slot of a [`Template`]: the hash used — its variant, then " / " ([`Text::Slash`]) and its
/// charset when [`Phrase::used`] names one.
pub const SLOT_USED: u8 = 0x80;
/// The other hash the words name (the writer's, or one under which every bit is set): its
/// variant, " / " and its charset.
pub const SLOT_OTHER: u8 = 0x81;
/// The clear seeds: [`Phrase::seeds`]' first text, each seed of its mask (bit j: seed j) with
/// ", " ([`Text::Comma`]) between them, then its last text.
pub const SLOT_SEEDS: u8 = 0x82;
/// [`Phrase::count`]: how many candidate hashes were consulted.
pub const SLOT_COUNT: u8 = 0x83;
/// The audit's summary.
pub const SLOT_SUMMARY: u8 = 0x84;
/// The slots by name, in the order of their codes from [`SLOT_USED`].
pub const SLOTS: [&str; 5] = ["used", "other", "seeds", "count", "summary"];

macro_rules! templates {
    ($($name:ident => [$($step:expr),* $(,)?],)*) => {
        /// The form of a reason's sentence ([`Phrase::template`]); its code is its index in
        /// [`TEMPLATES`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Template {
            $($name,)*
        }

        /// Every [`Template`]'s steps, in the order of its code: a step below [`SLOT_USED`] is a
        /// [`Text`]'s code, one from it a slot that a value of the [`Phrase`] fills. Data rather
        /// than code: js/reasons.js fills them too (js/core-tables.js holds them, generated), and
        /// the wasm module, whose size is budgeted, only chooses one and its values.
        pub const TEMPLATES: &[&[u8]] = &[$(&[$($step),*],)*];
    };
}

const fn t(x: Text) -> u8 {
    x as u8
}

templates! {
    NoFilter => [t(Text::NoFilter)],
    AllSet => [t(Text::EveryBitSetUnder), SLOT_USED, t(Text::Hash), t(Text::MayBePresent)],
    AllSetConfirmed => [t(Text::EveryBitSetUnder), SLOT_USED, t(Text::Hash), t(Text::ConfirmedByIndex), t(Text::MayBePresent)],
    AllSetNotTheWriters => [
        t(Text::EveryBitSetUnder), SLOT_USED, t(Text::SoMayBeButUnder), SLOT_OTHER, t(Text::IndexReproduces),
        SLOT_SEEDS, t(Text::NeverAdded), SLOT_USED, t(Text::ReadsForNothing),
    ],
    ReproducedNothing => [t(Text::BitClearBut), SLOT_SUMMARY],
    NoAudit => [t(Text::BitClearBut), t(Text::ReproducedNothing)],
    SetUnderOther => [
        SLOT_SEEDS, t(Text::ClearUnderThe), SLOT_USED, t(Text::ButEveryBitSetUnder), SLOT_OTHER,
        t(Text::MaybeTheWriters), t(Text::MayBePresent),
    ],
    SetUnderTheWriters => [
        SLOT_SEEDS, t(Text::ClearUnderThe), SLOT_USED, t(Text::ButEveryBitSetUnder), SLOT_OTHER,
        t(Text::IndexReproducesWrongly), SLOT_USED, t(Text::WronglySkips), t(Text::MayBePresent),
    ],
    CharsetNotEstablished => [t(Text::CharsetNotEstablished)],
    ClearConfirmed => [t(Text::BitClearUnderThe), SLOT_USED, t(Text::IndexConfirms)],
    ClearAsciiTail => [t(Text::AsciiTail)],
    ClearUnderEvery => [t(Text::ClearUnderEvery), SLOT_COUNT, t(Text::Consulted)],
}

/// A reason as its words are made ([`Reason::phrase`]): a template, the values its slots name,
/// and what the index says. Every choice of words is made here — which template, whether the
/// charset is named, "seed … is" or "seeds … are" — so that filling the template is mechanical:
/// [`Phrase::text`] natively, js/reasons.js in the package (from the probe record's numbers,
/// src/tsfile/wire/record.rs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Phrase {
    pub template: Template,
    /// [`SLOT_USED`]: the hash used; its charset is None where the words name the variant alone
    /// ("java" for UTF-8).
    pub used: (TailVariant, Option<Charset>),
    /// [`SLOT_OTHER`].
    pub other: (TailVariant, Charset),
    /// [`SLOT_SEEDS`]: "the bit of seed" or "the bits of seeds", the clear seeds' mask, "is" or "are".
    pub seeds: (Text, u8, Text),
    /// [`SLOT_COUNT`].
    pub count: u32,
    /// The sentence's last words: what the index says about the path.
    pub listed: Text,
}

impl Phrase {
    /// The sentence, ending in what the index says; `summary`: the audit's, which
    /// [`SLOT_SUMMARY`] quotes.
    pub fn text(&self, summary: &str) -> String {
        let mut s = self.sentence(summary);
        s.push_str(TEXTS[self.listed as usize]);
        s
    }

    /// The template filled, without what the index says.
    pub fn sentence(&self, summary: &str) -> String {
        let mut s = String::new();
        let hash = |s: &mut String, (v, cs): (TailVariant, Option<Charset>)| {
            s.push_str(v.as_str());
            if let Some(cs) = cs {
                s.push_str(TEXTS[Text::Slash as usize]);
                s.push_str(cs.as_str());
            }
        };
        for &step in TEMPLATES[self.template as usize] {
            match step {
                SLOT_USED => hash(&mut s, self.used),
                SLOT_OTHER => hash(&mut s, (self.other.0, Some(self.other.1))),
                SLOT_SEEDS => {
                    let (first, clear, last) = self.seeds;
                    s.push_str(TEXTS[first as usize]);
                    let seeds: Vec<String> =
                        (0..SEEDS.len()).filter(|j| clear >> j & 1 == 1).map(|j| SEEDS[j].to_string()).collect();
                    s.push_str(&seeds.join(TEXTS[Text::Comma as usize]));
                    s.push_str(TEXTS[last as usize]);
                }
                SLOT_COUNT => s.push_str(&self.count.to_string()),
                SLOT_SUMMARY => s.push_str(summary),
                text => s.push_str(TEXTS[text as usize]),
            }
        }
        s
    }
}

/// Why a file probe says what it says ([`super::probe::FileProbe::reason`] is its text). How
/// its words say it is [`Reason::phrase`], which crosses to JS as numbers at the end of a probe
/// record (src/tsfile/wire/record.rs `file_probe`): the sentences stay out of the size-budgeted
/// module, and js/reasons.js only fills the form the phrase names.
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
        let listed = match (listed, self.verdict()) {
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
            Reason::NoFilter | Reason::AuditReproducedNothing | Reason::CharsetNotEstablished => FileVerdict::Unknown,
            Reason::ClearConfirmed { .. } | Reason::ClearAsciiTail | Reason::ClearUnderEvery { .. } => {
                FileVerdict::Absent
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_step_is_a_text_or_a_slot() {
        for t in TEMPLATES {
            for &step in *t {
                assert!(usize::from(step) < TEXTS.len() || (SLOT_USED..SLOT_USED + SLOTS.len() as u8).contains(&step));
            }
        }
        assert!(TEXTS.len() < usize::from(SLOT_USED));
    }
}
