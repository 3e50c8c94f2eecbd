//! The lesson plan: which demonstration runs for claim N, on which keys and with which
//! parameters. The page hands over what it has — the claim, a seed, the open file if any, the
//! sandbox's keys and geometry, its planned n, the key to remove (claim 10), LevelDB's keys per
//! filter window (claim 7) — and [`run`] decides the rest: the probe counts, sizes, factors and
//! shares, whether the open file, the sandbox or generated keys are used, and the label and
//! source the page shows. The page keeps no lesson parameter of its own: its worker op
//! (www/worker/teach-ops.js, `teach.claim`) passes what it holds through the teaching module's
//! `claim` export (crates/wasm-teach), which only converts.

use serde::Serialize;

use super::counting::{self, Deletion};
use super::interval::grouped;
use super::lesson::{self, Demo, Given};
use super::model::{Bits, Hashing, Model};
use super::size::{self, Size};
use tsfile_bloom::error::{Error, Result};
use tsfile_bloom::hash::TailVariant;

/// Absent keys probed per measured filter, where a demonstration takes a count.
const PROBES: u64 = 20_000;

/// The sandbox's geometry until the page sets one, and a demonstration's on a sandbox not built
/// yet: 256 bits and 5 hashes in TsFile mode, 10 bits per key (LevelDB's usual policy) in LevelDB's.
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SandboxDefaults {
    pub m: u32,
    pub k: u32,
    pub bits_per_key: u32,
}

pub const SANDBOX_DEFAULTS: SandboxDefaults = SandboxDefaults { m: 256, k: 5, bits_per_key: 10 };

/// The sensors of the demo filter's devices ([`demo_paths`]).
const DEMO_SENSORS: [&str; 4] = ["temperature", "humidity", "pressure", "status"];

/// The demo filter the page's sandbox opens with, and the keys a sandbox demonstration falls
/// back to while the sandbox holds fewer than two: 24 series of six devices
/// (`root.demo.d1.temperature` … `root.demo.d6.status`), so that in the default 256 bits the
/// optimum k* ≈ 7.4 sits on the chart and about a third of the bits are set.
pub fn demo_paths() -> Vec<String> {
    (1..=6).flat_map(|d| DEMO_SENSORS.iter().map(move |s| format!("root.demo.d{d}.{s}"))).collect()
}

/// The open file a demonstration may run on: its listed paths back to back in the writer's
/// charset with their `ends` ([`tsfile_bloom::staged::keys`]'s layout), and its filter — `bits`
/// LSB-first, `m` bits, `k` hashes, the writer's tail variant.
pub struct OpenFile {
    pub keys: Vec<u8>,
    pub ends: Vec<u32>,
    pub bits: Vec<u8>,
    pub m: u32,
    pub k: u32,
    pub variant: TailVariant,
}

impl OpenFile {
    /// How many listed paths it has.
    pub fn n(&self) -> usize {
        self.ends.len()
    }

    /// What the sentences call its keys: "the open file's 10,000 listed paths".
    pub fn label(&self) -> String {
        format!("the open file's {} listed paths", grouped(self.n() as u64))
    }

    /// Its paths, bits and model; None without paths (the demonstration then generates keys).
    pub fn given(&self) -> Result<Option<(Given<'_>, Bits, Model)>> {
        let Some(g) = Given::staged(&self.keys, &self.ends, &self.label())? else { return Ok(None) };
        let model = Model::new(Hashing::TsFile(self.variant), self.m, self.k)?;
        Ok(Some((g, Bits::from_bytes(&self.bits, self.m), model)))
    }
}

/// The sandbox's filter kind: its mode switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SandboxMode {
    /// TsFile's fixed m and k.
    TsFile,
    /// LevelDB's m and k derived from bits per key.
    LevelDb,
}

impl SandboxMode {
    /// `"tsfile"` or `"leveldb"`.
    pub fn named(name: &str) -> Result<SandboxMode> {
        match name {
            "tsfile" => Ok(SandboxMode::TsFile),
            "leveldb" => Ok(SandboxMode::LevelDb),
            _ => Err(Error::invalid_argument(format!("mode: {name:?} is not 'tsfile' or 'leveldb'"))),
        }
    }
}

