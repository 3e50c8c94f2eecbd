//! The bytes a writer feeds to the hash for one series (spec.md §3,
//! tsfile-format.md §10): DeviceID segments joined with `.` (a null segment
//! written as `null`), then `.` and the measurement, in the writer's charset.
//!
//! Java hashes `String.getBytes()` in the JVM default charset, so besides UTF-8
//! we offer the common non-UTF-8 JVM defaults. Unmappable characters become
//! `?` as in Java's `String.getBytes`.

use crate::error::{Error, Result};
use std::borrow::Cow;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Charset {
    #[default]
    Utf8,
    Gbk,
    Gb18030,
    Big5,
    ShiftJis,
    EucKr,
    Windows1252,
    Iso8859_1,
}

impl Charset {
    pub const ALL: [Charset; 8] = [
        Charset::Utf8,
        Charset::Gbk,
        Charset::Gb18030,
        Charset::Big5,
        Charset::ShiftJis,
        Charset::EucKr,
        Charset::Windows1252,
        Charset::Iso8859_1,
    ];

    /// Java's canonical charset name.
    pub fn as_str(self) -> &'static str {
        match self {
            Charset::Utf8 => "UTF-8",
            Charset::Gbk => "GBK",
            Charset::Gb18030 => "GB18030",
            Charset::Big5 => "Big5",
            Charset::ShiftJis => "Shift_JIS",
            Charset::EucKr => "EUC-KR",
            Charset::Windows1252 => "windows-1252",
            Charset::Iso8859_1 => "ISO-8859-1",
        }
    }

    /// Accepts Java names and common aliases, case-insensitively.
    pub fn from_name(name: &str) -> Result<Charset> {
        let n: String = name.to_ascii_lowercase().chars().filter(|c| *c != '-' && *c != '_').collect();
        Ok(match n.as_str() {
            "utf8" => Charset::Utf8,
            "gbk" | "cp936" | "ms936" => Charset::Gbk,
            "gb18030" => Charset::Gb18030,
            "big5" => Charset::Big5,
            "shiftjis" | "sjis" => Charset::ShiftJis,
            "euckr" => Charset::EucKr,
            "windows1252" | "cp1252" => Charset::Windows1252,
            "iso88591" | "latin1" | "l1" => Charset::Iso8859_1,
            _ => {
                return Err(Error::invalid_argument(format!(
                    "unknown charset {}; expected one of UTF-8, GBK, GB18030, Big5, Shift_JIS, EUC-KR, windows-1252, ISO-8859-1",
                    crate::error::quoted(name)
                )))
            }
        })
    }

    /// True for the multi-byte CJK charsets, which need the `cjk-charsets` feature.
    pub fn is_cjk(self) -> bool {
        !matches!(self, Charset::Utf8 | Charset::Windows1252 | Charset::Iso8859_1)
    }

    /// Whether this build can encode the charset.
    pub fn is_available(self) -> bool {
        cfg!(feature = "cjk-charsets") || !self.is_cjk()
    }

    #[cfg(feature = "cjk-charsets")]
    fn encoding(self) -> Option<&'static encoding_rs::Encoding> {
        use encoding_rs::{BIG5, EUC_KR, GB18030, GBK, SHIFT_JIS};
        match self {
            Charset::Gbk => Some(GBK),
            Charset::Gb18030 => Some(GB18030),
            Charset::Big5 => Some(BIG5),
            Charset::ShiftJis => Some(SHIFT_JIS),
            Charset::EucKr => Some(EUC_KR),
            _ => None,
        }
    }

    /// Encodes `text` the way `String.getBytes(charset)` would: unmappable → `?`.
    /// `None` when this build lacks the charset (see [`Charset::is_available`]).
    pub fn try_encode<'a>(self, text: &'a str) -> Option<Cow<'a, [u8]>> {
        if !self.is_available() {
            return None;
        }
        Some(self.encode_available(text))
    }

    /// Like [`Charset::try_encode`]; panics if the charset is not built in.
    #[cfg(feature = "cjk-charsets")]
    pub fn encode<'a>(self, text: &'a str) -> Cow<'a, [u8]> {
        self.encode_available(text)
    }

    fn encode_available<'a>(self, text: &'a str) -> Cow<'a, [u8]> {
        if text.is_ascii() {
            // All supported charsets are ASCII supersets.
            return Cow::Borrowed(text.as_bytes());
        }
        match self {
            Charset::Utf8 => Cow::Borrowed(text.as_bytes()),
            // encoding_rs treats the label ISO-8859-1 as windows-1252 (WHATWG); Java does not.
            Charset::Iso8859_1 => Cow::Owned(
                text.chars().map(|c| if (c as u32) <= 0xff { c as u32 as u8 } else { b'?' }).collect(),
            ),
            Charset::Windows1252 => Cow::Owned(text.chars().map(windows_1252_byte).collect()),
            #[cfg(feature = "cjk-charsets")]
            other => Cow::Owned(encode_with_question_marks(other.encoding().unwrap(), text)),
            #[cfg(not(feature = "cjk-charsets"))]
            _ => unreachable!("is_available() excludes CJK charsets in this build"),
        }
    }
}

