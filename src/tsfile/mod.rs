//! The TsFile tail (docs/tsfile-format.md §2–9), one file per format concept, in the
//! order a reader meets them:
//!
//! 1. [`envelope`]: head magic and version, the tail's TsFileMetadata size and magic.
//! 2. [`metadata`]: TsFileMetadata — index roots, [`schema`]s, meta_offset, the Bloom
//!    filter field in every [`filter_encoding`] real writers produce, and [`properties`].
//! 3. [`index`]: the metadata index walked once to list every [`series`].
//! 4. [`audit`]: which writer hashed the filter; [`encoder`] supplies path bytes in the
//!    JVM charsets.
//! 5. [`probe`]: the soundness rule every probe goes through, and [`verdict`]: what a
//!    probe answers and why, in words.
//! 6. [`reader`]: [`TsFileReader`], an opened file that answers everything the JS API
//!    shows (filter info, listing, audit, probes) as [`view`]'s plain serialisable values.
//! 7. [`wire`]: the numeric layouts the JS bindings' hot paths cross in (the listing's
//!    columns, probe records, the fast scan's figures) and the codes they hold.
//!
//! Opening reads the head (7 bytes), the tail size and magic (10 bytes) and
//! TsFileMetadata; listing series reads the index region `[meta_offset, start)`
//! once. Nothing else of the file is touched.

pub mod audit;
pub mod encoder;
pub mod envelope;
pub mod filter_encoding;
pub mod index;
pub mod metadata;
pub mod probe;
pub mod properties;
pub mod reader;
pub mod schema;
pub mod series;
pub mod verdict;
pub mod view;
pub mod wire;

pub use envelope::{read_envelope, Envelope, HEAD_LEN, HEAD_READ, MAGIC, MIN_FILE_LEN, TAIL_LEN};
pub use filter_encoding::{BloomEncoding, BloomField};
pub use index::{walk_index, walk_index_region, EntryKey, IndexEntry, IndexNode, IndexWalk, NodeType, MAX_INDEX_DEPTH};
pub use metadata::{parse_metadata, read_metadata, TsFileMetadata};
pub use properties::Property;
pub use reader::TsFileReader;
pub use schema::{category_name, data_type_name, ColumnSchema, TableSchema};
pub use series::{DataType, DeviceId, Paths, Series};
