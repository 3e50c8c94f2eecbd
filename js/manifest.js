// Repeat scans from a manifest (`scan --manifest FILE`, scanTsFiles' `manifest` option): what a
// scan learnt of each file — its identity, what its record said, and the bytes a verdict is made
// from — kept in one file, so that the next scan reads only the files that are new or changed.
//
// The scan walks as it always does and asks answer(item) of each item it finds, on the main
// thread: a local file the manifest holds is statted, an object of a listing is taken at its
// listing's word, and one found unchanged is answered from its entry (js/manifest/answer.js),
// never read; the rest is read as by any scan, and what the manifest keeps of it comes back
// beside its record (js/manifest/keep.js). finish() writes the entries answered and read. The
// file: js/manifest/file.js; its checks, made once when it is opened: js/manifest/check.js.
import { Buffer } from 'node:buffer';
import { invalidArgument } from './errors.js';
import { checkWritable, readManifest, writeManifest } from './manifest/file.js';
import { OBJECT_RACY_MS, objectIdentity, recordable, sameIdentity, unchanged } from './manifest/identity.js';
import { answerer } from './manifest/answer.js';
import { linesBytes } from './manifest/lines.js';
import { ENTRY, ID } from './manifest/check.js';
import { keepFromReads, keepingReads, keptFacts, unpackKept } from './manifest/keep.js';

/**
 * The manifest of one scan: `file` (its path; read and checked now: a bad one throws here), the
 * scan's `paths`, `audit` and `maxIndexBytes`. `answer(item)` answers a walked item it holds
 * unchanged, `took(kept)` takes what a batch read keeps, `object(item, read)` reads an object
 * keeping its bytes, `finish(files)` writes what this scan saw; `stats` counts answered, read
 * and dropped files.
 */
export function openManifest(file, { paths = [], audit = false, format = 'records', maxIndexBytes, racyMs } = {}) {
  if (typeof file !== 'string' || file === '') throw invalidArgument('manifest', 'manifest must be the path of a manifest file');
  if (!paths.every((p) => typeof p === 'string')) throw invalidArgument('paths', 'a scan with a manifest takes its paths as strings');
  const read = readManifest(file);
  checkWritable(file);
  // A manifest written with another --max-index-bytes answers nothing (that limit changes records).
  const old = read?.body.maxIndexBytes === (maxIndexBytes ?? null) ? read : null;
  return new Manifest(file, old, { paths, audit, format, maxIndexBytes: maxIndexBytes ?? null, objectRacyMs: racyMs ?? OBJECT_RACY_MS });
}

class Manifest {
  constructor(file, old, options) {
    const body = old?.body ?? { pathSets: [], facts: [], results: [], files: [], ids: [], entries: [] };
    Object.assign(this, options, { file, old: body, bytes: old?.bytes ?? Buffer.alloc(0), written: old !== null });
    this.entryOf = old?.index ?? new Map(); // file → its entry
    this.seen = new Uint8Array(body.files.length);
    this.carried = []; // entry index, its new results or null; …
    this.next = 0; // the entry after the last one found
    this.added = []; // keptFacts of the files read
    this.stats = { file, answered: 0, read: 0, dropped: 0 };
    this.answerOf = answerer(body, this.bytes, this.paths, this.audit, this.format);
  }

  /**
   * A walked item ({path, file}, or {url, file, version} from a listing) → its record answered
   * from its entry, `{record, line}` (`line`: its output in the scan's format), when the file is
   * the version recorded (a local file: its stat says so; an object: its listing), else null: read it.
   */
  answer(item) {
    // A tree walked as before finds its entries in their order: the next one is looked at first.
    const at = this.old.files[this.next] === item.file ? this.next : this.entryOf.get(item.file);
    if (at === undefined || this.seen[at]) return null;
    this.seen[at] = 1;
    this.next = at + 1;
    // A name that is not UTF-8 is read each time: its record carries its bytes (fileHex), which no entry keeps.
    if (item.hex !== undefined) return null;
    const same = item.version ? sameIdentity(objectIdentity(item.version), this.old.ids, ID * at) : item.path !== undefined && unchanged(item.path, this.old.ids, ID * at);
    const a = same ? this.answerOf(at, item.file) : null;
    if (!a) return null;
    this.carried.push(at, a.results);
    this.stats.answered++;
    return a;
  }

  /** Answered items' output lines (any format but 'records'), as UTF-8 bytes. */
  lines = linesBytes;

  /** What a batch read keeps (keptFacts per record, or null; packed by a scan worker). */
  took(kept) {
    if (!kept) return;
    for (const k of Array.isArray(kept) ? kept : unpackKept(kept)) if (k) this.added.push(k);
  }

  /** An object of a listing read by `read(keep)`, keeping what it reads. Returns `[record, kept]`. */
  async object(item, read) {
    const id = objectIdentity(item.version);
    const reads = [];
    const record = await read((source) => keepingReads(source, reads));
    return [record, recordable(id, Date.now(), this.objectRacyMs) ? keptFacts(record, keepFromReads(id, record.size, reads)) : null];
  }

  /** At the end of a scan of `files` files: writes the manifest when anything changed (files read, gone, paths added). */
  finish(files) {
    const n = this.old.files.length;
    this.stats.dropped = this.seen.reduce((a, x) => a - x, n);
    this.stats.read = files - this.stats.answered;
    if (this.written && !this.added.length && this.carried.length === 2 * n && this.carried.every((x, i) => i % 2 === 0 || x === null)) return;
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
    const body = { maxIndexBytes: this.maxIndexBytes, pathSets: null, facts: null, results: null, files: [], ids: [], entries: [] };
    const kept = [];
    let at = 0;
    const put = (file, id, fact, set, results, head, tail) => {
      body.files.push(file);
      body.ids.push(...id);
      body.entries.push(fact, set, results, at, head.length, tail.length);
      kept.push(head, tail);
      at += head.length + tail.length;
    };
    for (let c = 0; c < this.carried.length; c += 2) {
      const [i, fresh] = [this.carried[c], this.carried[c + 1]];
      const [fact, set, results, from, head, tail] = old.entries.slice(ENTRY * i, ENTRY * i + ENTRY);
      const answers = fresh ? [current, tables.results.add(fresh)] : [move('pathSets', set), move('results', results)];
      put(old.files[i], old.ids.slice(ID * i, ID * i + ID), move('facts', fact), ...answers, bytes.subarray(from, from + head), bytes.subarray(from + head, from + head + tail));
    }
    for (const k of this.added) put(k.file, k.id, tables.facts.add(k.fact), current, tables.results.add(k.results), k.head, k.tail);
    Object.assign(body, { pathSets: tables.pathSets.list, facts: tables.facts.list, results: tables.results.list });
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
