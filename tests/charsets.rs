//! Every JVM charset against what a real JVM's `String.getBytes(charset)` produced
//! (tests/fixtures/java_charsets.json, written by tests/reference/JavaCharsets.java):
//! the sample paths, a SHA-256 per 4096-code-point block of the BMP, one per
//! supplementary plane, and the aliases `Charset.forName` accepts.
#![cfg(not(target_arch = "wasm32"))]
#![cfg(feature = "jvm-charsets")]

use serde_json::Value;
use sha2::{Digest, Sha256};
use tsfile_bloom::path::transcode;
use tsfile_bloom::Charset;

fn fixture() -> Value {
    serde_json::from_str(include_str!("fixtures/java_charsets.json")).unwrap()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn digest_of(charset: Charset, text: &str) -> String {
    hex(&Sha256::digest(charset.encode(text)))
}

#[test]
fn fixture_covers_every_charset() {
    let f = fixture();
    let mut names: Vec<&str> = Charset::ALL.iter().map(|c| c.as_str()).collect();
    names.sort();
    for key in ["bmpBlocks", "planes", "aliases"] {
        let mut got: Vec<&str> = f[key].as_object().unwrap().keys().map(String::as_str).collect();
        got.sort();
        assert_eq!(got, names, "{key}");
    }
}

#[test]
fn samples_match_the_jvm() {
    let f = fixture();
    let cases = f["cases"].as_array().unwrap();
    let mut wrong = Vec::new();
    for c in cases {
        let cs = Charset::from_name(c["charset"].as_str().unwrap()).unwrap();
        let text = c["text"].as_str().unwrap();
        let ours = hex(&cs.encode(text));
        if ours != c["bytes"].as_str().unwrap() {
            wrong.push(format!("{} {text:?}: java {}, ours {ours}", cs.as_str(), c["bytes"]));
        }
        // transcode (the stored-UTF-8 entry point) agrees.
        assert_eq!(hex(&transcode(text.as_bytes(), cs).unwrap()), ours);
    }
    assert_eq!(wrong, Vec::<String>::new());
    assert_eq!(cases.len(), Charset::ALL.len() * 25);
}

#[test]
fn whole_bmp_matches_the_jvm() {
    let f = fixture();
    let mut wrong = Vec::new();
    for cs in Charset::ALL {
        let digests = f["bmpBlocks"][cs.as_str()].as_array().unwrap();
        for (block, want) in digests.iter().enumerate() {
            let text: String = (block as u32 * 4096..(block as u32 + 1) * 4096).filter_map(char::from_u32).collect();
            if digest_of(cs, &text) != want.as_str().unwrap() {
                wrong.push(format!("{} U+{:04X}..", cs.as_str(), block * 4096));
            }
        }
    }
    assert_eq!(wrong, Vec::<String>::new());
}

#[test]
fn supplementary_planes_match_the_jvm() {
    let f = fixture();
    let mut wrong = Vec::new();
    for plane in 1..=16u32 {
        let text: String = (plane << 16..(plane + 1) << 16).filter_map(char::from_u32).collect();
        for cs in Charset::ALL {
            let want = &f["planes"][cs.as_str()][plane as usize - 1];
            if digest_of(cs, &text) != want.as_str().unwrap() {
                wrong.push(format!("{} plane {plane}", cs.as_str()));
            }
        }
    }
    assert_eq!(wrong, Vec::<String>::new());
}

#[test]
fn every_jvm_alias_is_accepted() {
    let f = fixture();
    for (name, aliases) in f["aliases"].as_object().unwrap() {
        let cs = Charset::from_name(name).unwrap();
        assert_eq!(cs.as_str(), name);
        for alias in aliases.as_array().unwrap() {
            let alias = alias.as_str().unwrap();
            assert_eq!(Charset::from_name(alias).map(Charset::as_str).ok(), Some(name.as_str()), "{alias}");
            assert_eq!(Charset::from_name(&alias.to_lowercase()).unwrap(), cs, "{alias}");
        }
    }
}
