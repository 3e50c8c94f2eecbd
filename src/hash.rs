//! TsFile's `Murmur128Hash` and the bit test (docs/bloom-filter.md §4).
//!
//! The code lives in the `tsfile-bloom-hash` crate (crates/hash): it is the hot path, and
//! the wasm profile compiles that one crate at opt-level 3 while the rest of the module
//! stays at "z" (Cargo.toml, `[profile.wasm.package.tsfile-bloom-hash]`).

pub use tsfile_bloom_hash::*;

/// [`TailVariant::from_name`], with the sentence for a name that is neither variant (and for the
/// C++ writer's, which is either, by build).
pub fn variant_named(name: &str) -> crate::Result<TailVariant> {
    TailVariant::from_name(name).ok_or_else(|| {
        let cpp = matches!(name.to_ascii_lowercase().as_str(), "cpp" | "c++");
        crate::Error::bad_argument(
            crate::Argument::Variant,
            format!(
                "the variant {name:?} is not 'java' or 'zero-extended'{}",
                if cpp {
                    " (the C++ writer's tail depends on its build: zero-extended since tsfile 2.5 and on ARM, \
                 sign-extended as 'java' in older x86-64 builds)"
                } else {
                    ""
                }
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_writer_s_name_is_no_variant() {
        // Older C++ builds on x86-64 hash with Java's sign-extended tail: "cpp" names neither.
        for name in ["cpp", "C++"] {
            assert_eq!(TailVariant::from_name(name), None);
            let e = variant_named(name).unwrap_err();
            assert_eq!(e.kind, crate::ErrorKind::InvalidArgument);
            assert!(e.message.contains("older x86-64 builds"), "{e}");
        }
        assert_eq!(variant_named("Zero-Extended").unwrap(), TailVariant::ZeroExtended);
        assert_eq!(variant_named("signed").unwrap(), TailVariant::Java);
    }
}

/// [`TailVariant`] as its name ([`TailVariant::as_str`]) in serialized results; the hash crate
/// has no serde dependency, so the result types name this function (`serialize_with`).
pub(crate) fn serialize_variant<S: serde::Serializer>(v: &TailVariant, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(v.as_str())
}

closed_set! {
    /// Which hash set a filter's bits (docs/bloom-filter.md §2, §4; docs/writers.md §7).
    pub enum FilterHash {
        /// TsFile's Murmur128 (every released writer); the tail variant is the writer's, which the
        /// audit finds.
        Murmur128 => "murmur128",
        /// The experimental cheap hash of an unreleased Java writer: bit `|Objects.hash(path, seed)|
        /// mod m`, where the path's Java `hashCode` depends on the writer's `Path` class. This reader
        /// does not evaluate it: no probe of such a filter can say "absent".
        Cheap => "cheap",
    }
}

/// The hash a result names as its `variant`: a tail variant of TsFile's Murmur128, or the cheap
/// hash of a filter written with it (docs/writers.md §7), which this reader does not evaluate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NamedHash {
    Murmur(TailVariant),
    Cheap,
}

impl NamedHash {
    /// The variant's name, or `cheap`.
    pub fn as_str(self) -> &'static str {
        match self {
            NamedHash::Murmur(v) => v.as_str(),
            NamedHash::Cheap => FilterHash::Cheap.as_str(),
        }
    }
}

impl From<TailVariant> for NamedHash {
    fn from(v: TailVariant) -> NamedHash {
        NamedHash::Murmur(v)
    }
}

closed_set!(NamedHash);
