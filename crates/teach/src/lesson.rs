//! One demonstration per claim of the textbook's Bloom-filter lesson (www/teach.js shows them
//! in order). Each builds real filters, measures them against the formula, and states what the
//! numbers say in sentences made from the same numbers. A demonstration is a table (columns,
//! rows of cells) plus findings, so that the page draws every one the same way.
//!
//! Claim 1 is the step-through (`trace`), 6 and 7 read a real LevelDB table (`read_path`),
//! 10 is `counting`, 12 is `size`; the rest are here. Every measurement carries its 95 %
//! Wilson interval; keys come from `keys` (seeded, so a run can be repeated). Which one runs
//! with which parameters, on which keys, is `plan`'s.

use serde::Serialize;

use super::calc::java_row;
use super::interval::{pct, people, wilson, Rate};
use super::keys::{Family, Rng};
use super::model::{Bits, Fill, Filter, Hashing, Measurement, Model};
use tsfile_bloom::error::{Error, Result};
use tsfile_bloom::filter::java_sizing;
use tsfile_bloom::hash::TailVariant;
use tsfile_bloom::leveldb::{filter_bits, k_for_bits_per_key};

/// A table cell.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Cell {
    Text {
        text: String,
    },
    /// A whole count.
    Count {
        value: f64,
    },
    /// A plain number (bits per key, k*, a ratio).
    Number {
        value: f64,
    },
    /// A probability, drawn as a percentage.
    Percent {
        value: f64,
    },
    /// A measured rate with its interval.
    Rate {
        rate: Rate,
    },
}

impl Cell {
    pub fn text(s: impl Into<String>) -> Cell {
        Cell::Text { text: s.into() }
    }
    pub fn count(v: u64) -> Cell {
        Cell::Count { value: v as f64 }
    }
    pub fn num(v: f64) -> Cell {
        Cell::Number { value: v }
    }
    pub fn pct(v: f64) -> Cell {
        Cell::Percent { value: v }
    }
    pub fn rate(r: Rate) -> Cell {
        Cell::Rate { rate: r }
    }
}

/// One claim's demonstration.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Demo {
    pub claim: u32,
    /// What was built and measured (sizes, key families, seed).
    pub setup: String,
    pub columns: Vec<&'static str>,
    pub rows: Vec<Vec<Cell>>,
    /// The claim's answer in one sentence, said after its badge.
    pub headline: String,
    /// What else the numbers say.
    pub findings: Vec<String>,
    /// A one-word answer for the claim as measured: "holds", "fails" or "depends".
    pub answer: &'static str,
    /// The formula over the parameter the rows run along, with their measurements on it (claims 2, 7 and 8).
    pub curve: Option<Curve>,
}

/// The formula as a curve over one parameter (`axis`: "k", "n" or "bits_per_key"), its `[x, p]` points, and
/// the measured rates at their x.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Curve {
    pub axis: &'static str,
    pub formula: Vec<[f64; 2]>,
    pub measured: Vec<CurvePoint>,
}

/// A measured rate at parameter value `x`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CurvePoint {
    pub x: f64,
    pub rate: Rate,
}

/// Keys a demonstration runs on: the open file's series (in its charset) or the sandbox's paths.
pub struct Given<'a> {
    pub keys: Vec<&'a [u8]>,
    /// Where they come from, for the sentences ("the open file's 10,000 listed paths").
    pub label: String,
}

