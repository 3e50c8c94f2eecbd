// Repeat scans from a manifest (`scan --manifest FILE`, scanTsFiles' `manifest` option): what a
// scan learnt of each file — its identity, what its record said, and the bytes a verdict is made
// from — kept in one file, so that the next scan reads only the files that are new or changed.
//
// The scan walks as it always does; each file the manifest holds goes to the scan workers with
// its entry, and a worker that finds it unchanged (a stat) answers from the entry instead of
// reading it (js/manifest/answer.js); an object of a listing is answered here. What a worker read
// comes back with what the manifest keeps of it (js/manifest/keep.js), and finish() writes the
// entries answered and read. The file: js/manifest/file.js; its checks: js/manifest/check.js.
import { Buffer } from 'node:buffer';
import { invalidArgument } from './errors.js';
import { checkWritable, readManifest, writeManifest } from './manifest/file.js';
import { OBJECT_RACY_MS, objectIdentity, recordable, sameIdentity } from './manifest/identity.js';
import { answerer } from './manifest/answer.js';
import { keepFromReads, keepingReads, keptFacts, unpackKept } from './manifest/keep.js';

/**
 * The manifest of one scan: `file` (its path; read and checked now: a bad one throws here), the
 * scan's `paths`, `audit` and `maxIndexBytes`. `attach(item)` gives a walked item its entry,
 * `sent(n, items)` and `took(n, kept)` follow each batch to its answer, `object(item, read)`
 * answers or reads an object, `finish(files)` writes what this scan saw; `shared` is what the
 * scan workers answer from; `stats` counts answered, read and dropped files.
 */
export function openManifest(file, { paths = [], audit = false, maxIndexBytes, racyMs } = {}) {
  if (typeof file !== 'string' || file === '') throw invalidArgument('manifest', 'manifest must be the path of a manifest file');
  if (!paths.every((p) => typeof p === 'string')) throw invalidArgument('paths', 'a scan with a manifest takes its paths as strings');
  const read = readManifest(file);
  checkWritable(file);
  // A manifest written with another --max-index-bytes answers nothing (that limit changes records).
  const old = read?.body.maxIndexBytes === (maxIndexBytes ?? null) ? read : null;
  return new Manifest(file, old, { paths, audit, maxIndexBytes: maxIndexBytes ?? null, objectRacyMs: racyMs ?? OBJECT_RACY_MS });
}

class Manifest {
  constructor(file, old, options) {
    const body = old?.body ?? { pathSets: [], facts: [], results: [], entries: [] };
    Object.assign(this, options, { file, old: body, bytes: old?.bytes ?? Buffer.alloc(0), written: old !== null });
    this.entryOf = new Map(body.entries.map((e, i) => [e[0], i]));
    this.seen = new Uint8Array(body.entries.length);
    this.carried = []; // [entry index, its new results or null]
    this.added = []; // [file, keptFacts]
    this.inFlight = new Map();
    this.stats = { file, answered: 0, read: 0, dropped: 0 };
    // The kept bytes go to the workers only when a path of this scan is not in some path set.
    const bytesNeeded = !this.audit && body.pathSets.some((set) => this.paths.some((p) => !set.includes(p)));
    this.shared = { pathSets: body.pathSets, facts: body.facts, results: body.results, bytes: bytesNeeded ? this.bytes : null };
    this.answer = answerer(this.shared, this.paths, this.audit);
  }

  /** Gives `item` ({path, file}, or {url, file, version} from a listing) its entry, when it has one. */
  attach(item) {
    const at = this.entryOf.get(item.file);
    if (at === undefined || this.seen[at]) return;
    this.seen[at] = 1;
    // A name that is not UTF-8 is read each time: its record carries its bytes (fileHex), which no entry keeps.
    if (item.hex !== undefined) return;
    item.at = at;
    item.entry = this.old.entries[at];
  }

