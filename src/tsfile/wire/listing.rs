//! The listing as columns: what js/wire.js builds `SeriesInfo` objects from (and js/report.js
//! writes `inspect --json` from). Each device's names and each measurement name cross once: the
//! paths of a 100,000-series file are ~5 MB of text, its names ~0.1 MB, and every string JS makes
//! is an allocation the garbage collector then copies (BENCHMARKS.md, "Boundary").
//!
//! [`Columns::text`] is UTF-8 (names decoded lossily, as the API shows them); [`Columns::bounds`]
//! holds (start, end) pairs in `text`, in bytes ([`NULL`] twice for null). Per record, in index
//! order, [`Columns::numbers`] holds [`STRIDE`] numbers: the flags plus 256 × the data type byte,
//! the device's segment count, the measurement's number (names numbered in order of first use),
//! and the offset's low and high 32 bits; and `bounds` holds, in this order:
//!
//! - unless [`SAME_DEVICE`] (the table and device of the record before): the device's path
//!   prefix (its path up to and including the '.' before the measurement; null when the path is
//!   not so made), the table and each segment;
//! - with [`NEW_NAME`] (a measurement name not seen before): that name;
//! - with [`WHOLE_PATH`] (the path is not the prefix followed by the measurement): the path.
//!
//! [`TIME`] marks an aligned device's time column; [`ABSENT`] and [`MAYBE`] the listing's
//! `maybePresent` false and true (neither: null).

use crate::encoder::PathEncoder;
use crate::tsfile::{DeviceId, Series, TsFileReader};
use std::sync::Arc;

/// Numbers per record in [`Columns::numbers`].
pub const STRIDE: usize = 5;
/// A null name's bounds.
pub const NULL: u32 = u32::MAX;
/// Flag: the record is an aligned device's time column.
pub const TIME: u32 = 1;
/// Flag: `maybePresent` is false (a sound "absent": the filter disagrees with the index).
pub const ABSENT: u32 = 2;
/// Flag: `maybePresent` is true.
pub const MAYBE: u32 = 4;
/// Flag: the same table and device as the record before (no device bounds follow).
pub const SAME_DEVICE: u32 = 8;
/// Flag: a measurement name not seen before (its bounds follow).
pub const NEW_NAME: u32 = 16;
/// Flag: the path is given whole (its bounds follow).
pub const WHOLE_PATH: u32 = 32;
/// The flags by name, as js/core-tables.js `LISTING_FLAGS` has them (tests/generated.rs).
pub const FLAGS: [(&str, u32); 6] = [
    ("time", TIME),
    ("absent", ABSENT),
    ("maybe", MAYBE),
    ("same_device", SAME_DEVICE),
    ("new_name", NEW_NAME),
    ("whole_path", WHOLE_PATH),
];

/// The listing's columns (see the module's documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Columns {
    pub text: Vec<u8>,
    pub bounds: Vec<u32>,
    pub numbers: Vec<u32>,
}

/// The listing of an opened file, its index read (empty before), as columns.
pub fn columns<E: PathEncoder>(reader: &TsFileReader<E>) -> Columns {
    let rows = reader.entries().count();
    let mut c = Writer {
        out: Columns { text: Vec::new(), bounds: Vec::with_capacity(rows), numbers: Vec::with_capacity(rows * STRIDE) },
        names: MeasurementNames::default(),
        previous: None,
        prefix: &[],
    };
    for (i, (s, maybe)) in reader.entries().enumerate() {
        c.record(s, maybe, reader.paths().get(i));
    }
    c.out
}

/// Appends `s` (invalid UTF-8 replaced by U+FFFD) to the text and its `(start, end)` in bytes
/// to the bounds; [`NULL`] twice for null.
fn push_text(out: &mut Columns, s: Option<&[u8]>) {
    let Some(b) = s else { return out.bounds.extend_from_slice(&[NULL, NULL]) };
    let start = out.text.len() as u32;
    out.text.extend_from_slice(String::from_utf8_lossy(b).as_bytes());
    out.bounds.extend_from_slice(&[start, out.text.len() as u32]);
}

