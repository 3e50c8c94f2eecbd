//! A LevelDB table's read path as `Table::InternalGet` walks it (docs/leveldb-filter.md §3–4):
//! the index block routes the key to one data block; the block's offset picks its filter in
//! the filter block (one filter per 2 KiB of data offsets); only a "may match" reads the data
//! block. And a range scan, which reads every block the range overlaps and never consults a
//! filter: there is no one key to hash.

use serde::Serialize;

use tsfile_bloom::error::Result;
use tsfile_bloom::leveldb::{BlockEntry, FilterInfo, LevelDbProbe, LevelDbTable, ProbeReason, BLOCK_TRAILER_LEN};
use tsfile_bloom::source::ReadAt;

/// One stage of a read.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Stage {
    /// "index", "filter", "data" or "answer".
    pub stage: &'static str,
    pub text: String,
    /// Bytes this stage reads from the file (0 when it is skipped or already cached).
    pub bytes: u64,
}

/// A point lookup through the table.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PointRead {
    pub key: String,
    /// What the filter said ("absent" / "maybe"), and why (the LevelDB probe reason).
    pub filter_verdict: &'static str,
    pub reason: &'static str,
    /// "skipped" (the filter said absent: no data block read), "found", "deleted" (a tombstone
    /// is the newest entry), "false-positive" (the block was read and the key is not in it),
    /// "past-last-block" (the index already said no) or "no-filter-found" / "no-filter-missing".
    pub outcome: &'static str,
    pub block_index: Option<usize>,
    pub block_offset: Option<u64>,
    pub block_size: Option<u64>,
    pub filter_index: Option<usize>,
    pub filter_offset: Option<u64>,
    pub filter_bytes: Option<u64>,
    pub hash: u32,
    /// The probed bits up to LevelDB's stop (the first clear one).
    pub probes: Vec<[u64; 2]>,
    pub stages: Vec<Stage>,
    /// Data bytes read (the block and its 5-byte trailer), 0 when the filter spared the read.
    pub data_bytes: u64,
}

/// A range scan `[lo, hi]`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RangeScan {
    pub lo: String,
    pub hi: String,
    /// The data blocks read, in order, each with the keys of the range found in it.
    pub blocks: Vec<ScannedBlock>,
    pub data_bytes: u64,
    pub keys_in_range: u64,
    /// Filters consulted: always 0.
    pub filter_probes: u64,
    /// Point lookups of every key in the range would probe this many filters and read
    /// `point_blocks` distinct blocks: the same blocks — a filter only saves reads of blocks
    /// without the key.
    pub point_blocks: u64,
    pub findings: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScannedBlock {
    pub index: usize,
    pub offset: u64,
    pub size: u64,
    pub keys_in_range: u64,
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The newest entry for `key` in a block: `Table::InternalGet` seeks the lookup key, which sorts
/// before every stored version, and takes the first entry with that user key.
fn newest<'a>(entries: &'a [BlockEntry], key: &[u8]) -> Option<&'a BlockEntry> {
    entries.iter().find(|e| e.user_key == key)
}

/// What the read-path demonstrations show of a table before any lookup.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TableSummary<'a> {
    pub filters: usize,
    pub data_blocks: usize,
    pub base_lg: Option<u8>,
    pub policy: Option<&'a str>,
    pub file_size: u64,
    pub filter_block_bytes: usize,
    pub index_bytes: u64,
}

