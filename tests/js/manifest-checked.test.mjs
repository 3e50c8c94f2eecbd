// A manifest is checked, not trusted (issue 39): a manifest edited and signed again (its SHA-256
// made anew, as anyone who can write it can) is refused where its fields disagree with each
// other or with the trees it records — before any answer from it; its file is opened without
// waiting and refused unless a regular file, and its lengths are bounded before anything is
// read; an unwritable manifest is found before the scan starts; a writer removes the temporary
// files of writers killed while writing. The scans are real (the API and the CLI as a child
// process) over the real fixtures; each manifest is one a scan wrote, then edited here.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scanTsFiles } from '../../js/node.js';
import { FIXTURES } from './fleet.mjs';
import { rng, scanWithKnobs } from './helpers.mjs';
import { MANIFEST_FORMAT, MANIFEST_VERSION } from '../../js/manifest/file.js';
import { RACY_MS } from '../../js/manifest/identity.js';

const CLI = fileURLToPath(new URL('../../js/cli.js', import.meta.url));
// root.sg.d1.s1 is in the Java fixtures' indexes (utf8/error_rate_0.1.tsfile and others):
// those files must never be answered absent.
const PATH = 'root.sg.d1.s1';
const PATHS = [PATH, 'root.nowhere.d9.s9'];

let work;
let java; // a copy of tests/fixtures/java
let named; // another, in named/a/b: trees named every way
before(async () => {
  work = mkdtempSync(join(tmpdir(), 'tsfile-bloom-manifest-checked-'));
  java = join(work, 'java');
  named = join(work, 'named');
  cpSync(join(FIXTURES, 'java'), java, { recursive: true });
  cpSync(join(FIXTURES, 'java'), join(named, 'a', 'b'), { recursive: true });
  // The CLI keeps the default racy rule (a file changed in the last RACY_MS is not recorded): let them age.
  await new Promise((resolve) => setTimeout(resolve, RACY_MS + 200));
});
after(() => rmSync(work, { recursive: true, force: true }));

async function scan(targets, options) {
  const s = await scanWithKnobs(targets, { manifestRacyMs: 0, ...options });
  const records = [];
  for await (const r of s) records.push(r);
  return { records, summary: await s.summary };
}
const cli = (args, options = {}) => spawnSync(process.execPath, [CLI, 'scan', ...args], { encoding: 'utf8', timeout: 120_000, ...options });

// ---- A manifest taken apart, edited and signed again (js/manifest/file.js's layout). ----
function parts(bytes) {
  const nl = bytes.indexOf(10);
  const header = JSON.parse(bytes.subarray(0, nl).toString('utf8'));
  const at = nl + 1;
  const body = JSON.parse(bytes.subarray(at, at + header.json).toString('utf8'));
  const kept = Buffer.from(bytes.subarray(at + header.json));
  return { header, body, kept, json: null };
}
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
/** `m` signed again: its body (or `m.json`, its text as edited) and its kept bytes with new checksums. */
function signed({ header, body, kept, json }) {
  json ??= Buffer.from(JSON.stringify(body));
  const h = { ...header, json: json.length, bytes: kept.length, sha256: sha256(json), bytesSha256: sha256(kept) };
  return Buffer.concat([Buffer.from(`${JSON.stringify(h)}\n`), json, kept]);
}
// An entry's place in the body's columns (js/manifest/check.js): its file, its five identity
// values, its six numbers.
const ID = 5;
const SLOT = { fact: 0, set: 1, results: 2, at: 3, head: 4, tail: 5 };
const slot = (i, k) => 6 * i + SLOT[k];

/** A manifest of `targets` written by a real scan (`options`: paths, audit), edited by `edit(m)` and signed again. */
async function edited(name, targets, options, edit) {
  const manifest = join(work, name);
  rmSync(manifest, { force: true });
  await scan(targets, { ...options, manifest });
  const m = parts(readFileSync(manifest));
  edit(m);
  writeFileSync(manifest, signed(m));
  return manifest;
}
const isCorrupt = (manifest, field) => (e) => {
  assert.equal(e.kind, 'manifest', e.stack);
  assert.equal(e.reason, 'corrupt', e.message);
  assert.equal(e.path, manifest);
  assert.equal(e.offset, null);
  if (field) assert.equal(e.field, field, e.message);
  assert.ok(e.message.includes(manifest));
  return true;
};

