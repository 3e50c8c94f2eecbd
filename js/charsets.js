// Encoders for the multi-byte JVM default charsets (GBK, GB18030, Big5, Shift_JIS,
// EUC-KR), built lazily by inverting the platform's WHATWG TextDecoder. Keeping
// these tables out of the wasm module keeps it small; the Rust core uses
// encoding_rs for the same job natively. Unmappable characters become '?', as in
// Java's String.getBytes. Repertoires follow Java's charsets where WHATWG's are
// wider: EUC-KR without the UHC extension, Shift_JIS without the NEC/IBM rows,
// Big5 without HKSCS.

import { OVERRIDES } from './charset-overrides.js';

const QUESTION = 0x3f;

/** Canonical Java names of the charsets handled here, by lower-case alias. */
const ALIASES = new Map([
  ['gbk', 'GBK'], ['cp936', 'GBK'], ['ms936', 'GBK'],
  ['gb18030', 'GB18030'],
  ['big5', 'Big5'],
  ['shift_jis', 'Shift_JIS'], ['shift-jis', 'Shift_JIS'], ['sjis', 'Shift_JIS'],
  ['euc-kr', 'EUC-KR'], ['euc_kr', 'EUC-KR'], ['euckr', 'EUC-KR'],
]);

/** The canonical name when `name` is a multi-byte charset handled in JS, else null. */
export function legacyCharsetName(name) {
  return ALIASES.get(String(name).toLowerCase()) ?? null;
}

const WHATWG_LABEL = { GBK: 'gbk', GB18030: 'gb18030', Big5: 'big5', Shift_JIS: 'shift_jis', 'EUC-KR': 'euc-kr' };

// Two-byte ranges per charset; `skip` drops lead bytes Java's charset does not map.
const TWO_BYTE = {
  GBK: { leads: [0x81, 0xfe], trails: [[0x40, 0x7e], [0x80, 0xfe]] },
  GB18030: { leads: [0x81, 0xfe], trails: [[0x40, 0x7e], [0x80, 0xfe]] },
  // Leads below 0xA1 are HKSCS, 0xFA-0xFE user-defined: neither is in Java's Big5.
  Big5: { leads: [0xa1, 0xf9], trails: [[0x40, 0x7e], [0xa1, 0xfe]] },
  // JIS X 0208 only: lead 0x87 (NEC row 13) and leads >= 0xED (NEC/IBM, user-defined) are windows-31j.
  Shift_JIS: { leads: [0x81, 0xec], trails: [[0x40, 0x7e], [0x80, 0xfc]], skip: (l) => l === 0x87 || (l >= 0xa0 && l < 0xe0) },
  // KS X 1001 (EUC-KR proper), not the UHC extension; rows 0xC9 and 0xFE are user-defined.
  'EUC-KR': { leads: [0xa1, 0xfd], trails: [[0xa1, 0xfe]], skip: (l) => l === 0xc9 },
};

// Java's Big5 has the ETEN extensions at C6A1-C7FC where WHATWG has HKSCS characters:
// runs of [first code, first code point, length] read off a real JVM (JDK 17).
const BIG5_ETEN_RUNS = [
  [0xc6a1, 0x30fe, 1], [0xc6a2, 0x309d, 2], [0xc6a4, 0x3005, 1], [0xc6a5, 0x3041, 83], [0xc6f8, 0x30a1, 86],
  [0xc7b1, 0x0414, 2], [0xc7b3, 0x0401, 1], [0xc7b4, 0x0416, 7], [0xc7bb, 0x0423, 19], [0xc7ce, 0x0451, 1],
  [0xc7cf, 0x0436, 26], [0xc7e9, 0x2460, 10], [0xc7f3, 0x2474, 10],
];

function nextBig5Code(code) {
  const trail = code & 0xff;
  if (trail === 0x7e) return code - 0x7e + 0xa1;
  if (trail === 0xfe) return code - 0xfe + 0x140;
  return code + 1;
}

// WHATWG Big5 encodes these with the last of their duplicate pointers.
const BIG5_LAST = new Set([0x2550, 0x255e, 0x2561, 0x256a, 0x5341, 0x5345]);

const tables = new Map();

