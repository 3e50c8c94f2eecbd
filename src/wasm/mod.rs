//! The `#[wasm_bindgen]` layer, compiled only for wasm32. The package ships three
//! modules built from this crate: the TsFile module (default), the LevelDB module
//! (`wasm-leveldb` feature) and the charsets module (`wasm-charsets`: the JDK
//! tables of the multi-byte JVM charsets); each stays under its size budget.

#[cfg(feature = "wasm-charsets")]
mod charsets;
mod common;
#[cfg(feature = "wasm-leveldb")]
mod leveldb;
#[cfg(all(test, not(any(feature = "wasm-leveldb", feature = "wasm-charsets"))))]
mod tests;
#[cfg(not(any(feature = "wasm-leveldb", feature = "wasm-charsets")))]
mod tsfile;
