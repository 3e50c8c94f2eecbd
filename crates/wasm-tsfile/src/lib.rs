//! The npm package's TsFile module (`dist/web/tsfile_bloom`, scripts/build.sh): the core's
//! hash, filter and TsFile reader as `#[wasm_bindgen]` exports, converters only. The hash's and
//! the filter's in filter.rs, a file's in tsfile.rs, the charsets module behind the core's
//! `WithModule` in encoder.rs, the areas JS writes and reads in place in stage.rs.
#![cfg(target_arch = "wasm32")]

mod encoder;
mod filter;
mod stage;
#[cfg(test)]
mod tests;
mod tsfile;
