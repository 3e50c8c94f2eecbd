// A fleet of TsFiles in IoTDB's directory layout, made at test time from the real-writer
// fixtures (the C++ writer's in tests/fixtures/tsfile, the Java writer's in tests/fixtures/java):
//   data/{sequence,unsequence}/root.db/<region>/<time partition>/<time>-<version>-0-0.tsfile
// with each TsFile's .resource file beside it (not a TsFile: a scan must pass it by), and,
// when asked, everything a real directory may hold that is not a readable TsFile.
import { copyFileSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const tsManifest = JSON.parse(readFileSync(`${FIXTURES}tsfile/manifest.json`, 'utf8'));
const javaManifest = JSON.parse(readFileSync(`${FIXTURES}java/manifest.json`, 'utf8'));

/** The valid real-writer (and synthetic) fixtures: `{name, path, size}`. */
export const VALID_FIXTURES = [
  ...tsManifest.filter((f) => f.kind !== 'hostile').map((f) => ({ name: f.name, path: `${FIXTURES}tsfile/${f.file}` })),
  ...javaManifest.files.map((f) => ({ name: `java/${f.file}`, path: `${FIXTURES}java/${f.file}` })),
].map((f) => ({ ...f, size: statSync(f.path).size }));

/**
 * A small bucket or folder in IoTDB's layout, data/{sequence,unsequence}/<database>/<data
 * region>/<time partition>/<file>: key → fixture (under tests/fixtures). Real-writer files (C++ and
 * Java, UTF-8 and GBK, tree and table model), a hostile one, and a file that is no TsFile.
 */
export const IOTDB_LAYOUT = {
  'data/sequence/root.sg1/0/0/1700000000000-1-0-0.tsfile': 'tsfile/tree_10k_series.tsfile',
  'data/sequence/root.sg1/0/0/1700000000001-2-0-0.tsfile': 'tsfile/table_unicode.tsfile',
  'data/sequence/root.sg1/0/2808/1700000000002-3-0-0.tsfile': 'java/gbk/tree_quoted_unicode.tsfile',
  'data/sequence/root.sg1/1/0/1700000000003-4-0-0.tsfile': 'java/utf8/tree_10k_series.tsfile',
  'data/unsequence/root.sg1/0/0/1700000000004-5-0-0.tsfile': 'tsfile/hostile_truncated_in_metadata.tsfile',
  'data/unsequence/root.sg1/0/0/1700000000005-6-0-0.tsfile': 'tsfile/tree_10series.tsfile',
  'data/unsequence/root.sg1/0/0/notes.txt': 'tsfile/manifest.json',
};

export const HOSTILE_FIXTURES = tsManifest.filter((f) => f.kind === 'hostile').map((f) => ({ name: f.name, path: `${FIXTURES}tsfile/${f.file}`, errorKind: f.error_kind }));

/**
 * Copies every hostile fixture into time partition `partition` of `root` (IoTDB's layout) and
 * appends what a scan must report for each to `entries`; returns the directory.
 */
export function addHostileFixtures(root, partition, entries) {
  const dir = join(root, 'data', 'unsequence', 'root.db', '1', partition);
  mkdirSync(dir, { recursive: true });
  for (const h of HOSTILE_FIXTURES) {
    const file = join(dir, `${h.name}.tsfile`);
    copyFileSync(h.path, file);
    entries.push({ file, source: h, expect: 'hostile' });
  }
  return dir;
}

/**
 * Writes `count` copies of valid fixtures (no larger than `maxSize`, plus each larger one once
 * when `withLarge`) under `root`. With `hostile`: every hostile fixture, an empty file, a
 * non-TsFile, a FIFO, a dangling symbolic link, a self-referencing one and a link back up
 * the tree (a directory loop). Returns what a scan must report: `[{file, source, expect}]`,
 * expect ∈ 'valid' | 'hostile' | 'io'.
 */
export function buildFleet(root, { count = 1000, maxSize = 64 * 1024, withLarge = true, hostile = true, pool = null } = {}) {
  const entries = [];
  const place = (i) => {
    const kind = i % 4 === 3 ? 'unsequence' : 'sequence';
    const dir = join(root, 'data', kind, 'root.db', String(i % 3), String(2000 + Math.floor(i / 250)));
    mkdirSync(dir, { recursive: true });
    return join(dir, `${1700000000000 + i}-${i + 1}-0-0.tsfile`);
  };
  const small = pool ?? VALID_FIXTURES.filter((f) => f.size <= maxSize);
  const copies = [...Array(count)].map((_, i) => small[i % small.length]);
  if (withLarge && !pool) copies.push(...VALID_FIXTURES.filter((f) => f.size > maxSize));
  copies.forEach((source, i) => {
    const file = place(i);
    copyFileSync(source.path, file);
    writeFileSync(`${file}.resource`, 'not a TsFile: IoTDB keeps time ranges here');
    entries.push({ file, source, expect: 'valid' });
  });
  if (!hostile) return entries;
  addHostileFixtures(root, '2007', entries);
  const odd = join(root, 'data', 'sequence', 'root.db', '0', '2000');
  mkdirSync(odd, { recursive: true });
  const add = (name, expect, make) => {
    const file = join(odd, name);
    make(file);
    entries.push({ file, source: null, expect });
  };
  add('0-empty-0-0.tsfile', 'hostile', (f) => writeFileSync(f, ''));
  add('0-notes-0-0.tsfile', 'hostile', (f) => writeFileSync(f, 'these are notes, not a TsFile\n'.repeat(20)));
  // "Unreadable": tests run as root, where chmod 000 does not stop a read; a FIFO (opening it
  // would wait for a writer) and a dangling symbolic link cannot be read by anyone.
  add('0-fifo-0-0.tsfile', 'io', (f) => {
    const r = spawnSync('mkfifo', [f]);
    if (r.status !== 0) throw new Error(`mkfifo failed: ${r.stderr}`);
  });
  add('0-gone-0-0.tsfile', 'io', (f) => symlinkSync(join(odd, 'no-such-target.tsfile'), f));
  add('0-self-0-0.tsfile', 'io', (f) => symlinkSync(f, f));
  // A link from deep in the tree back to data/: walking into it would never end.
  add('loop', 'io', (f) => symlinkSync('../../../..', f));
  return entries;
}
