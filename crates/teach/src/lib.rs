//! The teaching panel's core: every formula, step and measurement the page's lesson shows
//! (www/teach.js), computed here so that the page only draws, from the core's (`tsfile_bloom`)
//! hashing, sizing and LevelDB policy. Its bindings are crates/wasm-teach, the page-only `teach`
//! wasm module; the npm package's modules do not carry it.
//!
//! - `interval`: the 95 % Wilson score interval every measured rate carries, and how a
//!   probability is printed;
//! - `keys`: a seeded generator and the key families the experiments insert and probe;
//! - `model`: a bit vector under TsFile's k seeded Murmur128 runs or LevelDB's double hashing,
//!   and the measured false-positive rate beside the formula;
//! - `calc`: the calculator (any three of n, p, m, k give the fourth) with Java's and
//!   LevelDB's real sizing beside the ideal;
//! - `trace`: the step-through of one insert or lookup, hash by hash;
//! - `lesson`: one demonstration per claim of the textbook lesson (claims 2–13);
//! - `plan`: which demonstration runs for which claim, with which parameters, on the open
//!   file, the sandbox's paths or generated keys (the page's one entry point to them);
//! - `counting`: a counting Bloom filter, for the deletion demonstration;
//! - `read_path`: a LevelDB table's read path (filter → index → data block) and range scans;
//! - `size`: claim 12, the calculator at the claim's numbers beside the writers' real sizes.

pub mod calc;
pub mod counting;
pub mod interval;
pub mod keys;
pub mod lesson;
pub mod model;
pub mod plan;
pub mod read_path;
pub mod size;
pub mod trace;

pub use calc::{solve, CalcInput, Solution};
pub use interval::{wilson, Rate};
pub use keys::{Family, Rng};
pub use model::{Bits, Filter, Hashing, Measurement, Model};
