// Repeat scans from a manifest (`scan --manifest FILE`, scanTsFiles' `manifest` option): what a
// scan learnt of each file — its identity, what its record said, and the bytes a verdict is made
// from — kept in one file, so that the next scan reads only the files that are new or changed.
//
// Its own thread (js/manifest/thread.js) opens and checks it, then stats the files it holds,
// while the walk goes ahead. Once it is open and a batch's stats have come, answer(item) answers
// a file found unchanged from its entry (js/manifest/answer.js), never read; the rest is read as
// by any scan, and what is kept of it comes back beside its record (js/manifest/keep.js).
// finish() writes the entries answered and read. The file: js/manifest/file.js; its checks:
// js/manifest/check.js.
import { Buffer } from 'node:buffer';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { invalidArgument } from './errors.js';
import { writeManifest } from './manifest/file.js';
import { ManifestThread } from './manifest/opening.js';
import { OBJECT_RACY_MS, objectIdentity, recordable, sameIdentity } from './manifest/identity.js';
import { answerer } from './manifest/answer.js';
import { linesBytes } from './manifest/lines.js';
import { ENTRY, ID } from './manifest/check.js';
import { keepFromReads, keepingReads, keptFacts } from './manifest/keep.js';

// By path, from this file in js/ (as js/scan-pool.js finds its worker): the CommonJS build's
// import.meta.url is js/node.js's.
const THREAD = join(dirname(fileURLToPath(import.meta.url)), 'manifest', 'thread.js');
/** Batches a walk goes ahead of the manifest's open by, at most. */
const AHEAD = 256;

/**
 * The manifest of one scan: `file` (its path; opened now on its thread: a bad one throws from
 * `ready` or `finish`), the scan's `paths`, `audit` and `maxIndexBytes`. `walkAhead(batches)`
 * walks on while it opens, `ready(items)` waits for it and for the stats of a batch's files,
 * `answer(item)` answers a walked item it holds
 * unchanged, `took(kept)` takes what a batch read keeps, `object(item, read)` reads an object
 * keeping its bytes, `finish(files)` writes what this scan saw; `stats` counts answered, read
 * and dropped files.
 */
export function openManifest(file, { paths = [], audit = false, format = 'records', maxIndexBytes, racyMs } = {}) {
  if (typeof file !== 'string' || file === '') throw invalidArgument('manifest', 'manifest must be the path of a manifest file');
  if (!paths.every((p) => typeof p === 'string')) throw invalidArgument('paths', 'a scan with a manifest takes its paths as strings');
  return new Manifest(file, new ManifestThread(file, THREAD), { paths, audit, format, maxIndexBytes: maxIndexBytes ?? null, objectRacyMs: racyMs ?? OBJECT_RACY_MS });
}

class Manifest {
  constructor(file, thread, options) {
    Object.assign(this, options, { file, thread, old: null });
    this.carried = []; // entry index, its new results or null; …
    this.next = 0; // the entry after the last one found
    this.added = []; // keptFacts of the files read
    this.stats = { file, answered: 0, read: 0, dropped: 0 };
  }

  /** The manifest opened (a bad one throws here, before any answer), once. */
  async join() {
    if (this.old) return;
    const read = await this.thread.opened;
    // A manifest written with another --max-index-bytes answers nothing (that limit changes records).
    const old = read?.body.maxIndexBytes === this.maxIndexBytes ? read : null;
    if (this.old) return;
    const body = old?.body ?? { pathSets: [], facts: [], results: [], files: [], ids: [], entries: [] };
    Object.assign(this, { old: body, bytes: old?.bytes ?? Buffer.alloc(0), written: old !== null, index: null });
    this.seen = new Uint8Array(body.files.length);
    this.answerOf = answerer(body, this.bytes, this.paths, this.audit, this.format);
  }

  /** Entry of `file`, or undefined: the one at `guess` (a walk as before finds them in order), else by its name. */
  entryAt(file, guess) {
    if (this.old.files[guess] === file) return guess;
    if (!this.index) this.index = new Map(this.old.files.map((f, i) => [f, i]));
    return this.index.get(file);
  }

  /**
   * The walk's `batches`, walked ahead while the manifest opens on its thread (up to AHEAD
   * batches held): the directories are listed meanwhile, the files answered once it is open.
   */
  async *walkAhead(batches) {
    const it = batches[Symbol.asyncIterator]();
    const held = [];
    try {
      for (let r; !this.thread.settled && held.length < AHEAD && !(r = await it.next()).done; ) {
        held.push(r.value);
        await new Promise(setImmediate); // (the thread's message comes between two batches)
      }
      yield* held.splice(0);
      for (let r; !(r = await it.next()).done; ) yield r.value;
    } finally {
      await it.return?.();
    }
  }

  /** Before the walk's batch `items` is answered: the manifest opened, and their files' stats come. */
  async ready(items) {
    await this.join();
    let last = -1;
    for (let i = 0, guess = this.next; i < items.length; i++) {
      const at = items[i].path === undefined ? undefined : this.entryAt(items[i].file, guess);
      if (at !== undefined) [guess, last] = [at + 1, Math.max(last, at)];
    }
    await this.thread.statted(last);
  }

  /**
   * A walked item ({path, file}, or {url, file, version} from a listing) → its record answered
   * from its entry, `{record, line}` (`line`: its output in the scan's format), when the file is
   * the version recorded (a local file: its stat says so; an object: its listing), else null: read it.
   */
  answer(item) {
    const at = this.entryAt(item.file, this.next);
    if (at === undefined || this.seen[at]) return null;
    this.seen[at] = 1;
    this.next = at + 1;
    // A name that is not UTF-8 is read each time: its record carries its bytes (fileHex), which no entry keeps.
    if (item.hex !== undefined) return null;
    const same = item.version ? sameIdentity(objectIdentity(item.version), this.old.ids, ID * at) : item.path === item.file && this.thread.unchanged(at);
    const a = same ? this.answerOf(at, item.file) : null;
    if (!a) return null;
    this.carried.push(at, a.results);
    this.stats.answered++;
    return a;
  }

  /** Answered items' output lines (any format but 'records'), as UTF-8 bytes. */
  lines = linesBytes;

  /** What a batch read keeps (keptFacts per record, or null). */
  took(kept = []) {
    for (const k of kept) if (k) this.added.push(k);
  }

  /** An object of a listing read by `read(keep)`, keeping what it reads. Returns `[record, kept]`. */
  async object(item, read) {
    const id = objectIdentity(item.version);
    const reads = [];
    const record = await read((source) => keepingReads(source, reads));
    return [record, recordable(id, Date.now(), this.objectRacyMs) ? keptFacts(record, keepFromReads(id, record.size, reads)) : null];
  }

  /** At the end of a scan of `files` files: writes the manifest when anything changed (files read, gone, paths added). */
  async finish(files) {
    await this.join();
    this.thread.close();
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