impl<'a> TableSummary<'a> {
    pub fn of(table: &'a LevelDbTable) -> TableSummary<'a> {
        TableSummary {
            filters: table.filters.len(),
            data_blocks: table.data_blocks.len(),
            base_lg: table.filter_block.as_ref().map(|f| f.base_lg),
            policy: table.filter_policy(),
            file_size: table.file_size,
            filter_block_bytes: table.filter_block.as_ref().map_or(0, |f| f.bytes().len()),
            index_bytes: table.index_handle.size,
        }
    }
}

impl Stage {
    /// A stage that reads nothing from the file.
    fn cached(stage: &'static str, text: impl Into<String>) -> Stage {
        Stage { stage, text: text.into(), bytes: 0 }
    }
}

/// Looks `key` up in `table` (opened from `src`).
pub fn point_read<R: ReadAt + ?Sized>(table: &LevelDbTable, src: &R, key: &[u8]) -> Result<PointRead> {
    let p = table.probe(key);
    let Some(bi) = p.block_index else { return Ok(past_last_block(table, key, &p)) };
    let block = &table.data_blocks[bi];
    let (off, size) = (block.handle.offset, block.handle.size);
    let filter = p.filter_index.and_then(|fi| table.filters.get(fi));
    // The probed bits up to LevelDB's stop: the first clear one.
    let mut probes = Vec::new();
    for b in &p.probes {
        probes.push([b.bit, b.set as u64]);
        if !b.set {
            break;
        }
    }
    let mut stages = vec![Stage::cached(
        "index",
        format!(
            "Index block (read once when the table is opened, kept in the table cache): the first separator ≥ the key is block {bi}'s, so only data block {bi} (offset {off}, {size} bytes) could hold it."
        ),
    )];
    stages.push(filter_stage(table, &p, filter, off, &probes));
    let has_filter = filter.is_some() && p.reason != ProbeReason::NoFilter && p.reason != ProbeReason::FilterMissing;
    let (outcome, data) = data_stage(table, src, key, &p, bi, has_filter)?;
    let data_bytes = data.bytes;
    stages.push(data);
    stages.push(Stage::cached(
        "answer",
        match outcome {
            "found" | "no-filter-found" => "Found.",
            "deleted" => "Not found (deleted).",
            "skipped" => "Not found — decided by the filter, without touching the data.",
            _ => "Not found, after one wasted data-block read.",
        },
    ));
    Ok(PointRead {
        key: lossy(key),
        filter_verdict: p.verdict.as_str(),
        reason: p.reason.as_str(),
        outcome,
        block_index: Some(bi),
        block_offset: Some(off),
        block_size: Some(size),
        filter_index: p.filter_index,
        filter_offset: filter.map(|f| f.offset),
        filter_bytes: filter.map(|f| f.length),
        hash: p.hash,
        probes,
        stages,
        data_bytes,
    })
}

/// A key past the last separator: the index alone answers, no filter or data block is read.
fn past_last_block(table: &LevelDbTable, key: &[u8], p: &LevelDbProbe) -> PointRead {
    let stages = vec![
        Stage::cached(
            "index",
            format!(
                "Index block ({} bytes, read when the table is opened and kept in the table cache): {} sorts after the last separator, so no data block can hold it.",
                table.index_handle.size,
                lossy(key)
            ),
        ),
        Stage::cached("answer", "Not found, without reading any filter or data block."),
    ];
    PointRead {
        key: lossy(key),
        filter_verdict: "absent",
        reason: p.reason.as_str(),
        outcome: "past-last-block",
        block_index: None,
        block_offset: None,
        block_size: None,
        filter_index: None,
        filter_offset: None,
        filter_bytes: None,
        hash: p.hash,
        probes: Vec::new(),
        stages,
        data_bytes: 0,
    }
}

/// The filter stage: which filter the data block's offset picks, and its probed bits (`probes`).
fn filter_stage(
    table: &LevelDbTable,
    p: &LevelDbProbe,
    filter: Option<&FilterInfo>,
    off: u64,
    probes: &[[u64; 2]],
) -> Stage {
    let f = match (p.reason, filter) {
        (ProbeReason::Bits | ProbeReason::EmptyFilter | ProbeReason::ReservedK, Some(f)) => f,
        _ => {
            return Stage::cached(
                "filter",
                "This table has no filter LevelDB can use: every lookup reads the data block.",
            )
        }
    };
    let window = table.filter_block.as_ref().map_or(2048, |f| 1u64 << f.base_lg);
    let shown: Vec<String> =
        probes.iter().map(|[bit, set]| format!("{bit} ({})", if *set == 1 { "1" } else { "0" })).collect();
    Stage::cached(
        "filter",
        format!(
            "Filter block (also read at open and cacheable): ⌊block offset {off} / {window}⌋ = filter {}, {} bytes at file offset {} ({} bits, k = {}). BloomHash = {}; probes: {}{}.",
            f.index,
            f.length,
            f.offset,
            f.bit_count,
            f.k.unwrap_or(0),
            p.hash,
            if shown.is_empty() { "none".to_string() } else { shown.join(", ") },
            match p.reason {
                ProbeReason::EmptyFilter => " — an empty filter: no key in this window",
                ProbeReason::ReservedK => " — k above 30 is reserved: LevelDB answers “may match”",
                _ if p.verdict.as_str() == "absent" => " — a 0: the key is not in this block",
                _ => " — all 1: the key may be in this block",
            }
        ),
    )
}

/// The data stage: block `bi` skipped on the filter's "absent", else read and searched; the
/// lookup's outcome with it.
fn data_stage<R: ReadAt + ?Sized>(
    table: &LevelDbTable,
    src: &R,
    key: &[u8],
    p: &LevelDbProbe,
    bi: usize,
    has_filter: bool,
) -> Result<(&'static str, Stage)> {
    let read_cost = table.data_blocks[bi].handle.size + BLOCK_TRAILER_LEN;
    if p.verdict.as_str() == "absent" {
        let text = format!(
            "Data block {bi} is not read: the filter spared a {read_cost}-byte read (and a disk seek on a cold cache)."
        );
        return Ok(("skipped", Stage::cached("data", text)));
    }
    let entries = table.data_block_entries(src, bi)?;
    let outcome = match (newest(&entries, key), has_filter) {
        (Some(e), _) if e.value_type == Some(0) => "deleted",
        (Some(_), true) => "found",
        (None, true) => "false-positive",
        (Some(_), false) => "no-filter-found",
        (None, false) => "no-filter-missing",
    };
    let text = format!(
        "Data block {bi} read ({read_cost} bytes with its trailer, {} entries): {}",
        entries.len(),
        match outcome {
            "deleted" => "the newest entry for the key is a deletion marker — the filter holds deleted keys too.",
            "found" | "no-filter-found" => "the key is there.",
            "false-positive" =>
                "the key is not there: the filter's “may match” was a false positive, and this read was wasted.",
            _ => "the key is not there.",
        }
    );
    Ok((outcome, Stage { stage: "data", text, bytes: read_cost }))
}

/// Example keys for the read path, found in the table itself: a present key, an absent key the
/// filter stops, and an absent key the filter lets through (a false positive). Absent
/// candidates are present keys with a suffix (`~0`, `~1`, …), tried until both kinds are found
/// (at most `tries`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Examples {
    pub present: Option<String>,
    pub skipped: Option<String>,
    pub false_positive: Option<String>,
    pub keys: u64,
    /// The table's live keys per filter, rounded (at least 1): the window that claim 7's
    /// `bits_per_key = 0` measurement uses for this table.
    pub keys_per_filter: u64,
    /// Absent candidates tried, and how many the filter let through.
    pub tried: u64,
    pub let_through: u64,
}

