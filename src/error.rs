//! One error type for every parser in the crate: what is wrong (a stable
//! `kind`), where (absolute byte offset in the input) and a sentence for people.

use std::fmt;

closed_set! {
    /// Stable error kinds. `as_str` gives the strings used in JSON and on JS `Error.kind`
    /// (docs/tsfile-format.md §10 plus the filter-level kinds).
    #[non_exhaustive]
    pub enum ErrorKind {
        /// The file is shorter than the smallest TsFile (17 bytes), or than a LevelDB table's
        /// 48-byte footer.
        TooShort => "too_short",
        /// The file does not start with `TsFile`.
        BadHeadMagic => "bad_head_magic",
        /// A version byte other than 3 or 4 (including v2's `000002`).
        UnsupportedVersion => "unsupported_version",
        /// The file does not end with `TsFile` (incomplete or not a TsFile).
        BadTailMagic => "bad_tail_magic",
        /// The i32 TsFileMetadata size before the tail magic is impossible.
        BadMetadataSize => "bad_metadata_size",
        /// A length-prefixed string whose length is negative (other than null) or past the input.
        BadString => "bad_string",
        /// meta_offset outside `[7, start of TsFileMetadata)`.
        BadMetaOffset => "bad_meta_offset",
        /// A metadata index node that is malformed or of the wrong type for its place.
        BadIndexNode => "bad_index_node",
        /// An index child offset outside its allowed range or not increasing.
        BadIndexOffset => "bad_index_offset",
        /// A TimeseriesMetadata data type this reader cannot skip.
        UnknownDataType => "unknown_data_type",
        /// A region (TimeseriesMetadata run, node) whose contents do not fill it exactly.
        BadRegion => "bad_region",
        /// The source could not be read (I/O error, or bytes not supplied by the caller).
        Io => "io",
        /// Input ended before a structure was complete.
        Truncated => "truncated",
        /// A varint longer than 5 bytes or above 2^32-1 (LevelDB varint64: longer than 10 bytes
        /// or above 2^64-1).
        BadVarint => "bad_varint",
        /// A length or count that cannot be right (negative as Java int, larger than the bytes present).
        BadCount => "bad_count",
        /// The Bloom bit vector is longer than `ceil(bit_count / 8)` bytes.
        BloomOverflow => "bloom_overflow",
        /// A bit at an index >= `bit_count` is set.
        BloomStrayBits => "bloom_stray_bits",
        /// `bit_count` is 0 or above 2^31-1.
        BloomBadBitCount => "bloom_bad_bit_count",
        /// `hash_function_count` outside 1..=8.
        BloomBadHashFunctionCount => "bloom_bad_hash_function_count",
        /// Bytes left over after a structure that should fill its input.
        TrailingBytes => "trailing_bytes",
        /// Bad argument from the caller (unknown charset or variant name, capacity out of range).
        InvalidArgument => "invalid_argument",
        /// A filter whose bits were set by a hash this reader does not evaluate (the experimental
        /// cheap hash, docs/writers.md §7) was asked to probe or add a path.
        UnsupportedHash => "unsupported_hash",
        /// LevelDB: the footer does not end with the table magic 0xdb4775248b80fb57.
        BadFooterMagic => "bad_footer_magic",
        /// LevelDB: a block handle (offset, size) outside the file or overlapping what follows it.
        BadBlockHandle => "bad_block_handle",
        /// LevelDB: a block's masked CRC32C does not match its bytes and compression type.
        BadChecksum => "bad_checksum",
        /// LevelDB: a block whose entries or restart array are malformed (or whose Snappy data is).
        BadBlock => "bad_block",
        /// LevelDB: a block compression type other than 0 (none) or 1 (Snappy), e.g. 2 (zstd).
        UnsupportedCompression => "unsupported_compression",
        /// LevelDB: a filter block whose offset array, filter offsets or base_lg are malformed.
        BadFilterBlock => "bad_filter_block",
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What went wrong ([`kind`](Error::kind)), where ([`offset`](Error::offset)) and a plain
/// sentence ([`message`](Error::message)).
#[derive(Clone, PartialEq, Eq)]
pub struct Error {
    pub kind: ErrorKind,
    /// The absolute byte offset, or [`NO_OFFSET`]: read through [`Error::offset`]. (A plain
    /// `u64`, not an `Option`, keeps `Result<T, Error>` at its size in the wasm modules, whose
    /// gzip budget that costs ~200 B: scripts/check-size.mjs.)
    offset: u64,
    /// For a bad argument, the argument at fault (one byte: it fits in the padding, so
    /// `Result<T, Error>` keeps its size): read through [`Error::argument`].
    argument: Option<Argument>,
    /// The plain sentence, without the kind or the offset.
    pub message: String,
}

closed_set! {
    /// The arguments the core itself finds at fault (the package checks the others at its door),
    /// by the parameter's name as the package's API spells it: what JS reads as `argument`.
    #[non_exhaustive]
    pub enum Argument {
        BitCount => "bitCount",
        HashFunctionCount => "hashFunctionCount",
        Capacity => "capacity",
        Charset => "charset",
        Variant => "variant",
        Paths => "paths",
    }
}

/// How [`Error`] stores "no offset": past the end of any input.
const NO_OFFSET: u64 = u64::MAX;

impl Error {
    /// An error found at byte `offset` of the input (`u64::MAX`, past any input, reads as
    /// none: [`Error::without_offset`]).
    pub fn new(kind: ErrorKind, offset: u64, message: impl Into<String>) -> Error {
        Error { kind, offset, argument: None, message: message.into() }
    }

    /// An error with no place in the input.
    pub fn without_offset(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error { kind, offset: NO_OFFSET, argument: None, message: message.into() }
    }

    /// A bad argument from the caller: kind [`ErrorKind::InvalidArgument`], no offset.
    pub fn invalid_argument(message: impl Into<String>) -> Error {
        Error::without_offset(ErrorKind::InvalidArgument, message)
    }

    /// [`Error::invalid_argument`] naming the argument at fault.
    pub fn bad_argument(argument: Argument, message: impl Into<String>) -> Error {
        Error { argument: Some(argument), ..Error::invalid_argument(message) }
    }

    /// The argument a bad-argument error names, if it names one.
    pub fn argument(&self) -> Option<Argument> {
        self.argument
    }

    /// The absolute byte offset in the input where the problem was found; `None` when the
    /// error has no place in the input: a bad argument ([`ErrorKind::InvalidArgument`]), or an
    /// I/O error that is not a read at a position (converted from [`std::io::Error`]).
    pub fn offset(&self) -> Option<u64> {
        (self.offset != NO_OFFSET).then_some(self.offset)
    }

    /// The offset of an error found in the bytes (every error a [`Cursor`](crate::bytes::Cursor)
    /// makes has one), for re-filing it under the structure it was in; 0 for none.
    pub(crate) fn at(&self) -> u64 {
        self.offset().unwrap_or(0)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("kind", &self.kind)
            .field("offset", &self.offset())
            .field("message", &self.message)
            .finish()
    }
}

/// `kind at byte N: sentence`, or `kind: sentence` for an error without an offset.
impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.offset() {
            Some(offset) => write!(f, "{} at byte {}: {}", self.kind, offset, self.message),
            None => write!(f, "{}: {}", self.kind, self.message),
        }
    }
}

