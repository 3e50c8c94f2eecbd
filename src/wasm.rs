//! The `#[wasm_bindgen]` surface: thin adapters from the core to JS. The public
//! JS API (argument parsing, strings → bytes, result objects) lives in `js/`;
//! these functions take bytes and names and return plain data.

use crate::error::Error;
use crate::filter::{BloomFilter, Verdict};
use crate::hash::{self, TailVariant};
use crate::path::{transcode, Charset};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// A JS `Error` with `kind` and `offset` properties.
fn js_error(e: &Error) -> JsValue {
    let err = js_sys::Error::new(&e.to_string());
    let _ = js_sys::Reflect::set(&err, &"kind".into(), &e.kind.as_str().into());
    let _ = js_sys::Reflect::set(&err, &"offset".into(), &JsValue::from_f64(e.offset as f64));
    err.into()
}

fn variant(name: &str) -> Result<TailVariant, JsValue> {
    TailVariant::from_name(name).ok_or_else(|| {
        js_error(&Error::invalid_argument(format!("unknown hash variant {name:?}; expected \"java\" or \"zero-extended\"")))
    })
}

fn charset(name: &str) -> Result<Charset, JsValue> {
    Charset::from_name(name).map_err(|e| js_error(&e))
}

/// `text`: the key is UTF-8 from a JS string and is re-encoded in `charset`;
/// otherwise the caller's bytes are hashed as they are.
fn key_bytes<'a>(key: &'a [u8], text: bool, charset: Charset) -> Result<std::borrow::Cow<'a, [u8]>, JsValue> {
    if text {
        transcode(key, charset).map_err(|e| js_error(&e))
    } else {
        Ok(std::borrow::Cow::Borrowed(key))
    }
}

#[wasm_bindgen(js_name = hash32)]
pub fn hash32_js(key: &[u8], seed: u32, variant_name: &str) -> Result<i32, JsValue> {
    Ok(hash::hash32(key, seed, variant(variant_name)?))
}

#[wasm_bindgen(js_name = bitIndex)]
pub fn bit_index_js(hash32: i32, bit_count: u32) -> Result<u32, JsValue> {
    if bit_count == 0 {
        return Err(js_error(&Error::invalid_argument("bit_count must be positive")));
    }
    Ok(hash::bit_index(hash32, bit_count))
}

