// `inspect --json` is written a batch of series at a time (js/report.js writeInspectJson); its
// bytes must be exactly those of JSON.stringify of the whole report, on every TsFile fixture
// that opens (C++ and Java writers, 10,000 series across batches, Unicode and quoted names that
// need escaping, null tags, time columns, index errors).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openTsFile } from '../../js/node.js';
import { inspectReport, writeInspectJson } from '../../js/report.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

function tsfiles(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? tsfiles(p) : n.endsWith('.tsfile') ? [p] : [];
    });
}

async function sameBytes(path, source = path) {
  const file = await openTsFile(source);
  try {
    const indexError = await file.loadIndex();
    // A damaged index's report is partial, as the CLI makes it.
    const audit = await file.audit({ partial: true });
    const report = inspectReport({ path, file, indexError, listing: { series: await file.series({ partial: true }), timeColumns: await file.timeColumns({ partial: true }) }, audit });
    const want = JSON.stringify(report, null, 2);
    const chunks = [];
    await writeInspectJson(report, (c) => chunks.push(Buffer.from(c)));
    assert.equal(Buffer.concat(chunks).toString('utf8'), want, path);
    return want;
  } finally {
    await file.close();
  }
}

test('inspect --json in batches equals JSON.stringify of the report, byte for byte, on every fixture', async () => {
  let compared = 0;
  for (const path of tsfiles(FIXTURES)) {
    try {
      await (await openTsFile(path)).close();
    } catch {
      continue; // hostile files that do not open: no report to compare
    }
    await sameBytes(path);
    compared++;
  }
  assert.ok(compared >= 50, `expected the fixtures (${compared})`);
});

test('names that JSON must escape (quote, backslash, controls) are written as JSON.stringify writes them', async () => {
  // A real file with measurements renamed in place, byte for byte: one escape class each.
  const bytes = readFileSync(join(FIXTURES, 'tsfile/tree_unicode.tsfile'));
  for (const [from, to] of [['naïve', 'na"ive'], ['压力', 'a\\bcde'], ['ÄÖÜß', 'x\u0001yzabcd']]) {
    const [f, t] = [Buffer.from(from), Buffer.from(to)];
    assert.equal(t.length, f.length);
    let renamed = 0;
    for (let at = bytes.indexOf(f); at >= 0; at = bytes.indexOf(f, at + 1), renamed++) t.copy(bytes, at);
    assert.ok(renamed >= 1, from);
  }
  const json = await sameBytes('renamed.tsfile', new Uint8Array(bytes));
  for (const escaped of ['"na\\"ive"', '"a\\\\bcde"', '"x\\u0001yzabcd"']) assert.ok(json.includes(`"measurement": ${escaped}`), escaped);
});
