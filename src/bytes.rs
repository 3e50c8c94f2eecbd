//! A bounds-checked cursor over a byte slice with the primitive encodings of
//! docs/tsfile-format.md §1 and of LevelDB (util/coding.h, docs/leveldb-filter.md §4).
//! Every read is checked against the bytes present, and errors carry the absolute
//! offset (`base` + position).

use crate::error::{Error, ErrorKind, Result};

#[derive(Clone, Debug)]
pub struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
    /// Absolute file offset of `data[0]`, so errors name positions in the file.
    base: u64,
}

impl<'a> Cursor<'a> {
    pub fn new(data: &'a [u8]) -> Cursor<'a> {
        Cursor::with_base(data, 0)
    }

    pub fn with_base(data: &'a [u8], base: u64) -> Cursor<'a> {
        Cursor { data, pos: 0, base }
    }

    /// Absolute offset of the next byte.
    pub fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    pub fn position(&self) -> usize {
        self.pos
    }

    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    pub fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    fn truncated(&self, what: &str, need: u64) -> Error {
        Error::new(
            ErrorKind::Truncated,
            self.offset(),
            format!("{what} needs {need} bytes but only {} remain", self.remaining()),
        )
    }

    pub fn u8(&mut self, what: &str) -> Result<u8> {
        let b = *self.data.get(self.pos).ok_or_else(|| self.truncated(what, 1))?;
        self.pos += 1;
        Ok(b)
    }

    /// Takes `len` bytes after checking they are present (no allocation).
    pub fn take(&mut self, len: u64, what: &str) -> Result<&'a [u8]> {
        if len > self.remaining() as u64 {
            return Err(self.truncated(what, len));
        }
        let s = &self.data[self.pos..self.pos + len as usize];
        self.pos += len as usize;
        Ok(s)
    }

    pub fn i32_be(&mut self, what: &str) -> Result<i32> {
        Ok(i32::from_be_bytes(array(self.take(4, what)?)))
    }

    pub fn i64_be(&mut self, what: &str) -> Result<i64> {
        Ok(i64::from_be_bytes(array(self.take(8, what)?)))
    }

    /// Unsigned LEB128 of a 32-bit value: at most 5 bytes, value <= 2^32-1 (also LevelDB's
    /// `varint32`). Java and C++ readers accept longer forms, and LevelDB's decoder quietly
    /// drops bits above 2^32 in a fifth byte; we reject both (§1).
    pub fn uvarint(&mut self, what: &str) -> Result<u32> {
        let start = self.offset();
        let mut value: u64 = 0;
        for i in 0..5 {
            let b = match self.data.get(self.pos) {
                Some(&b) => b,
                None => {
                    return Err(Error::new(
                        ErrorKind::Truncated,
                        self.offset(),
                        format!("{what}: varint starting at byte {start} is unterminated at end of input"),
                    ))
                }
            };
            self.pos += 1;
            value |= ((b & 0x7f) as u64) << (7 * i);
            if b & 0x80 == 0 {
                if value > u32::MAX as u64 {
                    return Err(Error::new(
                        ErrorKind::BadVarint,
                        start,
                        format!("{what}: varint value {value} exceeds 2^32-1"),
                    ));
                }
                return Ok(value as u32);
            }
        }
        Err(Error::new(ErrorKind::BadVarint, start, format!("{what}: varint longer than 5 bytes")))
    }

    /// Zigzag varint (docs/tsfile-format.md §1).
    pub fn varint(&mut self, what: &str) -> Result<i32> {
        let u = self.uvarint(what)?;
        Ok(((u >> 1) as i32) ^ -((u & 1) as i32))
    }
}

impl<'a> Cursor<'a> {
    /// A count of items that each take at least `min_item_bytes`: rejected (`bad_count`)
    /// when the remaining bytes could not hold that many, so no allocation is sized by it.
    pub fn count(&mut self, what: &str, min_item_bytes: usize) -> Result<usize> {
        let at = self.offset();
        let n = self.uvarint(what)?;
        if n > i32::MAX as u32 || (n as u64) * (min_item_bytes.max(1) as u64) > self.remaining() as u64 {
            return Err(Error::new(
                ErrorKind::BadCount,
                at,
                format!("{what} {n} cannot fit in the {} bytes that remain", self.remaining()),
            ));
        }
        Ok(n as usize)
    }

