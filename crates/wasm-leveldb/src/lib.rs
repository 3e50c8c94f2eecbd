//! The npm package's LevelDB module (`dist/web/leveldb`, scripts/build.sh): reading
//! `.ldb`/`.sst` tables and LevelDB's Bloom filter policy as `#[wasm_bindgen]` exports.
//! Converters only: the shapes are the core's (`tsfile_bloom::leveldb::view`, the probes),
//! carried by `to_js`.
#![cfg(target_arch = "wasm32")]

use tsfile_bloom::leveldb::{self, BloomFilterPolicy, LevelDbTable};
use wasm_bindgen::prelude::*;
use wasm_common::stage::staged;
use wasm_common::{js, to_js};

wasm_common::staging_exports!();

#[wasm_bindgen]
pub struct WasmLevelDbTable {
    table: LevelDbTable,
}

#[wasm_bindgen]
impl WasmLevelDbTable {
    /// Opens a table from its bytes (LevelDB tables are a few MiB at most).
    pub fn open(bytes: Vec<u8>) -> Result<WasmLevelDbTable, JsValue> {
        let table = js(LevelDbTable::open(&bytes[..]))?;
        Ok(WasmLevelDbTable { table })
    }

    pub fn info(&self) -> Result<JsValue, JsValue> {
        to_js(&self.table.info())
    }

    pub fn filters(&self) -> Result<JsValue, JsValue> {
        to_js(&self.table.filters)
    }

    #[wasm_bindgen(js_name = dataBlocks)]
    pub fn data_blocks(&self) -> Result<JsValue, JsValue> {
        to_js(&self.table.data_block_infos())
    }

    /// The stored bytes of filter `i` (bits, then the k byte).
    #[wasm_bindgen(js_name = filterBytes)]
    pub fn filter_bytes(&self, i: usize) -> Option<Vec<u8>> {
        self.table.filter_bytes(i).map(<[u8]>::to_vec)
    }

    /// Routes a user key to its data block and filter and probes it.
    pub fn probe(&self, key: &[u8]) -> Result<JsValue, JsValue> {
        to_js(&self.table.probe(key))
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
    leveldb::k_for_bits_per_key(bits_per_key)
}

/// The bit count CreateFilter gives `n` keys at `bitsPerKey`.
#[wasm_bindgen(js_name = levelDbFilterBits)]
pub fn leveldb_filter_bits(n: f64, bits_per_key: u32) -> f64 {
    leveldb::filter_bits(n.max(0.0) as u64, bits_per_key) as f64
}

/// `BloomFilterPolicy(bitsPerKey).CreateFilter` over the `count` staged keys: bits then the k byte.
#[wasm_bindgen(js_name = buildLevelDbFilter)]
pub fn build_leveldb_filter(count: usize, bits_per_key: u32) -> Result<Vec<u8>, JsValue> {
    staged(|s| {
        Ok(BloomFilterPolicy::new(bits_per_key)
            .create_filter(&s.each(count)?.collect::<tsfile_bloom::Result<Vec<_>>>()?))
    })
}

/// `KeyMayMatch(key, filter)` with every probe: `{verdict, reason, hash, probes}`.
#[wasm_bindgen(js_name = probeLevelDbFilter)]
pub fn probe_leveldb_filter(key: &[u8], filter: &[u8]) -> Result<JsValue, JsValue> {
    to_js(&leveldb::probe_filter(key, filter))
}