/// The columns as they are written, record by record.
struct Writer<'a> {
    out: Columns,
    names: MeasurementNames<'a>,
    /// The device of the record before.
    previous: Option<&'a Arc<DeviceId>>,
    /// Its path prefix (empty: none).
    prefix: &'a [u8],
}

impl<'a> Writer<'a> {
    /// One record. Out of line on purpose: called once per record, it is compiled optimised
    /// after a few calls, while a loop inside the one long call would run in the engine's
    /// baseline code to its end (wasm has no on-stack replacement; `inspect --json` lists once).
    #[inline(never)]
    fn record(&mut self, s: &'a Series, maybe: Option<bool>, path: &'a [u8]) {
        let m = &s.measurement[..];
        // The walk shares one device between its records (and a device belongs to one
        // table): a device met again under another index entry is just listed anew.
        let same = self.previous.is_some_and(|d| Arc::ptr_eq(d, &s.device));
        if !same {
            // A path is its device's segments joined, a '.' and the measurement
            // (path::extend_series_path), so the records of one device share the prefix.
            // The '.' ends it: lossy decoding splits there, so the prefix's text followed by
            // the measurement's is the path's text.
            let cut = path.len().wrapping_sub(m.len());
            self.prefix = match path.get(..cut) {
                Some(p) if p.last() == Some(&b'.') => p,
                _ => &[],
            };
            push_text(&mut self.out, Some(self.prefix).filter(|p| !p.is_empty()));
            push_text(&mut self.out, s.table.as_deref());
            for seg in &s.device.segments {
                push_text(&mut self.out, seg.as_deref());
            }
        }
        let (id, new_name) = self.names.number(m);
        if new_name {
            push_text(&mut self.out, Some(m));
        }
        let whole = self.prefix.is_empty() || path.len() != self.prefix.len() + m.len();
        if whole {
            push_text(&mut self.out, Some(path));
        }
        let flags = if s.is_time_column() { TIME } else { 0 }
            | match maybe {
                Some(false) => ABSENT,
                Some(true) => MAYBE,
                None => 0,
            }
            | if same { SAME_DEVICE } else { 0 }
            | if new_name { NEW_NAME } else { 0 }
            | if whole { WHOLE_PATH } else { 0 };
        self.out.numbers.extend_from_slice(&[
            flags | u32::from(s.data_type.to_byte()) << 8,
            s.device.segments.len() as u32,
            id,
            s.offset as u32,
            (s.offset >> 32) as u32,
        ]);
        self.previous = Some(&s.device);
    }
}

/// Numbers the measurement names of a listing in order of first use: an open-addressing table
/// of `(FNV-1a hash, number + 1)` (0: an empty slot), at most half full.
#[derive(Default)]
struct MeasurementNames<'a> {
    slots: Vec<(u32, u32)>,
    names: Vec<&'a [u8]>,
}

impl<'a> MeasurementNames<'a> {
    /// The number of `name`, and whether it is new.
    fn number(&mut self, name: &'a [u8]) -> (u32, bool) {
        if 2 * (self.names.len() + 1) > self.slots.len() {
            let size = (2 * self.slots.len()).max(64);
            let old = std::mem::replace(&mut self.slots, vec![(0, 0); size]);
            for &(h, n) in &old {
                if n != 0 {
                    let at = self.find(h, |_| false);
                    self.slots[at] = (h, n);
                }
            }
        }
        let h = name.iter().fold(0x811c_9dc5u32, |h, &b| (h ^ b as u32).wrapping_mul(0x0100_0193));
        let at = self.find(h, |n| self.names[n as usize - 1] == name);
        match self.slots[at].1 {
            0 => {
                self.names.push(name);
                self.slots[at] = (h, self.names.len() as u32);
                (self.names.len() as u32 - 1, true)
            }
            n => (n - 1, false),
        }
    }

    /// The slot holding hash `h` whose number `is` the one, or the empty slot where it goes.
    fn find(&self, h: u32, is: impl Fn(u32) -> bool) -> usize {
        let mask = self.slots.len() - 1;
        let mut at = h as usize & mask;
        while let (sh, n @ 1..) = self.slots[at] {
            if sh == h && is(n) {
                break;
            }
            at = (at + 1) & mask;
        }
        at
    }
}
