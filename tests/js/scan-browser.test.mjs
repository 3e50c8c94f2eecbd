// The browser scanner (js/scan-browser.js), run under Node with its File and Blob: Files and a
// directory handle (the File System Access API's shape, backed here by a real directory) give
// the records the Node scanner gives for the same files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scanTsFiles as scanInNode } from '../../js/node.js';
import { scanTsFiles as scanInBrowser } from '../../js/scan-browser.js';
import { buildFleet, VALID_FIXTURES } from './fleet.mjs';

// FileSystemDirectoryHandle / FileSystemFileHandle over a directory on disk.
function directoryHandle(path, name) {
  return {
    kind: 'directory',
    name,
    async *entries() {
      for (const entry of readdirSync(path, { withFileTypes: true })) {
        const p = join(path, entry.name);
        if (entry.isDirectory()) yield [entry.name, directoryHandle(p, entry.name)];
        else if (entry.isFile()) yield [entry.name, { kind: 'file', name: entry.name, getFile: async () => new File([readFileSync(p)], entry.name) }];
      }
    },
  };
}

const PATHS = ['root.sg1.d1.s1', 'root.工厂.车间.风机.一号.功率'];
const comparable = (r) => [r.ok, r.size, r.version, r.bloomFilter, r.results, r.error?.kind ?? null];