describe('a manifest signed again is checked before any answer from it', () => {
  test('a control: the same edit that changes nothing is answered from, every file', async () => {
    const manifest = await edited('control.m', java, { paths: PATHS }, () => {});
    const again = await scan(java, { paths: PATHS, manifest });
    assert.equal(again.summary.manifest.answered, 26);
  });

  test('every verdict made absent (the CLI: exit 2, not "every file skippable")', async () => {
    const manifest = await edited('absent.m', java, { paths: PATHS }, (m) => {
      m.body.results = m.body.results.map((list) => list.map((r) => ({ ...r, verdict: 'absent' })));
    });
    const r = cli([java, ...PATHS.flatMap((p) => ['--path', p]), '--list', 'maybe', '--manifest', manifest]);
    assert.equal(r.status, 2, r.stdout + r.stderr);
    assert.equal(r.stdout, '', 'nothing answered');
    assert.match(r.stderr, /manifest: .*results/);
    // (A file without a filter answers nothing: its "absent" is the tell.)
    await assert.rejects(scan(java, { paths: PATHS, manifest }), isCorrupt(manifest, 'results'));
  });

  test('with --audit: a path its index lists flipped to absent in that file alone', async () => {
    let flipped = 0;
    const manifest = await edited('listed.m', java, { paths: PATHS, audit: true }, (m) => {
      m.body.results = m.body.results.map((list) =>
        list.map((r) => {
          if (r.indexed !== true || r.verdict === 'absent') return r;
          flipped++;
          return { ...r, verdict: 'absent' };
        }),
      );
    });
    assert.ok(flipped > 0, 'some file lists the path');
    await assert.rejects(scan(java, { paths: PATHS, audit: true, manifest }), isCorrupt(manifest, 'results'));
    await assert.rejects(scan(java, { paths: PATHS, manifest }), isCorrupt(manifest, 'results'));
  });

  test('results shorter than their path set', async () => {
    const manifest = await edited('short.m', java, { paths: PATHS }, (m) => {
      m.body.results = m.body.results.map((list) => list.slice(1));
    });
    await assert.rejects(scan(java, { paths: PATHS, manifest }), isCorrupt(manifest, 'results'));
  });

  test('a verdict that is none', async () => {
    const manifest = await edited('code.m', java, { paths: PATHS }, (m) => {
      m.body.results[0][0].verdict = 'z';
    });
    await assert.rejects(scan(java, { paths: PATHS, manifest }), isCorrupt(manifest, 'results'));
  });

  test('without an audit, a result that says what the index lists', async () => {
    const manifest = await edited('indexed.m', java, { paths: PATHS }, (m) => {
      m.body.results = m.body.results.map((list) => list.map((r) => ({ ...r, indexed: false, severalHashes: false })));
    });
    await assert.rejects(scan(java, { paths: PATHS, manifest }), isCorrupt(manifest, 'results'));
  });

  test('a file named by two entries', async () => {
    const manifest = await edited('twice.m', java, { paths: PATHS }, (m) => {
      m.body.files[4] = m.body.files[3];
    });
    await assert.rejects(scan(java, { paths: PATHS, manifest }), isCorrupt(manifest, 'file'));
  });

  test('an entry of another shape', async () => {
    const manifest = await edited('shape.m', java, { paths: PATHS }, (m) => {
      m.body.entries.pop();
    });
    await assert.rejects(scan(java, { paths: PATHS, manifest }), isCorrupt(manifest, 'entries'));
  });

  for (const [k, value] of [['fact', 99], ['set', 7], ['results', -2], ['fact', 0.5]]) {
    test(`an entry's ${k} out of its table (${value}; before: "Cannot read properties of undefined", or answered)`, async () => {
      const manifest = await edited(`${k}-${value}.m`, java, { paths: PATHS }, (m) => {
        m.body.entries[slot(2, k)] = value;
      });
      await assert.rejects(scan(java, { paths: PATHS, manifest }), isCorrupt(manifest, k));
    });
  }

  const bounds = [
    ['a filter past its file (bloomFilter.offset 1e12)', 'fact', (m) => (m.body.facts[m.body.entries[slot(5, 'fact')]].bloomFilter.offset = 1e12)],
    ['a negative size', 'id', (m) => (m.body.ids[ID * 5] = -1)],
    ['an mtime that is no number', 'id', (m) => (m.body.ids[ID * 5 + 1] = null)],
    ['a local file with an object identity of neither ETag nor Last-Modified', 'id', (m) => m.body.ids.fill(null, ID * 5 + 1, ID * 5 + ID)],
    ['a tail of 1 GiB', 'bytes', (m) => (m.body.entries[slot(5, 'tail')] = 1 << 30)],
    ['kept bytes at 0.5', 'bytes', (m) => (m.body.entries[slot(5, 'at')] = 0.5)],
    ['a head of 13 bytes (the head is 12)', 'bytes', (m) => (m.body.entries[slot(5, 'head')] = 13)],
    ['kept bytes that overlap (the lengths add up wrong)', 'bytes', (m) => (m.body.entries[slot(5, 'tail')] -= 1)],
  ];
  for (const [what, field, edit] of bounds) {
    test(`${what}: out of bounds`, async () => {
      const manifest = await edited(`${field}-bounds.m`, java, { paths: PATHS }, edit);
      await assert.rejects(scan(java, { paths: PATHS, manifest }), isCorrupt(manifest, field));
    });
  }

  test('tables of the wrong shape: a bloomInfo(), an audit, a path set, the lists themselves', async () => {
    const cases = [
      ['facts', (m) => delete m.body.facts[0].bloomFilter.setBits],
      ['facts', (m) => (m.body.facts[0].bloomFilter.fillRatio = 1.5)],
      ['facts', (m) => (m.body.facts[0].audit = 5)],
      ['facts', (m) => (m.body.facts[0].version = '4')],
      ['pathSets', (m) => (m.body.pathSets[0] = [1, 2])],
      ['results', (m) => (m.body.results = null)],
      ['entries', (m) => (m.body.entries = {})],
      ['files', (m) => (m.body.files = {})],
      ['ids', (m) => m.body.ids.pop()],
      ['maxIndexBytes', (m) => (m.body.maxIndexBytes = -1)],
    ];
    for (const [field, edit] of cases) {
      const manifest = await edited(`shape-${field}.m`, java, { paths: PATHS }, edit);
      await assert.rejects(scan(java, { paths: PATHS, manifest }), isCorrupt(manifest, field));
    }
  });

  test('with --audit, an audit of the wrong shape or status', async () => {
    for (const edit of [(a) => (a.status = 'proven'), (a) => (a.variant = '\u001b[31m'), (a) => delete a.summary]) {
      const manifest = await edited('audit.m', java, { paths: PATHS, audit: true }, (m) => edit(m.body.facts.find((f) => f.audit).audit));
      await assert.rejects(scan(java, { paths: PATHS, manifest }), isCorrupt(manifest, 'facts'));
    }
  });

  test('a header whose version is a string of the version is corrupt, not "version N; this reads version N"', async () => {
    const manifest = join(work, 'version.m');
    await scan(java, { paths: PATHS, manifest });
    const v = MANIFEST_VERSION;
    writeFileSync(manifest, readFileSync(manifest, 'latin1').replace(`"version":${v}`, `"version":"${v}"`), 'latin1');
    await assert.rejects(scan(java, { paths: PATHS, manifest }), (e) => isCorrupt(manifest, 'version')(e) && !new RegExp(`version ${v}; .*version ${v}`).test(e.message));
  });

  test('a legitimate manifest of trees named every way passes the checks', async () => {
    const dir = named;
    for (const target of ['a', 'a/', './a', './a/b/', join(dir, 'a'), `${join(dir, 'a')}/`, '.']) {
      const manifest = join(work, 'named.m');
      rmSync(manifest, { force: true });
      const r1 = cli([target, '--path', PATH, '--json', '--manifest', manifest], { cwd: dir });
      assert.equal(r1.status, 0, r1.stderr);
      const r2 = cli([target, '--path', PATH, '--json', '--manifest', manifest], { cwd: dir });
      assert.equal(r2.status, 0, `${target}: ${r2.stderr}`);
      assert.equal(JSON.parse(r2.stdout.trim().split('\n').at(-1)).summary.manifest.answered, 26, target);
    }
  });
});

