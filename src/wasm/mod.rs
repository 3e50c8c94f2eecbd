//! The `#[wasm_bindgen]` layer, compiled only for wasm32. The package ships two
//! modules built from this crate: the TsFile module (default) and, with the
//! `wasm-leveldb` feature, the LevelDB module; each stays under the size budget.

mod common;
#[cfg(feature = "wasm-leveldb")]
mod leveldb;
#[cfg(not(feature = "wasm-leveldb"))]
mod tsfile;
