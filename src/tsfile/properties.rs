//! TsFileMetadata's properties (v4; docs/tsfile-format.md, "TsFileMetadata"): the key/value
//! pairs that fill the rest of it exactly, after the Bloom filter field.

use crate::bytes::Cursor;
use crate::error::{Error, ErrorKind, Result};

/// One property: key and value, each null or bytes (UTF-8 as the writers store it).
pub type Property = (Option<Vec<u8>>, Option<Vec<u8>>);

/// Properties (v4): zigzag count, then (vstr key, vstr value) pairs, filling the rest exactly.
pub fn parse_properties(c: &mut Cursor<'_>) -> Result<Vec<Property>> {
    if c.is_empty() {
        return Ok(Vec::new());
    }
    let at = c.offset();
    let n = c.varint("property count")?;
    if n < 0 || n as u64 * 2 > c.remaining() as u64 {
        return Err(Error::new(ErrorKind::BadCount, at, format!("property count {n} is impossible here")));
    }
    let mut out = Vec::with_capacity(n as usize);
    for _ in 0..n {
        let k = c.vstr("property key")?.map(<[u8]>::to_vec);
        let v = c.vstr("property value")?.map(<[u8]>::to_vec);
        out.push((k, v));
    }
    if !c.is_empty() {
        return Err(Error::new(
            ErrorKind::TrailingBytes,
            c.offset(),
            format!("{} bytes follow the properties", c.remaining()),
        ));
    }
    Ok(out)
}
