// Text for a terminal. The CLI's text output (not --json, --csv or --list to a pipe) shows names,
// series paths, a server's <Message> and error sentences that it does not control: each passes
// through here, so none can move the cursor, recolour or retitle the terminal (an escape
// sequence), reorder what follows (a bidi control) or start a line of its own. Shared by the
// Node and browser scanners: no Node module here.

// C0 controls and DEL (as \xNN), C1 controls, the line and paragraph separators, the bidi
// controls and the BOM (as \u{NNNN}), and a lone surrogate (as \u{NNNN}: UTF-8 cannot carry it).
const UNSAFE = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const NAMED = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

const hex2 = (n) => n.toString(16).padStart(2, '0');
const escapeOne = (c) => NAMED[c] ?? (c.charCodeAt(0) < 0x80 ? `\\x${hex2(c.charCodeAt(0))}` : `\\u{${c.charCodeAt(0).toString(16).padStart(4, '0')}}`);

/** `s` with every character a terminal would act on escaped (a backslash is left as it is). */
export function terminalText(s) {
  s = String(s);
  UNSAFE.lastIndex = 0;
  return UNSAFE.test(s) ? s.replace(UNSAFE, escapeOne) : s;
}

// A file name is bytes (Linux): shown like `ls -b`, so that two names never show alike — a
// backslash doubled, a byte that is not part of valid UTF-8 as \xNN, the rest as above. On
// Windows a backslash separates directories, and a name is UTF-16: nothing to double.
const DOUBLE_BACKSLASH = globalThis.process?.platform !== 'win32';

/** The length of the valid UTF-8 sequence at `bytes[i]`, or 0. */
function sequenceLength(bytes, i) {
  const b = bytes[i];
  if (b < 0x80) return 1;
  const [n, lo, hi] = b >= 0xc2 && b <= 0xdf ? [2, 0x80, 0xbf] : b === 0xe0 ? [3, 0xa0, 0xbf] : b === 0xed ? [3, 0x80, 0x9f] : b >= 0xe1 && b <= 0xef ? [3, 0x80, 0xbf] : b === 0xf0 ? [4, 0x90, 0xbf] : b === 0xf4 ? [4, 0x80, 0x8f] : b >= 0xf1 && b <= 0xf3 ? [4, 0x80, 0xbf] : [0];
  if (n === 0 || i + n > bytes.length || bytes[i + 1] < lo || bytes[i + 1] > hi) return 0;
  for (let j = 2; j < n; j++) if ((bytes[i + j] & 0xc0) !== 0x80) return 0;
  return n;
}

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * A file's location as text output shows it: `file` (a path or URL), or its exact bytes when
 * the name is not UTF-8 (`hex`, a scan record's `fileHex`).
 */
export function locationText(file, hex = null) {
  const part = (s) => terminalText(DOUBLE_BACKSLASH ? s.replaceAll('\\', '\\\\') : s);
  if (hex == null) return part(file);
  const bytes = Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));
  let out = '';
  let run = 0; // where the current run of valid UTF-8 began
  const flush = (to) => {
    if (to > run) out += part(utf8.decode(bytes.subarray(run, to)));
  };
  for (let i = 0; i < bytes.length; ) {
    const n = sequenceLength(bytes, i);
    if (n) {
      i += n;
      continue;
    }
    flush(i);
    out += `\\x${hex2(bytes[i])}`;
    run = ++i;
  }
  flush(bytes.length);
  return out;
}
