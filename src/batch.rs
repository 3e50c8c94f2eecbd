//! Verdict-only probing of many paths in a file's filter: the `verdict === 'absent' ? 0 : 1`
//! of [`audit::probe_file`] for each path, without building per-seed records or reasons.
//!
//! The choice of hash (tail variant, charset) and the soundness rule depend only on the file
//! and its audit, so they are made once per batch ([`FileBatch::new`]); each path then costs
//! one [`BloomFilter::might_contain`] (Java's `contains`: stops at the first clear bit), plus
//! the other candidates only when that says absent and the writer's hash is not established.

use crate::audit::{Audit, AuditStatus};
use crate::error::Result;
use crate::filter::BloomFilter;
use crate::hash::TailVariant;
use crate::path::{transcode, Charset};

/// The decisions [`audit::probe_file`](crate::audit::probe_file) makes per file, made once.
pub struct FileBatch<'a> {
    /// None: the file has no filter, every verdict is "unknown" (may contain).
    filter: Option<&'a BloomFilter>,
    used: (TailVariant, Charset),
    /// The other candidate hashes consulted before a sound "absent", in probe_file's order.
    others: Vec<(TailVariant, Charset)>,
    /// The audit could not reproduce the bits: a clear bit means "unknown", not "absent".
    untrusted: bool,
    /// The file's index established the hash used: a clear bit is a sound "absent".
    confirmed: bool,
    /// The first consulted charset this build cannot encode: probe_file fails on every path
    /// that is valid UTF-8 (its transcode does), so this does too.
    unavailable: Option<Charset>,
}

impl<'a> FileBatch<'a> {
    /// `audit`: the file's audit, or None when the index has not been read; `variant` and
    /// `charset` force a choice, as in `probe_file`.
    pub fn new(
        filter: Option<&'a BloomFilter>,
        audit: Option<&Audit>,
        variant: Option<TailVariant>,
        charset: Option<Charset>,
    ) -> FileBatch<'a> {
        // The same rules, in the same order, as audit::probe_file.
        let candidates: Vec<(TailVariant, Charset)> = match audit {
            Some(a) if a.reproduced() => a.candidates(),
            Some(_) => Vec::new(),
            None => vec![(TailVariant::Java, Charset::Utf8), (TailVariant::ZeroExtended, Charset::Utf8)],
        };
        let established = audit.filter(|a| a.status == AuditStatus::Established).and_then(|a| a.variant.zip(a.charset));
        let used = (
            variant.or(established.map(|e| e.0)).unwrap_or(TailVariant::Java),
            charset.or(established.map(|e| e.1)).unwrap_or(Charset::Utf8),
        );
        let others: Vec<_> = candidates.into_iter().filter(|&c| c != used).collect();
        let unavailable = std::iter::once(used.1).chain(others.iter().map(|o| o.1)).find(|c| !c.is_available());
        FileBatch {
            filter,
            used,
            others,
            untrusted: audit.is_some_and(|a| !a.reproduced()),
            confirmed: established == Some(used),
            unavailable,
        }
    }

    /// False only when `probe_file` would say "absent" for `path` (UTF-8, as stored in the index).
    pub fn might_contain(&self, path: &[u8]) -> Result<bool> {
        let Some(filter) = self.filter else { return Ok(true) };
        if let Some(cs) = self.unavailable {
            transcode(path, cs)?;
        }
        let (v, cs) = self.used;
        if filter.might_contain(&transcode(path, cs)?, v) || self.untrusted {
            return Ok(true);
        }
        if self.confirmed {
            return Ok(false);
        }
        for &(v, cs) in &self.others {
            if filter.might_contain(&transcode(path, cs)?, v) {
                return Ok(true);
            }
        }
        Ok(false)
    }
}
