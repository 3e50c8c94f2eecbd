//! Random access to the file being read. The reader only ever asks for the
//! head (7 bytes), the tail (TsFileMetadata and its size) and, to list series,
//! the index region; a source can be a byte slice, a file, or byte ranges a
//! caller fetched asynchronously (JS `Blob.slice`).

use crate::error::{Error, ErrorKind, Result};

/// Random access to a file's bytes, by position: the reader never seeks, so a source can be
/// shared (`&R`) between threads when it is `Sync`, as every source here is except
/// [`CountingSource`].
pub trait ReadAt {
    /// Total size of the file in bytes. Fails (kind `io`) only for a source that must ask the
    /// operating system, such as a [`std::fs::File`].
    fn size(&self) -> Result<u64>;
    /// Reads exactly `len` bytes at `offset`. The reader checks ranges against
    /// `size()` before calling, so `len` is never sized by an unchecked field.
    fn read_at(&self, offset: u64, len: usize) -> Result<Vec<u8>>;
}

impl ReadAt for [u8] {
    fn size(&self) -> Result<u64> {
        Ok(self.len() as u64)
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

impl<T: ReadAt + ?Sized> ReadAt for &T {
    fn size(&self) -> Result<u64> {
        (**self).size()
    }

    fn read_at(&self, offset: u64, len: usize) -> Result<Vec<u8>> {
        (**self).read_at(offset, len)
    }
}

/// An open file, read with positional reads (`pread` on Unix, `ReadFile` at an offset on
/// Windows): the file's cursor is never used, so one `File` can serve several threads at once.
/// `size()` asks the operating system each time (the reader asks once per open); a
/// [`FileSource`] asks once. With `std::os::unix::fs::FileExt` also in scope, call this one as
/// `ReadAt::read_at(&file, offset, len)` (both traits have a `read_at`).
#[cfg(any(unix, windows))]
impl ReadAt for std::fs::File {
    fn size(&self) -> Result<u64> {
        let meta = self
            .metadata()
            .map_err(|e| Error::without_offset(ErrorKind::Io, format!("the file's size could not be read: {e}")))?;
        Ok(meta.len())
    }

    fn read_at(&self, offset: u64, len: usize) -> Result<Vec<u8>> {
        let mut buf = vec![0u8; len];
        #[cfg(unix)]
        let read = std::os::unix::fs::FileExt::read_exact_at(self, &mut buf, offset);
        #[cfg(windows)]
        let read = read_exact_at_windows(self, &mut buf, offset);
        read.map_err(|e| Error::new(ErrorKind::Io, offset, format!("read of {len} bytes failed: {e}")))?;
        Ok(buf)
    }
}

/// `read_exact_at` for Windows, whose `seek_read` may return fewer bytes than asked for.
#[cfg(windows)]
fn read_exact_at_windows(file: &std::fs::File, mut buf: &mut [u8], mut offset: u64) -> std::io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !buf.is_empty() {
        match file.seek_read(buf, offset) {
            Ok(0) => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// A file on disk with its size read once at open, read with positional reads (as
/// [`std::fs::File`]'s [`ReadAt`]).
#[cfg(any(unix, windows))]
#[derive(Debug)]
pub struct FileSource {
    file: std::fs::File,
    size: u64,
}

#[cfg(any(unix, windows))]
impl FileSource {
    /// Opens `path` and reads its size. The `std::io::Error` converts into [`Error`] (kind
    /// `io`) with `?`.
    pub fn open(path: impl AsRef<std::path::Path>) -> std::io::Result<FileSource> {
        let file = std::fs::File::open(path)?;
        let size = file.metadata()?.len();
        Ok(FileSource { file, size })
    }

    /// The open file.
    pub fn file(&self) -> &std::fs::File {
        &self.file
    }
}

#[cfg(any(unix, windows))]
impl ReadAt for FileSource {
    fn size(&self) -> Result<u64> {
        Ok(self.size)
    }

    fn read_at(&self, offset: u64, len: usize) -> Result<Vec<u8>> {
        self.file.read_at(offset, len)
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
    fn size(&self) -> Result<u64> {
        Ok(self.size)
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

/// Wraps a source and records each read through it, (offset, len) (tests use it to show
/// that opening touches only the tail).
pub struct CountingSource<R> {
    pub inner: R,
    pub reads: std::cell::RefCell<Vec<(u64, usize)>>,
}

impl<R: ReadAt> CountingSource<R> {
    pub fn new(inner: R) -> Self {
        CountingSource { inner, reads: Default::default() }
    }
}

impl<R: ReadAt> ReadAt for CountingSource<R> {
    fn size(&self) -> Result<u64> {
        self.inner.size()
    }

    fn read_at(&self, offset: u64, len: usize) -> Result<Vec<u8>> {
        self.reads.borrow_mut().push((offset, len));
        self.inner.read_at(offset, len)
    }
}
