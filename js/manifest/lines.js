// The output lines of the records a manifest answers. The files of one combination of facts
// and results are alike but for their name and size, so the rest of their NDJSON line is
// rendered once (recordJson's keys, each value by JSON.stringify: the line formatRecords writes)
// and kept as UTF-8 bytes; a batch's lines are those bytes copied around each file's own two
// values, into one buffer, which the sink writes as it is (as it writes a scan worker's text).
import { Buffer } from 'node:buffer';
import { recordJson } from '../scan-output.js';

/** The NDJSON line of `record` (and of every record alike but for `file` and `size`), around them: `{head, mid, tail}`. */
export function linePieces(record) {
  const pieces = [];
  let text = '';
  for (const [key, value] of Object.entries(recordJson(record))) {
    text += `${text === '' && !pieces.length ? '{' : ','}${JSON.stringify(key)}:`;
    if (key === 'file' || key === 'size') {
      pieces.push(Buffer.from(text));
      text = '';
    } else text += JSON.stringify(value);
  }
  pieces.push(Buffer.from(`${text}}\n`));
  const [head, mid, tail] = pieces;
  return { head, mid, tail, room: head.length + mid.length + tail.length + 20 };
}

/**
 * Answered items (`{record, line}`: `line` the record's whole line as text, or its
 * combination's pieces) → their lines as UTF-8 bytes, one buffer.
 */
export function linesBytes(items) {
  const texts = items.map(({ record, line }) => (typeof line === 'string' ? line : JSON.stringify(record.file)));
  // Room for each: its text at 3 bytes a UTF-16 unit (UTF-8's most), its pieces and its size.
  const out = Buffer.allocUnsafe(items.reduce((n, { line }, i) => n + 3 * texts[i].length + (line.room ?? 0), 0));
  let at = 0;
  const put = (x) => (at += typeof x === 'string' ? out.write(x, at) : (out.set(x, at), x.length));
  items.forEach(({ record, line }, i) => {
    if (typeof line === 'string') put(texts[i]);
    else put(line.head), put(texts[i]), put(line.mid), put(String(record.size)), put(line.tail);
  });
  return out.subarray(0, at);
}
