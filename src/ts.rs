//! js/types.generated.d.ts: the TypeScript types of every record the wasm modules return, made
//! from the Rust types that serialize them (ts-rs derives, in test builds only; the closed sets'
//! unions from `closed_set!`'s lists). js/index.d.ts imports them. The test fails when the
//! file is not what the types say; `npm run generate` (TSFILE_BLOOM_GENERATE=1) writes it.

use crate::filter::{ProbeInfo, SeedProbe, Stats, Verdict};
use crate::hash::{FilterHash, NamedHash, TailVariant};
use crate::health::{FilterHealth, HealthState};
use crate::leveldb::view::{DataBlockInfo, MetaEntryInfo, TableInfo};
use crate::leveldb::FilterInfo;
use crate::leveldb::{BlockHandle, Compression, FilterProbe, KeyFormat, LevelDbProbe, ProbeBit, ProbeReason};
use crate::tsfile::audit::AuditStatus;
use crate::tsfile::schema::CATEGORIES;
use crate::tsfile::verdict::{Decision, FileVerdict};
use crate::tsfile::view::*;
use crate::tsfile::{BloomEncoding, DataType};
use crate::{Charset, ErrorKind};
use ts_rs::{Config, TS};

const PATH: &str = "js/types.generated.d.ts";

/// `"a" | "b" | …`: a closed set's names as a string-literal union.
pub(crate) fn union<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    names.into_iter().map(|n| format!("{n:?}")).collect::<Vec<_>>().join(" | ")
}

/// Implements `TS` for a type by its name (or the name after `as`); `$inline` makes its TypeScript.
macro_rules! named {
    ($t:ident $(as $ts:ident)?, $inline:expr) => {
        impl ts_rs::TS for $t {
            type WithoutGenerics = Self;
            type OptionInnerType = Self;
            fn name(_: &ts_rs::Config) -> String {
                [stringify!($t) $(, stringify!($ts))?].last().unwrap().to_string()
            }
            fn inline(_: &ts_rs::Config) -> String {
                $inline
            }
            fn decl(cfg: &ts_rs::Config) -> String {
                format!("type {} = {};", Self::name(cfg), Self::inline(cfg))
            }
        }
    };
}
pub(crate) use named;

/// [`TailVariant`] (the hash crate has no serde, so its fields name it: `ts(as = …)`).
pub(crate) struct Variant;
named!(Variant, union(TailVariant::ALL.map(TailVariant::as_str)));
named!(NamedHash, format!("Variant | {:?}", FilterHash::Cheap.as_str()));
/// A table column's category ([`CATEGORIES`], or `UNKNOWN` for another code).
pub(crate) struct ColumnCategory;
named!(ColumnCategory, union(CATEGORIES.iter().copied().chain(["UNKNOWN"])));
/// A column's data type, or `UNKNOWN(n)` for a byte no writer uses.
pub(crate) struct ColumnDataType;
named!(ColumnDataType, "DataType | `UNKNOWN(${number})`".to_string());

/// The kinds of errors the JS layers make themselves: js/errors.js's `JS_KINDS`.
fn js_kinds() -> Vec<String> {
    let errors = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/js/errors.js")).unwrap();
    let line = errors.lines().find(|l| l.starts_with("export const JS_KINDS = Object.freeze([")).unwrap();
    let list = line.split_once('[').unwrap().1.split_once(']').unwrap().0;
    list.split(',').map(|k| k.trim().trim_matches('\'').to_string()).collect()
}

/// One declaration, with its Rust docs (ts-rs makes them JSDoc), a record's fields a line each.
fn decl<T: TS>(cfg: &Config) -> String {
    let docs = T::docs().unwrap_or_default();
    let decl = T::decl(cfg);
    let body = match decl.split_once(" = { ") {
        Some((head, fields)) => format!("{head} = {{\n{}}};", fields_by_line(fields.trim_end_matches(" };"))),
        None => decl,
    };
    format!("{docs}export {body}\n")
}

/// `a: A, /** doc */ b: B, ` (ts-rs's one line, docs between) as one indented field a line.
fn fields_by_line(fields: &str) -> String {
    let (mut out, mut field, mut depth, mut in_doc) = (String::new(), String::new(), 0, false);
    let mut chars = fields.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if !in_doc && chars.peek() == Some(&'*') => in_doc = true,
            '/' if in_doc && field.ends_with('*') => in_doc = false,
            '<' if !in_doc => depth += 1,
            '>' if !in_doc => depth -= 1,
            ',' if !in_doc && depth == 0 => {
                for line in field.trim().lines() {
                    out += &format!("  {line}\n");
                }
                out.insert(out.len() - 1, ',');
                field.clear();
                continue;
            }
            _ => {}
        }
        field.push(c);
    }
    out
}

fn render() -> String {
    let cfg = Config::new().with_large_int("number");
    let kinds = js_kinds();
    let mut out = String::from(
        "// Generated from the Rust core's types by src/ts.rs (`npm run generate`); do not edit.\n\
         // The records the wasm modules return, as serde-wasm-bindgen hands them to JS (camelCase,\n\
         // None as null, integers as numbers), and the closed sets they name.\n\n",
    );
    out += &format!(
        "/** Every `kind` of this package's errors (docs/errors.md): the core's, then the JS layers'. */\n\
         export type ErrorKind = {} | {};\n",
        ErrorKind::inline(&cfg),
        union(kinds.iter().map(String::as_str))
    );
    for d in [
        decl::<Variant>,
        decl::<NamedHash>,
        decl::<FilterHash>,
        decl::<Charset>,
        decl::<Verdict>,
        decl::<FileVerdict>,
        decl::<Decision>,
        decl::<AuditStatus>,
        decl::<BloomEncoding>,
        decl::<DataType>,
        decl::<ColumnCategory>,
        decl::<ColumnDataType>,
        decl::<SeedProbe>,
        decl::<ProbeInfo>,
        decl::<Stats>,
        decl::<MetadataInfo>,
        decl::<HealthState>,
        decl::<FilterHealth>,
        decl::<BloomInfo>,
        decl::<SeriesInfo>,
        decl::<HypothesisInfo>,
        decl::<AuditInfo>,
        decl::<OtherProbe>,
        decl::<FileProbeInfo>,
        decl::<PropertyInfo>,
        decl::<ColumnInfo>,
        decl::<TableSchemaInfo>,
        decl::<ErrorInfo>,
        decl::<Compression>,
        decl::<KeyFormat>,
        decl::<ProbeReason>,
        decl::<BlockHandle>,
        decl::<MetaEntryInfo>,
        decl::<TableInfo>,
        decl::<DataBlockInfo>,
        decl::<FilterInfo>,
        decl::<ProbeBit>,
        decl::<LevelDbProbe>,
        decl::<FilterProbe>,
    ] {
        out += &d(&cfg);
    }
    out
}

#[test]
fn js_types_generated_is_what_the_core_says() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(PATH);
    let want = render();
    if std::env::var_os("TSFILE_BLOOM_GENERATE").is_some() {
        std::fs::write(&path, &want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(have == want, "{PATH} is not what the core's types say: run `npm run generate` and commit it");
}
