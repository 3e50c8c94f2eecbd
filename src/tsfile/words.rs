//! The words of a probe's reason: the fixed texts ([`TEXTS`]), the sentence forms built of them
//! and of slots ([`TEMPLATES`]), and a [`Phrase`] — a form with the values that fill its slots —
//! which [`super::verdict::Reason::phrase`] chooses. Filling a form is mechanical: here
//! natively ([`Phrase::text`]), and in the package by js/reasons.js, from the forms and texts of
//! js/core-tables.js (generated from this file by tests/generated.rs).

use crate::hash::{TailVariant, SEEDS};
use crate::path::Charset;

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
    CheapHash => "the filter was written with TsFile's experimental cheap hash (Java's Objects.hash of the path object and the seed), which this reader does not evaluate, so its bits cannot show the path absent; look the path up in the index",
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
    IndexNotReadMaySettle => "; the index has not been read: its audit may establish the writer's hash and show the path absent",
    IndexListsYet => "; yet the index lists this series: the filter disagrees with the index",
    IndexLists => "; the index lists this series",
    IndexListsNotFalsePositive => "; the index does not list this series: a false positive",
    IndexListsNot => "; the index does not list this series",
    IndexUnreadable => "; the index could not be read to its end, so no audit checked the writer's hash, and the series listed before the error do not include this one",
}

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
    CheapHash => [t(Text::CheapHash)],
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

/// A reason as its words are made ([`super::verdict::Reason::phrase`]): a template, the values its slots name,
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