impl<'a> Given<'a> {
    /// The keys the page staged ([`tsfile_bloom::staged::keys`]'s layout), named `label`; none staged: none.
    pub fn staged(keys: &'a [u8], ends: &[u32], label: &str) -> Result<Option<Given<'a>>> {
        if ends.is_empty() {
            return Ok(None);
        }
        Ok(Some(Given { keys: tsfile_bloom::staged::key_list(keys, ends)?, label: label.to_string() }))
    }
}

fn interval(r: &Rate) -> String {
    format!("{} (95 % interval {} – {})", pct(r.rate), pct(r.low), pct(r.high))
}

/// Do two measured intervals overlap?
fn overlap(a: &Rate, b: &Rate) -> bool {
    a.low <= b.high && b.low <= a.high
}

fn check_count(name: &str, v: u64, lo: u64, hi: u64) -> Result<()> {
    if v < lo || v > hi {
        return Err(Error::invalid_argument(format!("{name}: {v} is outside {lo} to {hi}")));
    }
    Ok(())
}

fn tsfile(m: u32, k: u32) -> Result<Model> {
    Model::new(Hashing::TsFile(TailVariant::Java), m, k)
}

fn measure_row(label: String, mut f: Filter, absent: &[Vec<u8>]) -> (Vec<Cell>, Measurement) {
    let r = f.measure(absent);
    let row = vec![
        Cell::text(label),
        Cell::count(r.n),
        Cell::count(r.m as u64),
        Cell::count(r.k as u64),
        Cell::pct(r.fill),
        Cell::pct(r.formula),
        Cell::rate(r.fp),
    ];
    (row, r)
}

const MEASURE_COLUMNS: [&str; 7] = ["filter", "n", "m", "k", "fill", "formula p", "measured p"];

/// Claim 2: p falls with m, rises with n, and has a best k near (m/n) ln 2. One set of n keys
/// (the given ones, else IoTDB-style paths) in m bits, under every k from 1 to 8, then 2m and 2n.
pub fn claim2(m: u32, n: u64, given: Option<&Given>, probes: u64, seed: u64) -> Result<Demo> {
    check_count("n", n, 1, 1_000_000)?;
    check_count("probes", probes, 100, 1_000_000)?;
    let mut rng = Rng::new(seed);
    let keys: Vec<Vec<u8>> = match given {
        Some(g) if !g.keys.is_empty() => g.keys.iter().map(|k| k.to_vec()).collect(),
        _ => Family::Prefix.keys(0, 0, n, &mut rng),
    };
    let n = keys.len() as u64;
    let more = Family::Prefix.keys(1, 0, n, &mut rng);
    let absent = Family::Prefix.keys(2, 0, probes, &mut rng);
    let mut rows = Vec::new();
    let mut per_k = Vec::new();
    for k in 1..=8 {
        let mut f = Filter::new(tsfile(m, k)?);
        f.add_all(&keys);
        let (row, r) = measure_row(format!("k = {k}"), f, &absent);
        rows.push(row);
        per_k.push(r);
    }
    let kstar = m as f64 / n as f64 * std::f64::consts::LN_2;
    let (best_formula, _) =
        per_k.iter().enumerate().fold((0, f64::INFINITY), |b, (i, r)| if r.formula < b.1 { (i, r.formula) } else { b });
    let (best_measured, _) =
        per_k.iter().enumerate().fold((0, f64::INFINITY), |b, (i, r)| if r.fp.rate < b.1 { (i, r.fp.rate) } else { b });
    let kb = (best_formula + 1) as u32;
    let mut f2m = Filter::new(tsfile(m.saturating_mul(2).min(i32::MAX as u32), kb)?);
    f2m.add_all(&keys);
    let (row2m, r2m) = measure_row(format!("2m, k = {kb}"), f2m, &absent);
    let mut f2n = Filter::new(tsfile(m, kb)?);
    f2n.add_all(&keys);
    f2n.add_all(&more);
    let (row2n, r2n) = measure_row(format!("2n, k = {kb}"), f2n, &absent);
    rows.push(row2m);
    rows.push(row2n);
    let base = &per_k[best_formula];
    let covered = per_k.iter().filter(|r| r.fp.covers(r.formula)).count();
    let covered_fill = per_k.iter().filter(|r| r.fp.covers(r.from_fill)).count();
    let (lo, hi) = (&per_k[0], &per_k[7]);
    let findings = vec![
        format!(
            "The formula's best whole k here is {kb} (k* = (m/n) ln 2 = {kstar:.2}); the lowest measured rate is at k = {} ({}).",
            best_measured + 1,
            interval(&per_k[best_measured].fp)
        ),
        format!(
            "Too few hashes decide too little: k = 1 measures {}. Too many fill the vector: k = 8 sets {} of the bits and measures {}.",
            interval(&lo.fp),
            pct(hi.fill),
            interval(&hi.fp)
        ),
        format!(
            "More bits lower p: 2m at k = {kb} measures {} against {}. More keys raise it: 2n measures {}.",
            interval(&r2m.fp),
            pct(base.fp.rate),
            interval(&r2n.fp)
        ),
        format!(
            "The formula lies inside the measured interval for {covered} of the 8 values of k; this one filter's own fill (fill^k) for {covered_fill} — a single small filter's fill scatters around the formula's expectation."
        ),
    ];
    let holds = r2m.fp.high < base.fp.low.max(1e-12) || r2m.fp.rate < base.fp.rate;
    let holds = holds
        && r2n.fp.rate > base.fp.rate
        && lo.fp.rate > per_k[best_measured].fp.rate
        && hi.fp.rate > per_k[best_measured].fp.rate;
    let headline = match holds {
        true => format!(
            "More bits lower p, more keys raise it, and too few or too many hashes both cost: the lowest rate is measured at k = {}, the formula's best whole k is {kb}.",
            best_measured + 1
        ),
        false => "At this size the measurements do not show every effect apart from the noise; try a larger m or n.".into(),
    };
    Ok(Demo {
        claim: 2,
        headline,
        curve: Some(k_curve(&per_k)),
        setup: format!(
            "{} in m = {m} bits, TsFile's Murmur128 seeds; {probes} absent IoTDB-style paths probed per filter (seed {seed}).",
            match given {
                Some(g) if !g.keys.is_empty() => format!("{} ({n} keys)", g.label),
                _ => format!("{n} IoTDB-style paths"),
            }
        ),
        columns: MEASURE_COLUMNS.to_vec(),
        rows,
        findings,
        answer: if holds { "holds" } else { "depends" },
    })
}

/// Claim 3: about 10 bits per key gives under 1 %; and what TsFile's default 5 % costs per key.
pub fn claim3(n: u64, probes: u64, seed: u64, file: Option<(f64, u32, u32)>) -> Result<Demo> {
    check_count("n", n, 10, 1_000_000)?;
    check_count("probes", probes, 100, 2_000_000)?;
    let mut rng = Rng::new(seed);
    let keys = Family::Prefix.keys(0, 0, n, &mut rng);
    let absent = Family::Prefix.keys(0, n, probes, &mut rng);
    let mut rows = Vec::new();
    let mut out = Vec::new();
    // LevelDB's policy at 10 bits per key: its own m rule and k = ⌊6.9⌋ = 6.
    let bits = filter_bits(n, 10) as u32;
    let mut f = Filter::new(Model::new(Hashing::LevelDb, bits, k_for_bits_per_key(10))?);
    f.add_all(&keys);
    let (row, ldb) = measure_row("LevelDB, bits_per_key = 10".into(), f, &absent);
    rows.push(row);
    // The ideal at 10 bits per key: the best whole k (7).
    let mut f = Filter::new(tsfile((10 * n) as u32, 7)?);
    f.add_all(&keys);
    let (row, ideal) = measure_row("10 bits per key, k = 7 (the best whole k)".into(), f, &absent);
    rows.push(row);
    // TsFile's Java writer at its default 5 % and at its lowest rate, 1 %.
    for p in [0.05, 0.01] {
        let (m, k) = java_sizing(n as i32, p);
        let mut f = Filter::new(tsfile(m, k)?);
        f.add_all(&keys);
        let (row, r) = measure_row(format!("TsFile getEmptyBloomFilter({p}, {n})"), f, &absent);
        rows.push(row);
        out.push(r);
    }
    let (j5, j1) = (&out[0], &out[1]);
    let mut findings = vec![
        format!(
            "10 bits per key: LevelDB (k = 6) measures {} — {} 1 %; with the best k = 7 it measures {} (formula {}).",
            interval(&ldb.fp),
            if ldb.fp.high < 0.01 { "under" } else if ldb.fp.low > 0.01 { "over" } else { "not clearly apart from" },
            interval(&ideal.fp),
            pct(ideal.formula)
        ),
        format!(
            "TsFile's default 5 % costs {:.2} bits per key (k = {}) and measures {}; its lowest allowed rate, 1 %, costs {:.2} bits per key (k = {}) and measures {}.",
            j5.bits_per_key,
            j5.k,
            interval(&j5.fp),
            j1.bits_per_key,
            j1.k,
            interval(&j1.fp)
        ),
    ];
    if let Some((fn_, fm, fk)) = file {
        let p = tsfile_bloom::filter::false_positive_probability(fn_, fm, fk);
        rows.push(vec![
            Cell::text("the open file (formula only)"),
            Cell::count(fn_ as u64),
            Cell::count(fm as u64),
            Cell::count(fk as u64),
            Cell::pct(1.0 - (-(fk as f64) * fn_ / fm as f64).exp()),
            Cell::pct(p),
            Cell::text("–"),
        ]);
        findings.push(format!(
            "The open file spends {:.2} bits per path for a formula rate of {}.",
            fm as f64 / fn_,
            pct(p)
        ));
    }
    let (headline, answer) = if ldb.fp.high < 0.01 {
        ("LevelDB's 10 bits per key keep false positives under 1 %, and TsFile's default 5 % spends fewer bits per key.", "holds")
    } else if ldb.fp.low > 0.01 {
        ("LevelDB's 10 bits per key measure over 1 % false positives here.", "fails")
    } else {
        ("LevelDB's 10 bits per key measure about 1 %, not clearly under it.", "depends")
    };
    Ok(Demo {
        claim: 3,
        headline: headline.into(),
        curve: None,
        setup: format!("{n} IoTDB-style paths; {probes} absent paths probed per filter (seed {seed})."),
        columns: MEASURE_COLUMNS.to_vec(),
        rows,
        findings,
        answer,
    })
}

/// Claim 4: no false negatives. The keys inserted all test "maybe" under the writer's own hash;
/// a reader with the other tail variant (the C++ 2.5 writer against a Java reader) misses most
/// non-ASCII-tail paths; absent keys cost only a wasted read when they say "maybe".
pub fn claim4(given: Option<(&Given, &Bits, Model)>, n: u64, probes: u64, seed: u64) -> Result<Demo> {
    check_count("n", n, 1, 1_000_000)?;
    check_count("probes", probes, 100, 1_000_000)?;
    let (mut rows, mut findings, own) = claim4_generated(n, probes, seed)?;
    let mut answer = if own.hits == 0 { "holds" } else { "fails" };
    if let Some((g, bits, m)) = given {
        let (file_rows, finding, hits) = claim4_on_file(g, bits, m);
        rows.extend(file_rows);
        findings.push(finding);
        if hits > 0 {
            answer = "fails";
        }
    }
    let headline = if answer == "holds" {
        "No inserted key tested “absent” under the writer's own hash: no false negatives; only a reader hashing differently loses keys."
    } else {
        "Inserted keys tested “absent” under the filter's hash: false negatives, which a reader would take for missing data."
    };
    Ok(Demo {
        claim: 4,
        headline: headline.into(),
        curve: None,
        setup: format!(
            "{n} paths ending in 温度 (a non-ASCII Murmur128 tail), Java's sizing for p = 5 %; {probes} absent paths (seed {seed})."
        ),
        columns: vec!["filter", "probed", "said “absent”", "what it means"],
        rows,
        findings,
        answer,
    })
}

/// The share of `keys` that test "absent" under `reader`, in a filter with `bits` (None: the
/// bits `writer` sets for them).
fn false_negatives<K: AsRef<[u8]>>(keys: &[K], writer: Model, reader: Model, bits: Option<&Bits>) -> Rate {
    let mut f = match bits {
        Some(b) => Filter::from_bits(reader, b.clone(), keys.len() as u64),
        None => {
            let mut w = Filter::new(writer);
            w.add_all(keys);
            Filter::from_bits(reader, w.bits.clone(), keys.len() as u64)
        }
    };
    let (maybe, total) = f.count_maybe(keys);
    wilson(total - maybe, total)
}

/// Claim 4 on `n` generated non-ASCII-tail paths: a Java writer read by Java, a C++ 2.5 writer
/// (zero-extended) read by Java, and `probes` absent paths; its rows, findings and the own
/// hash's false negatives.
fn claim4_generated(n: u64, probes: u64, seed: u64) -> Result<(Vec<Vec<Cell>>, Vec<String>, Rate)> {
    let mut rng = Rng::new(seed);
    let (java, zero) = (TailVariant::Java, TailVariant::ZeroExtended);
    let gen = Family::NonAsciiTail.keys(0, 0, n, &mut rng);
    let model = |v| Model::new(Hashing::TsFile(v), java_sizing(n as i32, 0.05).0, java_sizing(n as i32, 0.05).1);
    let own = false_negatives(&gen, model(java)?, model(java)?, None);
    let cross = false_negatives(&gen, model(zero)?, model(java)?, None);
    let mut wf = Filter::new(model(java)?);
    wf.add_all(&gen);
    let absent = Family::NonAsciiTail.keys(1, 0, probes, &mut rng);
    let fp = wf.measure(&absent).fp;
    let rows = vec![
        vec![
            Cell::text(format!("{n} non-ASCII-tail paths, Java writer, Java reader")),
            Cell::count(n),
            Cell::rate(own),
            Cell::text(if own.hits == 0 { "no false negatives" } else { "false negatives" }),
        ],
        vec![
            Cell::text("the same paths, C++ 2.5 writer (zero-extended), Java reader"),
            Cell::count(n),
            Cell::rate(cross),
            Cell::text("false negatives: series the reader skips although the file holds them"),
        ],
        vec![
            Cell::text("absent paths, Java writer, Java reader"),
            Cell::count(probes),
            Cell::rate(wilson(fp.trials - fp.hits, fp.trials)),
            Cell::text(format!("the other {} said “maybe”: false positives, one wasted index read each", pct(fp.rate))),
        ],
    ];
    let findings = vec![
        format!(
            "With the writer's own hash, {} of {n} inserted paths tested “absent” — a false negative rate of {}: none, as the construction guarantees.",
            own.hits,
            interval(&own)
        ),
        format!(
            "Read with the other tail variant, {} of the same {n} paths test “absent” ({}): a reader would skip files that hold them — data that looks lost. That is why a reader must hash exactly as the writer did.",
            cross.hits,
            interval(&cross)
        ),
        format!(
            "A false positive costs less: {} of the absent probes said “maybe” ({}), each one index read that finds nothing.",
            fp.hits,
            interval(&fp)
        ),
    ];
    Ok((rows, findings, own))
}

/// Claim 4 on the open file's listed paths, under the writer's hash and the other tail
/// variant: its rows, finding and the writer's hash's false negatives.
fn claim4_on_file(g: &Given, bits: &Bits, m: Model) -> (Vec<Vec<Cell>>, String, u64) {
    let r = false_negatives(&g.keys, m, m, Some(bits));
    let other = match m.hashing {
        Hashing::TsFile(TailVariant::Java) => Hashing::TsFile(TailVariant::ZeroExtended),
        Hashing::TsFile(TailVariant::ZeroExtended) => Hashing::TsFile(TailVariant::Java),
        h => h,
    };
    let wrong = false_negatives(&g.keys, m, Model { hashing: other, ..m }, Some(bits));
    let n = g.keys.len() as u64;
    let rows = vec![
        vec![
            Cell::text(format!("{}, the writer's hash", g.label)),
            Cell::count(n),
            Cell::rate(r),
            Cell::text(if r.hits == 0 {
                "no false negatives"
            } else {
                "false negatives: the filter does not match this hash"
            }),
        ],
        vec![
            Cell::text(format!("{}, the other tail variant", g.label)),
            Cell::count(n),
            Cell::rate(wrong),
            Cell::text(if wrong.hits == 0 {
                "no difference: these paths' tails are ASCII"
            } else {
                "false negatives under the wrong hash"
            }),
        ],
    ];
    let finding = format!(
        "On {}: {} of {n} listed paths test “absent” under the writer's hash, {} under the other tail variant.",
        g.label, r.hits, wrong.hits
    );
    (rows, finding, r.hits)
}

/// Claim 5: LevelDB's double hashing (one 32-bit hash) against TsFile's k independent seeded
/// Murmur128 runs, at the same n, m and k, pooled over `filters` key sets.
pub fn claim5(bits_per_key: u32, k: u32, sizes: &[u64], filters: u32, probes: u64, seed: u64) -> Result<Demo> {
    check_count("bits per key", bits_per_key as u64, 1, 64)?;
    check_count("k", k as u64, 1, 8)?;
    check_count("filters", filters as u64, 1, 100)?;
    check_count("probes", probes, 100, 1_000_000)?;
    let mut rng = Rng::new(seed);
    let mut rows = Vec::new();
    let mut findings = Vec::new();
    let mut all_overlap = true;
    for &n in sizes {
        check_count("n", n, 1, 200_000)?;
        let m = (n * bits_per_key as u64).max(64) as u32;
        let mut res = Vec::new();
        for hashing in [Hashing::TsFile(TailVariant::Java), Hashing::LevelDb] {
            let (mut hits, mut trials, mut fill, mut formula) = (0, 0, 0.0, 0.0);
            for g in 0..filters {
                let keys = Family::Random.keys(g, 0, n, &mut rng);
                let absent = Family::Random.keys(g, n, probes, &mut rng);
                let mut f = Filter::new(Model::new(hashing, m, k)?);
                f.add_all(&keys);
                let r = f.measure(&absent);
                hits += r.fp.hits;
                trials += r.fp.trials;
                fill += r.fill / filters as f64;
                formula = r.formula;
            }
            let rate = wilson(hits, trials);
            rows.push(vec![
                Cell::text(match hashing {
                    Hashing::LevelDb => "LevelDB: double hashing from one BloomHash".to_string(),
                    _ => format!("TsFile: {k} seeded Murmur128 runs"),
                }),
                Cell::count(n),
                Cell::count(m as u64),
                Cell::count(hashing.hashes_per_key(k) as u64),
                Cell::pct(fill),
                Cell::pct(formula),
                Cell::rate(rate),
            ]);
            res.push((rate, formula));
        }
        let ((t, formula), (l, _)) = (res[0], res[1]);
        let ok = overlap(&t, &l);
        all_overlap &= ok;
        findings.push(format!(
            "n = {n}, m = {m}: k independent hashes measure {}, double hashing {} (formula {}): {}",
            interval(&t),
            interval(&l),
            pct(formula),
            if ok {
                "the intervals overlap — no measurable cost at this size.".to_string()
            } else {
                format!("double hashing runs {:.2}× the independent hashes' rate.", l.rate / t.rate.max(1e-12))
            }
        ));
    }
    findings.push(format!(
        "The saving: LevelDB computes 1 hash per key and derives the other {} probes by adding δ; TsFile runs Murmur128 {k} times.",
        k - 1
    ));
    Ok(Demo {
        claim: 5,
        headline: if all_overlap {
            "Double hashing from one hash measures the same rate as k independent hashes at every size tried: it costs nothing measurable."
        } else {
            "Double hashing from one hash measures apart from k independent hashes at some size: see the numbers."
        }
        .into(),
        curve: None,
        setup: format!(
            "{bits_per_key} bits per key, k = {k}; random keys; {filters} filters per size, {probes} absent keys each, pooled (seed {seed})."
        ),
        columns: vec!["hashing", "n", "m", "hashes per key", "fill", "formula p", "measured p"],
        rows,
        findings,
        answer: if all_overlap { "holds" } else { "depends" },
    })
}

/// Claim 7's second half: LevelDB's `bits_per_key = 0` does not turn the filter off — the
/// policy still writes a 64-bit filter with k = 1 per window — measured at `n` keys per window.
pub fn claim7_zero_bits(window_keys: u64, probes: u64, seed: u64) -> Result<Demo> {
    check_count("keys per window", window_keys, 1, 100_000)?;
    check_count("probes", probes, 100, 1_000_000)?;
    let mut rng = Rng::new(seed);
    let keys = Family::Random.keys(0, 0, window_keys, &mut rng);
    let absent = Family::Random.keys(0, window_keys, probes, &mut rng);
    let mut rows = Vec::new();
    let mut out = Vec::new();
    for b in [0u32, 4, 10] {
        let mut f = Filter::new(leveldb_policy(window_keys, b)?);
        f.add_all(&keys);
        let (row, r) = measure_row(format!("bits_per_key = {b}"), f, &absent);
        rows.push(row);
        out.push((b, r));
    }
    let z = out[0].1;
    Ok(Demo {
        claim: 7,
        headline: "bits_per_key = 0 does not turn LevelDB's filter off: a 64-bit filter with k = 1 is still written and read.".into(),
        curve: Some(bits_per_key_curve(window_keys, &out)?),
        setup: format!("One LevelDB filter over {window_keys} random keys (one 2 KiB window's worth); {probes} absent keys (seed {seed})."),
        columns: MEASURE_COLUMNS.to_vec(),
        rows,
        findings: vec![
            format!(
                "bits_per_key = 0 still builds a filter: LevelDB's policy enforces at least 64 bits and k = 1, so each window keeps a {}-byte filter that passes {} of absent keys.",
                z.m / 8 + 1,
                interval(&z.fp)
            ),
            "To turn filters off for scan-only work, leave Options::filter_policy unset (nullptr): then no filter block is written and none is read.".into(),
        ],
        answer: "fails",
    })
}

/// LevelDB's BloomFilterPolicy(`bits_per_key`) over `n` keys: its m rule and its k.
fn leveldb_policy(n: u64, bits_per_key: u32) -> Result<Model> {
    Model::new(Hashing::LevelDb, filter_bits(n, bits_per_key) as u32, k_for_bits_per_key(bits_per_key))
}

/// Claim 7's curve: the formula for LevelDB's policy at every bits_per_key from 0 to 12 over
/// `n` keys, the measurements on it.
fn bits_per_key_curve(n: u64, out: &[(u32, Measurement)]) -> Result<Curve> {
    let at = |b: u32| leveldb_policy(n, b).map(|m| [b as f64, m.formula(n as f64)]);
    let measured = out.iter().map(|(b, r)| CurvePoint { x: *b as f64, rate: r.fp }).collect();
    Ok(Curve { axis: "bits_per_key", formula: (0..=12).map(at).collect::<Result<_>>()?, measured })
}

/// Claim 8: size for the peak n. A filter sized (Java, p = 5 %) for `design` keys, filled to
/// multiples of it; or the open file's own filter with more paths added to a copy of its bits.
pub fn claim8(
    design: u64,
    factors: &[f64],
    probes: u64,
    seed: u64,
    file: Option<(&Given, &Bits, Model)>,
) -> Result<Demo> {
    check_count("design n", design, 1, 1_000_000)?;
    check_count("probes", probes, 100, 1_000_000)?;
    let mut rng = Rng::new(seed);
    let (model, start, base_n, label) = match file {
        Some((g, bits, m)) => {
            (m, Filter::from_bits(m, bits.clone(), g.keys.len() as u64), g.keys.len() as u64, g.label.clone())
        }
        None => {
            let (m, k) = java_sizing(design as i32, 0.05);
            let model = tsfile(m, k)?;
            (
                model,
                Filter::new(model),
                design,
                format!("a filter sized like Java's getEmptyBloomFilter(0.05, {design})"),
            )
        }
    };
    let absent = Family::Random.keys(9, 0, probes, &mut rng);
    let mut rows = Vec::new();
    let mut out = Vec::new();
    let mut f = start;
    let mut added = 0u64;
    for &x in factors {
        if !(x > 0.0 && x <= 100.0) {
            return Err(Error::invalid_argument(format!("factors: {x} is outside (0, 100]")));
        }
        let target = (base_n as f64 * x).round() as u64;
        // The file's own keys are in the bits already; more keys go on top.
        let have = if file.is_some() { base_n + added } else { added };
        if target > have {
            let extra = Family::Prefix.keys(7, added, target - have, &mut rng);
            f.add_all(&extra);
            added += target - have;
        }
        if target < have {
            continue; // cannot remove keys (claim 10)
        }
        let (row, r) = measure_row(format!("{x}× the design n"), f.clone(), &absent);
        rows.push(row);
        out.push((x, r));
    }
    let at = |want: f64| out.iter().find(|(x, _)| (*x - want).abs() < 1e-9).map(|(_, r)| *r);
    let mut findings = Vec::new();
    if let (Some(d), Some(two)) = (at(1.0), at(2.0)) {
        findings.push(format!(
            "At the design n the filter measures {}; at twice that n the same bits measure {} — {:.1}× as many false positives (formula {} → {}).",
            interval(&d.fp),
            interval(&two.fp),
            two.fp.rate / d.fp.rate.max(1e-12),
            pct(d.formula),
            pct(two.formula)
        ));
    }
    if let Some((x, last)) = out.last() {
        findings.push(format!(
            "At {x}× the design n, {} of the bits are set and the filter passes {} of absent keys.",
            pct(last.fill),
            interval(&last.fp)
        ));
    }
    findings.push(
        "m and k are fixed when the filter is written, so size it for the most keys the file or window will ever hold."
            .into(),
    );
    let grows = out.windows(2).all(|w| w[1].1.fp.rate >= w[0].1.fp.rate);
    Ok(Demo {
        claim: 8,
        headline: growth_headline(&out, grows),
        curve: Some(n_curve(&model, &out)),
        setup: format!(
            "{label}: m = {}, k = {}; {probes} absent random keys probed at each fill (seed {seed}).",
            model.m, model.k
        ),
        columns: MEASURE_COLUMNS.to_vec(),
        rows,
        findings,
        answer: if grows { "holds" } else { "depends" },
    })
}

/// Claim 9: the filter pays on absent keys. `lookups` lookups at each share of absent keys:
/// reads of the index (or data block) without the filter and with it.
pub fn claim9(n: u64, lookups: u64, shares: &[f64], seed: u64, file: Option<(&Given, &Bits, Model)>) -> Result<Demo> {
    check_count("n", n, 1, 1_000_000)?;
    check_count("lookups", lookups, 100, 1_000_000)?;
    let mut rng = Rng::new(seed);
    let (mut f, keys, label) = match file {
        Some((g, bits, m)) => (
            Filter::from_bits(m, bits.clone(), g.keys.len() as u64),
            g.keys.iter().map(|k| k.to_vec()).collect::<Vec<_>>(),
            g.label.clone(),
        ),
        None => {
            let keys = Family::Prefix.keys(0, 0, n, &mut rng);
            let (m, k) = java_sizing(n as i32, 0.05);
            let mut f = Filter::new(tsfile(m, k)?);
            f.add_all(&keys);
            (f, keys, format!("{n} paths, Java's sizing for 5 %"))
        }
    };
    if keys.is_empty() {
        return Err(Error::invalid_argument("keys: the filter holds no listed key to look up"));
    }
    let mut rows = Vec::new();
    let mut findings = Vec::new();
    let mut saved_at = Vec::new();
    for &q in shares {
        if !(0.0..=1.0).contains(&q) {
            return Err(Error::invalid_argument(format!("shares: {q} is outside [0, 1]")));
        }
        let absent_n = (lookups as f64 * q).round() as u64;
        let present_n = lookups - absent_n;
        let absent = Family::Prefix.keys(5, 0, absent_n, &mut rng);
        let (fp, _) = f.count_maybe(&absent);
        let mut present_maybe = 0;
        for _ in 0..present_n {
            present_maybe += f.may_contain(&keys[(rng.below(keys.len() as u64)) as usize]) as u64;
        }
        let with = present_maybe + fp;
        let saved = wilson(lookups - with, lookups);
        rows.push(vec![
            Cell::pct(q),
            Cell::count(lookups),
            Cell::count(lookups),
            Cell::count(with),
            Cell::rate(saved),
            Cell::rate(wilson(fp, absent_n)),
        ]);
        saved_at.push((q, saved));
    }
    for (q, s) in &saved_at {
        findings.push(format!("{} absent lookups: the filter saves {} of the reads.", pct(*q), interval(s)));
    }
    findings.push("Every lookup pays the filter's k hashes; only absent keys get anything back for it. A workload that mostly asks for keys that exist gains nearly nothing.".into());
    let rising = saved_at.windows(2).all(|w| w[1].1.rate >= w[0].1.rate || w[1].0 < w[0].0);
    let headline = match (saved_at.first(), saved_at.last()) {
        (Some((qa, a)), Some((qb, b))) if rising => format!(
            "The more lookups are for absent keys, the more reads the filter saves: {} at {} absent, {} at {}.",
            pct(a.rate),
            pct(*qa),
            pct(b.rate),
            pct(*qb)
        ),
        _ => "The reads saved do not rise with the share of absent keys here: see the numbers.".into(),
    };
    Ok(Demo {
        claim: 9,
        headline,
        curve: None,
        setup: format!("{label}; {lookups} lookups at each share of absent keys (seed {seed})."),
        columns: vec![
            "absent share",
            "lookups",
            "reads without filter",
            "reads with filter",
            "reads saved",
            "false positives among absent",
        ],
        rows,
        findings,
        answer: if rising { "holds" } else { "depends" },
    })
}

/// Claim 11: one filter per file against one global filter with the same bits. `files` files
/// of `per_file` keys, each sized like Java's getEmptyBloomFilter(0.05, per_file).
pub fn claim11(files: u32, per_file: u64, lookups: u64, seed: u64) -> Result<Demo> {
    check_count("files", files as u64, 2, 64)?;
    check_count("keys per file", per_file, 1, 100_000)?;
    check_count("lookups", lookups, 100, 1_000_000)?;
    let mut rng = Rng::new(seed);
    let (m, k) = java_sizing(per_file as i32, 0.05);
    let keys: Vec<Vec<Vec<u8>>> = (0..files).map(|g| Family::Prefix.keys(g, 0, per_file, &mut rng)).collect();
    let mut per: Vec<Filter> = keys
        .iter()
        .map(|ks| {
            let mut f = Filter::new(tsfile(m, k).unwrap_or_else(|_| unreachable!("Java's sizing is valid")));
            f.add_all(ks);
            f
        })
        .collect();
    let gm = (m as u64 * files as u64).min(i32::MAX as u64) as u32;
    let mut global = Filter::new(tsfile(gm, k)?);
    for ks in &keys {
        global.add_all(ks);
    }
    // Lookups: present keys (a random file's random key) and absent keys.
    let present: Vec<&[u8]> = (0..lookups)
        .map(|_| {
            let f = rng.below(files as u64) as usize;
            keys[f][rng.below(per_file) as usize].as_slice()
        })
        .collect();
    let absent = Family::Prefix.keys(files + 1, 0, lookups, &mut rng);
    let absent: Vec<&[u8]> = absent.iter().map(|k| k.as_slice()).collect();
    // After half the files are dropped (expired or compacted away): per-file filters go with
    // their files; the global filter cannot remove their keys.
    let alive = files / 2;
    let dropped: Vec<&[u8]> = keys[alive as usize..]
        .iter()
        .flat_map(|ks| ks.iter().take(((lookups / (files - alive) as u64).max(1)) as usize))
        .map(|k| k.as_slice())
        .collect();
    let mut lookup = |label: String, keys: &[&[u8]], alive: u32| Lookup::of(label, keys, &mut per, alive, &mut global);
    let present = lookup("present key".into(), &present, files);
    let absent = lookup("absent key".into(), &absent, files);
    let dropped =
        lookup(format!("a key of a dropped file ({} of {files} files dropped)", files - alive), &dropped, alive);
    let per_bytes = (m as f64 / 8.0).ceil() * files as f64;
    let findings = vec![
        format!(
            "Same bits in all ({per_bytes} bytes): a present key costs {:.2} index reads per lookup with a filter per file, {:.2} with one global filter — its “maybe” cannot say which file, so all {files} are read.",
            present.per_reads as f64 / lookups as f64,
            (present.global_maybe * files as u64) as f64 / lookups as f64
        ),
        format!(
            "After {} files are dropped, the global filter still says “maybe” for {} of their keys (it cannot delete), sending each lookup to the {alive} remaining files; the per-file filters went with their files.",
            files - alive,
            interval(&wilson(dropped.global_maybe, dropped.lookups))
        ),
        format!(
            "Absent keys are rejected about equally (global false positives {}), but the global filter must be rebuilt from every file's keys whenever a file is added or removed; a per-file filter is written once, with its immutable file.",
            interval(&wilson(absent.global_maybe, lookups))
        ),
    ];
    Ok(Demo {
        claim: 11,
        headline: format!(
            "One global filter sends a present key to all {files} files' indexes; a filter per file, to {:.2} on average.",
            present.per_reads as f64 / lookups as f64
        ),
        curve: None,
        setup: format!(
            "{files} files of {per_file} paths, each with Java's filter for 5 % (m = {m}, k = {k}); one global filter of {gm} bits over all of them; {lookups} lookups of each kind (seed {seed})."
        ),
        columns: vec![
            "lookup",
            "lookups",
            "index reads per lookup, a filter per file",
            "per-file filters saying “maybe”",
            "index reads per lookup, one global filter",
            "global filter saying “maybe”",
        ],
        answer: if present.global_maybe * files as u64 > present.per_reads { "holds" } else { "depends" },
        rows: vec![present.row, absent.row, dropped.row],
        findings,
    })
}

/// One kind of lookup in claim 11, against the first `alive` per-file filters and the global one.
struct Lookup {
    lookups: u64,
    /// Index reads with a filter per file: one per file whose filter says "maybe".
    per_reads: u64,
    /// Lookups the global filter says "maybe" to: each reads every alive file's index, since
    /// a global "maybe" says only "somewhere".
    global_maybe: u64,
    row: Vec<Cell>,
}

impl Lookup {
    fn of(label: String, keys: &[&[u8]], per: &mut [Filter], alive: u32, global: &mut Filter) -> Lookup {
        let lookups = keys.len() as u64;
        let mut per_reads = 0;
        for key in keys {
            for f in per.iter_mut().take(alive as usize) {
                per_reads += f.may_contain(key) as u64;
            }
        }
        let (global_maybe, _) = global.count_maybe(keys);
        let row = vec![
            Cell::text(label),
            Cell::count(lookups),
            Cell::num(per_reads as f64 / lookups.max(1) as f64),
            Cell::rate(wilson(per_reads, lookups * alive as u64)),
            Cell::num((global_maybe * alive as u64) as f64 / lookups.max(1) as f64),
            Cell::rate(wilson(global_maybe, lookups)),
        ];
        Lookup { lookups, per_reads, global_maybe, row }
    }
}

/// Claim 13: do keys that share a prefix collide more? Prefix-heavy paths, ordered prefix +
/// random suffix, and random keys of the same lengths, under TsFile's Murmur128 (Java's sizing
/// for 5 %) and LevelDB's hash (10 bits per key), pooled over `filters` key sets each.
pub fn claim13(n: u64, filters: u32, probes: u64, seed: u64, file: Option<(&Given, &Bits, Model)>) -> Result<Demo> {
    check_count("n", n, 10, 100_000)?;
    check_count("filters", filters as u64, 1, 100)?;
    check_count("probes", probes, 100, 1_000_000)?;
    let mut rng = Rng::new(seed);
    let (jm, jk) = java_sizing(n as i32, 0.05);
    let lm = filter_bits(n, 10) as u32;
    let schemes = [(Hashing::TsFile(TailVariant::Java), jm, jk), (Hashing::LevelDb, lm, k_for_bits_per_key(10))];
    let families = [Family::Prefix, Family::PrefixRandomSuffix, Family::Random];
    let mut rows = Vec::new();
    let mut findings = Vec::new();
    let mut differs = false;
    for (hashing, m, k) in schemes {
        let mut res = Vec::new();
        for fam in families {
            let (row, rate, formula) = pooled_family(Model::new(hashing, m, k)?, fam, n, filters, probes, &mut rng);
            rows.push(row);
            res.push((rate, formula));
        }
        let (finding, same) = family_finding(hashing, &res);
        findings.push(finding);
        differs |= !same;
    }
    if let Some((g, bits, model)) = file {
        let (file_rows, finding) = claim13_on_file(g, bits, model, probes, &mut rng);
        rows.extend(file_rows);
        findings.push(finding);
    }
    let headline = if differs {
        "At least one hash shows a difference between the families beyond the intervals: the textbook's advice (ordered prefix + random suffix) matters for it."
    } else {
        "Neither hash shows the effect: with hashes that mix every input byte into every output bit, prefix-sharing keys scatter as well as random ones, and the textbook's advice (ordered prefix + random suffix) buys nothing measurable here."
    };
    Ok(Demo {
        claim: 13,
        headline: headline.into(),
        curve: None,
        setup: format!(
            "n = {n} keys per filter, {filters} filters per family and hash, {probes} absent keys of the same family each, pooled (seed {seed}). Prefix: root.sg<g>.d<i/10>.s<i%10>; random keys have the same lengths."
        ),
        columns: vec!["hash", "keys", "m", "k", "fill", "formula p", "fill^k", "measured p"],
        rows,
        findings,
        answer: if differs { "depends" } else { "fails" },
    })
}

/// One key family under one model, pooled over `filters` filters of `n` keys, each probed with
/// `probes` absent keys of the family: its row, the pooled rate and the formula's p.
fn pooled_family(
    model: Model,
    fam: Family,
    n: u64,
    filters: u32,
    probes: u64,
    rng: &mut Rng,
) -> (Vec<Cell>, Rate, f64) {
    let (mut hits, mut trials, mut fill, mut formula, mut from_fill) = (0, 0, 0.0, 0.0, 0.0);
    for g in 0..filters {
        let keys = fam.keys(g, 0, n, rng);
        let absent = fam.keys(g, n, probes, rng);
        let mut f = Filter::new(model);
        f.add_all(&keys);
        let r = f.measure(&absent);
        hits += r.fp.hits;
        trials += r.fp.trials;
        fill += r.fill / filters as f64;
        from_fill += r.from_fill / filters as f64;
        formula = r.formula;
    }
    let rate = wilson(hits, trials);
    let row = vec![
        Cell::text(match model.hashing {
            Hashing::LevelDb => "LevelDB BloomHash, 10 bits/key",
            _ => "TsFile Murmur128, Java sizing 5 %",
        }),
        Cell::text(fam.as_str()),
        Cell::count(model.m as u64),
        Cell::count(model.k as u64),
        Cell::pct(fill),
        Cell::pct(formula),
        Cell::pct(from_fill),
        Cell::rate(rate),
    ];
    (row, rate, formula)
}

/// What one hash's three families (prefix, prefix + random suffix, random: their rate and
/// formula p) say, and whether the prefix and random keys' intervals overlap.
fn family_finding(hashing: Hashing, res: &[(Rate, f64)]) -> (String, bool) {
    let (p, s, r) = (&res[0].0, &res[1].0, &res[2].0);
    let name = match hashing {
        Hashing::LevelDb => "LevelDB's hash",
        _ => "TsFile's Murmur128",
    };
    let same = overlap(p, r);
    let finding = format!(
        "{name}: prefix-heavy paths {}, ordered prefix + random suffix {}, random keys {} (formula {}). {}",
        interval(p),
        interval(s),
        interval(r),
        pct(res[0].1),
        if same {
            "Prefix keys do not collide measurably more: the intervals overlap.".to_string()
        } else if p.rate > r.rate {
            format!(
                "Prefix keys measure {:.2}× the random keys' rate: the intervals do not overlap.",
                p.rate / r.rate.max(1e-12)
            )
        } else {
            format!(
                "Prefix keys measure lower than random keys ({:.2}×): the intervals do not overlap.",
                p.rate / r.rate.max(1e-12)
            )
        }
    );
    (finding, same)
}

/// Claim 13 on the open file's filter: absent paths under its own devices against random
/// absent keys; two rows and a finding.
fn claim13_on_file(g: &Given, bits: &Bits, model: Model, probes: u64, rng: &mut Rng) -> (Vec<Vec<Cell>>, String) {
    let mut f = Filter::from_bits(model, bits.clone(), g.keys.len() as u64);
    let shaped = absent_under_own_devices(g, probes);
    let random = Family::Random.keys(99, 0, probes, rng);
    let a = f.measure(&shaped).fp;
    let b = f.measure(&random).fp;
    let formula = model.formula(g.keys.len() as f64);
    let fill = Fill::of(&f.bits, model.k);
    let rows = [("absent paths under the file's own devices", a), ("random absent keys", b)].map(|(label, r)| {
        vec![
            Cell::text(g.label.clone()),
            Cell::text(label),
            Cell::count(model.m as u64),
            Cell::count(model.k as u64),
            Cell::pct(fill.fill),
            Cell::pct(formula),
            Cell::pct(fill.fpp_from_fill),
            Cell::rate(r),
        ]
    });
    let finding = format!(
        "On {}: absent paths under its own devices {}, random keys {} — {}.",
        g.label,
        interval(&a),
        interval(&b),
        if overlap(&a, &b) { "the intervals overlap" } else { "the intervals do not overlap" }
    );
    (rows.into(), finding)
}

/// `probes` absent paths shaped like the file's own: its devices with sensors it does not have
/// (`<device>.absent_<i>_<j>`).
fn absent_under_own_devices(g: &Given, probes: u64) -> Vec<Vec<u8>> {
    let mut shaped = Vec::new();
    for (i, key) in g.keys.iter().enumerate() {
        if shaped.len() as u64 >= probes {
            break;
        }
        if let Some(dot) = key.iter().rposition(|&b| b == b'.') {
            for j in 0..((probes as usize / g.keys.len().max(1)) + 1) {
                let mut p = key[..=dot].to_vec();
                p.extend_from_slice(format!("absent_{i}_{j}").as_bytes());
                shaped.push(p);
            }
        }
    }
    shaped.truncate(probes as usize);
    shaped
}

/// The p the formula gives at `bits_per_key` and `k` (for the sandbox's overfill chart).
pub fn overfill(m: u32, k: u32, design: u64, now: u64) -> Result<Overfill> {
    check_count("design n", design, 1, 10_000_000)?;
    let model = tsfile(m, k.clamp(1, 8))?;
    let curve = formula_over_n(&model, (design * 3).max(now + now / 4).max(1) as f64, 24);
    let at_design = model.formula(design as f64);
    let at_now = model.formula(now as f64);
    let java = java_row(design as f64, 0.05);
    let warning = if now > design {
        Some(format!(
            "Filled past its design: {now} keys in a filter planned for {design}. The formula's p has climbed from {} to {} ({} times as likely), and every further key raises it.",
            pct(at_design),
            pct(at_now),
            people(at_now / at_design.max(1e-300))
        ))
    } else if at_design > 0.5 {
        Some(format!(
            "Too small for its own design: {design} planned keys in m = {m} bits give p = {} even before it is full{}.",
            pct(at_design),
            java.map_or(String::new(), |j| format!(
                " (Java's sizing for {design} keys at 5 % would use m = {}, k = {})",
                j.bit_count, j.k
            ))
        ))
    } else {
        None
    };
    Ok(Overfill { design, now, at_design, at_now, curve, warning, java })
}

/// The sandbox's design-n chart: p against n for its fixed m and k.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Overfill {
    pub design: u64,
    pub now: u64,
    pub at_design: f64,
    pub at_now: f64,
    /// `[n, p]` points from 0 to past both n.
    pub curve: Vec<[f64; 2]>,
    pub warning: Option<String>,
    /// Java's sizing for the design n at 5 %, for comparison.
    pub java: Option<super::calc::JavaRow>,
}

