// The Worker's answers through its client, in-thread (Node has no module Worker): the synthetic
// filter the page builds is probed under the soundness rule of a file's probes.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createWorker } from '../../js/worker-client.js';
import '../../js/node.js'; // initialises the wasm the in-thread handler shares (Node's fetch reads no file: URL)

const WORKER = new URL('../../js/worker.js', import.meta.url);

/** The first of `candidates` whose default probe and whose `forced` probe answer `want` and `forcedWant`. */
async function find(w, candidates, forced, want, forcedWant) {
  for (const path of candidates) {
    const built = await w.probe(path);
    if (built.verdict !== want) continue;
    const other = await w.call('probe', { path, ...forced });
    if (other.probes.some((p) => !p.set) === (forcedWant === 'absent')) return { path, other };
  }
  throw new Error('no candidate path found');
}

const pick = ({ verdict, decision, indexed }) => ({ verdict, decision, indexed });

test('a synthetic filter probed under another hash than it was built with never answers absent on those bits alone', async () => {
  const w = createWorker(WORKER);
  try {
    const info = await w.synthetic({ capacity: 2000, items: 2000 });
    assert.equal(info.synthetic, true);
    // Non-ASCII tails: the tail variants and the charsets hash them differently.
    const candidates = Array.from({ length: 4000 }, (_, i) => `root.x.d${i}.温度`);
    for (const forced of [{ variant: 'zero-extended' }, { charset: 'GBK' }]) {
      // The filter was built with the default hash (Java, UTF-8): its bits all set there, a bit clear under the forced hash.
      const { path, other } = await find(w, candidates, forced, 'maybe', 'absent');
      assert.equal(other.verdict, 'maybe', `${JSON.stringify(forced)} ${path}: the build hash says maybe, so the forced one cannot say absent`);
      assert.equal(other.confirmed, false);
      assert.ok(other.probes.some((p) => !p.set), 'the shown probes are the forced hash’s');
      assert.deepEqual(other.others.map((o) => [o.variant, o.charset, o.verdict]), [['java', 'UTF-8', 'maybe']]);
      // The core's words (filter::built_filter_reason): which hash answers, and no index.
      assert.match(other.reason, /^every probed bit is set under the java \/ UTF-8 hash, which this filter was built with here; the bits shown are the .* hash’s, which say nothing about this filter; it has no index to look the path up in$/);
    }
    // Under the build hash a clear bit is sound: absent, confirmed, and nothing else consulted.
    const { path } = await find(w, candidates, {}, 'absent', 'absent');
    const r = await w.probe(path);
    assert.equal(r.verdict, 'absent');
    assert.equal(r.confirmed, true);
    assert.deepEqual(r.others, []);
    assert.equal(r.reason, 'a probed bit is clear under the java / UTF-8 hash, which this filter was built with here; it has no index to look the path up in');
    // No index to read: the decision is the verdict's own name, and nothing says the path is listed.
    assert.deepEqual([r.decision, r.indexed], ['absent', null]);
    const maybe = await find(w, candidates, {}, 'maybe', 'maybe');
    assert.equal((await w.probe(maybe.path)).decision, 'maybe');
    const rows = await w.probeMany([path, maybe.path, path], { decisions: true });
    assert.deepEqual(rows.map((x) => [x.verdict, x.decision, x.indexed]), [['absent', 'absent', null], ['maybe', 'maybe', null], ['absent', 'absent', null]]);
    assert.deepEqual((await w.probeMany([path])).map(Object.keys), [['path', 'verdict']]);
  } finally {
    w.terminate();
  }
});

