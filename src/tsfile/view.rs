//! What the JS API shows of an opened TsFile: the core's answers as `Serialize` types with
//! camelCase keys (`None` serializes as `null`: JSON, and the wasm layer's serializer), each
//! built here from the format's own types, so the reader decides and the wasm layer only
//! converts (as `crate::leveldb::view` for LevelDB).

use super::audit::{Audit, AuditStatus, HypothesisResult, CHEAP_HASH_WRITER};
use super::probe::FileProbe;
use super::verdict::{Decision, FileVerdict, Listed};
use super::TsFileMetadata;
use super::{category_name, data_type_name, BloomEncoding, BloomField, DataType, Property, Series, TableSchema};
use crate::design::{cpp_sizing_for, filled_past_design};
use crate::error::{hex, Error, ErrorKind};
use crate::filter::{BloomFilter, FilterHash, Probe, SeedProbe, Stats, Verdict};
use crate::hash::{NamedHash, TailVariant};
use crate::health::FilterHealth;
use crate::path::Charset;
use serde::Serialize;

/// Where TsFileMetadata sits.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "TsFileMetadataInfo"))]
pub struct MetadataInfo {
    /// Offset of TsFileMetadata in the file.
    pub offset: u64,
    pub size: u32,
    /// Offset of the index region (the 0x02 separator).
    pub meta_offset: u64,
}

impl MetadataInfo {
    pub fn of(meta: &TsFileMetadata) -> MetadataInfo {
        MetadataInfo {
            offset: meta.envelope.metadata_offset,
            size: meta.envelope.metadata_size,
            meta_offset: meta.meta_offset,
        }
    }
}

/// Where and how the filter is stored, with fill statistics.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct BloomInfo {
    pub present: bool,
    pub encoding: BloomEncoding,
    pub offset: u64,
    pub bits_offset: Option<u64>,
    pub byte_length: Option<u32>,
    /// Also reported for an empty v3 (or legacy C++) filter, which stores its geometry.
    pub bit_count: Option<u32>,
    pub hash_function_count: Option<u32>,
    /// The hash that set the bits (None without a filter): Murmur128, or the experimental
    /// cheap hash, which this reader does not evaluate.
    pub hash: Option<FilterHash>,
    pub set_bits: Option<u64>,
    pub fill_ratio: Option<f64>,
    pub estimated_items: Option<f64>,
    /// Paths the writer inserted according to the index (series, plus time columns when
    /// the audit says they were inserted).
    pub indexed_items: Option<u64>,
    pub fpp_formula: Option<f64>,
    pub fpp_from_fill: Option<f64>,
    pub optimal_k: Option<f64>,
    /// More `indexed_items` than the most keys the writers' sizing plans this m and k for
    /// ([`crate::design`]): sized for fewer keys than it holds. None: unknown.
    pub filled_past_design: Option<bool>,
    /// The C++ writer's sizing recognised in m and k ([`crate::design::cpp_sizing_for`]): the count
    /// of measurement names it sized for, fewer than the `indexed_items` the filter holds. None:
    /// the geometry does not tell that rule, or the index is not read.
    pub cpp_sized_for: Option<u64>,
    /// Its fill and fill^k against its design and the writer's error rate ([`crate::health`]).
    /// None: no geometry any writer's sizing produces (or none at all).
    pub health: Option<FilterHealth>,
}

