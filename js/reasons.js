// A TsFile probe's reason in words: the one place the package words it. The core decides the
// reason (src/tsfile/verdict.rs `Reason`, `Listed`) and the wasm module passes it as four numbers
// at the end of the probe record (`Reason::codes`); the sentences live here
// rather than in the size-budgeted module. They are the native crate's `Reason::text_listed`
// word for word (tests/reasons.rs runs this module against it), and every consumer — the
// API's `probe().reason`, the CLI, the page — gets them from here.

const NO_FILTER = 'the file has no Bloom filter; look the path up in the index';

/** `java`, or `java / GBK` when the charset is not UTF-8. */
const name = (variant, charset) => (charset === 'UTF-8' ? variant : `${variant} / ${charset}`);
const full = (variant, charset) => `${variant} / ${charset}`;

/** "the bit of seed 5 is", "the bits of seeds 7, 19 are": the clear ones of `probes`. */
function seedsClear(probes) {
  const seeds = probes.filter((x) => !x.set).map((x) => x.seed);
  return seeds.length === 1 ? `the bit of seed ${seeds[0]} is` : `the bits of seeds ${seeds.join(', ')} are`;
}

/**
 * The sentence for reason `codes` = `[kind, wrong, consulted, listed]` (src/tsfile/verdict.rs
 * `Reason::codes`, decoded by js/wire.js) of probe `p` (`{variant, charset, confirmed, probes, others}`, as
 * TsFile#probe gives them); `summary`: the audit's summary (for kind 2), or null.
 */
export function reasonText([kind, wrong, consulted, listed], p, summary = null) {
  let s;
  switch (kind) {
    case 0:
      s = NO_FILTER;
      break;
    case 1:
      if (wrong) {
        // Forced off the hashes the index reproduces, every one of which finds a clear bit.
        const writer = p.others[0];
        const used = full(p.variant, p.charset);
        s = `every probed bit is set under the ${used} hash, so the path may be present; but under ${full(writer.variant, writer.charset)}, the hash the file's index reproduces, ${seedsClear(writer.probes)} clear: the writer never added this path, and a reader hashing as ${used} would read the index for nothing`;
      } else s = `every probed bit is set under the ${name(p.variant, p.charset)} hash${p.confirmed ? " (confirmed by the file's index)" : ''}; the path may be present`;
      break;
    case 2:
      s = `a probed bit is clear, but ${summary ?? 'the audit reproduced nothing'}`;
      break;
    case 3: {
      // The candidate the core found first with every bit set, and the seeds clear under the hash used.
      const other = p.others.find((o) => o.verdict === 'maybe');
      const used = full(p.variant, p.charset);
      s = `${seedsClear(p.probes)} clear under the ${used} hash, but every bit is set under ${full(other.variant, other.charset)}, ${
        wrong ? `the hash the file's index reproduces: a reader hashing as ${used} would wrongly conclude “definitely absent” and skip this file` : "which may be the writer's"
      }; the path may be present`;
      break;
    }
    case 4:
      s = "a probed bit is clear under both UTF-8 tail variants, but this path is not ASCII and no audit established the file's charset: a Java writer hashes its JVM's default charset";
      break;
    case 5:
      s = `a probed bit is clear under the ${name(p.variant, p.charset)} hash, which the file's index confirms`;
      break;
    case 6:
      s = "a probed bit is clear; this path's tail is ASCII, so every tail variant hashes it the same way";
      break;
    default:
      s = `a probed bit is clear under every candidate hash (${consulted} consulted)`;
  }
  return s + listedClause(listed, kind);
}

/** What the index says about the path (`listed`: 0 not read, 1 lists it, 2 does not, 3 could not be read to its end). */
function listedClause(listed, kind) {
  const verdict = kind === 1 || kind === 3 ? 'maybe' : kind >= 5 ? 'absent' : 'unknown';
  if (listed === 0) return '; the index has not been read';
  if (listed === 1) return verdict === 'absent' ? '; yet the index lists this series: the filter disagrees with the index' : '; the index lists this series';
  if (listed === 2) return verdict === 'maybe' ? '; the index does not list this series: a false positive' : '; the index does not list this series';
  return "; the index could not be read to its end, so no audit checked the writer's hash, and the series listed before the error do not include this one";
}
