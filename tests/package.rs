//! What crates.io would get: `cargo package --list` for both crates against what each must
//! ship (the sources found on disk under `src/`, the documents the sources cite, the licence,
//! the README its manifest names) and nothing else (tests, fixtures, the npm package, scripts).
//! `scripts/test.sh` also packages both crates for real (`cargo package --workspace`, which
//! builds the main crate from its .crate against the packaged hash crate).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `cargo package --list` of one workspace member, as paths inside the .crate.
fn package_list(package: &str) -> BTreeSet<String> {
    let out = Command::new(env!("CARGO"))
        .args(["package", "--list", "--allow-dirty", "--quiet", "-p", package])
        .current_dir(root())
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "cargo package --list -p {package}: {}", String::from_utf8_lossy(&out.stderr));
    let list: BTreeSet<String> = String::from_utf8(out.stdout).unwrap().lines().map(str::to_string).collect();
    assert!(!list.is_empty(), "{package}: empty list");
    list
}

/// Every file under `dir` (relative to `base`, with `/`), found by walking the disk.
fn files_under(base: &Path, dir: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack = vec![base.join(dir)];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path.strip_prefix(base).unwrap();
                out.insert(rel.components().map(|c| c.as_os_str().to_str().unwrap()).collect::<Vec<_>>().join("/"));
            }
        }
    }
    out
}

/// Files cargo adds to a package: the manifests always; `.cargo_vcs_info.json` when packaging
/// from git; `Cargo.lock` (cargo 1.84 and later ship it with libraries too).
fn with_cargo_files(mut files: BTreeSet<String>, list: &BTreeSet<String>) -> BTreeSet<String> {
    files.extend(["Cargo.toml", "Cargo.toml.orig"].map(String::from));
    for optional in [".cargo_vcs_info.json", "Cargo.lock"] {
        if list.contains(optional) {
            files.insert(optional.into());
        }
    }
    files
}

fn assert_same(list: &BTreeSet<String>, want: &BTreeSet<String>) {
    let extra: Vec<_> = list.difference(want).collect();
    let missing: Vec<_> = want.difference(list).collect();
    assert!(
        extra.is_empty() && missing.is_empty(),
        "in the package but not expected: {extra:?}; expected but missing: {missing:?}"
    );
}

/// `key = "value"` from the `[package]` table of a manifest.
fn manifest_value(manifest: &Path, key: &str) -> String {
    let text = std::fs::read_to_string(manifest).unwrap();
    let package = text.split("\n[").find(|t| t.starts_with("[package]") || t.starts_with("package]")).unwrap();
    let line = package.lines().find(|l| l.starts_with(&format!("{key} = "))).unwrap_or_else(|| panic!("no {key}"));
    line.split('"').nth(1).unwrap().to_string()
}

#[test]
fn the_main_crate_ships_its_sources_cited_docs_readme_and_licence_only() {
    let list = package_list("tsfile-bloom");
    let root = root();

    // Every file of the library on disk, the binary JDK tables included (include_bytes!).
    let sources = files_under(&root, "src");
    assert!(sources.contains("src/charset/jvm_tables.bin") && sources.contains("src/lib.rs"));
    // Every docs/*.md the sources cite (their doc comments send readers there).
    let mut cited = BTreeSet::new();
    for file in sources.iter().filter(|f| f.ends_with(".rs")) {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        for (at, _) in text.match_indices("docs/") {
            let rest = &text[at + "docs/".len()..];
            let stem: String = rest.chars().take_while(|c| c.is_ascii_lowercase() || *c == '-').collect();
            if !stem.is_empty() && rest[stem.len()..].starts_with(".md") {
                cited.insert(format!("docs/{stem}.md"));
            }
        }
    }
    assert!(cited.contains("docs/bloom-filter.md") && cited.contains("docs/tsfile-format.md"), "{cited:?}");
    let readme = manifest_value(&root.join("Cargo.toml"), "readme");
    assert_eq!(readme, "docs/crate.md", "the crate's own README, not the npm package's README.md");

    let mut want = sources.clone();
    want.extend(cited);
    want.extend([readme, "LICENSE".into(), "CHANGELOG.md".into()]);
    let want = with_cargo_files(want, &list);
    assert_same(&list, &want);

    // Named, so that a wider include list fails here even if it matched the rules above.
    for prefix in [
        "tests/",
        "www/",
        "js/",
        "scripts/",
        "benches/",
        "examples/",
        "fuzz/",
        "node_modules/",
        "target/",
        "dist/",
        ".tools/",
        "crates/",
    ] {
        assert!(!list.iter().any(|f| f.starts_with(prefix)), "{prefix} is in the package");
    }
    for file in
        ["package.json", "package-lock.json", "README.md", "ARCHITECTURE.md", "BENCHMARKS.md", "docs/toolchain.md"]
    {
        assert!(!list.contains(file), "{file} is in the package");
    }
}

#[test]
fn the_hash_crate_ships_its_source_readme_and_licence_only() {
    let list = package_list("tsfile-bloom-hash");
    let dir = root().join("crates/hash");
    assert_eq!(manifest_value(&dir.join("Cargo.toml"), "readme"), "README.md");
    let mut want = files_under(&dir, "src");
    assert!(want.contains("src/lib.rs"));
    want.extend(["README.md", "LICENSE"].map(String::from));
    let want = with_cargo_files(want, &list);
    assert_same(&list, &want);
    // The licence is the repository's (crates/hash/LICENSE links to it).
    assert_eq!(std::fs::read(dir.join("LICENSE")).unwrap(), std::fs::read(root().join("LICENSE")).unwrap());
}

#[test]
fn both_crates_are_publishable_with_one_version_of_the_hash_crate() {
    let root = root();
    let main = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let hash_version = manifest_value(&root.join("crates/hash/Cargo.toml"), "version");
    // A path dependency needs a version to be published; it must be the hash crate's own.
    let dep = main.lines().find(|l| l.starts_with("tsfile-bloom-hash = ")).expect("the hash crate dependency");
    assert!(dep.contains(&format!("version = \"{hash_version}\"")) && dep.contains("path = \"crates/hash\""), "{dep}");
    for manifest in [root.join("Cargo.toml"), root.join("crates/hash/Cargo.toml")] {
        let text = std::fs::read_to_string(&manifest).unwrap();
        assert!(!text.lines().any(|l| l.trim_start().starts_with("publish")), "{}: publish is set", manifest.display());
        for key in ["description", "license", "readme", "documentation", "rust-version"] {
            assert!(!manifest_value(&manifest, key).is_empty(), "{}: {key}", manifest.display());
        }
        assert!(text.contains("\nkeywords = [") && text.contains("\ncategories = ["), "{}", manifest.display());
    }
    // One MSRV for the workspace.
    assert_eq!(
        manifest_value(&root.join("Cargo.toml"), "rust-version"),
        manifest_value(&root.join("crates/hash/Cargo.toml"), "rust-version")
    );
}
