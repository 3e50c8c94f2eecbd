// Repeat scans from a manifest (`scan --manifest FILE`, scanTsFiles' `manifest` option): what a
// scan learnt of each local file — its identity (size, mtime, ctime, inode, device), the
// record's facts (version, bloomInfo(), the audit), the verdicts of the paths asked, and the
// bytes a verdict is made from (the head and the file from TsFileMetadata to its end) — kept
// in one file, so that the next scan reads only the files that are new or changed and answers
// for the rest from the manifest.
//
// Where the work is: the main thread reads the manifest, replays unchanged directory trees and
// answers every file whose entry stands (answerLocal: a stat, and its output made from a
// template of its entry's group: same figures, verdicts and audit; the stats of a large replayed
// tree made ahead of it by small threads, STAT_THREAD); only files that are new or changed go to the
// scan workers — started when the first such file is found, so a rescan of an unchanged tree
// starts none — which read them and hand back what the manifest keeps (keptFacts). Objects are
// answered on the main thread.
//
// This file is the manifest of one scan (openManifest, on the main thread); the rest is in
// js/manifest/: identity.js (what identifies a file or an object, and why an answer from an
// entry is sound), keep.js (what is kept of a file or an object read), file.js (the manifest
// file's format), check.js (what it must be before it answers anything), templates.js (output made from templates) and stat-threads.js (STAT_THREAD).
import { Buffer } from 'node:buffer';
import { statSync } from 'node:fs';
import { bloomFromFigures } from './wire.js';
import { invalidArgument } from './errors.js';
import { tailScan } from './scan-file.js';
import { addToSummary, mergeSummary, newSummary } from './scan-summary.js';
import { formatRecords } from './scan-output.js';
import { ALL, BITS_OFFSET, ENTRY_BYTES, F64, I32, I8, OFFSET, codes, fromCode, fromJson, orNull, readManifest, writeManifest, checkWritable } from './manifest/file.js';
import { OBJECT_RACY_MS, RACY_MS, dirIdentity, objectIdentity, recordable, sameDir, sameVersion } from './manifest/identity.js';
import { keepFromReads, keepingReads, keptFacts, unpackKept } from './manifest/keep.js';
import { JSON_ESCAPED, NUMBER_ROOM, STAND_INS, STAND_IN_FILE, TextChunk, fileText, templateOf } from './manifest/templates.js';
import { STAT_CHUNK, STAT_THREADS, STAT_THREAD_FILES, sharedCopy, startStatThreads } from './manifest/stat-threads.js';

const NO_THROW = { throwIfNoEntry: false };
/** Items of a replayed tree per batch the walk hands on. */
const REPLAY_BATCH = 1024;
const splitFile = (file) => {
  const at = file.lastIndexOf('/') + 1;
  return [file.slice(0, at), file.slice(at)];
};

/**
 * The manifest of one scan: `file` (its path; read now: a bad one throws here), the scan's
 * `targets`, `paths`, `audit`, `maxIndexBytes` and output `format`. `attach(item)` gives a local file its
 * entry, `answerLocal(items)` answers the files whose entries stand and leaves the rest to be
 * read, `sent(n, items)` and `took(n, kept)` follow each batch read to its answer, `walkHooks`
 * lets it replay an unchanged directory tree without reading its directories, `finish(files)`
 * writes what this scan saw (when anything changed), `close()` ends the stat threads; `stats`
 * counts answered, read and dropped files.
 */
