//! The workspace's shape (issue 40): the core has no wasm code, dependency or feature; each wasm
//! module of the npm package and the page is a crate of its own that scripts/build.sh builds, a
//! cdylib only (a crate that is also an rlib gets no link-time optimisation from cargo: the
//! modules were ~12 % larger when they were the core's own cdylib); and LevelDB's double hashing
//! is written once, in the core, for the teaching crate too.

#![cfg(not(target_arch = "wasm32"))]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `cargo metadata --no-deps`: the workspace's packages.
fn packages() -> Vec<Value> {
    let out = Command::new(env!("CARGO"))
        .args(["metadata", "--no-deps", "--format-version", "1", "--offline"])
        .current_dir(root())
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "cargo metadata: {}", String::from_utf8_lossy(&out.stderr));
    let meta: Value = serde_json::from_slice(&out.stdout).unwrap();
    meta["packages"].as_array().unwrap().clone()
}

fn package<'a>(all: &'a [Value], name: &str) -> &'a Value {
    all.iter().find(|p| p["name"] == name).unwrap_or_else(|| panic!("no package {name} in the workspace"))
}

fn dependencies(p: &Value) -> Vec<String> {
    p["dependencies"].as_array().unwrap().iter().map(|d| d["name"].as_str().unwrap().to_string()).collect()
}

fn lib_crate_types(p: &Value) -> Vec<String> {
    let lib =
        p["targets"].as_array().unwrap().iter().find(|t| t["kind"].as_array().unwrap().iter().any(|k| k != "test"));
    let lib = lib.unwrap_or_else(|| panic!("{}: no library", p["name"]));
    lib["crate_types"].as_array().unwrap().iter().map(|t| t.as_str().unwrap().to_string()).collect()
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

const WASM: [&str; 5] = ["wasm-bindgen", "js-sys", "talc", "serde-wasm-bindgen", "wasm-bindgen-test"];

#[test]
fn the_core_has_no_wasm_code_dependency_or_feature() {
    let all = packages();
    let core = package(&all, "tsfile-bloom");
    let features: Vec<&String> = core["features"].as_object().unwrap().keys().collect();
    assert!(features.iter().all(|f| !f.contains("wasm")), "the core's features: {features:?}");
    let deps = dependencies(core);
    assert!(deps.iter().all(|d| !WASM.contains(&d.as_str())), "the core's dependencies: {deps:?}");
    assert_eq!(lib_crate_types(core), ["lib"], "the core is a plain library");
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(!text.contains("wasm_bindgen") && !text.contains("feature = \"wasm"), "{}", file.display());
    }
}

#[test]
fn each_wasm_module_is_a_crate_that_build_sh_builds() {
    let all = packages();
    let build = std::fs::read_to_string(root().join("scripts/build.sh")).unwrap();
    for (name, module) in [
        ("wasm-tsfile", "tsfile_bloom"),
        ("wasm-leveldb", "leveldb"),
        ("wasm-charsets", "charsets"),
        ("wasm-teach", "teach"),
    ] {
        let p = package(&all, name);
        assert_eq!(lib_crate_types(p), ["cdylib"], "{name}: a cdylib only, so that cargo applies the profile's LTO");
        assert_eq!(p["publish"], serde_json::json!([]), "{name}: publish = false");
        assert!(p["features"].as_object().unwrap().is_empty(), "{name}: no features to choose a module by");
        let deps = dependencies(p);
        assert!(
            deps.iter().any(|d| d == "tsfile-bloom") && deps.iter().any(|d| d == "wasm-bindgen"),
            "{name}: {deps:?}"
        );
        assert!(
            build.contains(&format!("build_module {module} crates/{name}\n")),
            "scripts/build.sh builds {module} from {name}"
        );
    }
    // The teaching lessons are a library of their own (native tests), on the core's rules.
    let teach = package(&all, "teach");
    assert_eq!(teach["publish"], serde_json::json!([]));
    let deps = dependencies(teach);
    assert!(deps.contains(&"tsfile-bloom".to_string()) && deps.iter().all(|d| !WASM.contains(&d.as_str())), "{deps:?}");
}

#[test]
fn leveldb_double_hashing_is_written_once() {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    rust_files(&root().join("crates"), &mut files);
    // δ = h rotated right by 17 (util/bloom.cc), outside the tests that check it by hand;
    // everything else takes it from leveldb::probe_hashes.
    let code = |f: &PathBuf| {
        let text = std::fs::read_to_string(f).unwrap();
        text.split("\n#[cfg(test)]").next().unwrap().matches("rotate_right(17)").count()
    };
    let at: Vec<(String, usize)> = files
        .iter()
        .filter(|f| code(f) > 0)
        .map(|f| (f.strip_prefix(root()).unwrap().display().to_string(), code(f)))
        .collect();
    assert_eq!(at, [("src/leveldb/policy.rs".to_string(), 1)]);
}
