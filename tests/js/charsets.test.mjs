// Path bytes in non-UTF-8 JVM charsets, checked against what a real JVM's
// String.getBytes(charset) produced (tests/fixtures/java_charsets.json, made by
// tests/reference/JavaCharsets.java).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { encodePath, BloomFilter, CHARSETS } from 'tsfile-bloom';
import { hex } from './helpers.mjs';

const JAVA = JSON.parse(readFileSync(new URL('../fixtures/java_charsets.json', import.meta.url), 'utf8'));
const SAMPLES = [...new Set(JAVA.cases.map((c) => c.text))];

test('every charset encodes exactly like the JVM', () => {
  assert.deepEqual([...new Set(JAVA.cases.map((c) => c.charset))], [...CHARSETS]);
  const wrong = JAVA.cases.filter((c) => hex(encodePath(c.text, c.charset)) !== c.bytes);
  assert.deepEqual(
    wrong.map((c) => `${c.charset} ${c.text}: java ${c.bytes}, ours ${hex(encodePath(c.text, c.charset))}`),
    [],
  );
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
  // A GBK-hashed non-ASCII path lands on other bits when probed as UTF-8 (the Q5 pitfall).
  const f = BloomFilter.withCapacity(1);
  assert.notDeepEqual(
    f.probe('root.sg.d1.温度').probes.map((p) => p.bit),
    f.probe('root.sg.d1.温度', { charset: 'GBK' }).probes.map((p) => p.bit),
  );
});

test('charset aliases and errors', () => {
  assert.equal(hex(encodePath('温', 'cp936')), 'cec2');
  assert.equal(hex(encodePath('é', 'latin1')), 'e9');
  assert.throws(() => encodePath('x', 'EBCDIC'), (e) => e.kind === 'invalid_argument');
});

test('whole BMP, block by block, matches the JVM for each charset', async () => {
  const { createHash } = await import('node:crypto');
  const mismatches = [];
  for (const [cs, digests] of Object.entries(JAVA.bmpBlocks)) {
    for (let block = 0; block < 16; block++) {
      let text = '';
      for (let cp = block * 4096; cp < (block + 1) * 4096; cp++) {
        if (cp < 0xd800 || cp > 0xdfff) text += String.fromCharCode(cp);
      }
      const ours = createHash('sha256').update(encodePath(text, cs)).digest('hex');
      if (ours !== digests[block]) mismatches.push(`${cs} U+${(block * 4096).toString(16)}..`);
    }
  }
  assert.deepEqual(mismatches, []);
});
