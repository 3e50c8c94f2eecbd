//! Keys back to back with their ends: the layout a batch of keys crosses from JS in (the
//! bindings stage them into [`Staged`], sized here, written in place by the caller), and how the
//! core walks it — every end checked, nothing the caller wrote trusted.

use crate::error::{Argument, Error, Result};

/// Keys back to back in `bytes`, key i ending at `ends[i]` (as the bindings stage them): each
/// key, or `Err(i)` when `ends[i]` is before the end of key i - 1 or past `bytes`.
pub fn keys<'a, 'e>(bytes: &'a [u8], ends: &'e [u32]) -> Keys<'a, 'e> {
    Keys { bytes, ends: ends.iter().enumerate(), start: 0 }
}

/// The keys of [`keys`]'s layout as a list; out-of-order ends are a bad argument.
pub fn key_list<'a>(bytes: &'a [u8], ends: &[u32]) -> Result<Vec<&'a [u8]>> {
    keys(bytes, ends)
        .collect::<std::result::Result<_, usize>>()
        .map_err(|_| Error::invalid_argument("keys: the end offsets are not increasing within the key bytes"))
}

/// The iterator of [`keys`].
pub struct Keys<'a, 'e> {
    bytes: &'a [u8],
    ends: std::iter::Enumerate<std::slice::Iter<'e, u32>>,
    start: usize,
}

impl<'a> Iterator for Keys<'a, '_> {
    type Item = std::result::Result<&'a [u8], usize>;

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        let (i, &end) = self.ends.next()?;
        let key = self.bytes.get(self.start..end as usize).ok_or(i);
        self.start = end as usize;
        Some(key)
    }
}

/// Keys staged for a batch call in [`keys`]'s layout: the caller (JS, through the bindings) writes
/// them in place into buffers sized here, and every later read goes through a bounds check, so
/// nothing the caller wrote is trusted.
#[derive(Default)]
pub struct Staged {
    bytes: Vec<u8>,
    ends: Vec<u32>,
}

impl Staged {
    /// An empty area (`const`: the bindings keep one in a `static`).
    pub const fn new() -> Staged {
        Staged { bytes: Vec::new(), ends: Vec::new() }
    }

    /// Exactly `bytes` key bytes and `count` ends (zero-filled only where they grow, since the
    /// caller overwrites what it uses): the buffers to write into.
    pub fn make_room(&mut self, bytes: usize, count: usize) -> (&[u8], &[u32]) {
        self.bytes.resize(bytes, 0);
        self.ends.resize(count, 0);
        (&self.bytes, &self.ends)
    }

    /// At least `bytes` key bytes, for one key (single-key calls read its first `len` bytes).
    pub fn key_room(&mut self, bytes: usize) -> &[u8] {
        if self.bytes.len() < bytes {
            self.bytes.resize(bytes, 0);
        }
        &self.bytes
    }

    /// The one key in the first `len` bytes.
    pub fn key(&self, len: usize) -> Result<&[u8]> {
        self.bytes.get(..len).ok_or_else(|| Error::invalid_argument("the key is longer than its area"))
    }

    /// How many keys there is room for (what output buffers may be sized by).
    pub fn count(&self) -> usize {
        self.ends.len()
    }

    /// The key bytes and the first `count` ends, for kernels that walk them themselves.
    pub fn batch(&self, count: usize) -> Result<(&[u8], &[u32])> {
        let ends = self.ends.get(..count).ok_or_else(|| Error::invalid_argument("more keys than were staged"))?;
        Ok((&self.bytes, ends))
    }

    /// The first `count` keys, each checked against its end.
    pub fn each(&self, count: usize) -> Result<impl Iterator<Item = Result<&[u8]>>> {
        let (bytes, ends) = self.batch(count)?;
        Ok(keys(bytes, ends).map(|k| k.map_err(|_| Staged::bad_ends())))
    }

    /// An area holding `keys` as JS stages them (for native callers and tests).
    pub fn of(keys: &[&[u8]]) -> Staged {
        let (mut bytes, mut ends) = (Vec::new(), Vec::with_capacity(keys.len()));
        for k in keys {
            bytes.extend_from_slice(k);
            ends.push(bytes.len() as u32);
        }
        Staged { bytes, ends }
    }

    /// The error for ends that are out of order.
    pub fn bad_ends() -> Error {
        Error::bad_argument(Argument::Paths, "the pre-encoded paths' end offsets are not increasing within their bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    #[test]
    fn staged_keys_are_read_only_within_their_bounds() {
        let mut s = Staged::new();
        assert_eq!(s.make_room(5, 2).0.len(), 5);
        s.bytes.copy_from_slice(b"abcde");
        s.ends.copy_from_slice(&[2, 5]);
        let got: Vec<_> = s.each(2).unwrap().map(|k| k.unwrap()).collect();
        assert_eq!(got, [&b"ab"[..], b"cde"]);
        assert_eq!(s.count(), 2);
        assert_eq!(s.key(3).unwrap(), b"abc");
        assert_eq!(s.key(6).unwrap_err().kind, ErrorKind::InvalidArgument);
        assert_eq!(s.batch(3).unwrap_err().kind, ErrorKind::InvalidArgument);
        s.ends.copy_from_slice(&[3, 2]); // out of order
        assert!(s.each(2).unwrap().nth(1).unwrap().is_err());
        s.ends.copy_from_slice(&[2, 9]); // past the bytes
        assert!(s.each(2).unwrap().nth(1).unwrap().is_err());
        assert_eq!(key_list(b"abcde", &[2, 5]).unwrap(), [&b"ab"[..], b"cde"]);
        assert_eq!(key_list(b"abcde", &[2, 1]).unwrap_err().kind, ErrorKind::InvalidArgument);
        assert_eq!(s.key_room(3).len(), 5); // grows only
        assert_eq!(s.key_room(8).len(), 8);
    }
}