impl std::error::Error for Error {}

/// An I/O error as kind [`ErrorKind::Io`] with no offset (`std::io::Error` does not know
/// where in the file it happened) and its text as the sentence, so that `?` works on
/// [`std::fs::File::open`] and [`FileSource::open`](crate::source::FileSource::open) in a
/// function returning [`Result`]. Reads through [`ReadAt`](crate::source::ReadAt) report the
/// offset they were reading at instead.
impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        Error::without_offset(ErrorKind::Io, e.to_string())
    }
}

pub type Result<T> = std::result::Result<T, Error>;

/// `s` in double quotes with `"`, `\\` and control characters escaped (Rust-style),
/// for names in messages. Hand-written rather than `{:?}`, whose Unicode escaping
/// tables would weigh on the wasm build.
pub(crate) fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\0' => out.push_str("\\0"),
            c if c.is_control() => {
                out.push_str("\\u{");
                push_hex(&mut out, &(c as u32).to_be_bytes(), true);
                out.push('}');
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Lowercase hex, two digits a byte.
pub(crate) fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    push_hex(&mut s, bytes, false);
    s
}

/// `items` with `sep` between them: by hand, as `[&str]::join` costs the wasm build ~300 B gzipped.
pub(crate) fn join<S: AsRef<str>>(items: impl IntoIterator<Item = S>, sep: &str) -> String {
    let mut out = String::new();
    for (i, s) in items.into_iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        out.push_str(s.as_ref());
    }
    out
}

/// Appends lowercase hex, two digits a byte (`trim`: without leading zeros, at least one digit).
pub(crate) fn push_hex(out: &mut String, bytes: &[u8], trim: bool) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let start = out.len();
    for &b in bytes {
        for d in [b >> 4, b & 15] {
            if !(trim && d == 0 && out.len() == start) {
                out.push(DIGITS[d as usize] as char);
            }
        }
    }
    if out.len() == start {
        out.push('0');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_matches_debug() {
        for s in ["klingon", "a\"b\\c", "tab\there\nnew", "\u{1b}[0m", "温度", "nul\0", ""] {
            assert_eq!(quoted(s), format!("{s:?}"));
        }
        assert_eq!(hex(&[0x54, 0x00, 0xff]), "5400ff");
        assert_eq!(join(["a", "b", "c"], ", "), "a, b, c");
    }
}
