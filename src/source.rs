//! Random access to the file being read. The reader only ever asks for the
//! head (7 bytes), the tail (TsFileMetadata and its size) and, to list series,
//! the index region; a source can be a byte slice, a file, or byte ranges a
//! caller fetched asynchronously (JS `Blob.slice`).

use crate::error::{Error, ErrorKind, Result};
use std::cell::Cell;

pub trait ReadAt {
    /// Total size of the file in bytes.
    fn size(&self) -> u64;
    /// Reads exactly `len` bytes at `offset`. The reader checks ranges against
    /// `size()` before calling, so `len` is never sized by an unchecked field.
    fn read_at(&self, offset: u64, len: usize) -> Result<Vec<u8>>;
}

impl ReadAt for [u8] {
    fn size(&self) -> u64 {
        self.len() as u64
    }

    fn read_at(&self, offset: u64, len: usize) -> Result<Vec<u8>> {
        let end = offset.checked_add(len as u64).filter(|&e| e <= self.len() as u64).ok_or_else(|| {
            Error::new(
                ErrorKind::Io,
                offset,
                format!("read of {len} bytes past the end of a {}-byte input", self.len()),
            )
        })?;
        Ok(self[offset as usize..end as usize].to_vec())
    }
}

impl ReadAt for Vec<u8> {
    fn size(&self) -> u64 {
        self.as_slice().size()
    }

    fn read_at(&self, offset: u64, len: usize) -> Result<Vec<u8>> {
        self.as_slice().read_at(offset, len)
    }
}

impl<T: ReadAt + ?Sized> ReadAt for &T {
    fn size(&self) -> u64 {
        (**self).size()
    }

    fn read_at(&self, offset: u64, len: usize) -> Result<Vec<u8>> {
        (**self).read_at(offset, len)
    }
}

/// A file on disk, read with positional reads.
#[cfg(not(target_arch = "wasm32"))]
pub struct FileSource {
    file: std::fs::File,
    size: u64,
}

#[cfg(not(target_arch = "wasm32"))]
impl FileSource {
    pub fn open(path: impl AsRef<std::path::Path>) -> std::io::Result<FileSource> {
        let file = std::fs::File::open(path)?;
        let size = file.metadata()?.len();
        Ok(FileSource { file, size })
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl ReadAt for FileSource {
    fn size(&self) -> u64 {
        self.size
    }

    fn read_at(&self, offset: u64, len: usize) -> Result<Vec<u8>> {
        let mut buf = vec![0u8; len];
        let io = |e: std::io::Error| Error::new(ErrorKind::Io, offset, format!("read failed: {e}"));
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileExt;
            self.file.read_exact_at(&mut buf, offset).map_err(io)?;
        }
        #[cfg(not(unix))]
        {
            use std::io::{Read, Seek, SeekFrom};
            let mut f = &self.file;
            f.seek(SeekFrom::Start(offset)).map_err(io)?;
            f.read_exact(&mut buf).map_err(io)?;
        }
        Ok(buf)
    }
}

/// Byte ranges of a file that a caller has fetched (e.g. from a JS `Blob`).
/// Reads outside them fail with `ErrorKind::Io` naming the missing range, so the
/// caller can fetch it and retry.
#[derive(Default)]
pub struct Ranges {
    size: u64,
    ranges: Vec<(u64, Vec<u8>)>,
}

impl Ranges {
    pub fn new(size: u64) -> Ranges {
        Ranges { size, ranges: Vec::new() }
    }

    pub fn insert(&mut self, offset: u64, bytes: Vec<u8>) {
        self.ranges.push((offset, bytes));
    }
}

impl ReadAt for Ranges {
    fn size(&self) -> u64 {
        self.size
    }

    fn read_at(&self, offset: u64, len: usize) -> Result<Vec<u8>> {
        let end = offset + len as u64;
        for (start, bytes) in &self.ranges {
            if *start <= offset && end <= start + bytes.len() as u64 {
                let from = (offset - start) as usize;
                return Ok(bytes[from..from + len].to_vec());
            }
        }
        Err(Error::new(ErrorKind::Io, offset, format!("bytes {offset}..{end} were not supplied")))
    }
}

/// Wraps a source and counts the bytes read through it (tests use it to show
/// that opening touches only the tail).
pub struct CountingSource<R> {
    pub inner: R,
    pub bytes_read: Cell<u64>,
    pub reads: std::cell::RefCell<Vec<(u64, usize)>>,
}

impl<R: ReadAt> CountingSource<R> {
    pub fn new(inner: R) -> Self {
        CountingSource { inner, bytes_read: Cell::new(0), reads: Default::default() }
    }
}

impl<R: ReadAt> ReadAt for CountingSource<R> {
    fn size(&self) -> u64 {
        self.inner.size()
    }

    fn read_at(&self, offset: u64, len: usize) -> Result<Vec<u8>> {
        self.bytes_read.set(self.bytes_read.get() + len as u64);
        self.reads.borrow_mut().push((offset, len));
        self.inner.read_at(offset, len)
    }
}
