//! The LevelDB module's `#[wasm_bindgen]` surface (built with the `wasm-leveldb`
//! feature): reading `.ldb`/`.sst` tables and LevelDB's Bloom filter policy.

use super::common::{array, for_each_staged, js_error, Obj};
use crate::leveldb::{self, BloomFilterPolicy, LevelDbTable, ProbeBit};
use wasm_bindgen::prelude::*;

fn probes_js(probes: &[ProbeBit]) -> JsValue {
    array(probes, |p| Obj::new().num("bit", p.bit as f64).bool("set", p.set).done())
}

fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    crate::error::push_hex(&mut s, bytes, false);
    s
}

#[wasm_bindgen]
pub struct WasmLevelDbTable {
    table: LevelDbTable,
}

#[wasm_bindgen]
impl WasmLevelDbTable {
    /// Opens a table from its bytes (LevelDB tables are a few MiB at most).
    pub fn open(bytes: Vec<u8>) -> Result<WasmLevelDbTable, JsValue> {
        let table = LevelDbTable::open(&bytes[..]).map_err(|e| js_error(&e))?;
        Ok(WasmLevelDbTable { table })
    }

    /// `{fileSize, filterPolicy, policySupported, baseLg, keyFormat, filterBlock, metaindex, index}`.
    pub fn info(&self) -> JsValue {
        let t = &self.table;
        let handle = |h: leveldb::BlockHandle| Obj::new().num("offset", h.offset as f64).num("size", h.size as f64).done();
        Obj::new()
            .num("fileSize", t.file_size as f64)
            .str("filterPolicy", t.filter_policy.as_deref())
            .bool("policySupported", t.policy_supported())
            .num("baseLg", t.base_lg.map(|b| b as f64))
            .str("keyFormat", Some(t.key_format.as_str()))
            .val("filterBlock", &t.filter_handle.map(handle).unwrap_or(JsValue::NULL))
            .val("metaindex", &handle(t.metaindex_handle))
            .val("index", &handle(t.index_handle))
            .str("indexCompression", Some(t.index_compression.as_str()))
            .val(
                "metaEntries",
                &array(&t.meta_entries, |m| {
                    Obj::new()
                        .str("key", Some(&String::from_utf8_lossy(&m.key)))
                        .num("offset", m.handle.offset as f64)
                        .num("size", m.handle.size as f64)
                        .done()
                }),
            )
            .done()
    }

    /// `[{index, offset, length, k, bitCount, setBits, dataBlockOffsets}]`, empty filters included.
    pub fn filters(&self) -> JsValue {
        array(&self.table.filters, |f| {
            Obj::new()
                .num("index", f.index as f64)
                .num("offset", f.offset as f64)
                .num("length", f.length as f64)
                .num("k", f.k.map(|k| k as f64))
                .num("bitCount", f.bit_count as f64)
                .num("setBits", f.set_bits as f64)
                .val("dataBlockOffsets", &array(&f.data_block_offsets, |o| JsValue::from_f64(*o as f64)))
                .done()
        })
    }

    /// `[{index, offset, size, separatorHex, filterIndex}]`.
    #[wasm_bindgen(js_name = dataBlocks)]
    pub fn data_blocks(&self) -> JsValue {
        array(self.table.data_blocks.iter().enumerate(), |(i, b)| {
            Obj::new()
                .num("index", i as f64)
                .num("offset", b.handle.offset as f64)
                .num("size", b.handle.size as f64)
                .str("separatorHex", Some(&hex(&b.separator)))
                .num("filterIndex", b.filter_index.map(|f| f as f64))
                .done()
        })
    }

    /// The stored bytes of filter `i` (bits, then the k byte).
    #[wasm_bindgen(js_name = filterBytes)]
    pub fn filter_bytes(&self, i: usize) -> Option<Vec<u8>> {
        self.table.filter_bytes(i).map(<[u8]>::to_vec)
    }

    /// Routes a user key to its data block and filter and probes it:
    /// `{verdict, reason, blockIndex, dataBlock, filterIndex, hash, probes: [{bit, set}]}`.
    pub fn probe(&self, key: &[u8]) -> JsValue {
        let p = self.table.probe(key);
        Obj::new()
            .str("verdict", Some(p.verdict.as_str()))
            .str("reason", Some(p.reason.as_str()))
            .num("blockIndex", p.block_index.map(|b| b as f64))
            .val(
                "dataBlock",
                &p.data_block
                    .map(|(o, s)| Obj::new().num("offset", o as f64).num("size", s as f64).done())
                    .unwrap_or(JsValue::NULL),
            )
            .num("filterIndex", p.filter_index.map(|f| f as f64))
            .num("hash", p.hash as f64)
            .val("probes", &probes_js(&p.probes))
            .done()
    }
}

/// LevelDB's `BloomHash` (Hash with seed 0xbc9f1d34).
#[wasm_bindgen(js_name = levelDbHash)]
pub fn leveldb_hash(key: &[u8]) -> u32 {
    leveldb::bloom_hash(key)
}

/// k for a bits-per-key, as LevelDB's BloomFilterPolicy computes it.
#[wasm_bindgen(js_name = levelDbK)]
pub fn leveldb_k(bits_per_key: u32) -> u32 {
    crate::leveldb::k_for_bits_per_key(bits_per_key)
}

/// The bit count CreateFilter gives `n` keys at `bitsPerKey`.
#[wasm_bindgen(js_name = levelDbFilterBits)]
pub fn leveldb_filter_bits(n: f64, bits_per_key: u32) -> f64 {
    crate::leveldb::filter_bits(n.max(0.0) as u64, bits_per_key) as f64
}

/// `BloomFilterPolicy(bitsPerKey).CreateFilter` over the `count` staged keys: bits then the k byte.
#[wasm_bindgen(js_name = buildLevelDbFilter)]
pub fn build_leveldb_filter(count: usize, bits_per_key: u32) -> Result<Vec<u8>, JsValue> {
    let mut keys: Vec<Vec<u8>> = Vec::with_capacity(count);
    for_each_staged(count, |k| {
        keys.push(k.to_vec());
        Ok(())
    })?;
    Ok(BloomFilterPolicy::new(bits_per_key).create_filter(&keys))
}

/// `KeyMayMatch(key, filter)` with every probe: `{verdict, reason, probes}`.
#[wasm_bindgen(js_name = probeLevelDbFilter)]
pub fn probe_leveldb_filter(key: &[u8], filter: &[u8]) -> JsValue {
    let p = leveldb::probe_filter(key, filter);
    Obj::new()
        .str("verdict", Some(p.verdict.as_str()))
        .str("reason", Some(p.reason.as_str()))
        .num("hash", leveldb::bloom_hash(key) as f64)
        .val("probes", &probes_js(&p.probes))
        .done()
}