impl BloomInfo {
    /// The filter field's facts; `indexed_items` (from the audit, None before the index is read)
    /// sets the n of the formula's figures; `cpp_names`, the C++ writer's count of the index
    /// ([`crate::design::cpp_path_count`]), tells whether its sizing rule explains m and k.
    pub fn of(b: &BloomField, indexed_items: Option<u64>, cpp_names: Option<u64>) -> BloomInfo {
        let f = b.filter.as_ref();
        let stats: Option<Stats> = f.map(|f| f.stats(indexed_items.map(|n| n as f64)));
        // An empty v3 (or legacy C++) filter still stores its geometry: reported, with 0 bits set.
        let empty_geometry = if f.is_none() { b.layout.and_then(|l| l.stored_geometry) } else { None };
        let geometry = f.map(|f| (f.bit_count(), f.hash_function_count())).or(empty_geometry);
        BloomInfo {
            present: f.is_some(),
            encoding: b.encoding,
            offset: b.offset,
            bits_offset: b.layout.map(|l| l.bits_offset),
            byte_length: b.layout.map(|l| l.byte_length),
            bit_count: geometry.map(|g| g.0),
            hash_function_count: geometry.map(|g| g.1),
            hash: f.map(BloomFilter::hash),
            set_bits: stats.map(|s| s.set_bits).or(empty_geometry.map(|_| 0)),
            fill_ratio: stats.map(|s| s.fill_ratio),
            estimated_items: stats.map(|s| s.estimated_items),
            indexed_items,
            fpp_formula: stats.map(|s| s.fpp_formula),
            fpp_from_fill: stats.map(|s| s.fpp_from_fill),
            optimal_k: stats.map(|s| s.optimal_k),
            filled_past_design: geometry.and_then(|(m, k)| filled_past_design(m, k, indexed_items)),
            cpp_sized_for: f
                .zip(cpp_names.zip(indexed_items))
                .and_then(|(f, (names, holds))| cpp_sizing_for(f.bit_count(), f.hash_function_count(), names, holds)),
            health: geometry.and_then(|(m, k)| FilterHealth::of(m, k, stats.map(|s| s.fill_ratio), indexed_items)),
        }
    }

    /// A filter with no file (one built in memory, the page's synthetic filter) holding `items`
    /// keys, described as its own encoding ([`BloomFilter::encode`]): `standard`, at offset 0.
    pub fn of_filter(filter: &BloomFilter, items: u64) -> crate::Result<BloomInfo> {
        // Its layout as encoded (an empty vector encodes as no filter, but this one is a filter).
        let (_, layout) = BloomFilter::decode(&filter.encode(), 0)?;
        let field = BloomField {
            offset: 0,
            encoding: BloomEncoding::Standard,
            filter: Some(filter.clone()),
            layout: Some(layout),
        };
        Ok(BloomInfo::of(&field, Some(items), None))
    }
}

/// One listed series (or aligned time column).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SeriesInfo {
    pub path: String,
    pub table: Option<String>,
    /// DeviceID segments; null segments stay null.
    pub device: Vec<Option<String>>,
    pub measurement: String,
    pub data_type: DataType,
    pub offset: u64,
    /// Under the file's soundness rules: true (maybe), false (a sound "absent": the filter
    /// is inconsistent with the index), null (no filter, or bits that cannot be trusted).
    pub maybe_present: Option<bool>,
}

impl SeriesInfo {
    /// One listed record as the API shows it.
    pub fn of(s: &Series, maybe_present: Option<bool>) -> SeriesInfo {
        SeriesInfo {
            path: lossy(&s.path()),
            table: lossy_opt(&s.table),
            device: s.device.segments.iter().map(lossy_opt).collect(),
            measurement: lossy(&s.measurement),
            data_type: s.data_type,
            offset: s.offset,
            maybe_present,
        }
    }
}

/// The listing in index order: series, and the time columns of aligned devices.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Listing {
    pub series: Vec<SeriesInfo>,
    pub time_columns: Vec<SeriesInfo>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "Hypothesis"))]
pub struct HypothesisInfo {
    #[serde(serialize_with = "crate::hash::serialize_variant")]
    #[cfg_attr(test, ts(as = "crate::ts::Variant"))]
    pub variant: TailVariant,
    pub time_columns: bool,
    /// Trailing null tags kept in the path (C++ 2.5.0) or dropped (Java).
    pub trailing_nulls_kept: bool,
    pub charset: Charset,
    pub writer: String,
    pub reproduces: bool,
    pub differing_bits: u64,
    pub indexed_absent: u64,
}