function buildTable(cs) {
  const decoder = new TextDecoder(WHATWG_LABEL[cs], { fatal: true });
  const map = new Map();
  const pair = new Uint8Array(2);
  const spec = TWO_BYTE[cs];
  for (let lead = spec.leads[0]; lead <= spec.leads[1]; lead++) {
    if (spec.skip?.(lead)) continue;
    for (const [from, to] of spec.trails) {
      for (let trail = from; trail <= to; trail++) {
        pair[0] = lead;
        pair[1] = trail;
        let s;
        try {
          s = decoder.decode(pair);
        } catch {
          continue;
        }
        const cp = s.codePointAt(0);
        if (s.length !== String.fromCodePoint(cp).length) continue; // two-code-point mappings
        const code = (lead << 8) | trail;
        if (!map.has(cp) || (cs === 'Big5' && BIG5_LAST.has(cp))) map.set(cp, code);
      }
    }
  }
  // Corrections where the JVM's tables differ from WHATWG's (checked against a real JVM,
  // tests/fixtures/java_charsets.json).
  if (cs === 'GB18030') map.set(0xe5e5, 0xa3a0);
  if (cs === 'GBK') map.set(0x20ac, 0xa2e3);
  if (cs === 'EUC-KR') map.set(0x20ac, 0xa2e6); // KS X 1001:1998 euro, missing from some ICU builds
  if (cs === 'Big5') {
    map.delete(0x20ac); // the euro is not in Java's Big5
    map.delete(0x2027);
    map.set(0xa5, 0xa244); // yen and overline, one-way mappings in Java's Big5
    map.set(0x203e, 0xa1c2);
    for (const [cp, code] of map) if (code >= 0xc6a1 && code <= 0xc8fe) map.delete(cp);
    for (const [first, firstCp, len] of BIG5_ETEN_RUNS) {
      for (let i = 0, code = first; i < len; i++, code = nextBig5Code(code)) map.set(firstCp + i, code);
    }
  }
  if (cs === 'Shift_JIS') {
    for (let b = 0xa1; b <= 0xdf; b++) map.set(0xff61 + (b - 0xa1), b); // half-width katakana
    map.set(0xa5, 0x5c); // JIS X 0201 yen and overline
    map.set(0x203e, 0x7e);
  }
  return map;
}

// `exact`: apply the JVM overrides (js/charset-overrides.js); off only when regenerating them.
function table(cs, exact = true) {
  const key = exact ? cs : `${cs}/platform`;
  let t = tables.get(key);
  if (!t) {
    t = buildTable(cs);
    if (exact) for (const [cp, code] of OVERRIDES[cs] ?? []) t.set(cp, code === 0 ? QUESTION : code);
    tables.set(key, t);
  }
  return t;
}

// GB18030 four-byte form: pointer p ↔ bytes, and for the BMP a monotonic
// pointer → code point mapping that a binary search over the decoder inverts.
function gbPointerBytes(p) {
  return [0x81 + Math.floor(p / 12600), 0x30 + (Math.floor(p / 1260) % 10), 0x81 + (Math.floor(p / 10) % 126), 0x30 + (p % 10)];
}

let gbDecoder;
function gbDecodePointer(p) {
  gbDecoder ??= new TextDecoder('gb18030');
  return gbDecoder.decode(Uint8Array.from(gbPointerBytes(p))).codePointAt(0);
}

function gb18030FourByte(cp) {
  if (cp >= 0x10000) return gbPointerBytes(cp - 0x10000 + 189000);
  let lo = 0;
  let hi = 39419;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const got = gbDecodePointer(mid);
    if (got === cp) return gbPointerBytes(mid);
    if (got < cp) lo = mid + 1;
    else hi = mid - 1;
  }
  return null;
}

/** Encodes `text` in a multi-byte charset (canonical name from legacyCharsetName). */
export function encodeLegacy(text, cs) {
  return encode(text, cs, true);
}

/** The same without the JVM overrides (for scripts/gen-charset-overrides.mjs). */
export function encodeLegacyFromPlatform(text, cs) {
  return encode(text, cs, false);
}

function encode(text, cs, exact) {
  const map = table(cs, exact);
  const out = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0);
    if (cp < 0x80) {
      out.push(cp);
      continue;
    }
    const code = map.get(cp);
    if (code !== undefined) {
      if (code > 0xffff) out.push(code >>> 24, (code >>> 16) & 0xff, (code >>> 8) & 0xff, code & 0xff);
      else if (code > 0xff) out.push(code >> 8, code & 0xff);
      else out.push(code);
      continue;
    }
    if (cs === 'GB18030') {
      const four = gb18030FourByte(cp);
      if (four) {
        out.push(...four);
        continue;
      }
    }
    out.push(QUESTION);
  }
  return Uint8Array.from(out);
}