/// Claim 2's curve: the formula at every whole k the rows measured (same n and m), the measurements on it.
fn k_curve(per_k: &[Measurement]) -> Curve {
    let formula = per_k.iter().map(|r| [r.k as f64, r.formula]).collect();
    Curve { axis: "k", formula, measured: per_k.iter().map(|r| CurvePoint { x: r.k as f64, rate: r.fp }).collect() }
}

/// Claim 8's answer: p from the first fill measured to the last, when every step climbed.
fn growth_headline(out: &[(f64, Measurement)], grows: bool) -> String {
    match (out.first(), out.last()) {
        (Some((_, a)), Some((_, b))) if grows => format!(
            "p grows as keys are added to a fixed m: from {} at {} keys to {} at {}.",
            pct(a.fp.rate),
            a.n,
            pct(b.fp.rate),
            b.n
        ),
        _ => "The measured rates do not all climb with n at this size: see the numbers.".into(),
    }
}

/// `model`'s formula at `steps + 1` evenly spaced n from 0 to `top`: `[n, p]`.
fn formula_over_n(model: &Model, top: f64, steps: u32) -> Vec<[f64; 2]> {
    (0..=steps).map(|i| (top * i as f64 / steps as f64).round()).map(|n| [n, model.formula(n)]).collect()
}

