//! An opened TsFile: everything the JS API shows, decided here so that the native crate
//! and the wasm package give the same answers, as [`super::view`]'s types.
//!
//! Reading happens in two steps, as in the format: [`read_metadata`](super::read_metadata)
//! parses TsFileMetadata (head, tail and the metadata bytes only) and
//! [`TsFileReader::from_metadata`] holds it; [`TsFileReader::attach_index`] then walks the
//! index region once, audits the filter against it and computes each listed series' verdict.
//! [`TsFileReader::read`] does both from a [`ReadAt`] source.

use super::audit::{self, Audit, Hypothesis};
use super::encoder::{BuiltIn, PathEncoder};
use super::probe::{self, FileProbe, VerdictRule};
use super::verdict::{FileVerdict, Listed, Reason};
use super::view::{lossy_opt, SeriesInfo, TableSchemaInfo};
use super::view::{AuditInfo, BloomInfo, ErrorInfo, FileInfo, FileProbeInfo, Listing, MetadataInfo, PropertyInfo};
use super::{parse_metadata, Envelope, IndexWalk, Paths, Series, TsFileMetadata};
use crate::error::{Error, Result};
use crate::filter::{BloomFilter, FilterHash};
use crate::hash::TailVariant;
use crate::path::Charset;
use crate::source::ReadAt;

/// An opened TsFile. `E` supplies path bytes in JVM charsets ([`BuiltIn`] natively; the
/// wasm module passes the charsets module's encoder).
pub struct TsFileReader<E: PathEncoder = BuiltIn> {
    meta: TsFileMetadata,
    walk: Option<IndexWalk>,
    audit: Option<Audit>,
    /// Every record's path, in walk order.
    paths: Paths,
    /// The soundness rule without overrides of the hash, chosen again with each audit: the
    /// single probes' (choosing it per probe cost ~15 % of `TsFile.probe()`, BENCHMARKS.md).
    rule: VerdictRule,
    /// The indexed series (not time columns) for a probe's `indexed`: an open-addressing
    /// table of `(path hash, record number + 1)`, 0 for an empty slot, at most half full. A
    /// lookup hashes the path once and compares a slot or two, then the path's bytes once
    /// (a sorted array cost ~17 cache misses per lookup on 100,000 series; comparing bytes
    /// first, when the paths of one file share long prefixes, cost more still).
    indexed: Vec<(i32, u32)>,
    /// Per record of the walk, its verdict under the file's rules (the listing's maybePresent).
    verdicts: Vec<Option<bool>>,
    /// The C++ writer's count of the walk's records in index order ([`crate::design::cpp_path_count`]).
    cpp_names: Option<u64>,
    encoder: E,
}

impl TsFileReader<BuiltIn> {
    /// Reads TsFileMetadata and the index from a source, with the built-in charsets.
    pub fn read<R: ReadAt + ?Sized>(src: &R) -> Result<TsFileReader<BuiltIn>> {
        let mut r = TsFileReader::from_metadata(super::read_metadata(src)?, BuiltIn);
        let walk = super::walk_index(src, &r.meta);
        r.attach_walk(walk);
        Ok(r)
    }
}

impl<E: PathEncoder> TsFileReader<E> {
    /// A file whose TsFileMetadata is parsed; the index is not read yet.
    /// From the parts a byte source fetched: the file size, its first bytes, its last bytes and
    /// TsFileMetadata's bytes (which must be exactly the envelope's `metadata_size`).
    pub fn from_parts(file_size: u64, head: &[u8], tail: &[u8], metadata: &[u8], encoder: E) -> Result<Self> {
        let env = Envelope::from_parts(file_size, head, tail)?;
        if metadata.len() as u64 != u64::from(env.metadata_size) {
            return Err(Error::invalid_argument("metadata bytes do not match the envelope's size"));
        }
        Ok(TsFileReader::from_metadata(parse_metadata(env, metadata)?, encoder))
    }

    pub fn from_metadata(meta: TsFileMetadata, encoder: E) -> TsFileReader<E> {
        TsFileReader {
            meta,
            walk: None,
            audit: None,
            rule: VerdictRule::new(None, None, None),
            paths: Paths::default(),
            indexed: Vec::new(),
            verdicts: Vec::new(),
            cpp_names: None,
            encoder,
        }
    }

    pub fn metadata(&self) -> &TsFileMetadata {
        &self.meta
    }

