// The CLI's lists, one item a line: series paths (scan --paths-file, build's PATHS) and targets
// (scan @LIST). One rule for every such input, and the same as for a path given as an argument:
// a line is its bytes up to the line terminator (\n, or \r\n), nothing else removed; an empty
// line is skipped; a UTF-8 byte order mark opening the input is not part of its first line.
// Read as a stream, a bounded line at a time: a line past MAX_LINE_BYTES is a typed error
// naming the input, its argument and the line, never a string as long as the input.
import { createReadStream } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { ioError } from './node-source.js';
import { TsFileBloomError } from './errors.js';

/** The longest line read (a series path or a file location is far shorter). */
const MAX_LINE_BYTES = 64 * 1024;

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** A typed error about line `number` (at byte `offset`) of `input`, given as `argument`. */
function lineError(kind, sentence, { input, argument, number, offset }) {
  const where = `line ${number} of ${input === '-' ? 'stdin' : input} (${argument})`;
  return new TsFileBloomError(kind, `${where} ${sentence}`, {
    offset: kind === 'invalid_argument' ? null : offset, // (a bad argument has none: docs/errors.md)
    argument,
    path: input === '-' ? 'stdin' : input,
    line: number,
  });
}

/**
 * The lines of `stream` (named `input`, given as `argument`), in batches (one per chunk read):
 * `[{bytes, number, offset}]`, each line's bytes without its terminator. `onChunk(chunk)` sees
 * every chunk as read (build's spool), and may return a promise to wait for before the next.
 */
async function* lineBatches(stream, { input, argument, onChunk }) {
  let pending = null; // the start of a line that began in an earlier chunk
  let number = 0;
  let offset = 0; // of the current line's first byte
  const line = (bytes) => {
    number++;
    const at = offset;
    offset += bytes.length + 1;
    if (number === 1 && bytes.subarray(0, 3).equals(BOM)) bytes = bytes.subarray(3);
    if (bytes.at(-1) === 13) bytes = bytes.subarray(0, -1);
    return bytes.length ? { bytes, number, offset: at } : null;
  };
  // `piece` after the pending start of its line, checked against the limit before it is joined.
  const joined = (piece) => {
    if ((pending?.length ?? 0) + piece.length > MAX_LINE_BYTES) {
      stream.destroy?.();
      throw lineError('too_large', `is longer than ${MAX_LINE_BYTES} bytes (a list holds one item a line)`, { input, argument, number: number + 1, offset });
    }
    return pending?.length ? Buffer.concat([pending, piece]) : piece;
  };
  for await (const chunk of stream) {
    const wait = onChunk?.(chunk); // a promise: it is not ready for the next chunk yet
    if (wait) await wait;
    const batch = [];
    let from = 0;
    for (let nl; (nl = chunk.indexOf(10, from)) >= 0; from = nl + 1) {
      const l = line(joined(chunk.subarray(from, nl)));
      pending = null;
      if (l) batch.push(l);
    }
    pending = joined(chunk.subarray(from));
    if (batch.length) yield batch;
  }
  const last = pending?.length ? line(pending) : null;
  if (last) yield [last];
}

/** A line as text; a line that is not UTF-8 is a typed error (series paths are text). */
function textLine(l, where) {
  if (!isUtf8(l.bytes)) throw lineError('invalid_argument', 'is not UTF-8: series paths are UTF-8 text (probe --hex takes bytes)', { ...where, number: l.number, offset: l.offset });
  return l.bytes.toString('utf8');
}

/**
 * Each batch of lines of `input` (a path, or `-`: stdin; `where` as lineBatches takes it) to
 * `each(batch)`; a read that fails is the typed io error naming the input.
 */
async function eachBatch(input, where, each) {
  try {
    for await (const batch of lineBatches(input === '-' ? process.stdin : createReadStream(input), where)) each(batch);
  } catch (e) {
    throw e.kind ? e : ioError(e, input === '-' ? 'stdin' : input);
  }
}

/**
 * Each batch of `input`'s lines as text (series paths: scan's --paths-file, build's PATHS) to
 * `each(paths)`; `onChunk` as lineBatches takes it. Resolves to their count.
 */
export async function eachTextBatch(input, argument, each, onChunk) {
  const where = { input, argument, onChunk };
  let count = 0;
  await eachBatch(input, where, (batch) => {
    const paths = batch.map((l) => textLine(l, where));
    count += paths.length;
    each?.(paths);
  });
  return count;
}

/** Every line of `input` as text (scan's --paths-file). */
export async function readTextLines(input, argument) {
  const out = [];
  await eachTextBatch(input, argument, (paths) => {
    for (const p of paths) out.push(p);
  });
  return out;
}

/**
 * Every line of `input` as a scan target (@LIST): a location, as text, or as its bytes when it
 * is not UTF-8 (a file name is bytes); a line starting with `#` is a comment.
 */
export async function readTargetLines(input, argument) {
  const out = [];
  await eachBatch(input, { input, argument }, (batch) => {
    for (const { bytes } of batch) if (bytes[0] !== 0x23) out.push(isUtf8(bytes) ? bytes.toString('utf8') : Buffer.from(bytes));
  });
  return out;
}
