//! The JDK's encode tables for the multi-byte charsets, read in place from
//! `jvm_tables.bin` (written by `scripts/gen-charset-tables.mjs` from a real JVM).
//!
//! Layout, little-endian: `JVMC`, version 1, table count, two zero bytes; then
//! a 36-byte directory entry per table: name (NUL-padded to 16 bytes), base
//! table index or 0xFF, flags (1 = EUC-JP three-byte packing), two zero bytes,
//! runs offset, run count, codes offset, code count (u32 each). A run is 12
//! bytes: first code point, `kind << 24 | length`, value; runs are sorted and
//! do not overlap. Codes are u16.
//!
//! A table with a base stores only the code points where it differs from the
//! base (GB18030 over GBK, x-windows-950 over Big5, windows-31j over Shift_JIS,
//! x-windows-949 over EUC-KR); code points it does not cover come from the base.

static DATA: &[u8] = include_bytes!("jvm_tables.bin");

/// `code = value + i`: one byte below 0x100, else two.
const LINEAR2: u32 = 0;
/// `code = codes[value + i]` (see [`HOLE`], [`NONE`]).
const TABLE2: u32 = 1;
/// GB18030's four-byte form with linear pointer `value + i`.
const LINEAR_GB4: u32 = 2;
/// Every code point of the run is unmappable (overrides the base).
const UNMAPPED: u32 = 3;
/// A table entry not in this table: ask the base, else unmappable. (0xFF is no
/// lead byte in these charsets.)
const HOLE: u16 = 0xffff;
/// A table entry that is unmappable even where the base maps it.
const NONE: u16 = 0xfffe;
/// Flag: EUC-JP's JIS X 0212 codes `8F xx yy` are stored as `xx, yy - 0x80`.
const PACKED_EUC_JP: u8 = 1;

const DIRECTORY: usize = 8;
const ENTRY: usize = 36;
const RUN: usize = 12;

fn u32_at(at: usize) -> u32 {
    u32::from_le_bytes(DATA[at..at + 4].try_into().unwrap())
}

struct Table {
    runs: &'static [u8],
    codes: &'static [u8],
    base: Option<usize>,
    flags: u8,
}

enum Found {
    /// Not in this table (ask the base).
    Hole,
    Unmappable,
    Code(u16),
    Gb18030Pointer(u32),
}

fn table(index: usize) -> Table {
    let at = DIRECTORY + ENTRY * index;
    let runs = u32_at(at + 20) as usize;
    let codes = u32_at(at + 28) as usize;
    Table {
        runs: &DATA[runs..runs + RUN * u32_at(at + 24) as usize],
        codes: &DATA[codes..codes + 2 * u32_at(at + 32) as usize],
        base: (DATA[at + 16] != 0xff).then_some(DATA[at + 16] as usize),
        flags: DATA[at + 17],
    }
}

impl Table {
    fn run(&self, i: usize) -> (u32, u32, u32, u32) {
        let r = &self.runs[RUN * i..RUN * (i + 1)];
        let word = |k: usize| u32::from_le_bytes(r[k..k + 4].try_into().unwrap());
        (word(0), word(4) >> 24, word(4) & 0xff_ffff, word(8))
    }

    /// Binary search for the run holding `cp`.
    fn find(&self, cp: u32) -> Found {
        let count = self.runs.len() / RUN;
        // The first run starting after cp; the run before it may hold cp. The last
        // run is checked first: it holds the supplementary planes in GB18030 and
        // ends below them in every other table.
        let (mut lo, mut hi) = (0, count);
        if count > 0 && self.run(count - 1).0 <= cp {
            lo = count;
        }
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.run(mid).0 <= cp {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if lo == 0 {
            return Found::Hole;
        }
        let (start, kind, len, value) = self.run(lo - 1);
        let i = cp - start;
        if i >= len {
            return Found::Hole;
        }
        match kind {
            LINEAR2 => Found::Code((value + i) as u16),
            TABLE2 => {
                let at = 2 * (value + i) as usize;
                match u16::from_le_bytes([self.codes[at], self.codes[at + 1]]) {
                    HOLE => Found::Hole,
                    NONE => Found::Unmappable,
                    code => Found::Code(code),
                }
            }
            LINEAR_GB4 => Found::Gb18030Pointer(value + i),
            UNMAPPED => Found::Unmappable,
            _ => unreachable!("the generator writes no other run kind"),
        }
    }

    fn push_code(&self, code: u16, out: &mut Vec<u8>) {
        let [hi, lo] = code.to_be_bytes();
        if hi == 0 {
            out.push(lo);
        } else if self.flags & PACKED_EUC_JP != 0 && lo < 0x80 {
            out.extend_from_slice(&[0x8f, hi, lo + 0x80]);
        } else {
            out.extend_from_slice(&[hi, lo]);
        }
    }
}

/// GB18030's four-byte form for a linear pointer (GB 18030 §6: four bytes
/// 0x81-0xFE, 0x30-0x39, 0x81-0xFE, 0x30-0x39 counted in mixed radix).
fn gb18030_bytes(pointer: u32) -> [u8; 4] {
    [
        0x81 + (pointer / 12600) as u8,
        0x30 + (pointer / 1260 % 10) as u8,
        0x81 + (pointer / 10 % 126) as u8,
        0x30 + (pointer % 10) as u8,
    ]
}

/// Appends `text` in table `index`'s charset: one `?` per unmappable code point.
pub(super) fn encode_into(index: usize, text: &str, out: &mut Vec<u8>) {
    let own = table(index);
    let base = own.base.map(table);
    for c in text.chars() {
        let cp = c as u32;
        if cp < 0x80 {
            out.push(cp as u8);
            continue;
        }
        let (found, from) = match (own.find(cp), &base) {
            (Found::Hole, Some(b)) => (b.find(cp), b),
            (f, _) => (f, &own),
        };
        match found {
            Found::Code(code) => from.push_code(code, out),
            Found::Gb18030Pointer(p) => out.extend_from_slice(&gb18030_bytes(p)),
            Found::Hole | Found::Unmappable => out.push(b'?'),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Charset;

    #[test]
    fn directory_matches_the_charsets() {
        assert_eq!(&DATA[..5], b"JVMC\x01");
        let multibyte: Vec<Charset> = Charset::ALL.into_iter().filter(|c| c.is_multibyte()).collect();
        assert_eq!(DATA[5] as usize, multibyte.len());
        for c in multibyte {
            let at = DIRECTORY + ENTRY * c.table_index();
            let name = &DATA[at..at + 16];
            let len = name.iter().position(|&b| b == 0).unwrap_or(16);
            assert_eq!(&name[..len], c.as_str().as_bytes());
            // Runs are sorted and disjoint, so the binary search is sound.
            let t = table(c.table_index());
            for i in 1..t.runs.len() / RUN {
                let (prev, _, len, _) = t.run(i - 1);
                assert!(prev + len <= t.run(i).0, "{} run {i}", c.as_str());
            }
            assert!(t.base.is_none_or(|b| table(b).base.is_none()), "a base has no base");
        }
    }

    #[test]
    fn gb18030_pointer_layout() {
        assert_eq!(gb18030_bytes(0), [0x81, 0x30, 0x81, 0x30]);
        assert_eq!(gb18030_bytes(189000), [0x90, 0x30, 0x81, 0x30]);
    }
}