    pub fn filter(&self) -> Option<&BloomFilter> {
        self.meta.bloom.filter.as_ref()
    }

    pub fn audit(&self) -> Option<&Audit> {
        self.audit.as_ref()
    }

    /// `(offset, length)` of the index region [`attach_index`](Self::attach_index) needs.
    pub fn index_range(&self) -> (u64, u64) {
        (self.meta.meta_offset, self.meta.envelope.metadata_offset - self.meta.meta_offset)
    }

    /// Walks the index region `[meta_offset, start of TsFileMetadata)` and audits the filter
    /// against it. Returns the error that stopped the walk (the records before it are kept).
    pub fn attach_index(&mut self, region: &[u8]) -> Option<&Error> {
        let walk = super::walk_index_region(&self.meta, region);
        self.attach_walk(walk);
        self.walk.as_ref().and_then(|w| w.error.as_ref())
    }

    fn attach_walk(&mut self, walk: IndexWalk) {
        self.paths = Paths::new(&walk.series);
        let slots = (2 * walk.series.len() + 1).next_power_of_two();
        self.indexed = vec![(0, 0); slots];
        for (i, s) in walk.series.iter().enumerate() {
            if !s.is_time_column() {
                let h = index_hash(self.paths.get(i));
                let mut at = h as usize & (slots - 1);
                while self.indexed[at].1 != 0 {
                    at = (at + 1) & (slots - 1);
                }
                self.indexed[at] = (h, i as u32 + 1);
            }
        }
        self.cpp_names = Some(crate::design::cpp_path_count(walk.series.iter().map(|s| &s.measurement[..])));
        self.walk = Some(walk);
        self.reaudit();
    }

    /// Audits (when the walk completed) and recomputes the listing's verdicts.
    fn reaudit(&mut self) {
        let Some(walk) = &self.walk else { return };
        self.audit = walk
            .error
            .is_none()
            .then(|| audit::audit_paths(self.meta.bloom.filter.as_ref(), &walk.series, &self.paths, &self.encoder));
        let rule = VerdictRule::new(self.audit.as_ref(), None, None);
        let filter = self.meta.bloom.filter.as_ref();
        // A reproducing hypothesis that hashes as the rule first does (UTF-8, so no encoder
        // is asked) set every bit of each path it inserted as stored: those are "maybe"
        // without hashing them again. Bit `2 × time column + trailing null tag` of `inserted`:
        // such a hypothesis inserted the records of that kind as stored.
        let mut inserted = 0u8;
        for h in self.audit.iter().flat_map(|a| a.matching()) {
            if (h.variant, h.charset) == rule.used() && h.charset == Charset::Utf8 {
                let (t, n) = (u8::from(h.time_columns), u8::from(h.trailing_nulls_kept));
                inserted |= 1 | n << 1 | t << 2 | (t & n) << 3;
            }
        }
        let mut verdicts = Vec::with_capacity(walk.series.len());
        for (i, s) in walk.series.iter().enumerate() {
            verdicts.push(filter.and_then(|filter| {
                if inserted >> (2 * u8::from(s.is_time_column()) + u8::from(s.device.has_trailing_null())) & 1 == 1 {
                    return Some(true);
                }
                match rule.verdict(filter, self.paths.get(i), &self.encoder) {
                    Ok(FileVerdict::Maybe) => Some(true),
                    Ok(FileVerdict::Absent) => Some(false),
                    Ok(FileVerdict::Unknown) | Err(_) => None,
                }
            }));
        }
        self.verdicts = verdicts;
        self.rule = rule;
    }

    /// Replaces the charset encoder; audits again when the last audit wanted charsets it
    /// could not have. Returns whether it audited again.
    pub fn set_encoder(&mut self, encoder: E) -> bool {
        self.encoder = encoder;
        let again = self.audit.as_ref().is_some_and(|a| !a.charsets_unavailable.is_empty());
        if again {
            self.reaudit();
        }
        again
    }

    pub fn encoder(&self) -> &E {
        &self.encoder
    }

    /// The paths the writer inserted, by the index: the series, plus the time columns
    /// unless the reproducing hypothesis leaves them out. None before the audit.
    pub fn indexed_items(&self) -> Option<u64> {
        let a = self.audit.as_ref()?;
        self.meta.bloom.filter.as_ref()?;
        let inserted = a.writer_hypothesis().is_none_or(|i| a.results[i].hypothesis.time_columns);
        Some((a.series_count + if inserted { a.time_column_count } else { 0 }) as u64)
    }

