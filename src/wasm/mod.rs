//! The `#[wasm_bindgen]` layer, compiled only for wasm32. The package ships three
//! modules built from this crate: the TsFile module (default), the LevelDB module
//! (`wasm-leveldb` feature) and the charsets module (`wasm-charsets`: the JDK
//! tables of the multi-byte JVM charsets); each stays under its size budget. The page builds a
//! fourth, the teaching panel's `teach` module (`wasm-teach`), which the package does not ship.

#[cfg(feature = "wasm-charsets")]
mod charsets;
mod common;
#[cfg(not(any(feature = "wasm-leveldb", feature = "wasm-charsets", feature = "wasm-teach")))]
mod encoder;
#[cfg(not(any(feature = "wasm-leveldb", feature = "wasm-charsets", feature = "wasm-teach")))]
mod filter;
#[cfg(feature = "wasm-leveldb")]
mod leveldb;
#[cfg(not(any(feature = "wasm-charsets", feature = "wasm-teach")))]
mod stage;
#[cfg(feature = "wasm-teach")]
mod teach;
#[cfg(all(test, not(any(feature = "wasm-leveldb", feature = "wasm-charsets", feature = "wasm-teach"))))]
mod tests;
#[cfg(not(any(feature = "wasm-leveldb", feature = "wasm-charsets", feature = "wasm-teach")))]
mod tsfile;