/// Java's windows-1252 (`Cp1252`): Latin-1 except 0x80-0x9F, where five bytes
/// (0x81, 0x8D, 0x8F, 0x90, 0x9D) are unmapped. Small enough to keep by hand,
/// so the wasm build needs no encoding tables.
const WINDOWS_1252_HIGH: [u16; 32] = [
    0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
    0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
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

#[cfg(feature = "cjk-charsets")]
fn encode_with_question_marks(encoding: &'static encoding_rs::Encoding, text: &str) -> Vec<u8> {
    use encoding_rs::EncoderResult;
    let mut encoder = encoding.new_encoder();
    let mut out = Vec::with_capacity(text.len() * 2 + 16);
    let mut src = text;
    loop {
        let need = encoder
            .max_buffer_length_from_utf8_without_replacement(src.len())
            .unwrap_or(src.len() * 4 + 16);
        let start = out.len();
        out.resize(start + need, 0);
        let (result, read, written) = encoder.encode_from_utf8_without_replacement(src, &mut out[start..], true);
        out.truncate(start + written);
        src = &src[read..];
        match result {
            EncoderResult::InputEmpty => return out,
            EncoderResult::Unmappable(_) => out.push(b'?'),
            EncoderResult::OutputFull => {}
        }
    }
}

/// One DeviceID segment as stored in the file: raw bytes, or null.
pub type Segment<'a> = Option<&'a [u8]>;

/// The device string: segments joined with `.`, null → `null` (Java `String.join`).
pub fn device_bytes(segments: &[Segment<'_>]) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, s) in segments.iter().enumerate() {
        if i > 0 {
            out.push(b'.');
        }
        out.extend_from_slice(s.unwrap_or(b"null"));
    }
    out
}

/// `device + "." + measurement` as raw stored bytes. The time column of an
/// aligned device has measurement `""` and yields `device.`.
pub fn series_path_bytes(segments: &[Segment<'_>], measurement: &[u8]) -> Vec<u8> {
    let mut out = device_bytes(segments);
    out.push(b'.');
    out.extend_from_slice(measurement);
    out
}

/// Re-encodes stored UTF-8 path bytes in another charset, as a JVM with that
/// default charset would hash them. Bytes that are not valid UTF-8 are kept
/// as they are (the writer could not have produced them from a Java String).
/// Errors when the charset is not built in.
pub fn transcode<'a>(utf8: &'a [u8], charset: Charset) -> Result<Cow<'a, [u8]>> {
    if charset == Charset::Utf8 {
        return Ok(Cow::Borrowed(utf8));
    }
    let Ok(text) = std::str::from_utf8(utf8) else {
        return Ok(Cow::Borrowed(utf8));
    };
    match charset.try_encode(text) {
        None => Err(Error::invalid_argument(format!(
            "charset {} is not built into this build (enable the cjk-charsets feature)",
            charset.as_str()
        ))),
        Some(Cow::Borrowed(_)) => Ok(Cow::Borrowed(utf8)),
        Some(Cow::Owned(v)) => Ok(Cow::Owned(v)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_join_with_null_segments() {
        let segs: [Segment; 4] = [Some(b"nt"), Some(b"a"), None, Some(b"c")];
        assert_eq!(series_path_bytes(&segs, b"v"), b"nt.a.null.c.v");
        assert_eq!(series_path_bytes(&[Some(b"t1"), Some(b"d1")], b""), b"t1.d1.");
    }

    #[test]
    #[cfg(feature = "cjk-charsets")]
    fn charsets_match_known_code_points() {
        // 温 is U+6E29: GBK CE C2, Big5 B7 C5, Shift_JIS 89 B7, EUC-KR C2 C2 (KS X 1001 hanja).
        assert_eq!(&*Charset::Gbk.encode("温"), &[0xce, 0xc2]);
        assert_eq!(&*Charset::Gb18030.encode("温"), &[0xce, 0xc2]);
        assert_eq!(&*Charset::Big5.encode("溫"), &[0xb7, 0xc5]);
        assert_eq!(&*Charset::ShiftJis.encode("温"), &[0x89, 0xb7]);
        assert_eq!(&*Charset::EucKr.encode("한"), &[0xc7, 0xd1]);

        // Unmappable in GBK: emoji → '?' as Java's getBytes does.
        assert_eq!(&*Charset::Gbk.encode("a🔥b"), b"a?b");
        // GB18030 maps everything, emoji as four bytes.
        assert_eq!(Charset::Gb18030.encode("🔥").len(), 4);
    }

    #[test]
    fn single_byte_charsets() {
        let enc = |c: Charset, t: &str| c.try_encode(t).unwrap().into_owned();
        assert_eq!(enc(Charset::Windows1252, "é€Ÿ\u{81}"), [0xe9, 0x80, 0x9f, b'?']);
        assert_eq!(enc(Charset::Iso8859_1, "é€ÿ"), [0xe9, b'?', 0xff]);
    }

    #[test]
    fn names() {
        for c in Charset::ALL {
            assert_eq!(Charset::from_name(c.as_str()).unwrap(), c);
        }
        assert_eq!(Charset::from_name("utf8").unwrap(), Charset::Utf8);
        assert!(Charset::from_name("klingon").is_err());
    }
}
