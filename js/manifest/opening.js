// The manifest's thread (js/manifest/thread.js) seen from the scan: `opened` (`{body, bytes}`,
// null when there is none yet, or its typed error), then `statted(at)`, entry `at`'s stat come.
// It holds the process only while awaited; one that ends early fails every wait, typed.
import { Worker } from 'node:worker_threads';
import { TsFileBloomError } from '../errors.js';
import { manifestError } from './file.js';

/** The thread of manifest `file`, started from `entry` (the path of js/manifest/thread.js). */
export class ManifestThread {
  constructor(file, entry) {
    this.file = file;
    this.count = 0; // entries statted
    this.flags = null; // per entry: 1 when its file is the version recorded
    this.waits = []; // [entry, resolve, reject]: until entry's stat has come
    this.failed = null;
    this.opened = new Promise((resolve, reject) => this.waits.push([-1, resolve, reject]));
    this.opened.catch(() => {}); // (its error is thrown where it is awaited)
    // (none of the process's flags: `--input-type` and its like are refused in a thread)
    this.worker = new Worker(entry, { workerData: { file }, execArgv: [] });
    this.worker.on('message', (m) => this.message(m));
    this.worker.on('error', (e) => this.fail(e));
    this.worker.on('exit', () => this.fail(new Error('the thread ended early')));
  }

  message({ error, opened, flags }) {
    if (error) return this.fail(new TsFileBloomError(error.kind, error.message, { ...error.fields, cause: error.code && Object.assign(new Error(error.code), { code: error.code }) }));
    if (flags) {
      this.flags.set(flags, this.count);
      this.count += flags.length;
    } else this.flags = new Uint8Array(opened?.body.files.length ?? 0);
    this.settle(opened);
  }

  /** Resolves once entry `at`'s file has been statted (then `unchanged(at)` says what its stat found). */
  statted(at) {
    if (at < this.count || this.failed) return this.failed ? Promise.reject(this.failed) : undefined;
    this.worker.ref();
    return new Promise((resolve, reject) => this.waits.push([at, resolve, reject]));
  }

  /** Whether the manifest is opened or refused (its message has come). */
  get settled() {
    return this.flags !== null || this.failed !== null;
  }

  unchanged(at) {
    return at < this.count && this.flags[at] === 1;
  }

  /** Resolves the waits its last message answered (`opened`: the wait for the manifest itself). */
  settle(opened) {
    const left = [];
    for (const w of this.waits) {
      if (w[0] < 0) w[1](opened);
      else if (w[0] < this.count) w[1]();
      else left.push(w);
    }
    this.waits = left;
    if (!left.length) this.worker.unref();
  }

  fail(e) {
    if (this.failed || (this.flags && this.count === this.flags.length)) return; // (a thread done ends so)
    this.failed = e instanceof TsFileBloomError ? e : manifestError(this.file, 'unreadable', `the manifest cannot be read (${e.message})`, { cause: e });
    for (const [, , reject] of this.waits) reject(this.failed);
    this.waits = [];
    this.close();
  }

  close() {
    this.worker.terminate();
  }
}