/// The sandbox as the page holds it: its added paths (UTF-8), mode and current geometry
/// (m 0: not built yet).
pub struct Sandbox<'a> {
    pub keys: Vec<&'a [u8]>,
    pub mode: SandboxMode,
    pub m: u32,
    pub k: u32,
}

/// What the page has when a claim's demonstration is asked for.
#[derive(Default)]
pub struct Request<'a> {
    pub claim: u32,
    /// Repeats a run: the keys every demonstration generates come from it.
    pub seed: u32,
    /// The open file; None: none is open, or the page asked for generated keys.
    pub file: Option<&'a OpenFile>,
    pub sandbox: Option<&'a Sandbox<'a>>,
    /// The sandbox's design n (claim 8 without a file; None: 1,000).
    pub planned_n: Option<u64>,
    /// Claim 10: the index of the key to remove (None: the first whose removal hurts another).
    pub victim: Option<usize>,
    /// Claim 7: keys per LevelDB filter window (None: 40).
    pub window_keys: Option<u64>,
}

/// Where a demonstration's keys came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The open file's listed paths and filter.
    File,
    /// The sandbox's paths (or the demo filter's while it holds fewer than two).
    Sandbox,
    /// Keys the demonstration generated from the seed.
    Generated,
    /// No keys: the formula and the writers' sizing rules (claim 12).
    Formula,
}

/// A demonstration's measurements: a claim's table, claim 10's deletion, or claim 12's sizes.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Measured {
    Demo(Demo),
    Deletion(Deletion),
    Size(Size),
}

/// A claim's demonstration as the page receives it: one object of the measurements' fields,
/// then the origin's (`source`, `label`, `seed`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Shown {
    #[serde(flatten)]
    pub measured: Measured,
    #[serde(flatten)]
    pub origin: Origin,
}

/// Where a demonstration's keys came from, and how to repeat it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Origin {
    pub source: Source,
    /// Claim 10's keys, named ("the sandbox’s 24 paths"); None for the others, which name
    /// their keys in their setup.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    pub seed: u32,
}

/// The claims whose demonstration runs on the open file when one is given (the page offers
/// "Run this on my file" on these); the others always use the sandbox or generated keys.
pub const ON_FILE: [u32; 7] = [2, 3, 4, 8, 9, 10, 13];