/// Claim 8's curve: `model`'s formula from 0 to the largest n measured, the measurements on it.
fn n_curve(model: &Model, out: &[(f64, Measurement)]) -> Curve {
    let top = out.iter().map(|(_, r)| r.n).max().unwrap_or(1).max(1) as f64;
    let measured = out.iter().map(|(_, r)| CurvePoint { x: r.n as f64, rate: r.fp }).collect();
    Curve { axis: "n", formula: formula_over_n(model, top, 32), measured }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rate(cell: &Cell) -> Rate {
        match cell {
            Cell::Rate { rate } => *rate,
            c => panic!("not a rate: {c:?}"),
        }
    }

    #[test]
    fn claim2_measures_near_the_formula() {
        let d = claim2(1024, 100, None, 20_000, 1).unwrap();
        assert_eq!(d.rows.len(), 10);
        // The formula within 4 standard errors of each measurement (a filter's own fill varies).
        for row in &d.rows[..8] {
            let (f, r) = (
                match row[5] {
                    Cell::Percent { value } => value,
                    _ => unreachable!(),
                },
                rate(&row[6]),
            );
            let se = (f * (1.0 - f) / r.trials as f64).sqrt();
            assert!((r.rate - f).abs() < 4.0 * se + 0.004, "{row:?}");
        }
    }

    #[test]
    fn claim2_curve_is_the_formula_over_k_with_the_rows_on_it() {
        let d = claim2(1024, 100, None, 20_000, 1).unwrap();
        let c = d.curve.unwrap();
        assert_eq!(c.axis, "k");
        let model = |k| tsfile(1024, k).unwrap();
        for (j, row) in d.rows[..8].iter().enumerate() {
            let k = j as u32 + 1;
            assert_eq!(c.formula[j], [k as f64, model(k).formula(100.0)]);
            assert_eq!(c.measured[j], CurvePoint { x: k as f64, rate: rate(&row[6]) });
        }
        assert!(!d.headline.is_empty() && !d.findings.contains(&d.headline));
    }

    #[test]
    fn claim8_curve_is_the_formula_over_n() {
        let d = claim8(500, &[0.5, 1.0, 2.0], 5_000, 2, None).unwrap();
        let c = d.curve.unwrap();
        assert_eq!(c.axis, "n");
        let xs: Vec<f64> = c.measured.iter().map(|p| p.x).collect();
        assert_eq!(xs, [250.0, 500.0, 1000.0]);
        assert_eq!(c.formula.first().unwrap()[0], 0.0);
        assert_eq!(c.formula.last().unwrap()[0], 1000.0);
        let (m, k) = java_sizing(500, 0.05);
        assert!(c.formula.iter().all(|&[n, p]| p == tsfile(m, k).unwrap().formula(n)));
        assert!(d.headline.starts_with("p grows as keys are added to a fixed m"), "{}", d.headline);
    }

    #[test]
    fn claim7_curve_is_leveldbs_policy_over_bits_per_key() {
        let d = claim7_zero_bits(40, 5_000, 3).unwrap();
        let c = d.curve.unwrap();
        assert_eq!(c.axis, "bits_per_key");
        assert_eq!(c.formula.len(), 13);
        for (row, p) in d.rows.iter().zip(&c.measured) {
            let formula = match row[5] {
                Cell::Percent { value } => value,
                _ => unreachable!(),
            };
            assert_eq!(c.formula[p.x as usize][1], formula, "the curve passes through each row's formula");
            assert_eq!(p.rate, rate(&row[6]));
        }
        assert_eq!(c.measured.iter().map(|p| p.x).collect::<Vec<_>>(), [0.0, 4.0, 10.0]);
    }

    #[test]
    fn claim3_ten_bits_per_key() {
        let d = claim3(2000, 100_000, 3, None).unwrap();
        let ldb = rate(&d.rows[0][6]);
        assert!(ldb.rate < 0.012 && ldb.rate > 0.005, "{ldb:?}");
        let j5 = rate(&d.rows[2][6]);
        assert!(j5.rate > 0.03 && j5.rate < 0.07, "{j5:?}");
    }

    #[test]
    fn claim4_own_hash_never_misses_and_the_other_does() {
        let d = claim4(None, 500, 10_000, 5).unwrap();
        assert_eq!(rate(&d.rows[0][2]).hits, 0);
        assert!(rate(&d.rows[1][2]).rate > 0.5, "{:?}", d.rows[1]);
        assert_eq!(d.answer, "holds");
    }

    #[test]
    fn claim13_runs_and_states_intervals() {
        let d = claim13(500, 3, 5_000, 11, None).unwrap();
        assert_eq!(d.rows.len(), 6);
        // The answer once: said as the headline, not repeated among the findings.
        assert_eq!(d.answer, "fails");
        assert!(d.headline.starts_with("Neither hash shows the effect"), "{}", d.headline);
        assert!(d.findings.iter().all(|f| !f.starts_with("Neither hash")));
        assert!(d.findings[0].contains("95 % interval"));
        for row in &d.rows {
            let r = rate(&row[7]);
            assert_eq!(r.trials, 15_000);
            assert!(r.low <= r.rate && r.rate <= r.high);
        }
    }

    #[test]
    fn claim8_rate_climbs_with_n() {
        let d = claim8(500, &[0.5, 1.0, 2.0, 4.0], 20_000, 2, None).unwrap();
        let rates: Vec<f64> = d.rows.iter().map(|r| rate(&r[6]).rate).collect();
        assert!(rates.windows(2).all(|w| w[1] > w[0]), "{rates:?}");
        assert_eq!(d.answer, "holds");
    }

    #[test]
    fn claim11_global_costs_reads() {
        let d = claim11(8, 200, 2000, 4).unwrap();
        let n = |c: &Cell| match c {
            Cell::Number { value } => *value,
            _ => unreachable!(),
        };
        assert!(n(&d.rows[0][2]) < 1.5 && (n(&d.rows[0][4]) - 8.0).abs() < 1e-9);
        assert!(n(&d.rows[2][4]) > 3.9, "dropped keys still send lookups to the remaining files");
        assert_eq!(rate(&d.rows[0][3]).trials, 2000 * 8);
        assert!(n(&d.rows[2][2]) < 0.5);
    }

    #[test]
    fn overfill_warns_past_design() {
        let o = overfill(256, 5, 24, 60).unwrap();
        assert!(o.warning.unwrap().contains("60 keys in a filter planned for 24"));
        assert!(o.at_now > o.at_design);
        assert!(overfill(256, 5, 24, 10).unwrap().warning.is_none());
        let small = overfill(256, 5, 1000, 10).unwrap().warning.unwrap();
        assert!(small.starts_with("Too small for its own design: 1000 planned keys in m = 256 bits"), "{small}");
        assert!(small.contains("m = 6236, k = 5"), "README's withCapacity(1000, 0.05)");
    }
}
