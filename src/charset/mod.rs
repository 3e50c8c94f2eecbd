//! The JVM charsets a Java writer may hash paths in (docs/writers.md §4: Java
//! hashes `String.getBytes()` in the JVM default charset), encoded exactly as
//! JDK 17's `String.getBytes(charset)` does: unmappable code points become one
//! `?` each (a surrogate pair is one code point).
//!
//! UTF-8, windows-1252 and ISO-8859-1 are small enough to write out here. The
//! multi-byte charsets use the JDK's own encode tables, dumped from a real JVM
//! into `jvm_tables.bin` by `scripts/gen-charset-tables.mjs` (feature
//! `jvm-charsets`, on by default; the TsFile wasm module leaves it off and the
//! package's `charsets` wasm module carries it).

#[cfg(feature = "jvm-charsets")]
mod tables;

use crate::error::{Argument, Error, Result};
use std::borrow::Cow;

closed_set! {
    #[derive(Default)]
    pub enum Charset as JvmCharset {
        #[default]
        Utf8 => "UTF-8",
        Gbk => "GBK",
        Gb18030 => "GB18030",
        Big5 => "Big5",
        /// `x-windows-950` (MS950): Microsoft's Big5.
        Windows950 => "x-windows-950",
        ShiftJis => "Shift_JIS",
        /// `windows-31j` (MS932): Microsoft's Shift_JIS with the NEC and IBM rows.
        Windows31j => "windows-31j",
        EucJp => "EUC-JP",
        EucKr => "EUC-KR",
        /// `x-windows-949` (MS949): EUC-KR with the Unified Hangul Code extension.
        Windows949 => "x-windows-949",
        Windows1252 => "windows-1252",
        Iso8859_1 => "ISO-8859-1",
    }
}

/// Java's names and aliases (`Charset.aliases()` in JDK 17), lower-case with `-`
/// and `_` removed, as [`Charset::from_name`] compares them.
const ALIASES: &[(&str, Charset)] = &[
    ("utf8", Charset::Utf8),
    ("unicode11utf8", Charset::Utf8),
    ("gbk", Charset::Gbk),
    ("cp936", Charset::Gbk),
    ("windows936", Charset::Gbk),
    // Java's MS936 is x-mswin-936, which differs from GBK at four code points (U+20AC,
    // U+2295, U+2641, U+E76C); accepted as GBK, the usual name for Windows code page 936.
    ("ms936", Charset::Gbk),
    ("gb18030", Charset::Gb18030),
    ("gb180302022", Charset::Gb18030),
    ("big5", Charset::Big5),
    ("csbig5", Charset::Big5),
    ("xwindows950", Charset::Windows950),
    ("windows950", Charset::Windows950),
    ("ms950", Charset::Windows950),
    ("shiftjis", Charset::ShiftJis),
    ("sjis", Charset::ShiftJis),
    ("xsjis", Charset::ShiftJis),
    ("mskanji", Charset::ShiftJis),
    ("csshiftjis", Charset::ShiftJis),
    ("windows31j", Charset::Windows31j),
    ("ms932", Charset::Windows31j),
    ("windows932", Charset::Windows31j),
    ("cswindows31j", Charset::Windows31j),
    ("eucjp", Charset::EucJp),
    ("xeucjp", Charset::EucJp),
    ("eucjis", Charset::EucJp),
    ("cseucpkdfmtjapanese", Charset::EucJp),
    ("extendedunixcodepackedformatforjapanese", Charset::EucJp),
    ("euckr", Charset::EucKr),
    ("cseuckr", Charset::EucKr),
    ("ksc5601", Charset::EucKr),
    ("ksc56011987", Charset::EucKr),
    ("5601", Charset::EucKr),
    ("xwindows949", Charset::Windows949),
    ("windows949", Charset::Windows949),
    ("ms949", Charset::Windows949),
    ("windows1252", Charset::Windows1252),
    ("cp1252", Charset::Windows1252),
    ("ibm1252", Charset::Windows1252),
    ("cp5348", Charset::Windows1252),
    ("iso88591", Charset::Iso8859_1),
    ("iso88591:1987", Charset::Iso8859_1),
    ("88591", Charset::Iso8859_1),
    ("819", Charset::Iso8859_1),
    ("cp819", Charset::Iso8859_1),
    ("ibm819", Charset::Iso8859_1),
    ("isoir100", Charset::Iso8859_1),
    ("latin1", Charset::Iso8859_1),
    ("l1", Charset::Iso8859_1),
    ("csisolatin1", Charset::Iso8859_1),
];

impl Charset {
    /// Accepts Java's names and aliases case-insensitively (`-` and `_` are ignored).
    pub fn from_name(name: &str) -> Result<Charset> {
        // No real name is this long; don't copy an arbitrarily long argument.
        let key: Option<String> = (name.len() <= 64)
            .then(|| name.chars().filter(|c| *c != '-' && *c != '_').map(|c| c.to_ascii_lowercase()).collect());
        if let Some(c) = key.and_then(|k| ALIASES.iter().find(|(a, _)| *a == k).map(|(_, c)| *c)) {
            return Ok(c);
        }
        let names = crate::error::join(Charset::ALL.map(Charset::as_str), ", ");
        Err(Error::bad_argument(
            Argument::Charset,
            format!(
                "unknown charset {}; expected one of {}",
                crate::error::quoted(&name.chars().take(64).collect::<String>()),
                names
            ),
        ))
    }

