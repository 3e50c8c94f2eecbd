//! Internal keys (db/dbformat.h, docs/leveldb-filter.md §5): inside a database every stored
//! key is the user key plus a fixed64 LE tag `(sequence << 8) | type`. The filter is built
//! over user keys (InternalFilterPolicy strips the tag); the index orders internal keys.

use std::cmp::Ordering;

/// `kMaxSequenceNumber` (2^56 - 1).
pub const MAX_SEQUENCE: u64 = (1 << 56) - 1;
/// `kValueTypeForSeek` (= kTypeValue).
pub const VALUE_TYPE_FOR_SEEK: u8 = 1;

closed_set! {
    /// How the table's keys are stored.
    pub enum KeyFormat as LevelDbKeyFormat {
        /// A DB table: internal keys (user key + fixed64 `(sequence << 8) | type`); the filter is
        /// over user keys (InternalFilterPolicy strips the 8 bytes).
        Internal => "internal",
        /// A table written with `TableBuilder` outside a DB: keys are stored (and filtered) as given.
        User => "user",
    }
}

impl KeyFormat {
    /// Internal when every key is >= 8 bytes with a type byte of 0 or 1 (LevelDB writes no
    /// other types), else user keys.
    pub(crate) fn detect<'a>(mut keys: impl Iterator<Item = &'a [u8]>) -> KeyFormat {
        if keys.all(|k| parse_internal_key(k).is_some_and(|p| p.value_type <= 1)) {
            KeyFormat::Internal
        } else {
            KeyFormat::User
        }
    }

    /// The table's comparator for keys of this format.
    pub(crate) fn compare(self, a: &[u8], b: &[u8]) -> Ordering {
        match self {
            KeyFormat::Internal => compare_internal(a, b),
            KeyFormat::User => a.cmp(b),
        }
    }
}

/// An internal key split into its parts (`ParsedInternalKey`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParsedInternalKey<'a> {
    pub user_key: &'a [u8],
    pub sequence: u64,
    /// 1 = value, 0 = deletion.
    pub value_type: u8,
}

/// `ParseInternalKey`; None for keys shorter than the 8-byte tag.
pub fn parse_internal_key(key: &[u8]) -> Option<ParsedInternalKey<'_>> {
    let (user_key, tag) = key.split_last_chunk::<8>()?;
    let tag = u64::from_le_bytes(*tag);
    Some(ParsedInternalKey { user_key, sequence: tag >> 8, value_type: tag as u8 })
}

/// The key `Table::InternalGet` seeks with when asking whether `user_key` may be in a table:
/// `user_key` + fixed64((kMaxSequenceNumber << 8) | kValueTypeForSeek), which sorts before
/// every stored version of `user_key`.
pub fn lookup_key(user_key: &[u8]) -> Vec<u8> {
    let mut k = Vec::with_capacity(user_key.len() + 8);
    k.extend_from_slice(user_key);
    k.extend_from_slice(&((MAX_SEQUENCE << 8) | VALUE_TYPE_FOR_SEEK as u64).to_le_bytes());
    k
}

/// InternalKeyComparator over BytewiseComparator: user keys ascending, then tag descending
/// (newest first). Keys shorter than 8 bytes (not internal keys) compare bytewise whole;
/// callers only compare keys of one format.
pub fn compare_internal(a: &[u8], b: &[u8]) -> Ordering {
    match (parse_internal_key(a), parse_internal_key(b)) {
        (Some(x), Some(y)) => {
            let tx = (x.sequence << 8) | x.value_type as u64;
            let ty = (y.sequence << 8) | y.value_type as u64;
            x.user_key.cmp(y.user_key).then(ty.cmp(&tx))
        }
        _ => a.cmp(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_order() {
        let a = lookup_key(b"abc");
        let mut b = b"abc".to_vec();
        b.extend_from_slice(&((5u64 << 8) | 1).to_le_bytes());
        assert_eq!(compare_internal(&a, &b), Ordering::Less);
        let mut c = b"abd".to_vec();
        c.extend_from_slice(&((MAX_SEQUENCE << 8) | 1).to_le_bytes());
        assert_eq!(compare_internal(&b, &c), Ordering::Less);
    }
}