    pub fn bloom_info(&self) -> BloomInfo {
        BloomInfo::of(&self.meta.bloom, self.indexed_items(), self.audit.as_ref().and(self.cpp_names))
    }

    /// TsFileMetadata's warnings, then the index walk's.
    pub fn warnings(&self) -> Vec<ErrorInfo> {
        let walk = self.walk.as_ref().map(|w| &w.warnings[..]).unwrap_or_default();
        self.meta.warnings.iter().chain(walk).map(ErrorInfo::from).collect()
    }

    pub fn file_info(&self) -> FileInfo {
        FileInfo {
            version: self.meta.envelope.version,
            metadata: MetadataInfo::of(&self.meta),
            bloom: self.bloom_info(),
            properties: self.meta.properties.iter().map(PropertyInfo::of).collect(),
            table_schemas: self.meta.table_schemas.iter().map(TableSchemaInfo::of).collect(),
            table_names: self.meta.table_roots.iter().map(|(n, _)| lossy_opt(n)).collect(),
            warnings: self.warnings(),
            audit: self.audit_info(),
            index_error: self.index_error().map(ErrorInfo::from),
        }
    }

    /// The error that stopped the index walk, if any.
    pub fn index_error(&self) -> Option<&Error> {
        self.walk.as_ref().and_then(|w| w.error.as_ref())
    }

    pub fn audit_info(&self) -> Option<AuditInfo> {
        self.audit.as_ref().map(AuditInfo::of)
    }

    /// Every record of the index walk in index order, with its verdict (`maybePresent`).
    /// Empty before the index is read.
    pub fn entries(&self) -> impl Iterator<Item = (&Series, Option<bool>)> {
        let series = self.walk.as_ref().map(|w| &w.series[..]).unwrap_or_default();
        series.iter().zip(self.verdicts.iter().copied())
    }

    /// Every record's path ([`Series::path`]), in the order of [`entries`](Self::entries).
    pub fn paths(&self) -> &Paths {
        &self.paths
    }

    /// The listing: series and time columns in index order.
    pub fn listing(&self) -> Listing {
        let mut out = Listing { series: Vec::new(), time_columns: Vec::new() };
        for (s, v) in self.entries() {
            let item = SeriesInfo::of(s, v);
            if s.is_time_column() { &mut out.time_columns } else { &mut out.series }.push(item);
        }
        out
    }

    /// Whether the index lists `path` (UTF-8, as stored) as a series; None when it cannot tell:
    /// before it is read, or when its walk stopped at an error before listing the path.
    pub fn is_indexed(&self, path: &[u8]) -> Option<bool> {
        self.listed(path).indexed()
    }

    /// What the index says about `path` (UTF-8, as stored): not read, lists it, does not, or
    /// could not be read to its end (and the series listed before the error do not include it).
    pub fn listed(&self, path: &[u8]) -> Listed {
        let Some(walk) = &self.walk else { return Listed::NotRead };
        let h = index_hash(path);
        // At least one slot is empty (the table is at most half full): the search ends.
        let mask = self.indexed.len().wrapping_sub(1);
        let mut at = h as usize;
        while let Some(&(x, i)) = self.indexed.get(at & mask).filter(|e| e.1 != 0) {
            if x == h && self.paths.get(i as usize - 1) == path {
                return Listed::Yes;
            }
            at = at.wrapping_add(1);
        }
        if walk.error.is_some() {
            Listed::Unreadable
        } else {
            Listed::No
        }
    }

    /// Probes one path (UTF-8 bytes as stored in the index) with the file's soundness rules
    /// (docs/bloom-filter.md §7, docs/writers.md §6). `variant`/`charset`: the hash whose
    /// bits are reported (None: the audit's).
    pub fn probe(&self, path: &[u8], variant: Option<TailVariant>, charset: Option<Charset>) -> Result<FileProbeInfo> {
        let listed = self.listed(path);
        let (probe, reason) = match self.probe_filter_reasoned(path, variant, charset)? {
            Some((fp, reason)) => (Some(fp), reason),
            None => (None, self.unprobed_reason()),
        };
        let hash = self.filter().map(|f| f.hash());
        Ok(FileProbeInfo::of(path, probe, hash, reason.sentence(self.audit.as_ref(), listed), listed))
    }