impl HypothesisInfo {
    /// `has_time`: whether the file has time columns (the writer's name depends on it).
    pub fn of(r: &HypothesisResult, has_time: bool) -> HypothesisInfo {
        let h = &r.hypothesis;
        HypothesisInfo {
            variant: h.variant,
            time_columns: h.time_columns,
            trailing_nulls_kept: h.trailing_nulls_kept,
            charset: h.charset,
            writer: h.writer(has_time),
            reproduces: r.reproduces,
            differing_bits: r.differing_bits,
            indexed_absent: r.indexed_absent as u64,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "AuditResult"))]
pub struct AuditInfo {
    pub status: AuditStatus,
    /// [`AuditStatus::consistent`]: the filter agrees with the index (`verify` passes).
    pub consistent: bool,
    pub summary: String,
    /// The established tail variant, or `cheap` for a filter of the cheap hash.
    pub variant: Option<NamedHash>,
    pub charset: Option<Charset>,
    pub charsets: Vec<Charset>,
    pub charsets_unavailable: Vec<Charset>,
    pub writer: Option<String>,
    /// The index in `hypotheses` of the one taken as the writer's ([`Audit::writer_hypothesis`]).
    pub writer_hypothesis: Option<u64>,
    pub series_count: u64,
    pub time_column_count: u64,
    pub non_ascii_tail_paths: u64,
    pub hypotheses: Vec<HypothesisInfo>,
}

impl AuditInfo {
    pub fn of(a: &Audit) -> AuditInfo {
        let has_time = a.time_column_count > 0;
        let chosen = a.writer_hypothesis();
        let cheap = a.status == AuditStatus::UnsupportedHash;
        let writer = match chosen.filter(|_| a.status == AuditStatus::Established) {
            Some(i) => Some(a.results[i].hypothesis.writer(has_time)),
            None => cheap.then(|| CHEAP_HASH_WRITER.to_string()),
        };
        AuditInfo {
            status: a.status,
            consistent: a.status.consistent(),
            summary: a.summary.clone(),
            variant: if cheap { Some(NamedHash::Cheap) } else { a.variant.map(NamedHash::from) },
            charset: a.charset,
            charsets: a.charsets.clone(),
            charsets_unavailable: a.charsets_unavailable.clone(),
            writer,
            writer_hypothesis: chosen.map(|i| i as u64),
            series_count: a.series_count as u64,
            time_column_count: a.time_column_count as u64,
            non_ascii_tail_paths: a.non_ascii_tail_paths as u64,
            hypotheses: a.results.iter().map(|r| HypothesisInfo::of(r, has_time)).collect(),
        }
    }
}

/// A probe under one more candidate hash.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct OtherProbe {
    #[serde(serialize_with = "crate::hash::serialize_variant")]
    #[cfg_attr(test, ts(as = "crate::ts::Variant"))]
    pub variant: TailVariant,
    pub charset: Charset,
    pub verdict: Verdict,
    pub probes: Vec<SeedProbe>,
}

impl From<(TailVariant, Charset, Probe)> for OtherProbe {
    fn from((variant, charset, p): (TailVariant, Charset, Probe)) -> OtherProbe {
        OtherProbe { variant, charset, verdict: p.verdict, probes: p.probes }
    }
}

/// One path probed with the file's soundness rules.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "FileProbeResult"))]
pub struct FileProbeInfo {
    pub path: String,
    pub verdict: FileVerdict,
    /// What the verdict and the index's answer mean together for a reader ([`Decision::of`]).
    pub decision: Decision,
    /// The hash whose bits are reported: a tail variant, or `cheap` for a filter of the cheap
    /// hash (not probed); None without a filter.
    pub variant: Option<NamedHash>,
    pub charset: Option<Charset>,
    pub confirmed: bool,
    pub reason: String,
    /// Whether the index lists this exact series (None before the index is read).
    pub indexed: Option<bool>,
    pub probes: Vec<SeedProbe>,
    pub others: Vec<OtherProbe>,
}