    /// `vstr`: zigzag varint length, then bytes; length -1 is null.
    pub fn vstr(&mut self, what: &str) -> Result<Option<&'a [u8]>> {
        let at = self.offset();
        match self.varint(what)? {
            -1 => Ok(None),
            len => self.string(at, len, what).map(Some),
        }
    }

    /// `istr` / `binary`: i32 big-endian length, then bytes; negative length is null.
    pub fn istr(&mut self, what: &str) -> Result<Option<&'a [u8]>> {
        let at = self.offset();
        match self.i32_be(what)? {
            ..0 => Ok(None),
            len => self.string(at, len, what).map(Some),
        }
    }

    /// The `len` bytes of a string whose length starts at `at`.
    fn string(&mut self, at: u64, len: i32, what: &str) -> Result<&'a [u8]> {
        if len < 0 || len as usize > self.remaining() {
            return Err(Error::new(
                ErrorKind::BadString,
                at,
                format!("{what}: string length {len} is impossible here ({} bytes remain)", self.remaining()),
            ));
        }
        self.take(len as u64, what)
    }

    pub fn skip(&mut self, len: u64, what: &str) -> Result<()> {
        self.take(len, what).map(|_| ())
    }
}

/// LevelDB's encodings (util/coding.h, docs/leveldb-filter.md §4): fixed-width integers are
/// little-endian, varints the same LEB128 as `uvarint`. LevelDB keeps counts and trailers at
/// the end of a block, hence `take_last`.
impl<'a> Cursor<'a> {
    /// `fixed32`: 4 bytes, little-endian.
    pub fn u32_le(&mut self, what: &str) -> Result<u32> {
        Ok(u32::from_le_bytes(array(self.take(4, what)?)))
    }

    /// `fixed64`: 8 bytes, little-endian.
    pub fn u64_le(&mut self, what: &str) -> Result<u64> {
        Ok(u64::from_le_bytes(array(self.take(8, what)?)))
    }

    /// `varint64`: LEB128, at most 10 bytes; values above 2^64-1 are rejected (LevelDB's
    /// decoder drops those bits).
    pub fn varint64(&mut self, what: &str) -> Result<u64> {
        let start = self.offset();
        let mut v: u64 = 0;
        for i in 0..10 {
            let b = self.u8(what)?;
            let part = (b & 0x7f) as u64;
            if i == 9 && part > 1 {
                return Err(Error::new(ErrorKind::BadVarint, start, format!("{what}: varint64 exceeds 2^64-1")));
            }
            v |= part << (7 * i);
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(Error::new(ErrorKind::BadVarint, start, format!("{what}: varint64 longer than 10 bytes")))
    }

    /// Splits the last `len` remaining bytes off into a cursor of their own (with their absolute
    /// offset); this cursor then ends where they began.
    pub fn take_last(&mut self, len: u64, what: &str) -> Result<Cursor<'a>> {
        if len > self.remaining() as u64 {
            return Err(self.truncated(what, len));
        }
        let cut = self.data.len() - len as usize;
        let (head, tail) = self.data.split_at(cut);
        self.data = head;
        Ok(Cursor::with_base(tail, self.base + cut as u64))
    }
}

/// The first `N` bytes of `s` (which has at least `N`) as an array. Not `try_into().unwrap()`,
/// whose error formatting would stay in the wasm build.
pub(crate) fn array<const N: usize>(s: &[u8]) -> [u8; N] {
    let mut a = [0u8; N];
    a.copy_from_slice(&s[..N]);
    a
}

