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

// A run of valid UTF-8 sequences (RFC 3629's table), or one other byte (captured), over bytes
// read as Latin-1 characters.
const UTF8_RUN = /(?:[\x00-\x7f]|[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]|[\xe1-\xec\xee\xef][\x80-\xbf]{2}|\xed[\x80-\x9f][\x80-\xbf]|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}|\xf4[\x80-\x8f][\x80-\xbf]{2})+|([\s\S])/g;

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * A file's location as text output shows it: `file` (a path or URL), or its exact bytes when
 * the name is not UTF-8 (`hex`, a scan record's `fileHex`).
 */
export function locationText(file, hex = null) {
  const part = (s) => terminalText(DOUBLE_BACKSLASH ? s.replaceAll('\\', '\\\\') : s);
  if (hex == null) return part(file);
  const latin1 = hex.replace(/../g, (h) => String.fromCharCode(parseInt(h, 16)));
  const decoded = (run) => part(utf8.decode(Uint8Array.from(run, (c) => c.charCodeAt(0))));
  // Each run of valid UTF-8 decoded, each other byte as \xNN.
  return latin1.replace(UTF8_RUN, (run, bad) => (bad ? `\\x${hex2(bad.charCodeAt(0))}` : decoded(run)));
}