test('Files, a FileList-like array and a directory handle scan like the Node scanner', async () => {
  const root = mkdtempSync(join(tmpdir(), 'tsfile-bloom-browser-scan-'));
  try {
    const fleet = buildFleet(root, { count: 60, withLarge: false, hostile: false });
    const node = [];
    for await (const r of scanInNode([root], { paths: PATHS, concurrency: 1 })) node.push(r);
    assert.equal(node.length, fleet.length);

    const viaHandle = [];
    const scan = scanInBrowser(directoryHandle(root, 'fleet'), { paths: PATHS, concurrency: 3 });
    for await (const r of scan) viaHandle.push(r);
    assert.deepEqual(viaHandle.map((r) => r.file), node.map((r) => `fleet/${r.file.slice(root.length + 1)}`));
    assert.deepEqual(viaHandle.map(comparable), node.map(comparable));
    const summary = await scan.summary;
    assert.equal(summary.files, fleet.length);
    assert.equal(summary.paths[0].skippable, node.filter((r) => r.results[0].verdict === 'absent').length);

    const first = node.slice(0, 10).map((r) => r.file);
    const files = first.map((f) => new File([readFileSync(f)], f.split('/').pop()));
    const viaFiles = [];
    for await (const r of scanInBrowser(files, { paths: PATHS })) viaFiles.push(r);
    assert.deepEqual(viaFiles.map(comparable), node.slice(0, 10).map(comparable));
    // One read for a file no larger than the tail window (its head lies in it), else two.
    assert.ok(viaFiles.every((r, i) => r.size === statSync(first[i]).size && r.reads === (r.size <= 4096 ? 1 : 2) && r.file === files[i].name));
    assert.ok(viaFiles.some((r) => r.reads === 1), 'some small file read in one slice');

    const bad = [];
    for await (const r of scanInBrowser([42, new Blob([new Uint8Array(5)])], { paths: PATHS })) bad.push(r);
    assert.deepEqual(bad.map((r) => r.error.kind), ['invalid_argument', 'too_short']);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('as Files, every real-writer fixture (large ones too) and every hostile one scans as in Node, with and without the audit', async () => {
  // The browser's fast route (one slice, or head and tail window, then scanTail) and its way
  // back to openTsFile (TsFileMetadata outside the window, a bad file) against the Node scanner.
  const root = mkdtempSync(join(tmpdir(), 'tsfile-bloom-browser-scan-all-'));
  try {
    const entries = buildFleet(root, { count: 40, withLarge: true, hostile: true }).filter((e) => e.expect !== 'io');
    const files = entries.map((e) => new File([readFileSync(e.file)], e.file.slice(root.length + 1)));
    assert.ok(files.some((f) => f.size > 4096) && files.some((f) => f.size <= 4096), 'small and large files');
    for (const audit of [false, true]) {
      const node = [];
      for await (const r of scanInNode(entries.map((e) => e.file), { paths: PATHS, audit, concurrency: 1 })) node.push(r);
      const browser = [];
      for await (const r of scanInBrowser(files, { paths: PATHS, audit, concurrency: 7 })) browser.push(r);
      assert.deepEqual(browser.map((r) => r.file), files.map((f) => f.name), 'walk order');
      const withAudit = (r) => [...comparable(r), r.audit?.status ?? null];
      assert.deepEqual(browser.map(withAudit), node.map(withAudit), `audit: ${audit}`);
      if (!audit) {
        const fast = browser.filter((r) => r.ok && r.size <= 4096);
        assert.ok(fast.length > 10 && fast.every((r) => r.reads === 1 && r.bytesRead === r.size), 'a small file: one read of the whole file');
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a File costs the scan one Blob slice per read, and no more', async () => {
  // In Chromium each slice is a round trip to the process that holds the file (issue 41, item 6:
  // the folder scan paid a second, empty slice per file for a source it never read). A small
  // file (one read), a larger one on the fast route (head and window) and one whose metadata
  // lies before the window (the full route's read beyond them).
  const picked = ['tree_1series', 'java/utf8/error_rate_0.01.tsfile', 'tree_10k_series'].map((name) => VALID_FIXTURES.find((f) => f.name === name));
  const files = picked.map((f) => new File([readFileSync(f.path)], f.name));
  const slices = new Map(files.map((f) => [f, 0]));
  const slice = Blob.prototype.slice;
  Blob.prototype.slice = function (...range) {
    if (slices.has(this)) slices.set(this, slices.get(this) + 1);
    return slice.apply(this, range);
  };
  const records = [];
  try {
    for await (const r of scanInBrowser(files, { paths: PATHS })) records.push(r);
  } finally {
    Blob.prototype.slice = slice;
  }
  assert.deepEqual(records.map((r) => [r.error, r.reads]), [[null, 1], [null, 2], [null, 3]]);
  assert.deepEqual([...slices.values()], [1, 2, 3]);
});

test('maxIndexBytes below the tail window: a File gets the typed too_large, as in Node, not an answer from the window', async () => {
  // The fast route takes any TsFileMetadata in the tail window: with a limit below the window it
  // must stand aside (issue 40: before, the browser's copy of the route did not, and answered).
  const small = VALID_FIXTURES.filter((f) => f.size <= 4096 && !f.name.startsWith('synthetic')).slice(0, 5);
  const node = [];
  for await (const r of scanInNode(small.map((f) => f.path), { paths: PATHS, maxIndexBytes: 16 })) node.push(r);
  const browser = [];
  const files = small.map((f) => new File([readFileSync(f.path)], f.name));
  for await (const r of scanInBrowser(files, { paths: PATHS, maxIndexBytes: 16 })) browser.push(r);
  assert.deepEqual(node.map((r) => r.error?.kind), small.map(() => 'too_large'));
  assert.deepEqual(browser.map(comparable), node.map(comparable));
});

test('progress: once the walk is done, the browser scanner says how many files there are, as the Node scanner does', async () => {
  // One pipeline for both (issue 40): before, the browser's own loop always said total null.
  const small = VALID_FIXTURES.filter((f) => f.size <= 4096).slice(0, 6);
  const files = small.map((f) => new File([readFileSync(f.path)], f.name));
  const seen = { node: [], browser: [] };
  for await (const _ of scanInNode(small.map((f) => f.path), { paths: PATHS, onProgress: (p) => seen.node.push(p) }));
  for await (const _ of scanInBrowser(files, { paths: PATHS, onProgress: (p) => seen.browser.push(p) }));
  for (const who of ['node', 'browser']) {
    const last = seen[who].at(-1);
    assert.deepEqual([last.done, last.found, last.total], [6, 6, 6], who);
  }
});

test("a scanned Blob whose slices have no arrayBuffer() (an old jsdom's) is its record's typed error; the scan goes on", async () => {
  class SlicesWithoutArrayBuffer extends Blob {
    slice(...range) {
      return new SlicesWithoutArrayBuffer([super.slice(...range)]);
    }
  }
  Object.defineProperty(SlicesWithoutArrayBuffer.prototype, 'arrayBuffer', { value: undefined });
  const bytes = readFileSync(VALID_FIXTURES[0].path);
  const records = [];
  for await (const r of scanInBrowser([new SlicesWithoutArrayBuffer([bytes]), new Blob([bytes])], { paths: PATHS, concurrency: 1 })) records.push(r);
  assert.deepEqual(records.map((r) => r.error?.kind ?? null), ['invalid_argument', null]);
  assert.match(records[0].error.message, /Blob#arrayBuffer\(\)/);
});