    /// The charsets that need the JDK tables: all but UTF-8, windows-1252 and ISO-8859-1.
    pub fn is_multibyte(self) -> bool {
        !matches!(self, Charset::Utf8 | Charset::Windows1252 | Charset::Iso8859_1)
    }

    /// Whether this build can encode the charset (multi-byte ones need the
    /// `jvm-charsets` feature).
    pub fn is_available(self) -> bool {
        cfg!(feature = "jvm-charsets") || !self.is_multibyte()
    }

    /// Encodes `text` the way `String.getBytes(charset)` does: one `?` per
    /// unmappable code point. `None` when this build lacks the charset (see
    /// [`Charset::is_available`]). Borrows when the bytes equal the UTF-8 input.
    pub fn try_encode<'a>(self, text: &'a str) -> Option<Cow<'a, [u8]>> {
        if !self.is_available() {
            return None;
        }
        if self == Charset::Utf8 || text.is_ascii() {
            // Every supported charset is an ASCII superset (the generator checks the JDK tables).
            return Some(Cow::Borrowed(text.as_bytes()));
        }
        let mut out = Vec::with_capacity(text.len() + 4);
        match self {
            Charset::Iso8859_1 => out.extend(text.chars().map(|c| u8::try_from(c).unwrap_or(b'?'))),
            Charset::Windows1252 => out.extend(text.chars().map(windows_1252_byte)),
            #[cfg(feature = "jvm-charsets")]
            multibyte => tables::encode_into(multibyte.table_index(), text, &mut out),
            #[cfg(not(feature = "jvm-charsets"))]
            _ => unreachable!("is_available() excludes the multi-byte charsets in this build"),
        }
        Some(Cow::Owned(out))
    }

    /// Like [`Charset::try_encode`], for builds with every charset.
    #[cfg(feature = "jvm-charsets")]
    pub fn encode<'a>(self, text: &'a str) -> Cow<'a, [u8]> {
        self.try_encode(text).expect("the jvm-charsets feature builds in every charset")
    }

    /// The charset's table in `jvm_tables.bin`: the generator writes them in [`Charset::ALL`]'s
    /// order, which lists UTF-8 first and the multi-byte charsets next.
    #[cfg(feature = "jvm-charsets")]
    fn table_index(self) -> usize {
        self.code() as usize - 1
    }
}

/// Java's windows-1252 (`Cp1252`): Latin-1 except 0x80-0x9F, where five bytes
/// (0x81, 0x8D, 0x8F, 0x90, 0x9D) are unmapped.
const WINDOWS_1252_HIGH: [u16; 32] = [
    0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0, 0,
    0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
];

fn windows_1252_byte(c: char) -> u8 {
    let cp = c as u32;
    if cp < 0x80 || (0xA0..=0xFF).contains(&cp) {
        return cp as u8;
    }
    match WINDOWS_1252_HIGH.iter().position(|&u| u != 0 && u as u32 == cp) {
        Some(i) => 0x80 + i as u8,
        None => b'?',
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(feature = "jvm-charsets")]
    fn known_code_points() {
        // 温 is U+6E29: GBK CE C2, Big5 B7 C5, Shift_JIS 89 B7, EUC-KR C2 C2 (KS X 1001 hanja).
        assert_eq!(&*Charset::Gbk.encode("温"), &[0xce, 0xc2]);
        assert_eq!(&*Charset::Gb18030.encode("温"), &[0xce, 0xc2]);
        assert_eq!(&*Charset::Big5.encode("溫"), &[0xb7, 0xc5]);
        assert_eq!(&*Charset::ShiftJis.encode("温"), &[0x89, 0xb7]);
        assert_eq!(&*Charset::EucKr.encode("한"), &[0xc7, 0xd1]);
        // One '?' per unmappable code point, a surrogate pair included.
        assert_eq!(&*Charset::Gbk.encode("a🔥b"), b"a?b");
        // GB18030 maps everything; supplementary planes as four bytes from 0x90308130.
        assert_eq!(&*Charset::Gb18030.encode("\u{10000}"), &[0x90, 0x30, 0x81, 0x30]);
    }

    #[test]
    fn single_byte_charsets() {
        let enc = |c: Charset, t: &str| c.try_encode(t).unwrap().into_owned();
        assert_eq!(enc(Charset::Windows1252, "é€Ÿ\u{81}"), [0xe9, 0x80, 0x9f, b'?']);
        assert_eq!(enc(Charset::Iso8859_1, "é€ÿ🔥"), [0xe9, b'?', 0xff, b'?']);
    }

    #[test]
    fn names() {
        for c in Charset::ALL {
            assert_eq!(Charset::from_name(c.as_str()).unwrap(), c);
            assert_eq!(Charset::from_name(&c.as_str().to_uppercase()).unwrap(), c);
        }
        assert_eq!(Charset::from_name("utf8").unwrap(), Charset::Utf8);
        assert_eq!(Charset::from_name("MS932").unwrap(), Charset::Windows31j);
        assert_eq!(Charset::from_name("cp936").unwrap(), Charset::Gbk);
        let e = Charset::from_name("klingon").unwrap_err();
        assert_eq!(e.kind, crate::ErrorKind::InvalidArgument);
        assert!(e.to_string().contains("x-windows-949"), "{e}");
        assert!(Charset::from_name(&"x".repeat(10_000)).is_err());
    }
}