describe('the manifest file', () => {
  test('a FIFO: refused at once (not waited on), the scan settles', async () => {
    const fifo = join(work, 'fifo.m');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    // The CLI as a child: on failure it would block forever; the outer bound only keeps a broken build from hanging.
    const r = cli([java, '--path', PATH, '--manifest', fifo], { timeout: 60_000 });
    assert.equal(r.signal, null, 'it did not wait for a writer');
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /manifest: the manifest is a FIFO, not a regular file/);
    await assert.rejects(scan(java, { paths: PATHS, manifest: fifo }), (e) => e.kind === 'manifest' && e.reason === 'not_a_file' && e.path === fifo && e.offset === null);
  });

  test('a directory or a device: a typed error (was a raw EISDIR)', async () => {
    const dir = join(work, 'a-directory.m');
    mkdirSync(dir, { recursive: true });
    for (const manifest of [dir, '/dev/null']) {
      await assert.rejects(scan(java, { paths: PATHS, manifest }), (e) => e.kind === 'manifest' && e.reason === 'not_a_file' && e.path === manifest && e.offset === null && !('code' in e));
    }
  });

  // Sparse files: they claim gigabytes and take none. A child reports its peak memory.
  function peak(manifest) {
    const script = `import { scanTsFiles } from ${JSON.stringify(new URL('../../js/node.js', import.meta.url).href)};
      const s = scanTsFiles(${JSON.stringify(java)}, { paths: ['${PATH}'], manifest: ${JSON.stringify(manifest)} });
      let error = null;
      try { for await (const r of s) void r; } catch (e) { error = { kind: e.kind, reason: e.reason, field: e.field, message: e.message }; }
      console.log(JSON.stringify({ error, maxRssKb: process.resourceUsage().maxRSS }));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout);
  }
  const header = (h) => Buffer.from(`${JSON.stringify({ format: MANIFEST_FORMAT, version: MANIFEST_VERSION, sha256: '0'.repeat(64), bytesSha256: '0'.repeat(64), ...h })}\n`);

  test('a sparse manifest claiming 1.5 GiB of tables is refused before they are read', () => {
    const manifest = join(work, 'sparse.m');
    const json = 1.5 * 2 ** 30;
    const h = header({ json, bytes: 0 });
    writeFileSync(manifest, h);
    truncateSync(manifest, h.length + json);
    const { error, maxRssKb } = peak(manifest);
    assert.deepEqual([error.kind, error.reason, error.field], ['manifest', 'corrupt', 'json'], error.message);
    assert.ok(maxRssKb < 512 * 1024, `peak RSS ${maxRssKb} KB: the tables were not read`);
  });

  test('a sparse manifest claiming 3 GiB of kept bytes for its 26 entries (was a raw RangeError)', async () => {
    const manifest = join(work, 'sparse-kept.m');
    await scan(java, { paths: PATHS, manifest });
    const m = parts(readFileSync(manifest));
    const json = Buffer.from(JSON.stringify(m.body));
    const bytes = 3 * 2 ** 30;
    const h = header({ json: json.length, bytes, sha256: createHash('sha256').update(json).digest('hex') });
    writeFileSync(manifest, Buffer.concat([h, json]));
    truncateSync(manifest, h.length + json.length + bytes);
    const { error, maxRssKb } = peak(manifest);
    assert.deepEqual([error.kind, error.reason, error.field], ['manifest', 'corrupt', 'bytes'], error.message);
    assert.ok(maxRssKb < 512 * 1024, `peak RSS ${maxRssKb} KB: the kept bytes were not read`);
  });
});

describe('no lost work', () => {
  test('an unwritable --manifest is found before the scan starts (the CLI: exit 2, no record)', async () => {
    const manifest = '/nonexistent/dir/m';
    const r = cli([java, '--path', PATH, '--json', '--manifest', manifest]);
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stdout, '', 'no record was streamed');
    assert.match(r.stderr, /manifest: the manifest cannot be written/);
    await assert.rejects(scan(java, { paths: PATHS, manifest }), (e) => e.kind === 'manifest' && e.reason === 'unwritable' && e.path === manifest);
    // A directory that is a file.
    const file = join(work, 'plain-file');
    writeFileSync(file, 'x');
    await assert.rejects(scan(java, { paths: PATHS, manifest: join(file, 'm') }), (e) => e.kind === 'manifest' && e.reason === 'unwritable' && /ENOTDIR/.test(e.message));
    // A name ending in a separator: no file can be renamed onto it.
    const slashed = `${join(work, 'slashed')}/`;
    const r2 = cli([java, '--path', PATH, '--json', '--manifest', slashed]);
    assert.equal(r2.status, 2, r2.stderr);
    assert.equal(r2.stdout, '', 'no record was streamed');
    assert.match(r2.stderr, /manifest: the manifest cannot be written/);
  });

  test('corrupt kept bytes are found before any answer (a rescan that would rewrite it: no record streamed)', async () => {
    const dir = join(work, 'kept');
    cpSync(java, dir, { recursive: true });
    const manifest = join(work, 'kept.m');
    await scan(dir, { paths: PATHS, manifest });
    const bytes = readFileSync(manifest);
    bytes[bytes.length - 5] ^= 1; // a kept byte (the section is last)
    writeFileSync(manifest, bytes);
    // A changed file: the scan would read it and rewrite the manifest, copying the kept bytes.
    const changed = join(dir, 'utf8', 'tree_ascii.tsfile');
    utimesSync(changed, new Date(Date.now() - 7_200_000), new Date(Date.now() - 7_200_000));
    const r = cli([dir, '--path', PATH, '--json', '--manifest', manifest]);
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stdout, '', 'no record was streamed');
    assert.match(r.stderr, /manifest: the manifest bytes do not match their checksum/);
    assert.deepEqual(readFileSync(manifest), bytes, 'left as it was');
  });

  test("a writer removes the temporary files of writers killed while writing, not a live one's", async () => {
    const dir = join(work, 'temps');
    mkdirSync(dir, { recursive: true });
    const manifest = join(dir, 'fleet.manifest');
    // A PID that was a process and is no more: a child that has exited.
    const child = spawn(process.execPath, ['-e', '']);
    const dead = child.pid;
    await new Promise((resolve) => child.on('exit', resolve));
    const deadTemp = join(dir, `.fleet.manifest.${dead}.tmp`);
    const liveTemp = join(dir, `.fleet.manifest.${process.pid}.tmp`);
    const otherTemp = join(dir, '.fleet.manifest.notapid.tmp');
    for (const f of [deadTemp, liveTemp, otherTemp]) writeFileSync(f, Buffer.alloc(4096));
    // The CLI writes it (another process: this test's own PID is a live writer's).
    const r = cli([java, '--path', PATH, '--manifest', manifest]);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(existsSync(manifest));
    assert.ok(!existsSync(deadTemp), "the dead writer's temporary file is removed");
    assert.ok(existsSync(liveTemp), "a live writer's is kept");
    assert.ok(existsSync(otherTemp), 'a file not named as a writer names it is kept');
  });
});

describe('random edits, signed again: each scan answers or ends in a typed manifest error', () => {
  // Seeded: the same edits on every run. Bits of the body's text flipped, and values of the body
  // changed, one edit per manifest; whatever passes the checks is a well-formed edit (answered).
  const edits = [];
  const random = rng(39);
  const pick = (xs) => xs[Math.floor(random() * xs.length)];
  const VALUES = [-1, 0, 1, 2, 7, 1e6, 2 ** 31, -(2 ** 31), 0.5, null, '', 'x', [], {}, true];
  for (let k = 0; k < 150; k++) {
    edits.push((m) => {
      // A bit of the body's text flipped (it may no longer be JSON, or be JSON of other values).
      m.json = Buffer.from(JSON.stringify(m.body));
      m.json[Math.floor(random() * m.json.length)] ^= 1 << Math.floor(random() * 8);
    });
  }
  for (let k = 0; k < 150; k++) {
    edits.push((m) => {
      // A value somewhere in the tables: a path of keys from the top.
      let node = m.body;
      let key = pick(Object.keys(node));
      while (node[key] !== null && typeof node[key] === 'object' && Object.keys(node[key]).length && random() < 0.7) {
        node = node[key];
        key = pick(Object.keys(node));
      }
      node[key] = pick(VALUES);
    });
  }
  test(`${edits.length} edits`, async () => {
    const manifest = join(work, 'random.m');
    rmSync(manifest, { force: true });
    await scan(java, { paths: PATHS, audit: true, manifest });
    const good = parts(readFileSync(manifest));
    const outcomes = { answered: 0, typed: 0 };
    for (const edit of edits) {
      const m = parts(signed(good));
      edit(m);
      writeFileSync(manifest, signed(m));
      try {
        await scan(java, { paths: PATHS, manifest });
        outcomes.answered++;
      } catch (e) {
        assert.equal(e.kind, 'manifest', e.stack);
        assert.equal(e.path, manifest);
        outcomes.typed++;
      }
    }
    assert.ok(outcomes.typed > edits.length / 2, JSON.stringify(outcomes));
  });
});
