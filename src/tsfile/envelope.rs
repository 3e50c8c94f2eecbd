//! The envelope (docs/tsfile-format.md, "Head and tail"): the head magic and version byte,
//! and the tail's i32 TsFileMetadata size and magic that locate TsFileMetadata.

use crate::error::{Error, ErrorKind, Result};
use crate::source::ReadAt;

pub const MAGIC: &[u8; 6] = b"TsFile";
/// `"TsFile"` + version byte.
pub const HEAD_LEN: u64 = 7;
/// i32 size + `"TsFile"`.
pub const TAIL_LEN: u64 = 10;
pub const MIN_FILE_LEN: u64 = HEAD_LEN + TAIL_LEN;
/// The head the bindings read: [`HEAD_LEN`], and enough to recognise a v2 head (`TsFile000002`).
pub const HEAD_READ: usize = 12;

/// What the head and tail say, before TsFileMetadata is parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Envelope {
    pub file_size: u64,
    pub version: u8,
    /// Start of TsFileMetadata.
    pub metadata_offset: u64,
    pub metadata_size: u32,
}

impl Envelope {
    /// [`read_envelope`] of a file of `file_size` bytes from its first bytes (`head`: at least
    /// [`HEAD_READ`] to recognise a v2 head) and its last ones (`tail`: at least [`TAIL_LEN`]),
    /// as the bindings read them.
    pub fn from_parts(file_size: u64, head: &[u8], tail: &[u8]) -> Result<Envelope> {
        let mut r = crate::source::Ranges::new(file_size);
        r.insert(0, head.to_vec());
        r.insert(file_size.saturating_sub(tail.len() as u64), tail.to_vec());
        read_envelope(&r)
    }
}

/// The sentence for a head that is not `"TsFile"`: an HTML page said in words (a server's error
/// page, a login page or a single-page app's fallback saved or served as the file), any other
/// head as its first six bytes as `{:02x?}` would print them: `[54, 73, ...]`.
fn bad_head_magic(start: &[u8]) -> String {
    if let Some(tag) = html_tag(start) {
        return format!(
            "this is an HTML page (it starts with \"{tag}\"), not a TsFile — did the server answer with an error page?"
        );
    }
    let bytes = crate::error::join(start[..6].iter().map(|b| crate::error::hex(&[*b])), ", ");
    format!("file starts with [{bytes}], not \"TsFile\"")
}

/// The tag an HTML page opens with (`<!doctype` or `<html`, any case), after an optional UTF-8
/// byte order mark and ASCII whitespace, as it stands in `start`; also when `start` (the head
/// read) ends inside it, if at least `<!doc` or `<html` of it is there. None for anything else.
fn html_tag(start: &[u8]) -> Option<&str> {
    let body = start.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(start);
    let from = body.iter().position(|b| !b.is_ascii_whitespace())?;
    let rest = &body[from..];
    ["<!doctype", "<html"].into_iter().find_map(|tag| {
        let n = tag.len().min(rest.len());
        let seen = &rest[..n];
        (n >= 5 && seen.eq_ignore_ascii_case(&tag.as_bytes()[..n])).then(|| std::str::from_utf8(seen).ok()).flatten()
    })
}

/// Checks head and tail and locates TsFileMetadata (docs/tsfile-format.md §2).
pub fn read_envelope<R: ReadAt + ?Sized>(src: &R) -> Result<Envelope> {
    let size = src.size()?;
    if size < MIN_FILE_LEN {
        return Err(Error::new(
            ErrorKind::TooShort,
            0,
            format!("{size} bytes is shorter than the smallest TsFile ({MIN_FILE_LEN} bytes)"),
        ));
    }
    let head = src.read_at(0, HEAD_LEN as usize)?;
    if &head[..6] != MAGIC {
        // The bindings hold the first HEAD_READ bytes: enough to tell an HTML page.
        let start = src.read_at(0, HEAD_READ).unwrap_or(head);
        return Err(Error::new(ErrorKind::BadHeadMagic, 0, bad_head_magic(&start)));
    }
    let version = head[6];
    if version != 3 && version != 4 {
        let what = if version == b'0' && size >= HEAD_READ as u64 && src.read_at(6, 6)? == b"000002" {
            "version \"000002\" (TsFile v2, IoTDB 0.10/0.11)".to_string()
        } else {
            format!("version byte {version}")
        };
        return Err(Error::new(
            ErrorKind::UnsupportedVersion,
            6,
            format!("{what} is not supported; versions 3 and 4 are"),
        ));
    }
    let tail = src.read_at(size - TAIL_LEN, TAIL_LEN as usize)?;
    if &tail[4..] != MAGIC {
        return Err(Error::new(
            ErrorKind::BadTailMagic,
            size - 6,
            "file does not end with \"TsFile\" (incomplete file, or not a TsFile)",
        ));
    }
    let s = i32::from_be_bytes(crate::bytes::array(&tail));
    let available = size - MIN_FILE_LEN;
    if s <= 0 || s as u64 > available {
        return Err(Error::new(
            ErrorKind::BadMetadataSize,
            size - TAIL_LEN,
            format!("TsFileMetadata size {s} must be between 1 and {available} for a {size}-byte file"),
        ));
    }
    Ok(Envelope { file_size: size, version, metadata_offset: size - TAIL_LEN - s as u64, metadata_size: s as u32 })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The error `read_envelope` gives for a file of `head` and enough bytes after it.
    fn opened(head: &[u8]) -> Error {
        let mut bytes = head.to_vec();
        bytes.resize(64, b' ');
        read_envelope(&bytes[..]).unwrap_err()
    }

    #[test]
    fn an_html_page_is_said_in_words_with_the_kind_and_offset_of_any_bad_head() {
        for (head, tag) in [
            (&b"<!DOCTYPE html><html>"[..], "<!DOCTYPE"),
            (b"<!doctype html>", "<!doctype"),
            (b"<html lang=en>", "<html"),
            (b"\xEF\xBB\xBF<!DOCTYPE html>", "<!DOCTYPE"),
            (b"\r\n  <HTML>", "<HTML"),
            // The head read (12 bytes) ends inside the tag: five of its bytes are enough.
            (b"\n\n\n\n\n<!DOCtype", "<!DOCty"),
        ] {
            let e = opened(head);
            assert_eq!((e.kind, e.offset()), (ErrorKind::BadHeadMagic, Some(0)), "{head:?}");
            assert_eq!(
                e.message,
                format!("this is an HTML page (it starts with \"{tag}\"), not a TsFile — did the server answer with an error page?")
            );
        }
    }

    #[test]
    fn a_head_that_is_not_html_says_its_bytes() {
        for (head, message) in [
            (&b"<?xml version"[..], "file starts with [3c, 3f, 78, 6d, 6c, 20], not \"TsFile\""),
            (b"\n\n\n\n\n\n\n\n<!DOCTYPE", "file starts with [0a, 0a, 0a, 0a, 0a, 0a], not \"TsFile\""),
            (b"<!do html", "file starts with [3c, 21, 64, 6f, 20, 68], not \"TsFile\""),
            (b"<htm", "file starts with [3c, 68, 74, 6d, 20, 20], not \"TsFile\""),
        ] {
            let e = opened(head);
            assert_eq!((e.kind, e.offset(), e.message.as_str()), (ErrorKind::BadHeadMagic, Some(0), message));
        }
    }
}
