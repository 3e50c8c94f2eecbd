// Path bytes in the JVM charsets, checked against what a real JVM's
// String.getBytes(charset) produced (tests/fixtures/java_charsets.json, made by
// tests/reference/JavaCharsets.java): samples, every BMP block, every supplementary
// plane, lone surrogates and the aliases Charset.forName accepts.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { encodePath, BloomFilter, CHARSETS, canonicalCharsetName, loadCharsets } from 'tsfile-bloom';
import { charsetsWasm, isMultiByte } from '../../js/charsets.js'; // the package's own
import { hex } from './helpers.mjs';

const JAVA = JSON.parse(readFileSync(new URL('../fixtures/java_charsets.json', import.meta.url), 'utf8'));
const SAMPLES = [...new Set(JAVA.cases.map((c) => c.text))];
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

test('CHARSETS lists the twelve charsets the JVM fixture covers', () => {
  assert.equal(CHARSETS.length, 12);
  for (const key of ['bmpBlocks', 'planes', 'aliases']) assert.deepEqual(Object.keys(JAVA[key]), [...CHARSETS], key);
  assert.deepEqual([...new Set(JAVA.cases.map((c) => c.charset))], [...CHARSETS]);
});

test('every sample encodes exactly like the JVM', () => {
  const wrong = JAVA.cases.filter((c) => hex(encodePath(c.text, c.charset)) !== c.bytes);
  assert.deepEqual(
    wrong.map((c) => `${c.charset} ${c.text}: java ${c.bytes}, ours ${hex(encodePath(c.text, c.charset))}`),
    [],
  );
});

test('whole BMP, block by block, matches the JVM for each charset', () => {
  const mismatches = [];
  for (let block = 0; block < 16; block++) {
    let text = '';
    for (let cp = block * 4096; cp < (block + 1) * 4096; cp++) {
      if (cp < 0xd800 || cp > 0xdfff) text += String.fromCharCode(cp);
    }
    for (const cs of CHARSETS) {
      if (sha256(encodePath(text, cs)) !== JAVA.bmpBlocks[cs][block]) mismatches.push(`${cs} U+${(block * 4096).toString(16)}..`);
    }
  }
  assert.deepEqual(mismatches, []);
});

test('supplementary planes match the JVM for each charset', () => {
  const mismatches = [];
  for (let plane = 1; plane <= 16; plane++) {
    const cps = [];
    for (let cp = plane << 16; cp < (plane + 1) << 16; cp++) cps.push(cp);
    let text = '';
    for (let i = 0; i < cps.length; i += 4096) text += String.fromCodePoint(...cps.slice(i, i + 4096));
    for (const cs of CHARSETS) {
      if (sha256(encodePath(text, cs)) !== JAVA.planes[cs][plane - 1]) mismatches.push(`${cs} plane ${plane}`);
    }
  }
  assert.deepEqual(mismatches, []);
});

test('lone surrogates become one ? each, as in Java', () => {
  assert.ok(JAVA.loneSurrogates.length >= CHARSETS.length);
  for (const c of JAVA.loneSurrogates) {
    const text = String.fromCharCode(...c.utf16.match(/.{4}/g).map((u) => parseInt(u, 16)));
    assert.equal(hex(encodePath(text, c.charset)), c.bytes, `${c.charset} ${c.utf16}`);
  }
});

test('every JVM alias is accepted, case-insensitively; unknown names are typed errors', async () => {
  for (const [cs, aliases] of Object.entries(JAVA.aliases)) {
    for (const name of [cs, ...aliases, cs.toUpperCase(), ...aliases.map((a) => a.toLowerCase())]) {
      assert.equal(canonicalCharsetName(name), cs, name);
    }
    assert.equal(isMultiByte(cs), !['UTF-8', 'windows-1252', 'ISO-8859-1'].includes(cs), cs);
  }
  // Names the JVM has but this package does not support (or no charset at all) resolve to none.
  for (const name of ['klingon', 'x-mswin-936', 'Big5-HKSCS', 'UTF-16', '', 'x'.repeat(65)]) assert.equal(canonicalCharsetName(name), null, name);
  assert.equal(canonicalCharsetName('MS936'), 'GBK'); // accepted as GBK (src/charset/mod.rs says why)
  assert.equal(canonicalCharsetName('EBCDIC'), null);
  assert.equal(isMultiByte('EBCDIC'), false);
  for (const bad of ['EBCDIC', 'x'.repeat(100), 42]) {
    assert.throws(() => encodePath('x', bad), (e) => e.kind === 'invalid_argument' && /expected one of UTF-8, GBK/.test(e.message));
  }
  assert.throws(() => encodePath('x', 'EBCDIC'), (e) => e.kind === 'invalid_argument');
  assert.equal(hex(encodePath('温', 'cp936')), 'cec2');
  assert.equal(hex(encodePath('é', 'latin1')), 'e9');
});