/// A JS string's UTF-8 bytes re-encoded in a single-byte charset (UTF-8, windows-1252, ISO-8859-1).
#[wasm_bindgen(js_name = encodeText)]
pub fn encode_text(utf8: &[u8], charset_name: &str) -> Result<Vec<u8>, JsValue> {
    Ok(transcode(utf8, charset(charset_name)?).map_err(|e| js_error(&e))?.into_owned())
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SeedProbeJs {
    seed: u32,
    hash32: i32,
    bit: u32,
    set: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ProbeJs {
    verdict: &'static str,
    variant: &'static str,
    charset: &'static str,
    probes: Vec<SeedProbeJs>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct StatsJs {
    bit_count: u32,
    hash_function_count: u32,
    set_bits: f64,
    fill_ratio: f64,
    estimated_items: f64,
    items: f64,
    fpp_formula: f64,
    fpp_from_fill: f64,
    optimal_k: f64,
}

fn to_js<T: Serialize>(v: &T) -> Result<JsValue, JsValue> {
    // Plain objects, not Maps; non-finite floats stay numbers (Infinity).
    v.serialize(&serde_wasm_bindgen::Serializer::new().serialize_maps_as_objects(true))
        .map_err(|e| JsValue::from(js_sys::Error::new(&e.to_string())))
}

#[wasm_bindgen]
pub struct WasmBloomFilter {
    inner: BloomFilter,
}

#[wasm_bindgen]
impl WasmBloomFilter {
    /// Decodes a whole serialized filter; `undefined` for the "no filter" encoding.
    pub fn decode(bytes: &[u8]) -> Result<Option<WasmBloomFilter>, JsValue> {
        let (filter, layout) = BloomFilter::decode(bytes, 0).map_err(|e| js_error(&e))?;
        if layout.encoded_len as usize != bytes.len() {
            return Err(js_error(&Error::new(
                crate::ErrorKind::TrailingBytes,
                layout.encoded_len,
                format!("{} bytes follow the end of the filter structure", bytes.len() as u64 - layout.encoded_len),
            )));
        }
        Ok(filter.map(|inner| WasmBloomFilter { inner }))
    }

    #[wasm_bindgen(js_name = withCapacity)]
    pub fn with_capacity(n: f64, error_rate: f64) -> Result<WasmBloomFilter, JsValue> {
        if !(n.fract() == 0.0 && (0.0..=i32::MAX as f64).contains(&n)) {
            return Err(js_error(&Error::invalid_argument("capacity must be an integer in 0..=2147483647")));
        }
        Ok(WasmBloomFilter { inner: BloomFilter::with_capacity(n as i32, error_rate) })
    }

    #[wasm_bindgen(js_name = withGeometry)]
    pub fn with_geometry(bit_count: u32, hash_function_count: u32) -> Result<WasmBloomFilter, JsValue> {
        Ok(WasmBloomFilter { inner: BloomFilter::new(bit_count, hash_function_count).map_err(|e| js_error(&e))? })
    }

    pub fn add(&mut self, key: &[u8], text: bool, variant_name: &str, charset_name: &str) -> Result<(), JsValue> {
        let cs = charset(charset_name)?;
        self.inner.add(&key_bytes(key, text, cs)?, variant(variant_name)?);
        Ok(())
    }

    pub fn probe(&self, key: &[u8], text: bool, variant_name: &str, charset_name: &str) -> Result<JsValue, JsValue> {
        let v = variant(variant_name)?;
        let cs = charset(charset_name)?;
        let p = self.inner.probe(&key_bytes(key, text, cs)?, v);
        to_js(&ProbeJs {
            verdict: p.verdict.as_str(),
            variant: v.as_str(),
            charset: if text { cs.as_str() } else { "bytes" },
            probes: p.probes.iter().map(|s| SeedProbeJs { seed: s.seed, hash32: s.hash32, bit: s.bit, set: s.set }).collect(),
        })
    }

    /// Probes many keys in one call. `packed` holds the keys back to back; `ends[i]` is
    /// the end of key i. Returns `1 + 2k` numbers per key: a bit mask of the seeds whose
    /// bit is set, then `(hash32, bit)` per seed.
    #[wasm_bindgen(js_name = probeMany)]
    pub fn probe_many(
        &self,
        packed: &[u8],
        ends: &[u32],
        text: bool,
        variant_name: &str,
        charset_name: &str,
    ) -> Result<Vec<i32>, JsValue> {
        let v = variant(variant_name)?;
        let cs = charset(charset_name)?;
        let k = self.inner.hash_function_count() as usize;
        let mut out = Vec::with_capacity(ends.len() * (1 + 2 * k));
        let mut start = 0usize;
        for &end in ends {
            let end = end as usize;
            let key = packed.get(start..end).ok_or_else(|| {
                js_error(&Error::invalid_argument(format!("key range {start}..{end} is outside the packed buffer")))
            })?;
            let p = self.inner.probe(&key_bytes(key, text, cs)?, v);
            let mask = p.probes.iter().enumerate().fold(0i32, |m, (j, s)| m | ((s.set as i32) << j));
            out.push(mask);
            for s in &p.probes {
                out.push(s.hash32);
                out.push(s.bit as i32);
            }
            debug_assert_eq!(p.verdict == Verdict::Maybe, mask == (1 << k) - 1);
            start = end;
        }
        Ok(out)
    }

    pub fn encode(&self) -> Vec<u8> {
        self.inner.encode()
    }

    /// The logical `ceil(bitCount / 8)`-byte vector, LSB-first.
    pub fn bits(&self) -> Vec<u8> {
        self.inner.logical_bits()
    }

    #[wasm_bindgen(getter, js_name = bitCount)]
    pub fn bit_count(&self) -> u32 {
        self.inner.bit_count()
    }

    #[wasm_bindgen(getter, js_name = hashFunctionCount)]
    pub fn hash_function_count(&self) -> u32 {
        self.inner.hash_function_count()
    }

    #[wasm_bindgen(getter, js_name = byteLength)]
    pub fn byte_length(&self) -> u32 {
        self.inner.byte_length()
    }

    #[wasm_bindgen(getter, js_name = setBits)]
    pub fn set_bits(&self) -> f64 {
        self.inner.set_bits() as f64
    }

    pub fn stats(&self, items: Option<f64>) -> Result<JsValue, JsValue> {
        let s = self.inner.stats(items);
        to_js(&StatsJs {
            bit_count: s.bit_count,
            hash_function_count: s.hash_function_count,
            set_bits: s.set_bits as f64,
            fill_ratio: s.fill_ratio,
            estimated_items: s.estimated_items,
            items: s.items,
            fpp_formula: s.fpp_formula,
            fpp_from_fill: s.fpp_from_fill,
            optimal_k: s.optimal_k,
        })
    }
}

// ---------------------------------------------------------------------------
// TsFile: the JS side fetches byte ranges (Blob.slice, positional reads) and
// hands them over; parsing happens here.

use crate::audit::{self, Audit, AuditStatus, FileVerdict};
use crate::source::Ranges;
use crate::tsfile::{self, Envelope, IndexWalk, Series, TsFileMetadata};
use std::collections::HashSet;

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn opt_lossy(b: &Option<Vec<u8>>) -> Option<String> {
    b.as_deref().map(lossy)
}

#[derive(Serialize)]
struct ErrorJs {
    kind: &'static str,
    message: String,
    offset: f64,
}

impl From<&Error> for ErrorJs {
    fn from(e: &Error) -> ErrorJs {
        ErrorJs { kind: e.kind.as_str(), message: e.to_string(), offset: e.offset as f64 }
    }
}

#[derive(Serialize)]
struct EnvelopeJs {
    file_size: f64,
    version: u8,
    metadata_offset: f64,
    metadata_size: u32,
}

/// Step 1: from the file size, its first 7 bytes and its last 10, where TsFileMetadata is.
#[wasm_bindgen(js_name = tsfileEnvelope)]
pub fn tsfile_envelope(file_size: f64, head: Vec<u8>, tail: Vec<u8>) -> Result<JsValue, JsValue> {
    let env = envelope_from(file_size, head, tail).map_err(|e| js_error(&e))?;
    to_js(&EnvelopeJs {
        file_size: env.file_size as f64,
        version: env.version,
        metadata_offset: env.metadata_offset as f64,
        metadata_size: env.metadata_size,
    })
}

fn envelope_from(file_size: f64, head: Vec<u8>, tail: Vec<u8>) -> crate::Result<Envelope> {
    let size = file_size as u64;
    let mut r = Ranges::new(size);
    let tail_len = tail.len() as u64;
    r.insert(0, head);
    r.insert(size.saturating_sub(tail_len), tail);
    tsfile::read_envelope(&r)
}

#[wasm_bindgen]
pub struct WasmTsFile {
    meta: TsFileMetadata,
    walk: Option<IndexWalk>,
    audit: Option<Audit>,
    indexed: HashSet<Vec<u8>>,
}

#[derive(Serialize)]
struct ColumnJs {
    name: Option<String>,
    data_type: String,
    category: &'static str,
    encoding: u8,
    compression: u8,
}

#[derive(Serialize)]
struct TableSchemaJs {
    table: Option<String>,
    columns: Vec<ColumnJs>,
}

#[derive(Serialize)]
struct BloomJs {
    present: bool,
    encoding: &'static str,
    offset: f64,
    bits_offset: Option<f64>,
    byte_length: Option<u32>,
    bit_count: Option<u32>,
    hash_function_count: Option<u32>,
    set_bits: Option<f64>,
    fill_ratio: Option<f64>,
    estimated_items: Option<f64>,
    /// Items the index says were inserted (series + time columns when inserted), once known.
    indexed_items: Option<f64>,
    fpp_formula: Option<f64>,
    fpp_from_fill: Option<f64>,
    optimal_k: Option<f64>,
}

#[derive(Serialize)]
struct MetadataJs {
    offset: f64,
    size: u32,
    meta_offset: f64,
}

#[derive(Serialize)]
struct HypothesisJs {
    variant: &'static str,
    time_columns: bool,
    trailing_null_tags: &'static str,
    charset: &'static str,
    writer: String,
    reproduces: bool,
    differing_bits: f64,
    indexed_absent: usize,
}

#[derive(Serialize)]
struct AuditJs {
    status: &'static str,
    summary: String,
    variant: Option<&'static str>,
    charset: Option<&'static str>,
    writer: Option<String>,
    series_count: usize,
    time_column_count: usize,
    non_ascii_tail_paths: usize,
    hypotheses: Vec<HypothesisJs>,
}

#[derive(Serialize)]
struct SeriesJs {
    path: String,
    table: Option<String>,
    device: Vec<Option<String>>,
    measurement: String,
    data_type: &'static str,
    offset: f64,
    maybe_present: Option<bool>,
}

#[derive(Serialize)]
struct PropertyJs {
    key: Option<String>,
    value: Option<String>,
    /// Hex of the value when it is not valid UTF-8.
    value_hex: Option<String>,
}

fn category_name(c: i32) -> &'static str {
    match c {
        0 => "TAG",
        1 => "FIELD",
        2 => "ATTRIBUTE",
        3 => "TIME",
        _ => "UNKNOWN",
    }
}

fn data_type_name(b: u8) -> String {
    tsfile::DataType::from_byte(b).map(|d| d.as_str().to_string()).unwrap_or_else(|| format!("UNKNOWN({b})"))
}

fn audit_js(a: &Audit) -> AuditJs {
    AuditJs {
        status: a.status.as_str(),
        summary: a.summary.clone(),
        variant: a.variant.map(|v| v.as_str()),
        charset: a.charset.map(|c| c.as_str()),
        writer: (a.status == AuditStatus::Established).then(|| a.matching().next().map(|h| h.writer())).flatten(),
        series_count: a.series_count,
        time_column_count: a.time_column_count,
        non_ascii_tail_paths: a.non_ascii_tail_paths,
        hypotheses: a
            .results
            .iter()
            .map(|r| HypothesisJs {
                variant: r.hypothesis.variant.as_str(),
                time_columns: r.hypothesis.time_columns,
                trailing_null_tags: if r.hypothesis.trailing_nulls_kept { "kept" } else { "dropped" },
                charset: r.hypothesis.charset.as_str(),
                writer: r.hypothesis.writer(),
                reproduces: r.reproduces,
                differing_bits: r.differing_bits as f64,
                indexed_absent: r.indexed_absent,
            })
            .collect(),
    }
}

#[wasm_bindgen]
impl WasmTsFile {
    /// Step 2: parse TsFileMetadata from its bytes.
    pub fn open(file_size: f64, head: Vec<u8>, tail: Vec<u8>, metadata: Vec<u8>) -> Result<WasmTsFile, JsValue> {
        let env = envelope_from(file_size, head, tail).map_err(|e| js_error(&e))?;
        if metadata.len() != env.metadata_size as usize {
            return Err(js_error(&Error::invalid_argument("metadata bytes do not match the envelope's size")));
        }
        let meta = tsfile::parse_metadata(env, &metadata).map_err(|e| js_error(&e))?;
        Ok(WasmTsFile { meta, walk: None, audit: None, indexed: HashSet::new() })
    }

    #[wasm_bindgen(getter)]
    pub fn version(&self) -> u8 {
        self.meta.envelope.version
    }

    /// `[offset, length]` of the index region that `attachIndex` needs.
    #[wasm_bindgen(js_name = indexRange)]
    pub fn index_range(&self) -> Vec<f64> {
        vec![self.meta.meta_offset as f64, (self.meta.envelope.metadata_offset - self.meta.meta_offset) as f64]
    }

    /// Step 3: walk the index region and audit the filter against it. Returns the
    /// error that stopped the walk (partial series are kept), or undefined.
    #[wasm_bindgen(js_name = attachIndex)]
    pub fn attach_index(&mut self, region: &[u8]) -> JsValue {
        let walk = tsfile::walk_index_region(&self.meta, region);
        let audit = if walk.error.is_none() { Some(audit::audit(self.meta.bloom.filter.as_ref(), &walk.series)) } else { None };
        self.indexed = walk.series.iter().filter(|s| !s.is_time_column()).map(Series::path).collect();
        let err = walk.error.as_ref().map(|e| js_error(e)).unwrap_or(JsValue::UNDEFINED);
        self.walk = Some(walk);
        self.audit = audit;
        err
    }

    #[wasm_bindgen(js_name = hasIndex)]
    pub fn has_index(&self) -> bool {
        self.walk.is_some()
    }

    /// The decoded filter (a copy), or undefined.
    #[wasm_bindgen(js_name = bloomFilter)]
    pub fn bloom_filter(&self) -> Option<WasmBloomFilter> {
        self.meta.bloom.filter.clone().map(|inner| WasmBloomFilter { inner })
    }

    pub fn metadata(&self) -> Result<JsValue, JsValue> {
        to_js(&MetadataJs {
            offset: self.meta.envelope.metadata_offset as f64,
            size: self.meta.envelope.metadata_size,
            meta_offset: self.meta.meta_offset as f64,
        })
    }

    pub fn bloom(&self) -> Result<JsValue, JsValue> {
        let b = &self.meta.bloom;
        let f = b.filter.as_ref();
        let indexed_items = self.audit.as_ref().and_then(|a| {
            let inserted = a.matching().next().is_none_or(|h| h.time_columns);
            f.map(|_| (a.series_count + if inserted { a.time_column_count } else { 0 }) as f64)
        });
        let stats = f.map(|f| f.stats(indexed_items));
        to_js(&BloomJs {
            present: f.is_some(),
            encoding: b.encoding.as_str(),
            offset: b.offset as f64,
            bits_offset: b.layout.map(|l| l.bits_offset as f64),
            byte_length: b.layout.map(|l| l.byte_length),
            bit_count: f.map(|f| f.bit_count()),
            hash_function_count: f.map(|f| f.hash_function_count()),
            set_bits: stats.map(|s| s.set_bits as f64),
            fill_ratio: stats.map(|s| s.fill_ratio),
            estimated_items: stats.map(|s| s.estimated_items),
            indexed_items,
            fpp_formula: stats.map(|s| s.fpp_formula),
            fpp_from_fill: stats.map(|s| s.fpp_from_fill),
            optimal_k: stats.map(|s| s.optimal_k),
        })
    }

    pub fn properties(&self) -> Result<JsValue, JsValue> {
        let props: Vec<PropertyJs> = self
            .meta
            .properties
            .iter()
            .map(|(k, v)| {
                let utf8 = v.as_deref().map(|b| std::str::from_utf8(b).is_ok()).unwrap_or(true);
                PropertyJs {
                    key: opt_lossy(k),
                    value: if utf8 { opt_lossy(v) } else { None },
                    value_hex: if utf8 { None } else { v.as_deref().map(|b| b.iter().map(|x| format!("{x:02x}")).collect()) },
                }
            })
            .collect();
        to_js(&props)
    }

    #[wasm_bindgen(js_name = tableSchemas)]
    pub fn table_schemas(&self) -> Result<JsValue, JsValue> {
        let schemas: Vec<TableSchemaJs> = self
            .meta
            .table_schemas
            .iter()
            .map(|t| TableSchemaJs {
                table: opt_lossy(&t.table_name),
                columns: t
                    .columns
                    .iter()
                    .map(|c| ColumnJs {
                        name: opt_lossy(&c.name),
                        data_type: data_type_name(c.data_type),
                        category: category_name(c.category),
                        encoding: c.encoding,
                        compression: c.compression,
                    })
                    .collect(),
            })
            .collect();
        to_js(&schemas)
    }

    #[wasm_bindgen(js_name = tableNames)]
    pub fn table_names(&self) -> Result<JsValue, JsValue> {
        let names: Vec<Option<String>> = self.meta.table_roots.iter().map(|(n, _)| opt_lossy(n)).collect();
        to_js(&names)
    }

    pub fn warnings(&self) -> Result<JsValue, JsValue> {
        let mut w: Vec<ErrorJs> = self.meta.warnings.iter().map(ErrorJs::from).collect();
        if let Some(walk) = &self.walk {
            w.extend(walk.warnings.iter().map(ErrorJs::from));
        }
        to_js(&w)
    }

    pub fn audit(&self) -> Result<JsValue, JsValue> {
        match &self.audit {
            Some(a) => to_js(&audit_js(a)),
            None => Ok(JsValue::NULL),
        }
    }

    fn maybe_present(&self, path: &[u8]) -> Option<bool> {
        let f = self.meta.bloom.filter.as_ref()?;
        Some(match self.audit.as_ref().filter(|a| a.status == AuditStatus::Established) {
            Some(a) => match transcode(path, a.charset.unwrap_or_default()) {
                Ok(k) => f.might_contain(&k, a.variant.unwrap_or(TailVariant::Java)),
                Err(_) => true,
            },
            None => TailVariant::ALL.iter().any(|&v| f.might_contain(path, v)),
        })
    }

    /// `{series, time_columns}` as listed by the index (requires attachIndex).
    pub fn series(&self) -> Result<JsValue, JsValue> {
        #[derive(Serialize)]
        struct Listing {
            series: Vec<SeriesJs>,
            time_columns: Vec<SeriesJs>,
        }
        let mut listing = Listing { series: Vec::new(), time_columns: Vec::new() };
        if let Some(walk) = &self.walk {
            for s in &walk.series {
                let path = s.path();
                let item = SeriesJs {
                    path: lossy(&path),
                    table: opt_lossy(&s.table),
                    device: s.device.segments.iter().map(opt_lossy).collect(),
                    measurement: lossy(&s.measurement),
                    data_type: s.data_type.as_str(),
                    offset: s.offset as f64,
                    maybe_present: self.maybe_present(&path),
                };
                if s.is_time_column() {
                    listing.time_columns.push(item);
                } else {
                    listing.series.push(item);
                }
            }
        }
        to_js(&listing)
    }

    /// Probes one path (UTF-8 bytes as stored in the index) with soundness rules.
    /// `variant`/`charset`: "" for automatic.
    pub fn probe(&self, path: &[u8], variant_name: &str, charset_name: &str) -> Result<JsValue, JsValue> {
        #[derive(Serialize)]
        struct OtherJs {
            variant: &'static str,
            charset: &'static str,
            verdict: &'static str,
            probes: Vec<SeedProbeJs>,
        }
        #[derive(Serialize)]
        struct FileProbeJs {
            path: String,
            verdict: &'static str,
            variant: Option<&'static str>,
            charset: Option<&'static str>,
            confirmed: bool,
            reason: String,
            /// Whether the index lists this exact series (null before the index is read).
            indexed: Option<bool>,
            probes: Vec<SeedProbeJs>,
            others: Vec<OtherJs>,
        }
        let seeds = |p: &crate::filter::Probe| -> Vec<SeedProbeJs> {
            p.probes.iter().map(|s| SeedProbeJs { seed: s.seed, hash32: s.hash32, bit: s.bit, set: s.set }).collect()
        };
        let v = if variant_name.is_empty() { None } else { Some(variant(variant_name)?) };
        let cs = if charset_name.is_empty() { None } else { Some(charset(charset_name)?) };
        let indexed = self.walk.as_ref().map(|_| self.indexed.contains(path));
        let Some(filter) = self.meta.bloom.filter.as_ref() else {
            return to_js(&FileProbeJs {
                path: lossy(path),
                verdict: "unknown",
                variant: None,
                charset: None,
                confirmed: false,
                reason: "the file has no Bloom filter; look the path up in the index".into(),
                indexed,
                probes: Vec::new(),
                others: Vec::new(),
            });
        };
        let fp = audit::probe_file(filter, self.audit.as_ref(), path, v, cs).map_err(|e| js_error(&e))?;
        to_js(&FileProbeJs {
            path: lossy(path),
            verdict: fp.verdict.as_str(),
            variant: Some(fp.variant.as_str()),
            charset: Some(fp.charset.as_str()),
            confirmed: fp.confirmed,
            reason: fp.reason,
            indexed,
            probes: seeds(&fp.probe),
            others: fp
                .others
                .iter()
                .map(|(v, c, p)| OtherJs { variant: v.as_str(), charset: c.as_str(), verdict: p.verdict.as_str(), probes: seeds(p) })
                .collect(),
        })
    }

    /// Verdicts for many packed UTF-8 paths: one byte each, 0 absent, 1 maybe, 2 unknown.
    #[wasm_bindgen(js_name = probeMany)]
    pub fn probe_many(&self, packed: &[u8], ends: &[u32]) -> Result<Vec<u8>, JsValue> {
        let mut out = Vec::with_capacity(ends.len());
        let mut start = 0usize;
        for &end in ends {
            let key = packed.get(start..end as usize).ok_or_else(|| js_error(&Error::invalid_argument("bad packed range")))?;
            out.push(match self.meta.bloom.filter.as_ref() {
                None => 2,
                Some(f) => match audit::probe_file(f, self.audit.as_ref(), key, None, None).map_err(|e| js_error(&e))?.verdict {
                    FileVerdict::Absent => 0,
                    FileVerdict::Maybe => 1,
                    FileVerdict::Unknown => 2,
                },
            });
            start = end as usize;
        }
        Ok(out)
    }
}