pub fn examples<R: ReadAt + ?Sized>(table: &LevelDbTable, src: &R, tries: u64) -> Result<Examples> {
    let mut live: Vec<Vec<u8>> = Vec::new();
    for i in 0..table.data_blocks.len() {
        let entries = table.data_block_entries(src, i)?;
        let mut last: Option<&[u8]> = None;
        for e in &entries {
            if last == Some(&e.user_key[..]) {
                continue; // an older version of the same key
            }
            last = Some(&e.user_key);
            if e.value_type != Some(0) {
                live.push(e.user_key.clone());
            }
        }
    }
    let all: std::collections::BTreeSet<Vec<u8>> = live.iter().cloned().collect();
    let mut ex = Examples {
        present: live.get(live.len() / 2).map(|k| lossy(k)),
        skipped: None,
        false_positive: None,
        keys: live.len() as u64,
        keys_per_filter: ((live.len() as f64 / table.filters.len().max(1) as f64).round() as u64).max(1),
        tried: 0,
        let_through: 0,
    };
    'outer: for j in 0.. {
        for k in live.iter().step_by((live.len() / 64).max(1)) {
            if ex.tried >= tries || (ex.skipped.is_some() && ex.false_positive.is_some()) {
                break 'outer;
            }
            let mut cand = k.clone();
            cand.extend_from_slice(format!("~{j}").as_bytes());
            if all.contains(&cand) || std::str::from_utf8(&cand).is_err() {
                continue;
            }
            ex.tried += 1;
            let p = table.probe(&cand);
            if p.block_index.is_none() {
                continue;
            }
            if p.verdict.as_str() == "absent" {
                ex.skipped.get_or_insert_with(|| lossy(&cand));
            } else {
                ex.let_through += 1;
                ex.false_positive.get_or_insert_with(|| lossy(&cand));
            }
        }
        if live.is_empty() {
            break;
        }
    }
    Ok(ex)
}

