//! The bytes a writer feeds to the hash for one series (docs/bloom-filter.md §3,
//! docs/writers.md §3–4): DeviceID segments joined with `.` (a null segment
//! written as `null`), then `.` and the measurement, in the writer's charset.
//!
//! Java hashes `String.getBytes()` in the JVM default charset, so besides UTF-8
//! we offer the common non-UTF-8 JVM defaults ([`Charset`], in `crate::charset`).

use crate::error::{Argument, Error, Result};
use std::borrow::Cow;

pub use crate::charset::Charset;

/// One DeviceID segment as stored in the file: raw bytes, or null.
pub type Segment<'a> = Option<&'a [u8]>;

/// The device string: segments joined with `.`, null → `null` (Java `String.join`).
pub fn device_bytes(segments: &[Segment<'_>]) -> Vec<u8> {
    let mut out = Vec::new();
    extend_device(&mut out, segments.iter().copied());
    out
}

/// The device string appended to `out`: the one join of segments.
fn extend_device<'a>(out: &mut Vec<u8>, segments: impl IntoIterator<Item = Segment<'a>>) {
    for (i, s) in segments.into_iter().enumerate() {
        if i > 0 {
            out.push(b'.');
        }
        out.extend_from_slice(s.unwrap_or(b"null"));
    }
}

/// `device + "." + measurement` as raw stored bytes. The time column of an
/// aligned device has measurement `""` and yields `device.`.
pub fn series_path_bytes(segments: &[Segment<'_>], measurement: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    extend_series_path(&mut out, segments.iter().copied(), measurement);
    out
}

/// [`series_path_bytes`] appended to `out` (listings reuse one buffer).
pub fn extend_series_path<'a>(out: &mut Vec<u8>, segments: impl IntoIterator<Item = Segment<'a>>, measurement: &[u8]) {
    extend_device(out, segments);
    out.push(b'.');
    out.extend_from_slice(measurement);
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
        None => Err(Error::bad_argument(
            Argument::Charset,
            format!("charset {} is not built into this build (enable the jvm-charsets feature)", charset.as_str()),
        )),
        Some(Cow::Borrowed(_)) => Ok(Cow::Borrowed(utf8)),
        Some(Cow::Owned(v)) => Ok(Cow::Owned(v)),
    }
}

/// The bytes a key hashes as: `text` keys (UTF-8 of a JS or Rust string) re-encoded in `charset`,
/// other keys as they are.
pub fn key_bytes(key: &[u8], text: bool, charset: Charset) -> Result<Cow<'_, [u8]>> {
    if text {
        transcode(key, charset)
    } else {
        Ok(Cow::Borrowed(key))
    }
}

/// Keys back to back and their end offsets.
pub type KeysBytes<'a> = (Cow<'a, [u8]>, Cow<'a, [u32]>);

/// [`key_bytes`] for keys back to back with their ends ([`crate::staged::keys`]'s layout): borrowed
/// when no key changes (bytes, or UTF-8 text), else the encoded keys with their new ends.
pub fn keys_bytes<'a>(keys: &'a [u8], ends: &'a [u32], text: bool, charset: Charset) -> Result<KeysBytes<'a>> {
    if !text || charset == Charset::Utf8 {
        return Ok((Cow::Borrowed(keys), Cow::Borrowed(ends)));
    }
    let (mut bytes, mut encoded_ends) = (Vec::with_capacity(keys.len()), Vec::with_capacity(ends.len()));
    for key in crate::staged::keys(keys, ends) {
        bytes.extend_from_slice(&transcode(key.map_err(|_| crate::staged::Staged::bad_ends())?, charset)?);
        encoded_ends.push(bytes.len() as u32);
    }
    Ok((Cow::Owned(bytes), Cow::Owned(encoded_ends)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_re_encoded_only_as_text_in_another_charset() {
        let (keys, ends) = ("aé€b".as_bytes(), [3u32, 6, 7]); // "aé", "€", "b"
        let (k, e) = keys_bytes(keys, &ends, false, Charset::Windows1252).unwrap();
        assert!(matches!((&k, &e), (Cow::Borrowed(_), Cow::Borrowed(_))));
        let (k, e) = keys_bytes(keys, &ends, true, Charset::Utf8).unwrap();
        assert_eq!((&k[..], &e[..]), (keys, &ends[..]));
        // windows-1252: é is 0xE9, € is 0x80 (Java's String.getBytes("windows-1252")).
        let (k, e) = keys_bytes(keys, &ends, true, Charset::Windows1252).unwrap();
        assert_eq!((&k[..], &e[..]), (&[b'a', 0xe9, 0x80, b'b'][..], &[2u32, 3, 4][..]));
        assert_eq!(key_bytes("é".as_bytes(), true, Charset::Iso8859_1).unwrap().as_ref(), [0xe9]);
        assert!(keys_bytes(keys, &[3, 2], true, Charset::Windows1252).is_err());
    }

    #[test]
    fn path_join_with_null_segments() {
        let segs: [Segment; 4] = [Some(b"nt"), Some(b"a"), None, Some(b"c")];
        assert_eq!(series_path_bytes(&segs, b"v"), b"nt.a.null.c.v");
        assert_eq!(series_path_bytes(&[Some(b"t1"), Some(b"d1")], b""), b"t1.d1.");
    }
}
