//! Where the audit and file probes get a path's bytes in a JVM default charset
//! (docs/writers.md: a Java writer hashes `String.getBytes()`). Natively the crate's
//! own JDK tables answer ([`BuiltIn`]); the TsFile wasm module carries no multi-byte
//! tables and asks the separately loaded charsets module through JS instead, so
//! both routes run the same tables.

use crate::error::{Argument, Error, Result};
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

/// A separately loaded module of charset tables (the npm package's charsets module, reached
/// through JS): the bytes a JVM whose default charset is `charset` hashes for `utf8`, or `None`
/// when the module failed.
pub trait CharsetModule {
    fn encode(&self, utf8: &[u8], charset: Charset) -> Option<Vec<u8>>;
}

/// The single-byte charsets (and UTF-8), computed here, and, once it is loaded, a
/// [`CharsetModule`] for the multi-byte ones (which the TsFile wasm module does not carry): ASCII
/// paths never reach the module (every JVM charset here is an ASCII superset).
pub struct WithModule<M>(pub Option<M>);

/// No module yet.
impl<M> Default for WithModule<M> {
    fn default() -> Self {
        WithModule(None)
    }
}

impl<M: CharsetModule> PathEncoder for WithModule<M> {
    fn has(&self, charset: Charset) -> bool {
        !charset.is_multibyte() || self.0.is_some()
    }
    fn encode<'a>(&self, utf8: &'a [u8], charset: Charset) -> Result<Cow<'a, [u8]>> {
        if utf8.is_ascii() {
            return Ok(Cow::Borrowed(utf8));
        }
        if !charset.is_multibyte() {
            return transcode(utf8, charset);
        }
        let Some(module) = &self.0 else {
            return Err(Error::bad_argument(
                Argument::Charset,
                format!("charset {} needs the charsets module: call await loadCharsets() first", charset.as_str()),
            ));
        };
        module.encode(utf8, charset).map(Cow::Owned).ok_or_else(|| {
            Error::bad_argument(
                Argument::Charset,
                format!("the charsets module could not encode a path in {}", charset.as_str()),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module that encodes by the crate's own tables, counting its calls.
    struct Counting(std::cell::Cell<u32>);
    impl CharsetModule for Counting {
        fn encode(&self, utf8: &[u8], charset: Charset) -> Option<Vec<u8>> {
            self.0.set(self.0.get() + 1);
            (charset != Charset::Big5).then(|| BuiltIn.encode(utf8, charset).ok().map(Cow::into_owned)).flatten()
        }
    }

    #[test]
    fn the_module_is_asked_only_for_what_is_not_built_in() {
        let (ascii, text) = (b"root.sg.d1.s1", "root.数据.温度".as_bytes());
        let none = WithModule::<Counting>(None);
        assert!(none.has(Charset::Utf8) && !none.has(Charset::Gbk));
        assert_eq!(none.encode(ascii, Charset::Gbk).unwrap().as_ref(), ascii);
        assert_eq!(none.encode(text, Charset::Gbk).unwrap_err().kind, crate::error::ErrorKind::InvalidArgument);
        let module = WithModule(Some(Counting(std::cell::Cell::new(0))));
        assert!(module.has(Charset::Gbk));
        assert_eq!(module.encode(ascii, Charset::Gbk).unwrap().as_ref(), ascii);
        assert_eq!(module.encode("é".as_bytes(), Charset::Windows1252).unwrap().as_ref(), [0xe9]);
        assert_eq!(module.0.as_ref().unwrap().0.get(), 0);
        // GBK: 数 (U+6570) is CA FD, through the module.
        assert_eq!(&module.encode("数".as_bytes(), Charset::Gbk).unwrap()[..], [0xca, 0xfd]);
        assert_eq!(module.0.as_ref().unwrap().0.get(), 1);
        assert!(module.encode(text, Charset::Big5).is_err());
    }
}