  /** Batch `n` for a scan worker: its message (plain items packed: names in one string, and their entries). */
  sent(n, items) {
    this.inFlight.set(n, items);
    // (A path string holds no NUL: the file system refuses one, and the walk reports it as an error.)
    if (!items.every((x) => typeof x.path === 'string' && x.path === x.file && !x.error)) return { seq: n, items: items.map(({ at, ...x }) => x) };
    return { seq: n, packed: { files: items.map((x) => x.file).join('\0'), entries: items.map((x) => x.entry ?? null) } };
  }

  /** Batch `n`'s kept facts (per item: null, `{answered, results}`, or keptFacts; packed by a scan worker). */
  took(n, kept) {
    const items = this.inFlight.get(n);
    this.inFlight.delete(n);
    if (!items || !kept) return;
    if (!Array.isArray(kept)) kept = unpackKept(kept);
    kept.forEach((k, i) => {
      if (!k) return;
      if (!k.answered) return void this.added.push([items[i].file, k]);
      this.carried.push([items[i].at, k.results]);
      this.stats.answered++;
    });
  }

  /** An object of a listing: answered from its entry when the listing says it is the one recorded, else read by `read(keep)`. Returns `[record, kept]`. */
  async object(item, read) {
    const id = objectIdentity(item.version);
    const a = item.entry && sameIdentity(item.entry[1], id) ? this.answer(item.entry, item.file, item.version.size) : null;
    if (a) return [a.record, { answered: true, results: a.results }];
    const reads = [];
    const record = await read((source) => keepingReads(source, reads));
    return [record, recordable(id, Date.now(), this.objectRacyMs) && record.ok ? keptFacts(record, keepFromReads(id, record.size, reads)) : null];
  }

  /** At the end of a scan of `files` files: writes the manifest when anything changed (files read, gone, paths added). */
  finish(files) {
    const n = this.old.entries.length;
    this.stats.dropped = this.seen.reduce((a, x) => a - x, n);
    this.stats.read = files - this.stats.answered;
    if (this.written && !this.added.length && this.carried.length === n && this.carried.every(([, r]) => r === null)) return;
    writeManifest(this.file, ...this.body());
  }

  /** The new manifest: its body and kept bytes (the entries answered, then those read). */
  body() {
    const { old, bytes } = this;
    const tables = { pathSets: new Table(), facts: new Table(), results: new Table() };
    // An old table's value → its index in the new table (each added once).
    const moved = { pathSets: [], facts: [], results: [] };
    const move = (k, i) => (moved[k][i] ??= tables[k].add(old[k][i]));
    const current = tables.pathSets.add(this.paths);
    const entries = [];
    const kept = [];
    let at = 0;
    const put = (file, id, fact, set, results, head, tail) => {
      entries.push([file, id, fact, set, results, at, head.length, tail.length]);
      kept.push(head, tail);
      at += head.length + tail.length;
    };
    for (const [i, fresh] of this.carried) {
      const [file, id, fact, set, results, from, head, tail] = old.entries[i];
      const answers = fresh ? [current, tables.results.add(fresh)] : [move('pathSets', set), move('results', results)];
      put(file, id, move('facts', fact), ...answers, bytes.subarray(from, from + head), bytes.subarray(from + head, from + head + tail));
    }
    for (const [file, k] of this.added) put(file, k.id, tables.facts.add(k.fact), current, tables.results.add(k.results), k.head, k.tail);
    const body = { maxIndexBytes: this.maxIndexBytes, pathSets: tables.pathSets.list, facts: tables.facts.list, results: tables.results.list, entries };
    return [body, Buffer.concat(kept)];
  }
}

/** A table of distinct values (by their JSON): `add(value)` gives its index. */
class Table {
  list = [];
  index = new Map();
  add(value) {
    const key = JSON.stringify(value);
    let i = this.index.get(key);
    if (i === undefined) this.index.set(key, (i = this.list.push(value) - 1));
    return i;
  }
}
