// A TsFile is a regular file (issue 39): a FIFO, a socket or a device is refused by its type
// before a byte is read, in every entry point — the CLI's verbs, openTsFile, openLevelDbTable —
// as a typed `io` error naming the path. Before, `inspect FIFO` and openTsFile(fifo) waited for a
// writer forever (four such opens held libuv's four threads, and every other file operation of
// the process waited behind them), and /dev/zero read as a 0-byte file (too_short). Streams stay
// streams: `-` and a list from a pipe are read as they always were (tests/js/cli-inputs.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const CLI = fileURLToPath(new URL('../../js/cli.js', import.meta.url));
const NODE_API = pathToFileURL(fileURLToPath(new URL('../../js/node.js', import.meta.url))).href;
const FILE = fileURLToPath(new URL('../fixtures/tsfile/tree_1series.tsfile', import.meta.url));
// Outer bounds only, so that a build that hangs fails instead of stopping the suite.
const BOUND = { timeout: 30_000, encoding: 'utf8' };

async function withFifo(body) {
  const dir = mkdtempSync(join(tmpdir(), 'tsfile-bloom-fifo-'));
  const fifo = join(dir, 'x.tsfile');
  try {
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    return await body(fifo);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('inspect, probe and verify refuse a FIFO and a device by type: io, "not a regular file", the path, exit 2 (probe: 4)', async () => {
  await withFifo((fifo) => {
    for (const [target, what] of [[fifo, 'a FIFO'], ['/dev/zero', 'a character device'], ['/dev/null', 'a character device']]) {
      for (const args of [['inspect', target], ['verify', target], ['probe', target, 'root.sg1.d1.s1'], ['inspect', target, '--json']]) {
        const r = spawnSync(process.execPath, [CLI, ...args], BOUND);
        assert.equal(r.signal, null, `${args}: did not settle`);
        assert.equal(r.status, args[0] === 'probe' ? 4 : 2, `${args}: ${r.stderr}`); // probe's I/O error: 4 (its 1 is "absent")
        const sentence = `not a regular file (${what}): ${target}`;
        if (args.includes('--json')) assert.deepEqual(JSON.parse(r.stdout).error, { kind: 'io', message: sentence, offset: null, reason: null, status: null });
        else assert.equal(r.stderr, `error: io: ${sentence}\n`);
      }
    }
  });
});

test('openTsFile and openLevelDbTable of a FIFO settle at once with the typed error; four of them leave the thread pool free', async () => {
  await withFifo((fifo) => {
    // In a child: before, its opens never settled and it could not exit.
    const script = `
      import { readFile } from 'node:fs/promises';
      const { openTsFile, openLevelDbTable } = await import(${JSON.stringify(NODE_API)});
      const fifo = ${JSON.stringify(fifo)};
      const signal = new AbortController().signal;
      const settled = await Promise.allSettled([
        openTsFile(fifo, { signal }), openTsFile(fifo), openTsFile(new URL('file://' + fifo)), openTsFile(fifo), openLevelDbTable(fifo),
      ]);
      const errors = settled.map((s) => s.status === 'rejected' && { kind: s.reason.kind, message: s.reason.message, offset: s.reason.offset, path: s.reason.path });
      // An unrelated file operation, on the same thread pool.
      const other = (await readFile(${JSON.stringify(FILE)})).length;
      process.stdout.write(JSON.stringify({ errors, other }));
    `;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], BOUND);
    assert.equal(r.signal, null, 'the child did not settle');
    assert.equal(r.status, 0, r.stderr);
    const { errors, other } = JSON.parse(r.stdout);
    assert.equal(other, readFileSync(FILE).length);
    for (const e of errors) assert.deepEqual(e, { kind: 'io', message: `not a regular file (a FIFO): ${fifo}`, offset: null, path: fifo });
  });
});

test('a FileHandle of a FIFO is refused too, and - still reads a pipe', async () => {
  await withFifo(async (fifo) => {
    const { open, constants } = await import('node:fs').then((fs) => ({ open: fs.promises.open, constants: fs.constants }));
    const { openTsFile } = await import('../../js/node.js');
    const handle = await open(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      await assert.rejects(openTsFile(handle), (e) => e.kind === 'io' && /not a regular file \(a FIFO\)/.test(e.message) && e.offset === null);
    } finally {
      await handle.close();
    }
  });
  const piped = spawnSync('sh', ['-c', `cat ${JSON.stringify(FILE)} | ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} probe - root.sg1.d1.s1 --json`], BOUND);
  assert.equal(piped.status, 0, piped.stderr);
  assert.equal(JSON.parse(piped.stdout).results[0].verdict, 'maybe');
});
