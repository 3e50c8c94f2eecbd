// Output made from templates: a rescan writes the line of a file answered from the manifest, in
// a text format, from its group's template (js/manifest.js: templateFor, putLine), as bytes into
// one growing buffer (TextChunk), not through the formatter file by file.
import { Buffer } from 'node:buffer';
import { formatRecords } from '../scan-output.js';
import { locationText } from '../escape.js';

// A group's line in a text format is made once from a record whose per-file facts are these
// stand-ins (formatRecords, so the line is the formatter's own), split where they stand; each
// file's line is the pieces with its own facts put back. A stand-in found other than exactly
// once (a constant that happens to hold one) leaves the group without a template: its files
// are formatted one by one. (A formatter that printed a figure derived from one of them would
// print the stand-in's: tests/js/manifest.test.mjs compares rescans' lines with fresh scans'.)
export const STAND_IN_FILE = '\u0001tsfile-bloom-file\u0001';
export const STAND_INS = [1.2345e-301, 2.3456e-302, 3.4567e-303, 4.5678e-304]; // size, offset, bitsOffset, indexed

function countOf(text, s) {
  let n = 0;
  for (let i = text.indexOf(s); i >= 0; i = text.indexOf(s, i + s.length)) n++;
  return n;
}

/** `[pieces, slots]` for `record` (its file and numbers the stand-ins) in `format`, or null. */
export function templateOf(record, format, paths) {
  const text = formatRecords([record], format, paths);
  const found = [];
  const wants = [[fileText(format, STAND_IN_FILE), 0], ...STAND_INS.map((x, i) => [String(x), i + 1])];
  for (const [s, slot] of wants) {
    const n = countOf(text, s);
    if (n > 1) return null;
    if (n === 1) found.push([text.indexOf(s), s.length, slot]);
  }
  if (!found.some((f) => f[2] === 0)) return null;
  found.sort((a, b) => a[0] - b[0]);
  const pieces = [];
  const slots = [];
  let at = 0;
  for (const [pos, len, slot] of found) {
    pieces.push(text.slice(at, pos));
    slots.push(slot);
    at = pos + len;
  }
  pieces.push(text.slice(at));
  return [pieces, slots];
}

/**
 * Output written straight into one growing buffer: a template's pieces as bytes, a file name
 * as UTF-8, a number's digits (a string of many pieces costs more to flatten and encode).
 */
export class TextChunk {
  constructor(lines) {
    this.buf = Buffer.allocUnsafe(Math.max(1 << 16, Math.min(lines * 768, 1 << 24)));
    this.at = 0;
  }
  /** Room for `n` more bytes. */
  room(n) {
    if (this.buf.length - this.at >= n) return;
    const more = Buffer.allocUnsafe(Math.max(2 * this.buf.length, this.at + n));
    this.buf.copy(more, 0, 0, this.at);
    this.buf = more;
  }
  add(text) {
    this.room(3 * text.length); // UTF-8 takes at most 3 bytes per UTF-16 unit
    this.at += this.buf.utf8Write(text, this.at, this.buf.length - this.at);
  }
  // (The writes below trust an earlier room() for them.)
  put(bytes) {
    this.buf.set(bytes, this.at);
    this.at += bytes.length;
  }
  /** A number as String(x) writes it (the digits by hand for a whole number below 2^32). */
  number(x) {
    if (!(x >= 0 && x < 4294967296 && x === Math.floor(x))) {
      this.at += this.buf.latin1Write(String(x), this.at);
      return;
    }
    let end = this.at + 1;
    for (let y = x; y >= 10; y = Math.floor(y / 10)) end++;
    for (let i = end - 1, y = x; i >= this.at; i--, y = Math.floor(y / 10)) this.buf[i] = 48 + (y % 10);
    this.at = end;
  }
  /** The bytes written since `from` (later writes leave them as they are: a buffer outgrown is copied, not changed). */
  bytes(from = 0) {
    return this.buf.subarray(from, this.at);
  }
}
/** Bytes a template's numbers take at most (String(x) of a float64: under 25 characters). */
export const NUMBER_ROOM = 25;

const csvQuoted = /[",\r\n]/;
export const JSON_ESCAPED = /[\u0000-\u001f"\\\ud800-\udfff]/;
/** A file's name as `format` writes it (JSON string, CSV cell, escaped for a terminal as recordText shows it). */
export const fileText = (format, file) => (format === 'ndjson' ? JSON.stringify(file) : format === 'csv' ? (csvQuoted.test(file) ? `"${file.replace(/"/g, '""')}"` : file) : locationText(file));
