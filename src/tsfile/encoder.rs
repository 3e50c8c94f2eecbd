//! Where the audit and file probes get a path's bytes in a JVM default charset
//! (docs/writers.md: a Java writer hashes `String.getBytes()`). Natively the crate's
//! own JDK tables answer ([`BuiltIn`]); the TsFile wasm module carries no multi-byte
//! tables and asks the separately loaded charsets module through JS instead, so
//! both routes run the same tables.

use crate::error::Result;
use crate::path::{transcode, Charset};
use std::borrow::Cow;

pub trait PathEncoder {
    /// Whether `charset` can be encoded right now.
    fn has(&self, charset: Charset) -> bool;
    /// Stored UTF-8 path bytes as a JVM whose default charset is `charset` hashes
    /// them (unmappable characters become `?`).
    fn encode<'a>(&self, utf8: &'a [u8], charset: Charset) -> Result<Cow<'a, [u8]>>;
}

/// The charsets compiled into this build.
pub struct BuiltIn;

impl PathEncoder for BuiltIn {
    fn has(&self, charset: Charset) -> bool {
        charset.is_available()
    }
    fn encode<'a>(&self, utf8: &'a [u8], charset: Charset) -> Result<Cow<'a, [u8]>> {
        transcode(utf8, charset)
    }
}
