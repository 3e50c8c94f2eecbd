//! What the JS API shows of a table, filter and probe: the core's answers as `Serialize`
//! types with camelCase keys (`None` serializes as `null`), so the wasm layer only converts.

use super::{
    BlockHandle, Compression, FilterInfo, FilterProbe, KeyFormat, LevelDbProbe, LevelDbTable, ProbeBit, ProbeReason,
};
use crate::filter::Verdict;
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

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "LevelDbProbeResult"))]
pub struct TableProbeInfo {
    pub verdict: Verdict,
    pub reason: ProbeReason,
    /// The verdict and its reason in words ([`ProbeReason::sentence`]).
    pub sentence: &'static str,
    pub block_index: Option<usize>,
    pub data_block: Option<BlockHandle>,
    pub filter_index: Option<usize>,
    pub hash: u32,
    pub probes: Vec<ProbeBit>,
}

impl From<&LevelDbProbe> for TableProbeInfo {
    fn from(p: &LevelDbProbe) -> TableProbeInfo {
        TableProbeInfo {
            verdict: p.verdict,
            reason: p.reason,
            sentence: p.reason.sentence(p.verdict),
            block_index: p.block_index,
            data_block: p.data_block,
            filter_index: p.filter_index,
            hash: p.hash,
            probes: p.probes.clone(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "LevelDbFilterProbe"))]
pub struct FilterProbeInfo {
    pub verdict: Verdict,
    pub reason: ProbeReason,
    /// The verdict and its reason in words ([`ProbeReason::sentence`]).
    pub sentence: &'static str,
    pub hash: u32,
    pub probes: Vec<ProbeBit>,
}

impl FilterProbeInfo {
    pub fn new(p: &FilterProbe, hash: u32) -> FilterProbeInfo {
        FilterProbeInfo {
            verdict: p.verdict,
            reason: p.reason,
            sentence: p.reason.sentence(p.verdict),
            hash,
            probes: p.probes.clone(),
        }
    }
}

impl LevelDbTable {
    pub fn info(&self) -> TableInfo {
        TableInfo {
            file_size: self.file_size,
            filter_policy: self.filter_policy.clone(),
            policy_supported: self.policy_supported(),
            base_lg: self.base_lg,
            key_format: self.key_format,
            filter_block: self.filter_handle,
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

    /// The filters as the JS API shows them (FilterInfo serializes in camelCase itself).
    pub fn filter_views(&self) -> &[FilterInfo] {
        &self.filters
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
