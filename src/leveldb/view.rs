//! What the JS API shows of a table and its filters: the core's answers as `Serialize` types
//! with camelCase keys (`None` serializes as `null`), so the wasm layer only converts. Probes
//! (`LevelDbProbe`, `FilterProbe`) serialize themselves.

use super::{BlockHandle, Compression, KeyFormat, LevelDbTable};
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "LevelDbMetaEntry"))]
pub struct MetaEntryInfo {
    pub key: String,
    pub offset: u64,
    pub size: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "LevelDbTableInfo"))]
pub struct TableInfo {
    pub file_size: u64,
    pub filter_policy: Option<String>,
    pub policy_supported: bool,
    pub base_lg: Option<u8>,
    pub key_format: KeyFormat,
    pub filter_block: Option<BlockHandle>,
    pub metaindex: BlockHandle,
    pub index: BlockHandle,
    pub index_compression: Compression,
    pub meta_entries: Vec<MetaEntryInfo>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "LevelDbDataBlock"))]
pub struct DataBlockInfo {
    pub index: usize,
    pub offset: u64,
    pub size: u64,
    pub separator_hex: String,
    pub filter_index: Option<usize>,
}

impl LevelDbTable {
    pub fn info(&self) -> TableInfo {
        TableInfo {
            file_size: self.file_size,
            filter_policy: self.filter_policy().map(String::from),
            policy_supported: self.policy_supported(),
            base_lg: self.filter_block.as_ref().map(|f| f.base_lg),
            key_format: self.key_format,
            filter_block: self.filter_block.as_ref().map(|f| f.handle),
            metaindex: self.metaindex_handle,
            index: self.index_handle,
            index_compression: self.index_compression,
            meta_entries: self
                .meta_entries
                .iter()
                .map(|m| MetaEntryInfo {
                    key: String::from_utf8_lossy(&m.key).into_owned(),
                    offset: m.handle.offset,
                    size: m.handle.size,
                })
                .collect(),
        }
    }

    pub fn data_block_infos(&self) -> Vec<DataBlockInfo> {
        self.data_blocks
            .iter()
            .enumerate()
            .map(|(index, b)| DataBlockInfo {
                index,
                offset: b.handle.offset,
                size: b.handle.size,
                separator_hex: crate::error::hex(&b.separator),
                filter_index: b.filter_index,
            })
            .collect()
    }
}