export function openManifest(file, { paths = [], audit = false, maxIndexBytes, racyMs, format = 'records', statThreadFiles = STAT_THREAD_FILES, statChunk = STAT_CHUNK, statThreads = STAT_THREADS, statHere = null, statThreadsStarted = null, targets: scanTargets = [] } = {}) {
  const objectRacyMs = racyMs ?? OBJECT_RACY_MS;
  racyMs ??= RACY_MS;
  if (typeof file !== 'string' || file === '') throw invalidArgument('manifest', 'manifest must be the path of a manifest file');
  if (!paths.every((p) => typeof p === 'string')) throw invalidArgument('paths', 'a scan with a manifest takes its paths as strings');
  // The stat threads start before the manifest is read when it is large enough to hold a tree
  // they would share (statThreadFiles entries): they start up while it is read.
  let statter = null; // {workers, chunks: Map id → chunk}, or false: none (stat here)
  try {
    if (statThreads > 0 && statSync(file, NO_THROW)?.size >= statThreadFiles * ENTRY_BYTES) statter = startStatThreads(statThreads, () => (statter = false));
    if (statter) statThreadsStarted?.(statter.workers); // (tests: to make one fail)
  } catch {
    statter = null;
  }
  let read;
  try {
    read = readManifest(file);
    checkWritable(file);
  } catch (e) {
    statter?.close();
    throw e;
  }
  // A manifest written with another --max-index-bytes answers nothing (that limit changes records).
  const old = read && read.body.maxIndexBytes === (maxIndexBytes ?? null) ? read : null;
  const body = old?.body;
  const n = old ? body.count : 0;
  const c = old?.c;
  const names = old?.names ?? [];
  const dirs = body ? body.dirs.slice() : [];
  const oldFile = (at) => dirs[c.dir[at]] + names[at];
  // A file → its entry's index, made on first need (a replayed tree names its entries itself).
  let byFile = null;
  const entryOf = (f) => {
    if (n === 0) return undefined;
    if (!byFile) {
      byFile = new Map();
      for (let i = 0; i < n; i++) byFile.set(oldFile(i), i);
    }
    return byFile.get(f);
  };
  // An object's entry → its [kind, size, etag, lastModified].
  const versions = new Map((body?.objects ?? []).map(([i, etag, lastModified]) => [i, ['object', c.size[i], etag, lastModified]]));
  const seen = new Uint8Array(n);
  let seenCount = 0;

  // The tables, as JSON text (so that equal values are one entry); the old ones keep their places.
  const table = (list) => {
    const texts = list.map((x) => JSON.stringify(x));
    return { texts, index: new Map(texts.map((t, i) => [t, i])) };
  };
  const pathSets = table(body ? body.pathSets : []);
  const audits = table(body ? body.audits : []);
  const figures = table(body ? body.figures : []);
  const verdictTable = table(body ? body.verdicts : []);
  const intern = (t, value) => {
    const text = JSON.stringify(value);
    let i = t.index.get(text);
    if (i === undefined) {
      i = t.texts.push(text) - 1;
      t.index.set(text, i);
    }
    return i;
  };
  const dirIndex = new Map(dirs.map((d, i) => [d, i]));
  const internDir = (d) => {
    let i = dirIndex.get(d);
    if (i === undefined) {
      i = dirs.push(d) - 1;
      dirIndex.set(d, i);
    }
    return i;
  };
  const current = intern(pathSets, paths);
  // Per recorded path set: each of this scan's paths' place in it (-1: not asked then), whether
  // every one is there (complete) and whether it is this scan's set (same).
  const oldSets = body ? body.pathSets : [];
  const maps = oldSets.map((set) => paths.map((p) => set.indexOf(p)));
  const complete = maps.map((m) => m.every((i) => i >= 0));
  const same = maps.map((m, i) => i === current && m.length === oldSets[i].length);
  const oldFigures = body ? body.figures : [];
  const oldAudits = body ? body.audits : [];
  const oldVerdicts = body ? body.verdicts : [];

  const carried = []; // old entries answered
  const carriedVerd = []; // their verdicts in this scan's path set (index into verdictTable), -1 unchanged
  const added = []; // {file, k} (keptFacts)
  const targets = [];
  const inFlight = new Map();
  const stats = { file, answered: 0, read: 0, dropped: 0 };
  let changed = old === null;

  /** Gives `item` ({path, file}, or {url, file, version} from a listing) its entry when it has one the scan may answer from. */
  function attach(item) {
    const at = item.at ?? entryOf(item.file);
    item.at = undefined;
    if (at === undefined || at < 0 || seen[at]) return;
    seen[at] = 1;
    seenCount++;
    // A name that is not UTF-8 is read each time: its record carries its bytes (fileHex), which no entry keeps.
    if (item.hex !== undefined) return;
    const wasAudited = c.audit[at] >= 0;
    // With --audit a file recorded without it is read again; recorded with it, a path not asked
    // then needs its audit (read it again too).
    if ((audit && !wasAudited) || (wasAudited && !complete[c.set[at]])) return;
    item.at = at;
  }

  function carry(at, verd) {
    carried.push(at);
    carriedVerd.push(verd);
    if (verd >= 0) changed = true;
    stats.answered++;
  }

  // ---- Groups: entries with the same figures, verdicts (for this scan's paths), audit and
  // filledPastDesign make the same record but for the file, its size and its offsets. ----
  const groups = new Map();
  const mapped = new Map(); // `${set},${verd}` → this scan's codes
  function groupOf(at) {
    const set = c.set[at];
    const verd = c.verd[at];
    const mask = (Number.isNaN(c.offset[at]) ? 1 : 0) | (Number.isNaN(c.bitsOffset[at]) ? 2 : 0) | (Number.isNaN(c.indexed[at]) ? 4 : 0);
    // Keyed by small integers (two maps), not by a string made per file.
    const k1 = c.fig[at] * oldVerdicts.length + verd;
    const k2n = ((set * (oldAudits.length + 1) + c.audit[at] + 1) * 3 + c.past[at] + 1) * 8 + mask;
    // cppSizedFor is null but for a C++ file audited past its design: such a file groups by it too.
    const k2 = Number.isNaN(c.cpp[at]) ? k2n : `${k2n}:${c.cpp[at]}`;
    let inner = groups.get(k1);
    if (inner === undefined) groups.set(k1, (inner = new Map()));
    let g = inner.get(k2);
    if (g !== undefined) return g;
    let codeText;
    if (same[set]) codeText = oldVerdicts[verd];
    else {
      const k = `${set},${verd}`;
      codeText = mapped.get(k);
      if (codeText === undefined) {
        const m = maps[set];
        const v = oldVerdicts[verd];
        codeText = paths.map((_, i) => v[m[i]]).join('');
        mapped.set(k, codeText);
      }
    }
    g = {
      ...factsOf(at),
      results: paths.map((p, i) => fromCode(p, codeText.charCodeAt(i))),
      verd: same[set] ? -1 : intern(verdictTable, codeText),
      template: undefined, // its output's template (templateFor), made with its first file
      light: null, // its record but for the file (a summary's stand-in)
      summary: null, // summaryOf, or null
      in: null, // the run of answered files it was last counted in, and how many of its files
      count: 0,
    };
    inner.set(k2, g);
    return g;
  }
  /** What an entry's record takes from its figures, audit and filledPastDesign. */
  function factsOf(at) {
    const fig = oldFigures[c.fig[at]];
    const a = c.audit[at];
    return { version: fig[0], base: bloomFromFigures(fromJson(fig)), past: c.past[at] < 0 ? null : c.past[at] === 1, cpp: orNull(c.cpp[at]), audit: a >= 0 ? oldAudits[a] : null };
  }
  const recordOf = (g, file, size, at) => ({
    file,
    fileHex: null,
    ok: true,
    size,
    version: g.version,
    bloomFilter: { ...g.base, offset: orNull(c.offset[at]), bitsOffset: orNull(c.bitsOffset[at]), indexedItems: orNull(c.indexed[at]), filledPastDesign: g.past, cppSizedFor: g.cpp },
    results: g.results.map((r) => ({ ...r })),
    audit: g.audit ? { ...g.audit } : null,
    bytesRead: 0,
    reads: 0,
    error: null,
  });
  function templateFor(g, at) {
    const s = STAND_INS;
    const r = recordOf(g, STAND_IN_FILE, s[0], at);
    const b = r.bloomFilter;
    if (b.offset !== null) b.offset = s[1];
    if (b.bitsOffset !== null) b.bitsOffset = s[2];
    if (b.indexedItems !== null) b.indexedItems = s[3];
    const t = templateOf(r, format, paths);
    if (t === null) return null;
    const bytes = t[0].map((x) => Buffer.from(x));
    return { bytes, slots: t[1], room: bytes.reduce((a, b) => a + b.length, 0) + NUMBER_ROOM * t[1].length };
  }
  // A group's summary, the same for each of its files but for its size; null when that summary
  // names the file (a false positive, a filter filled past its design): then added file by file.
  function summaryOf(g) {
    const d = newSummary(paths);
    addToSummary(d, g.light);
    d.bytesOnDisk = 0;
    return d.truth.pastDesignFiles.length || d.paths.some((p) => p.truth.falsePositiveFiles.length) ? null : d;
  }
  // This file's line from its group's template `t` into `out`. In NDJSON its name is a JSON
  // string: its directory's part made once (the name's own escaped only when it holds a
  // character JSON escapes; a surrogate too, then the whole is JSON.stringify's).
  const dirJsonBytes = [];
  function putLine(out, t, at, file, size) {
    const { bytes, slots } = t;
    // The name escaped (JSON: \uXXXX) or quoted (CSV: quotes doubled, in quotes): at most 6 bytes per UTF-16 unit, and 8.
    out.room(t.room + 6 * file.length + 8);
    out.put(bytes[0]);
    for (let j = 0; j < slots.length; j++) {
      const s = slots[j];
      if (s === 0) {
        const name = names[at];
        if (format !== 'ndjson') out.add(fileText(format, file));
        else if (JSON_ESCAPED.test(name)) out.add(JSON.stringify(file));
        else {
          const d = c.dir[at];
          out.put((dirJsonBytes[d] ??= Buffer.from(JSON.stringify(dirs[d]).slice(0, -1))));
          out.add(name);
          out.buf[out.at++] = 34; // "
        }
      } else out.number(s === 1 ? size : s === 2 ? c.offset[at] : s === 3 ? c.bitsOffset[at] : c.indexed[at]);
      out.put(bytes[j + 1]);
    }
  }

  /**
   * The record of the entry `at` for a path set it does not hold (not audited): the core asked
   * again from the kept bytes, or null (read the file).
   */
  function recordFromBytes(at, file, size) {
    if (!(c.head[at] + c.tail[at] > 0)) return null;
    const blobs = old.blobs();
    const from = c.blob[at];
    const head = blobs.subarray(from, from + c.head[at]);
    const tail = blobs.subarray(from + c.head[at], from + c.head[at] + c.tail[at]);
    let answer;
    try {
      answer = tailScan(file, size, head, tail, paths, 0, 0);
    } catch {
      return null;
    }
    if (!answer) return null;
    const record = recordOf({ ...factsOf(at), results: answer.results }, file, size, at);
    return { record, verd: intern(verdictTable, codes(answer.results)) };
  }

  // ---- Stats made by threads of their own (STAT_THREAD). ----
  let chunkId = 0;
  // Shared with the threads: the stats of each large recorded tree this scan walks.
  const shared = (body?.targets ?? []).filter((t) => t.to - t.from >= statThreadFiles && scanTargets.includes(t.target));
  if (statter && !shared.length) {
    statter.close();
    statter = false;
  }
  if (statter) statter.post({ dirs, dirOf: sharedCopy(c.dir), names: sharedCopy(old.nameBytes) });
  function shareStats(refs, t) {
    if (!statter) return null;
    const n = refs.length;
    const count = Math.ceil(n / statChunk);
    const claims = new Int32Array(new SharedArrayBuffer(4 * count));
    const base = chunkId;
    chunkId += count;
    const chunks = new Array(count);
    for (let k = 0; k < count; k++) {
      const q = { k, claims, mine: undefined, values: null, settle: null, promise: null };
      q.promise = new Promise((resolve) => {
        q.settle = (v) => {
          q.values = v;
          resolve();
        };
      });
      // (Tests: `statHere(k)` says which chunks this thread takes; it waits for the threads' others.)
      if (statHere) q.mine = statHere(k) && Atomics.compareExchange(claims, k, 0, 1) === 0;
      statter.chunks.set(base + k, q);
      chunks[k] = q;
    }
    const extra = t.extra.map(([d, name]) => dirs[d] + name);
    const message = { id: base, refs: refs.slice(), extra, chunk: statChunk, claims: claims.buffer };
    statter.post(message);
    return chunks;
  }
  // They start now, before the walk comes to a tree: one it does not replay (a directory in it
  // changed) leaves its stats unused.
  const earlyStats = new Map(shared.map((t) => [t.target, shareStats(c.refs.subarray(t.from, t.to), t)]));
  // The rest of the manifest (each entry, the kept bytes) is checked now, before any answer from
  // it, while the stat threads stat ahead.
  try {
    old?.verify();
  } catch (e) {
    close();
    throw e;
  }
  /** Ends the stat threads (the scan is over). */
  function close() {
    if (statter) statter.close();
    statter = false;
  }

  /**
   * Local files (`{path, file, at?}`, in walk order) → segments in the same order: `{output,
   * summary, noErrors: true}` for a run of files answered here (output in the scan's `format`),
   * `{items}` for a run to be read (by the workers).
   */
  async function answerLocal(items) {
    const run = { items, i: 0, segs: [], hits: null, misses: null, text: null };
    for (let wait; (wait = answerRun(run)) !== null; ) await wait;
    if (run.hits) run.segs.push(ranHits(run.hits));
    if (run.misses) run.segs.push({ items: run.misses });
    return run.segs;
  }
  // A run of answered files, closed: each group's files' summary at once (its summary times its files).
  function ranHits(h) {
    for (const g of h.groups) mergeSummary(h.summary, g.summary, g.count);
    return { output: format === 'records' ? h.output : h.output.bytes(h.from), summary: h.summary, noErrors: true };
  }
  function hitsOf(run) {
    if (run.misses) run.segs.push({ items: run.misses });
    run.misses = null;
    if (run.hits) return run.hits;
    // The runs of one call share one buffer, each its own part of it (one per run: a tree
    // with a changed file in every hundred allocated a whole batch's buffer per run).
    const output = format === 'records' ? [] : (run.text ??= new TextChunk(run.items.length - run.i));
    return (run.hits = { output, from: format === 'records' ? 0 : output.at, summary: newSummary(paths), noErrors: true, groups: [] });
  }
  function missed(run, item) {
    if (run.hits) run.segs.push(ranHits(run.hits));
    run.hits = null;
    item.at = undefined;
    item.sq = undefined;
    (run.misses ??= []).push(item);
  }
  // answerLocal's loop, synchronous (compiled apart from its awaits): from `run.i` on, to the
  // end (null) or to a chunk whose stats a thread has not handed back yet (its promise).
  function answerRun(run) {
    const { items } = run;
    for (; run.i < items.length; run.i++) {
      const item = items[run.i];
      const at = item.at;
      if (at === undefined) {
        missed(run, item);
        continue;
      }
      const q = item.sq;
      if (q !== undefined) {
        // The first file of a chunk: this thread's to stat, unless a stat thread took it.
        q.mine ??= Atomics.compareExchange(q.claims, q.k, 0, 1) === 0;
        if (!q.mine && q.values === null) return q.promise;
      }
      if (!(q !== undefined && !q.mine && q.values ? sameInChunk(q.values, 6 * item.si, at) : sameHere(item.path, at)) || c.kind[at] !== 0) {
        missed(run, item);
        continue;
      }
      const size = c.size[at];
      if (!complete[c.set[at]]) {
        answerFromBytes(run, item, at, size);
        continue;
      }
      const g = groupOf(at);
      const h = hitsOf(run);
      if (g.template === undefined) {
        g.light = recordOf(g, '', 0, at);
        g.template = format === 'records' ? null : templateFor(g, at);
        g.summary = summaryOf(g);
      }
      if (g.template !== null) putLine(h.output, g.template, at, item.file, size);
      else if (format === 'records') h.output.push(recordOf(g, item.file, size, at));
      else h.output.add(formatRecords([recordOf(g, item.file, size, at)], format, paths));
      if (g.summary === null) {
        const l = g.light;
        l.file = item.file;
        l.size = size;
        addToSummary(h.summary, l);
      } else {
        if (g.in !== h) {
          g.in = h;
          g.count = 0;
          h.groups.push(g);
        }
        g.count++;
        h.summary.bytesOnDisk += size;
      }
      carry(at, g.verd);
    }
    return null;
  }
  // Whether the file of entry `at` is the one recorded: by a stat thread's figures `v` from `j` on, or by a stat here.
  const sameInChunk = (v, j, at) => v[j + 5] === 1 && v[j] === c.size[at] && v[j + 1] === c.mtime[at] && v[j + 2] === c.ctime[at] && v[j + 3] === c.ino[at] && v[j + 4] === c.dev[at];
  function sameHere(path, at) {
    let st;
    try {
      st = statSync(path, NO_THROW);
    } catch {
      return false;
    }
    return st !== undefined && st.isFile() && st.size === c.size[at] && st.mtimeMs === c.mtime[at] && st.ctimeMs === c.ctime[at] && st.ino === c.ino[at] && st.dev === c.dev[at];
  }
  // An entry whose path set lacks one of this scan's paths: answered from its kept bytes, or read.
  function answerFromBytes(run, item, at, size) {
    const a = recordFromBytes(at, item.file, size);
    if (!a) return missed(run, item);
    const h = hitsOf(run);
    if (format === 'records') h.output.push(a.record);
    else h.output.add(formatRecords([a.record], format, paths));
    addToSummary(h.summary, a.record);
    carry(at, a.verd);
  }

  /** Batch `n` for a worker (files to read): its message (plain items packed: names in one string). */
  function sent(n, items) {
    inFlight.set(n, items);
    // (A path string holds no NUL: the file system refuses one, and the walk reports it as an error.)
    if (!items.every((x) => typeof x.path === 'string' && x.path === x.file && !x.error)) return { seq: n, items: items.map(({ at, sq, si, ...x }) => x) };
    return { seq: n, packed: { files: items.map((x) => x.file).join('\0') } };
  }

  // `kept`: per item its keptFacts or null (a scan worker's as packKept made them).
  function took(n, kept) {
    const items = inFlight.get(n);
    inFlight.delete(n);
    if (!items || !kept) return;
    if (!Array.isArray(kept)) kept = unpackKept(kept);
    for (let i = 0; i < items.length; i++) {
      const k = kept[i];
      if (!k || k.answered) continue;
      changed = true;
      added.push({ file: items[i].file, k });
    }
  }

  // ---- Directory trees: replayed when no directory in them changed. ----
  const oldTargets = new Map((body?.targets ?? []).map((t) => [t.target, t]));
  let watching = null; // the target being walked: {target, dirs, files, ok}
  const walkHooks = {
    replay(target, visited) {
      watching = null;
      if (typeof target !== 'string') return null;
      const t = oldTargets.get(target);
      oldTargets.delete(target);
      if (t) {
        let same = true;
        for (const d of t.dirs) {
          let st;
          try {
            st = statSync(d[0], NO_THROW);
          } catch {
            st = null;
          }
          if (!st || !st.isDirectory() || !sameDir(d, dirIdentity(st))) {
            same = false;
            break;
          }
        }
        if (same) {
          const refs = c.refs.subarray(t.from, t.to);
          targets.push({ target, dirs: t.dirs, refs, extra: t.extra });
          for (const d of t.dirs) visited.add(`${d[4]}:${d[3]}`);
          // A ref: the entry's index, or (negative) a file without one (extra: [dir, name]).
          // Made a batch at a time, as the walk takes them: 100,000 items made at once would
          // outlive many a young-generation GC, each copying them.
          const chunks = earlyStats.get(target) ?? null;
          return (function* batches() {
            for (let from = 0; from < refs.length; from += REPLAY_BATCH) {
              const to = Math.min(refs.length, from + REPLAY_BATCH);
              const items = new Array(to - from);
              for (let i = from; i < to; i++) {
                const r = refs[i];
                let item;
                if (r >= 0) {
                  const f = oldFile(r);
                  item = { path: f, file: f, at: r, sq: undefined, si: 0 };
                } else {
                  const [d, name] = t.extra[-r - 1];
                  const f = dirs[d] + name;
                  item = { path: f, file: f, at: -1, sq: undefined, si: 0 };
                }
                if (chunks) {
                  item.sq = chunks[Math.floor(i / statChunk)];
                  item.si = i % statChunk;
                }
                items[i - from] = item;
              }
              yield items;
            }
          })();
        }
        changed = true;
      }
      watching = { target, dirs: [], files: [], ok: true };
      targets.push(watching);
      return null;
    },
    onDirectory(dir) {
      if (!watching) return;
      let st;
      try {
        st = typeof dir === 'string' ? statSync(dir) : null;
      } catch {
        st = null;
      }
      if (!st || Date.now() - Math.max(st.mtimeMs, st.ctimeMs) < racyMs) watching.ok = false;
      else watching.dirs.push([dir, ...dirIdentity(st)]);
    },
    walked(item) {
      if (!watching) return;
      if (item.error || typeof item.path !== 'string' || item.path !== item.file) watching.ok = false;
      else watching.files.push(item.file);
    },
  };

  /** At the end of a scan of `files` files: writes the manifest when this scan changed anything (files read, gone, other paths). */
  function finish(files) {
    const dropped = n - seenCount;
    stats.dropped = dropped;
    stats.read = files - stats.answered;
    const live = targets.filter((t) => t.ok !== false && t.dirs.length > 0);
    if (!changed && dropped === 0 && oldTargets.size === 0 && live.length === body.targets.length && carried.length === seenCount) return;
    // (Checked against their checksum again as they are read: a corrupt manifest's bytes never get a new one.)
    const oldBlobs = carried.some((at) => c.head[at] + c.tail[at] > 0) ? old.blobs() : null;
    const N = carried.length + added.length;
    const out = {};
    for (const k of F64) out[k] = new Float64Array(N);
    for (const k of I32) out[k] = new Int32Array(N);
    for (const k of I8) out[k] = new Int8Array(N);
    const newNames = new Array(N);
    const remap = new Int32Array(n).fill(-1);
    const objects = [];
    // The carried entries column by column, their bytes as runs of the old section (entries
    // whose bytes lie one after another there are copied as one).
    for (const k of carried.length ? ALL : []) {
      const from = c[k];
      const to = out[k];
      for (let i = 0; i < carried.length; i++) to[i] = from[carried[i]];
    }
    const blobs = [];
    let blobAt = 0;
    let runFrom = 0;
    let runTo = 0;
    for (let i = 0; i < carried.length; i++) {
      const at = carried[i];
      remap[at] = i;
      if (carriedVerd[i] >= 0) {
        out.set[i] = current;
        out.verd[i] = carriedVerd[i];
      }
      newNames[i] = names[at];
      out.blob[i] = blobAt;
      if (!oldBlobs) {
        out.head[i] = 0;
        out.tail[i] = 0;
      } else if (c.head[at] + c.tail[at] > 0) {
        const from = c.blob[at];
        if (from !== runTo) {
          if (runTo > runFrom) blobs.push(oldBlobs.subarray(runFrom, runTo));
          runFrom = from;
          runTo = from;
        }
        runTo += c.head[at] + c.tail[at];
        blobAt += c.head[at] + c.tail[at];
      }
      const v = versions.get(at);
      if (v) objects.push([i, v[2], v[3]]);
    }
    if (runTo > runFrom) blobs.push(oldBlobs.subarray(runFrom, runTo));
    const putBytes = (i, head, tail) => {
      out.blob[i] = blobAt;
      out.head[i] = head.length;
      out.tail[i] = tail.length;
      blobs.push(head, tail);
      blobAt += head.length + tail.length;
    };
    added.forEach(({ file: f, k }, j) => {
      const i = carried.length + j;
      const [dir, name] = splitFile(f);
      out.dir[i] = internDir(dir);
      newNames[i] = name;
      if (k.id[0] === 'object') {
        out.kind[i] = 1;
        out.size[i] = k.id[1];
        objects.push([i, k.id[2], k.id[3]]);
        for (const x of ['mtime', 'ctime', 'ino', 'dev']) out[x][i] = NaN;
      } else [out.size[i], out.mtime[i], out.ctime[i], out.ino[i], out.dev[i]] = k.id;
      const fg = k.figures.slice();
      out.offset[i] = fg[OFFSET] ?? NaN;
      out.bitsOffset[i] = fg[BITS_OFFSET] ?? NaN;
      fg[OFFSET] = null;
      fg[BITS_OFFSET] = null;
      out.fig[i] = intern(figures, fg);
      out.indexed[i] = k.indexed ?? NaN;
      out.cpp[i] = k.cpp ?? NaN;
      out.past[i] = k.past == null ? -1 : Number(k.past);
      out.set[i] = current;
      out.verd[i] = intern(verdictTable, k.verdicts);
      out.audit[i] = k.audit ? intern(audits, k.audit) : -1;
      putBytes(i, k.head, k.tail);
    });
    // Each tree's files: their entries' places in this manifest, or a name (extra) for a file
    // without one. A file read this time is looked up among those read (few, when few changed),
    // one answered through its old entry.
    let addedPlace = null;
    let nextAdded = carried.length;
    const placeOf = (f) => {
      // Files are read in walk order: the next one read is most often this one.
      if (nextAdded < N && added[nextAdded - carried.length].file === f) return nextAdded++;
      if (!addedPlace) {
        addedPlace = new Map();
        for (let i = carried.length; i < N; i++) addedPlace.set(dirs[out.dir[i]] + newNames[i], i);
      }
      const i = addedPlace.get(f);
      if (i !== undefined) return i;
      const at = entryOf(f);
      return at !== undefined && remap[at] >= 0 ? remap[at] : undefined;
    };
    const allRefs = [];
    const trees = live.map((t) => {
      const extra = [];
      const ref = (f) => {
        const i = placeOf(f);
        if (i !== undefined) return i;
        const [dir, name] = splitFile(f);
        extra.push([internDir(dir), name]);
        return -extra.length;
      };
      const from = allRefs.length;
      if (t.refs) {
        for (const r of t.refs) {
          if (r >= 0 && remap[r] >= 0) allRefs.push(remap[r]);
          else if (r >= 0) allRefs.push(ref(oldFile(r)));
          else {
            const [d, name] = t.extra[-r - 1];
            allRefs.push(ref(dirs[d] + name));
          }
        }
      } else for (const f of t.files) allRefs.push(ref(f));
      return { target: t.target, dirs: t.dirs, from, to: allRefs.length, extra };
    });
    const refs = Int32Array.from(allRefs);
    const nameBytes = Buffer.from(newNames.join('\0'));
    const columns = [...F64.map((k) => out[k]), ...I32.map((k) => out[k]), refs, ...I8.map((k) => out[k]), nameBytes];
    writeManifest(file, {
      maxIndexBytes: maxIndexBytes ?? null,
      count: N,
      refs: refs.length,
      dirs,
      figures: figures.texts.map((x) => JSON.parse(x)),
      pathSets: pathSets.texts.map((x) => JSON.parse(x)),
      verdicts: verdictTable.texts.map((x) => JSON.parse(x)),
      audits: audits.texts.map((x) => JSON.parse(x)),
      objects,
      targets: trees,
    }, columns, blobs);
  }

  /**
   * An object (http(s), s3://) of batch `kept`'s scan: answered from its entry when its listing
   * says it is the one recorded, else read by `read(keep)` with its reads kept (`keep(source)`).
   * Returns `[record, kept]`.
   */
  async function object(item, read) {
    const at = item.at;
    if (at !== undefined) {
      const v = versions.get(at);
      if (v && sameVersion(v, objectIdentity(item.version))) {
        const size = item.version.size;
        if (complete[c.set[at]]) {
          const g = groupOf(at);
          carry(at, g.verd);
          return [recordOf(g, item.file, size, at), { answered: true }];
        }
        const a = recordFromBytes(at, item.file, size);
        if (a) {
          carry(at, a.verd);
          return [a.record, { answered: true }];
        }
      }
    }
    const reads = [];
    const record = await read((source) => keepingReads(source, reads));
    const id = objectIdentity(item.version);
    return [record, recordable(id, Date.now(), objectRacyMs) && record.ok ? keptFacts(record, keepFromReads(id, record.size, reads)) : null];
  }

  return { attach, answerLocal, sent, took, finish, object, close, stats, walkHooks };
}