/// Appends the canonical (shortest) unsigned LEB128 form of `v`.
pub fn write_uvarint(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push((v as u8 & 0x7f) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uvarint_round_trip_and_limits() {
        for v in [0u32, 1, 127, 128, 256, 300, 62353, u32::MAX] {
            let mut buf = Vec::new();
            write_uvarint(&mut buf, v);
            let mut c = Cursor::new(&buf);
            assert_eq!(c.uvarint("v").unwrap(), v);
            assert!(c.is_empty());
        }
        assert_eq!(Cursor::new(&[0x80, 0x02]).uvarint("v").unwrap(), 256);
        let e = Cursor::new(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x01]).uvarint("v").unwrap_err();
        assert_eq!((e.kind, e.offset()), (ErrorKind::BadVarint, Some(0)));
        let e = Cursor::new(&[0xff, 0xff, 0xff, 0xff, 0x1f]).uvarint("v").unwrap_err();
        assert_eq!(e.kind, ErrorKind::BadVarint);
        let e = Cursor::with_base(&[0x80, 0x80], 100).uvarint("v").unwrap_err();
        assert_eq!((e.kind, e.offset()), (ErrorKind::Truncated, Some(102)));
    }

    #[test]
    fn zigzag() {
        for (bytes, v) in [(&[0x00u8][..], 0), (&[0x01], -1), (&[0x02], 1), (&[0x06], 3)] {
            assert_eq!(Cursor::new(bytes).varint("v").unwrap(), v);
        }
    }

    #[test]
    fn leveldb_encodings() {
        // docs/leveldb-filter.md §4: the footer of small.ldb starts `ac 01 30 e1 01 17` (metaindex
        // handle [172, 48], index handle [225, 23]); the magic 0xdb4775248b80fb57 is stored
        // `57 fb 80 8b 24 75 47 db`.
        let mut c = Cursor::new(&[0xac, 0x01, 0x30, 0xe1, 0x01, 0x17]);
        let handles: Vec<u64> = (0..4).map(|_| c.varint64("h").unwrap()).collect();
        assert_eq!(handles, [172, 48, 225, 23]);
        assert!(c.is_empty());
        let mut c = Cursor::new(&[0x57, 0xfb, 0x80, 0x8b, 0x24, 0x75, 0x47, 0xdb]);
        assert_eq!(c.u64_le("magic").unwrap(), 0xdb47_7524_8b80_fb57);
        assert_eq!(Cursor::new(&[0x01, 0x02, 0x03, 0x04]).u32_le("w").unwrap(), 0x0403_0201);
        let max = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
        assert_eq!(Cursor::new(&max).varint64("v").unwrap(), u64::MAX);
        let over = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02];
        assert_eq!(Cursor::new(&over).varint64("v").unwrap_err().kind, ErrorKind::BadVarint);
        assert_eq!(Cursor::new(&[0x80; 11]).varint64("v").unwrap_err().kind, ErrorKind::BadVarint);
        let e = Cursor::with_base(&[0x80, 0x80], 100).varint64("v").unwrap_err();
        assert_eq!((e.kind, e.offset()), (ErrorKind::Truncated, Some(102)));
    }

    #[test]
    fn take_last_keeps_offsets() {
        let mut c = Cursor::with_base(&[1, 2, 3, 4, 5, 6], 10);
        c.u8("a").unwrap();
        let mut tail = c.take_last(2, "tail").unwrap();
        assert_eq!((tail.offset(), tail.u8("t").unwrap()), (14, 5));
        assert_eq!(c.remaining(), 3);
        let e = c.take_last(4, "more").unwrap_err();
        assert_eq!((e.kind, e.offset()), (ErrorKind::Truncated, Some(11)));
        assert_eq!(c.take(3, "rest").unwrap(), &[2, 3, 4]);
        assert!(c.is_empty());
    }
}