test('the Worker client answers the calls TsFile has with what TsFile answers, in the same shapes', async () => {
  const { readFileSync } = await import('node:fs');
  const { openTsFile } = await import('../../js/node.js');
  const fixture = (name) => new URL(`../fixtures/tsfile/${name}.tsfile`, import.meta.url);
  const w = createWorker(WORKER);
  try {
    for (const name of ['tree_unicode', 'table_multi_tables', 'synthetic_v3_empty_filter', 'hostile_index_child_offset_past_end']) {
      const bytes = readFileSync(fixture(name));
      const t = await openTsFile(bytes);
      await w.open(new Blob([bytes]), name);
      try {
        const error = await t.loadIndex();
        const remote = await w.loadIndex();
        assert.deepEqual(remote && { kind: remote.kind, offset: remote.offset, message: remote.message }, error && { kind: error.kind, offset: error.offset, message: error.message }, name);
        for (const member of ['audit', 'series', 'timeColumns']) {
          assert.deepEqual(await w[member]({ partial: true }), await t[member]({ partial: true }), `${name} ${member}`);
        }
        const paths = [...(await t.series({ partial: true })).slice(0, 3).map((s) => s.path), 'root.数据.d1.温度é', 'root.sg.d9.s9'];
        for (const p of paths) assert.deepEqual(await w.probe(p), t.probe(p), `${name} probe ${p}`);
        assert.deepEqual(await w.probeMany(paths), t.probeMany(paths), `${name} probeMany`);
        assert.deepEqual(await w.probeMany(paths, { decisions: true }), t.probeMany(paths, { decisions: true }), `${name} probeMany with decisions`);
        // A forced hash probes path by path, deciding as probe() does.
        const forced = { variant: 'zero-extended', decisions: true };
        assert.deepEqual(await w.probeMany(paths, forced), paths.map((path) => ({ path, ...pick(t.probe(path, forced)) })), `${name} forced`);
      } finally {
        await t.close();
      }
    }
  } finally {
    w.terminate();
  }
});

/**
 * A Worker of one's own, as createWorker takes it: here the two ends of a real MessageChannel
 * (structured clone and all), the far one answering with worker.js's handler as a module Worker
 * running it would. `terminate` closes the channel.
 */
async function channelWorker() {
  const { createHandler } = await import('../../js/worker.js');
  const { port1, port2 } = new MessageChannel();
  const handle = createHandler();
  port2.on('message', (msg) => handle(msg, (reply, transfer) => port2.postMessage(reply, transfer)));
  return Object.assign(port1, { terminate: () => (port1.close(), port2.close()) });
}

test('createWorker takes a Worker of its caller (anything with postMessage, addEventListener, terminate) and answers through it', async () => {
  const { readFileSync } = await import('node:fs');
  const { openTsFile } = await import('../../js/node.js');
  const bytes = readFileSync(new URL('../fixtures/java/gbk/tree_quoted_unicode.tsfile', import.meta.url));
  const w = createWorker(await channelWorker());
  const t = await openTsFile(bytes);
  try {
    assert.equal(w.mode, 'worker');
    const info = await w.open(new Blob([bytes]), 'gbk.tsfile');
    assert.deepEqual(info.bloom, t.bloomInfo());
    const paths = [(await t.series())[0].path, 'root.nowhere.d1.s1'];
    for (const p of paths) assert.deepEqual(await w.probe(p), t.probe(p), p);
    assert.deepEqual((await w.probeMany(paths)).map((r) => r.verdict), ['maybe', 'absent']);
  } finally {
    w.terminate();
    await t.close();
  }
});

test('createWorker refuses what is neither a Worker, a URL nor nothing, with a typed error naming the argument', async () => {
  const { TsFileBloomError } = await import('../../js/worker-client.js');
  for (const bad of [42, { postMessage() {} }, true]) {
    assert.throws(() => createWorker(bad), (e) => e instanceof TsFileBloomError && e.kind === 'invalid_argument' && e.argument === 'worker' && e.offset === null && /Worker/.test(e.message), String(bad));
  }
});

test("createWorker() with nothing starts the package's own worker, in-thread where there is no module Worker (Node)", async () => {
  const w = createWorker();
  try {
    assert.equal(w.mode, 'inline');
    const info = await w.synthetic({ capacity: 100, items: 10 });
    assert.equal(info.synthetic, true);
  } finally {
    w.terminate();
  }
});