/// Scans `[lo, hi]` (user keys, inclusive) as a LevelDB iterator does: from the block the index
/// routes `lo` to, through every block until one whose keys pass `hi`.
pub fn range_scan<R: ReadAt + ?Sized>(table: &LevelDbTable, src: &R, lo: &[u8], hi: &[u8]) -> Result<RangeScan> {
    let mut blocks = Vec::new();
    let (mut bytes, mut in_range) = (0u64, 0u64);
    let start = table.route(lo);
    let mut point_blocks = std::collections::BTreeSet::new();
    if let (Some(first), true) = (start, lo <= hi) {
        for i in first..table.data_blocks.len() {
            let entries = table.data_block_entries(src, i)?;
            let d = &table.data_blocks[i];
            bytes += d.handle.size + BLOCK_TRAILER_LEN;
            let mut last: Option<&[u8]> = None;
            let mut here = 0;
            for e in &entries {
                if last == Some(&e.user_key[..]) {
                    continue;
                }
                last = Some(&e.user_key);
                if e.user_key.as_slice() >= lo && e.user_key.as_slice() <= hi && e.value_type != Some(0) {
                    here += 1;
                }
            }
            in_range += here;
            if here > 0 {
                point_blocks.insert(i);
            }
            blocks.push(ScannedBlock { index: i, offset: d.handle.offset, size: d.handle.size, keys_in_range: here });
            // The iterator stops at the first key past hi.
            if entries.last().is_some_and(|e| e.user_key.as_slice() > hi) {
                break;
            }
        }
    }
    let mut findings = vec![format!(
        "The scan read {} data block{} ({bytes} bytes) and found {in_range} key{} in the range; it consulted 0 filters — a range has no single key to hash, so LevelDB's iterator never opens the filter block.",
        blocks.len(),
        if blocks.len() == 1 { "" } else { "s" },
        if in_range == 1 { "" } else { "s" }
    )];
    if in_range == 0 && !blocks.is_empty() {
        findings.push("No key lies in the range, yet the scan paid for the blocks: a point lookup of an absent key there would usually have been stopped by the filter.".into());
    } else {
        findings.push(format!(
            "Point lookups of those {in_range} keys would read {} block{} too — the filter only saves reads of blocks that lack the key, and in a range every block read has keys to return.",
            point_blocks.len(),
            if point_blocks.len() == 1 { "" } else { "s" }
        ));
    }
    Ok(RangeScan {
        lo: lossy(lo),
        hi: lossy(hi),
        blocks,
        data_bytes: bytes,
        keys_in_range: in_range,
        filter_probes: 0,
        point_blocks: point_blocks.len() as u64,
        findings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tsfile_bloom::source::FileSource;

    #[test]
    fn read_path_on_a_real_table() {
        // LevelDB 1.22 via plyvel (tests/fixtures/leveldb/manifest.json): keys key00000…, bits 4.
        let file = FileSource::open("../../tests/fixtures/leveldb/ascii_bits4_snappy-000008.ldb").unwrap();
        let t = LevelDbTable::open(&file).unwrap();
        let ex = examples(&t, &file, 5000).unwrap();
        // The manifest: 564 live keys (plyvel's own iteration).
        assert_eq!(ex.keys, 564);
        let per_filter = (564.0 / t.filters.len() as f64).round() as u64;
        assert!(t.filters.len() > 1 && ex.keys_per_filter == per_filter.max(1), "{} filters", t.filters.len());
        let present = ex.present.clone().unwrap();
        let r = point_read(&t, &file, present.as_bytes()).unwrap();
        assert_eq!((r.filter_verdict, r.outcome), ("maybe", "found"));
        assert!(r.data_bytes > 0);
        let s = point_read(&t, &file, ex.skipped.clone().unwrap().as_bytes()).unwrap();
        assert_eq!((s.outcome, s.data_bytes), ("skipped", 0));
        assert_eq!(s.probes.last().map(|p| p[1]), Some(0), "the walk stops at a clear bit");
        let f = point_read(&t, &file, ex.false_positive.clone().unwrap().as_bytes()).unwrap();
        assert_eq!(f.outcome, "false-positive");
        // bits_per_key 4 → k = 2: the formula gives (1 − e^(−1/2))² ≈ 15.5 % per window.
        let rate = ex.let_through as f64 / ex.tried as f64;
        assert!(rate > 0.05 && rate < 0.35, "{rate}");
        assert_eq!(point_read(&t, &file, b"zzz").unwrap().outcome, "past-last-block");
    }

    #[test]
    fn range_scan_reads_blocks_and_no_filter() {
        let file = FileSource::open("../../tests/fixtures/leveldb/ascii_bits4_snappy-000008.ldb").unwrap();
        let t = LevelDbTable::open(&file).unwrap();
        let manifest: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string("../../tests/fixtures/leveldb/manifest.json").unwrap())
                .unwrap();
        let table = manifest["tables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["file"] == "ascii_bits4_snappy-000008.ldb")
            .unwrap();
        let live: Vec<String> = table["live_keys"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| {
                let hex = k.as_str().unwrap();
                String::from_utf8(
                    (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect(),
                )
                .unwrap()
            })
            .collect();
        let (lo, hi) = ("key00100", "key00300");
        let want = live.iter().filter(|k| k.as_str() >= lo && k.as_str() <= hi).count() as u64;
        let r = range_scan(&t, &file, lo.as_bytes(), hi.as_bytes()).unwrap();
        assert_eq!(r.keys_in_range, want, "the manifest's live keys in [{lo}, {hi}]");
        assert_eq!(r.filter_probes, 0);
        assert!(r.blocks.len() >= 2);
        assert_eq!(r.point_blocks, r.blocks.iter().filter(|b| b.keys_in_range > 0).count() as u64);
    }
}