    /// Why a probe of this file is made without its filter ([`probe_filter`](Self::probe_filter)
    /// gives None): the file has none ([`Reason::NoFilter`]), or its hash is one this reader does
    /// not evaluate ([`Reason::CheapHash`]). Either way the verdict is "unknown".
    pub fn unprobed_reason(&self) -> Reason {
        match self.filter() {
            Some(f) if f.hash() == FilterHash::Cheap => Reason::CheapHash,
            _ => Reason::NoFilter,
        }
    }

    /// [`probe`](Self::probe) as the core's values: None when the file has no filter, or one of a
    /// hash this reader does not evaluate (the verdict is then "unknown", for
    /// [`unprobed_reason`](Self::unprobed_reason)).
    pub fn probe_filter(
        &self,
        path: &[u8],
        variant: Option<TailVariant>,
        charset: Option<Charset>,
    ) -> Result<Option<FileProbe>> {
        let reasoned = self.probe_filter_reasoned(path, variant, charset)?;
        Ok(reasoned.map(|(p, reason)| FileProbe { reason: reason.text(self.audit.as_ref()), ..p }))
    }

    /// [`probe_filter`](Self::probe_filter) with the reason unformatted (see
    /// [`probe::probe_file_reasoned`]; [`Reason::sentence`] words it).
    pub fn probe_filter_reasoned(
        &self,
        path: &[u8],
        variant: Option<TailVariant>,
        charset: Option<Charset>,
    ) -> Result<Option<(FileProbe, Reason)>> {
        let Some(filter) = self.meta.bloom.filter.as_ref().filter(|f| f.hash() == FilterHash::Murmur128) else {
            return Ok(None);
        };
        let chosen;
        let rule = match (variant, charset) {
            (None, None) => &self.rule,
            _ => {
                chosen = self.verdict_rule(variant, charset);
                &chosen
            }
        };
        probe::probe_by_rule(filter, rule, path, &self.encoder).map(Some)
    }

    /// The keys the writer inserted under a hypothesis, back to back (`ends[i]`: end of key i):
    /// every series, then the time columns when `time_columns`; each path joined as the writer
    /// joins it (docs/bloom-filter.md §3: trailing null tags kept or dropped) and encoded in
    /// `charset`. Returns `(bytes, ends, series_count)`.
    pub fn writer_keys(
        &self,
        time_columns: bool,
        trailing_nulls_kept: bool,
        charset: Charset,
    ) -> (Vec<u8>, Vec<u32>, usize) {
        let h = Hypothesis { variant: TailVariant::Java, time_columns, trailing_nulls_kept, charset };
        let series = self.walk.as_ref().map(|w| &w.series[..]).unwrap_or_default();
        let (mut bytes, mut ends) = (Vec::new(), Vec::new());
        let mut series_count = 0;
        for pass_time in [false, true] {
            if pass_time && !time_columns {
                break;
            }
            for s in series.iter().filter(|s| s.is_time_column() == pass_time) {
                bytes.extend_from_slice(&h.path(s, &self.encoder));
                ends.push(bytes.len() as u32);
                series_count += usize::from(!pass_time);
            }
        }
        (bytes, ends, series_count)
    }

    /// The verdict rule for a batch (`probeMany`, `mightContainMany`): chosen once.
    pub fn verdict_rule(&self, variant: Option<TailVariant>, charset: Option<Charset>) -> VerdictRule {
        VerdictRule::new(self.audit.as_ref(), variant, charset)
    }

    /// One path's verdict under `rule`; None when the file has no filter ("unknown").
    pub fn verdict(&self, rule: &VerdictRule, path: &[u8]) -> Result<Option<FileVerdict>> {
        match self.meta.bloom.filter.as_ref() {
            None => Ok(None),
            Some(f) => rule.verdict(f, path, &self.encoder).map(Some),
        }
    }
}

/// The hash of the index lookup table (any hash serves; this one is already here, fast).
// Out of line, as the per-record calls of the walk and the audit: called once per record
// (wasm has no on-stack replacement; see `audit::bit_indexes`).
#[inline(never)]
fn index_hash(path: &[u8]) -> i32 {
    crate::hash::hash32(path, 0, TailVariant::Java)
}