impl FileProbeInfo {
    /// A probe of `path` as the API shows it: `probe` None when the file has no filter, or one
    /// of a hash this reader does not evaluate (the verdict is then "unknown"); `hash`, the
    /// filter's, if any; `reason` is its sentence, `listed` what the index says.
    pub fn of(
        path: &[u8],
        probe: Option<FileProbe>,
        hash: Option<FilterHash>,
        reason: String,
        listed: Listed,
    ) -> FileProbeInfo {
        let verdict = probe.as_ref().map_or(FileVerdict::Unknown, |fp| fp.verdict);
        let mut info = FileProbeInfo {
            path: lossy(path),
            verdict,
            decision: Decision::of(verdict, listed),
            variant: (hash == Some(FilterHash::Cheap)).then_some(NamedHash::Cheap),
            charset: None,
            confirmed: false,
            reason,
            indexed: listed.indexed(),
            probes: Vec::new(),
            others: Vec::new(),
        };
        if let Some(fp) = probe {
            info.variant = Some(NamedHash::Murmur(fp.variant));
            info.charset = Some(fp.charset);
            info.confirmed = fp.confirmed;
            info.probes = fp.probe.probes;
            info.others = fp.others.into_iter().map(OtherProbe::from).collect();
        }
        info
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PropertyInfo {
    pub key: Option<String>,
    pub value: Option<String>,
    /// Hex of the value when it is not UTF-8.
    pub value_hex: Option<String>,
}

impl PropertyInfo {
    pub fn of((k, v): &Property) -> PropertyInfo {
        let text = v.as_deref().map(|b| std::str::from_utf8(b).ok());
        PropertyInfo {
            key: lossy_opt(k),
            value: text.flatten().map(str::to_string),
            value_hex: match (text, v) {
                (Some(None), Some(b)) => Some(hex(b)),
                _ => None,
            },
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ColumnInfo {
    pub name: Option<String>,
    #[cfg_attr(test, ts(as = "crate::ts::ColumnDataType"))]
    pub data_type: String,
    #[cfg_attr(test, ts(as = "crate::ts::ColumnCategory"))]
    pub category: &'static str,
    pub encoding: u8,
    pub compression: u8,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct TableSchemaInfo {
    pub table: Option<String>,
    pub columns: Vec<ColumnInfo>,
}

impl TableSchemaInfo {
    pub fn of(t: &TableSchema) -> TableSchemaInfo {
        TableSchemaInfo {
            table: lossy_opt(&t.table_name),
            columns: t
                .columns
                .iter()
                .map(|c| ColumnInfo {
                    name: lossy_opt(&c.name),
                    data_type: data_type_name(c.data_type),
                    category: category_name(c.category),
                    encoding: c.encoding,
                    compression: c.compression,
                })
                .collect(),
        }
    }
}

/// A non-fatal problem, or the error that stopped the index walk.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "WarningInfo"))]
pub struct ErrorInfo {
    pub kind: ErrorKind,
    pub message: String,
    /// Always known for these errors, which come from the file's bytes.
    pub offset: u64,
}

impl From<&Error> for ErrorInfo {
    fn from(e: &Error) -> ErrorInfo {
        ErrorInfo { kind: e.kind, message: e.message.clone(), offset: e.at() }
    }
}

/// Everything about the file except the listing, in one value: what `TsFile` shows before
/// and after the index is read (`indexedItems`, `audit` and the walk's warnings come with it).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileInfo {
    pub version: u8,
    pub metadata: MetadataInfo,
    pub bloom: BloomInfo,
    pub properties: Vec<PropertyInfo>,
    pub table_schemas: Vec<TableSchemaInfo>,
    pub table_names: Vec<Option<String>>,
    pub warnings: Vec<ErrorInfo>,
    pub audit: Option<AuditInfo>,
    pub index_error: Option<ErrorInfo>,
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

pub(super) fn lossy_opt(b: &Option<Vec<u8>>) -> Option<String> {
    b.as_deref().map(lossy)
}