test('probe with a charset hashes the charset bytes, and add/probe agree', () => {
  for (const cs of CHARSETS) {
    const f = BloomFilter.withCapacity(SAMPLES.length);
    for (const s of SAMPLES) f.add(s, { charset: cs });
    for (const s of SAMPLES) {
      const byText = f.probe(s, { charset: cs });
      const byBytes = f.probe(encodePath(s, cs));
      assert.equal(byText.verdict, 'maybe', `${cs}: ${s}`);
      assert.deepEqual(byText.probes, byBytes.probes);
      assert.equal(byText.charset, cs);
    }
    const many = f.probeMany(SAMPLES, { charset: cs });
    assert.ok(many.every((r) => r.verdict === 'maybe' && r.charset === cs), cs);
  }
  // A GBK-hashed non-ASCII path lands on other bits when probed as UTF-8 (the default-charset pitfall).
  const f = BloomFilter.withCapacity(1);
  assert.notDeepEqual(
    f.probe('root.sg.d1.温度').probes.map((p) => p.bit),
    f.probe('root.sg.d1.温度', { charset: 'MS932' }).probes.map((p) => p.bit),
  );
});

test('Node loads the charsets module on first use; loadCharsets is idempotent', async () => {
  // In a fresh process: nothing is loaded until a multi-byte charset is used.
  const script = `
    const m = await import('tsfile-bloom');
    const { loaded: charsetsLoaded } = (await import('./js/charsets.js')).charsetsWasm;
    const before = charsetsLoaded();
    m.encodePath('é', 'windows-1252');
    const afterSingleByte = charsetsLoaded();
    // Added as GBK text, found by the GBK bytes of 温 (CE C2).
    const gbk = m.BloomFilter.withCapacity(1).add('温', { charset: 'GBK' }).probe(Uint8Array.of(0xce, 0xc2)).verdict;
    console.log(JSON.stringify({ before, afterSingleByte, after: charsetsLoaded(), gbk }));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: new URL('../..', import.meta.url), encoding: 'utf8' });
  assert.deepEqual(JSON.parse(out), { before: false, afterSingleByte: false, after: true, gbk: 'maybe' });
  const p = loadCharsets();
  assert.equal(loadCharsets(), p);
  await p;
  assert.equal(charsetsWasm.loaded(), true);
});

test('browsers must await loadCharsets() before a multi-byte charset; it fetches the wasm next to the glue', () => {
  // The explicit-init entry with no synchronous reader registered, as in a browser;
  // fetch serves file: URLs here as a web server would serve the package's files.
  const script = `
    import { readFileSync } from 'node:fs';
    const fetched = [];
    globalThis.fetch = async (url) => {
      fetched.push(String(url).replace(/.*\\/dist\\//, 'dist/'));
      return new Response(readFileSync(new URL(url)), { headers: { 'content-type': 'application/wasm' } });
    };
    const m = await import('./js/web.js');
    const { loaded: charsetsLoaded } = (await import('./js/charsets.js')).charsetsWasm;
    m.initSync({ module: readFileSync('dist/web/tsfile_bloom_bg.wasm') });
    const single = Buffer.from(m.encodePath('é€', 'windows-1252')).toString('hex');
    // ASCII is the same in every JVM charset here: no module needed for it.
    const ascii = Buffer.from(m.encodePath('root.d1', 'GBK')).toString('hex');
    let error = null;
    try { m.BloomFilter.withCapacity(1).probe('温', { charset: 'GBK' }); } catch (e) { error = { kind: e.kind, message: e.message }; }
    await Promise.all([m.loadCharsets(), m.loadCharsets()]);
    const gbk = Buffer.from(m.encodePath('温', 'GBK')).toString('hex');
    console.log(JSON.stringify({ single, ascii, error, fetched, gbk, loaded: charsetsLoaded() }));`;
  const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: new URL('../..', import.meta.url), encoding: 'utf8' }));
  assert.equal(out.single, 'e980');
  assert.equal(out.ascii, Buffer.from('root.d1').toString('hex'));
  assert.equal(out.error.kind, 'invalid_argument');
  // The core's sentence (encoder::WithModule), the one the reader gives too.
  assert.equal(out.error.message, 'charset GBK needs the charsets module: call await loadCharsets() first');
  assert.deepEqual(out.fetched, ['dist/web/charsets_bg.wasm']);
  assert.equal(out.gbk, 'cec2');
  assert.equal(out.loaded, true);
});