/// Runs claim `claim`'s demonstration (2–5, 7–13) as the lesson plans it. Claims 1 (the
/// step-through) and 6 (the read path) have no measured demonstration: an `invalid_argument`
/// error, as for any other number.
pub fn run(req: &Request) -> Result<Shown> {
    let seed = u64::from(req.seed);
    let file = req.file;
    // Where the claims that can run on the open file say their keys came from.
    let on_file = if file.is_some() { Source::File } else { Source::Generated };
    let opened = match file {
        Some(f) if matches!(req.claim, 4 | 8 | 9 | 13) => f.given()?,
        _ => None,
    };
    let given = opened.as_ref().map(|(g, b, m)| (g, b, *m));
    let demo = |d: Demo, source: Source| Shown {
        measured: Measured::Demo(d),
        origin: Origin { source, label: None, seed: req.seed },
    };
    match req.claim {
        2 => match file {
            Some(f) => {
                let g = Given::staged(&f.keys, &f.ends, &f.label())?;
                Ok(demo(lesson::claim2(f.m, f.n() as u64, g.as_ref(), PROBES, seed)?, Source::File))
            }
            None => {
                let demo_keys = demo_paths();
                let g = sandbox_keys(req.sandbox, &demo_keys);
                // A sandbox not built yet has no m: the default's.
                let m = req.sandbox.map_or(0, |s| s.m);
                let m = if m == 0 { SANDBOX_DEFAULTS.m } else { m };
                Ok(demo(lesson::claim2(m, g.keys.len() as u64, Some(&g), PROBES, seed)?, Source::Sandbox))
            }
        },
        3 => {
            // The open file's row (formula only) when it lists paths and has bits.
            let row = file.map(|f| (f.n() as f64, f.m, f.k)).filter(|&(n, m, _)| m > 0 && n > 0.0);
            Ok(demo(lesson::claim3(10_000, 100_000, seed, row)?, on_file))
        }
        4 => Ok(demo(lesson::claim4(given, 1000, PROBES, seed)?, on_file)),
        5 => Ok(demo(lesson::claim5(10, 6, &[20, 200, 5000], 10, PROBES, seed)?, Source::Generated)),
        7 => {
            let window = req.window_keys.unwrap_or(40).max(1);
            Ok(demo(lesson::claim7_zero_bits(window, PROBES, seed)?, Source::Generated))
        }
        // The open file's own filter from its own n up; else one sized for the sandbox's
        // planned n, from half of it.
        8 => Ok(demo(
            match file {
                Some(f) => lesson::claim8(f.n() as u64, &[1.0, 1.25, 1.5, 2.0, 3.0, 4.0], PROBES, seed, given)?,
                None => {
                    let design = req.planned_n.unwrap_or(1000).max(1);
                    lesson::claim8(design, &[0.5, 1.0, 1.5, 2.0, 3.0, 4.0], PROBES, seed, None)?
                }
            },
            on_file,
        )),
        9 => Ok(demo(lesson::claim9(1000, 10_000, &[0.0, 0.5, 0.9, 0.99], seed, given)?, on_file)),
        10 => deletion(req),
        11 => Ok(demo(lesson::claim11(8, 500, 5000, seed)?, Source::Generated)),
        12 => Ok(Shown {
            measured: Measured::Size(size::claim12(file.map(|f| (f.n() as f64, f.m, f.k)))?),
            origin: Origin { source: Source::Formula, label: None, seed: req.seed },
        }),
        13 => Ok(demo(lesson::claim13(1000, 10, PROBES, seed, given)?, on_file)),
        n => Err(Error::invalid_argument(format!(
            "claim: {n} has no measured demonstration here (1 is the step-through, 6 the read path)"
        ))),
    }
}

/// Claim 10 on the open file's paths under the writer's hash, else on the sandbox's paths
/// under Java's: its m and k in TsFile mode, [`SANDBOX_DEFAULTS`]' otherwise.
fn deletion(req: &Request) -> Result<Shown> {
    let demo_keys = demo_paths();
    let (g, model, source) = match req.file {
        Some(f) => {
            let g = Given { keys: tsfile_bloom::staged::key_list(&f.keys, &f.ends)?, label: f.label() };
            (g, Model::new(Hashing::TsFile(f.variant), f.m, f.k)?, Source::File)
        }
        None => {
            let g = sandbox_keys(req.sandbox, &demo_keys);
            let (m, k) = match req.sandbox {
                Some(s) if s.mode == SandboxMode::TsFile => (s.m, s.k),
                _ => (SANDBOX_DEFAULTS.m, SANDBOX_DEFAULTS.k),
            };
            (g, Model::new(Hashing::TsFile(TailVariant::Java), m, k)?, Source::Sandbox)
        }
    };
    let d = counting::deletion(&g.keys, model, req.victim, 2000)?;
    Ok(Shown { measured: Measured::Deletion(d), origin: Origin { source, label: Some(g.label), seed: req.seed } })
}

/// The sandbox's paths, or the demo filter's (`demo`) while it holds fewer than two.
fn sandbox_keys<'a>(sandbox: Option<&Sandbox<'a>>, demo: &'a [String]) -> Given<'a> {
    match sandbox {
        Some(s) if s.keys.len() >= 2 => {
            Given { keys: s.keys.clone(), label: format!("the sandbox’s {} paths", grouped(s.keys.len() as u64)) }
        }
        _ => Given { keys: demo.iter().map(|p| p.as_bytes()).collect(), label: "the demo filter’s paths".into() },
    }
}
