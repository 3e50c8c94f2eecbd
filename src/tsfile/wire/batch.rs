//! Calls over keys the bindings staged ([`Staged`]), taking the codes JS passes — a variant's and
//! a charset's ([`super::NONE`]: automatic) and, for a filter, whether a key is UTF-8 text to
//! re-encode ([`KeyCoding`]) — and answering in the layouts the bindings copy out as typed arrays
//! (one byte per verdict; a filter's probe rows; a single probe's [`record`]). A filter of a hash
//! this reader does not evaluate (the cheap hash) is an `unsupported_hash` error in the filter calls.

use super::scan::TailScan;
use super::{charset_of, filter_charset, filter_variant, record, variant_of};
use crate::encoder::PathEncoder;
use crate::error::Result;
use crate::filter::BloomFilter;
use crate::hash::TailVariant;
use crate::path::{key_bytes, keys_bytes, Charset, KeysBytes};
use crate::staged::{keys, Staged};
use crate::tsfile::TsFileReader;
use crate::verdict::{Decision, FileVerdict, Reason};
use std::borrow::Cow;

/// How a filter call takes its keys: as bytes, or (`text`) as UTF-8 re-encoded in `charset`;
/// hashed with `variant`. Automatic is Java's variant and UTF-8.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyCoding {
    pub text: bool,
    pub variant: TailVariant,
    pub charset: Charset,
}

impl KeyCoding {
    /// From the codes a call passes; an unknown code is a bad argument.
    pub fn of(text: bool, variant: i32, charset: i32) -> Result<KeyCoding> {
        Ok(KeyCoding { text, variant: filter_variant(variant)?, charset: filter_charset(charset)? })
    }

    /// The bytes the filter hashes for `key`.
    pub fn key<'a>(&self, key: &'a [u8]) -> Result<Cow<'a, [u8]>> {
        key_bytes(key, self.text, self.charset)
    }

    /// The first `count` staged keys, coded (borrowed when none changes).
    fn batch<'a>(&self, s: &'a Staged, count: usize) -> Result<KeysBytes<'a>> {
        let (keys, ends) = s.batch(count)?;
        keys_bytes(keys, ends, self.text, self.charset)
    }
}

/// [`BloomFilter::probe_many`] over the first `count` staged keys: per key `1 + 2k` numbers.
pub fn filter_probes(f: &BloomFilter, s: &Staged, count: usize, c: KeyCoding) -> Result<Vec<i32>> {
    let f = f.murmur()?;
    let (keys, ends) = c.batch(s, count)?;
    // Sized by the keys staged (checked against the caller's count), written in place.
    let mut rows = vec![0i32; ends.len() * (1 + 2 * f.hash_function_count() as usize)];
    f.probe_many(&keys, &ends, c.variant, &mut rows).map_err(|_| Staged::bad_ends())?;
    Ok(rows)
}

/// [`BloomFilter::might_contain_many`] over the first `count` staged keys: 1 (maybe) or 0 each.
pub fn filter_verdicts(f: &BloomFilter, s: &Staged, count: usize, c: KeyCoding) -> Result<Vec<u8>> {
    let f = f.murmur()?;
    let (keys, ends) = c.batch(s, count)?;
    let mut out = Vec::with_capacity(ends.len());
    f.might_contain_many(&keys, &ends, c.variant, &mut out).map_err(|_| Staged::bad_ends())?;
    Ok(out)
}

/// [`BloomFilter::add_many`] of the first `count` staged keys.
pub fn filter_add(f: &mut BloomFilter, s: &Staged, count: usize, c: KeyCoding) -> Result<()> {
    f.murmur()?;
    let (keys, ends) = c.batch(s, count)?;
    f.add_many(&keys, &ends, c.variant).map_err(|_| Staged::bad_ends())
}

/// A filter probe of `key` into `out` ([`record::filter_probe`]).
pub fn filter_probe(out: &mut Vec<i32>, f: &BloomFilter, key: &[u8], c: KeyCoding) -> Result<()> {
    record::filter_probe(out, f.murmur()?, &c.key(key)?, c.variant);
    Ok(())
}

/// A file probe of `path` (UTF-8, as stored in the index) with the file's soundness rules into
/// `out` ([`record::file_probe`]): its reason's sentence.
pub fn file_probe<E: PathEncoder>(
    out: &mut Vec<i32>,
    r: &TsFileReader<E>,
    path: &[u8],
    variant: i32,
    charset: i32,
) -> Result<String> {
    let probe = r.probe_filter_reasoned(path, variant_of(variant)?, charset_of(charset)?)?;
    let (listed, reason) = (r.listed(path), probe.as_ref().map_or(r.unprobed_reason(), |p| p.1));
    record::file_probe(out, listed, probe.as_ref().map(|p| &p.0), reason == Reason::CheapHash);
    Ok(reason.sentence(r.audit(), listed))
}

/// What a batch's `indexed` column says of a path; its code is its index ([`indexed_code`]):
/// the index does not list it, lists it, or cannot tell (not read, or the walk stopped first).
pub const INDEXED: [Option<bool>; 3] = [Some(false), Some(true), None];

/// A batch's `indexed` code: its index in [`INDEXED`].
pub fn indexed_code(indexed: Option<bool>) -> u8 {
    indexed.map_or(2, u8::from)
}

/// The file's verdict codes for the first `count` staged paths, one byte each, under the rule
/// for `variant`/`charset` (no filter: unknown). With `decisions`, two columns of as many bytes
/// follow: each path's decision ([`Decision::code`], [`Decision::of`] its verdict and what the
/// index says) and its `indexed` ([`indexed_code`]).
pub fn file_verdicts<E: PathEncoder>(
    r: &TsFileReader<E>,
    s: &Staged,
    count: usize,
    variant: i32,
    charset: i32,
    decisions: bool,
) -> Result<Vec<u8>> {
    let rule = r.verdict_rule(variant_of(variant)?, charset_of(charset)?);
    let mut out = Vec::with_capacity(s.count().min(count));
    let (bytes, ends) = s.batch(count)?;
    let (filter, encoder) = (r.filter(), r.encoder());
    for path in keys(bytes, ends) {
        let path = path.map_err(|_| Staged::bad_ends())?;
        let verdict = match filter {
            Some(f) => rule.verdict(f, path, encoder)?,
            None => FileVerdict::Unknown,
        };
        out.push(verdict.code() as u8);
    }
    if decisions {
        // A second pass, so that the verdicts alone cost what they did.
        let mut indexed = Vec::with_capacity(out.len());
        for (i, path) in keys(bytes, ends).enumerate() {
            let listed = r.listed(path.map_err(|_| Staged::bad_ends())?);
            out.push(Decision::of(FileVerdict::ALL[out[i] as usize], listed).code() as u8);
            indexed.push(indexed_code(listed.indexed()));
        }
        out.append(&mut indexed);
    }
    Ok(out)
}

/// The fast scan of one file ([`TailScan`]) with the verdicts of the first `count` staged
/// paths: its figures, empty when TsFileMetadata lies outside the window.
pub fn scan_figures(
    file_size: u64,
    head: &[u8],
    window: &[u8],
    s: &Staged,
    count: usize,
    encoder: &dyn PathEncoder,
) -> Result<Vec<f64>> {
    let Some(mut scan) = TailScan::read(file_size, head, window)? else { return Ok(Vec::new()) };
    let (bytes, ends) = s.batch(count)?;
    for path in keys(bytes, ends) {
        scan.push_verdict(path.map_err(|_| Staged::bad_ends())?, encoder)?;
    }
    Ok(scan.into_figures())
}
