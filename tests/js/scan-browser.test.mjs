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
import { buildFleet } from './fleet.mjs';

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
    assert.ok(viaFiles.every((r, i) => r.size === statSync(first[i]).size && r.reads === 2 && r.file === files[i].name));

    const bad = [];
    for await (const r of scanInBrowser([42, new Blob([new Uint8Array(5)])], { paths: PATHS })) bad.push(r);
    assert.deepEqual(bad.map((r) => r.error.kind), ['invalid_argument', 'too_short']);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
