// What a manifest's body must be before a scan answers from it (js/manifest/file.js calls
// checkBody once the body's checksum holds, before the kept bytes are read):
//
//   { maxIndexBytes: null | bytes,
//     pathSets: [[path, …]],                      the paths each entry's results answer
//     facts:    [{version, bloomFilter, audit}],  what a record said of its file but its name and size
//     results:  [[{verdict[, decision, indexed, severalHashes]}, …]]   one per path of the entry's set
//     files:    [file, …]                          one entry per file, in columns:
//     ids:      [size, mtime, ctime, inode, device, …]      five per file (an object's: size, ETag, Last-Modified, null, null)
//     entries:  [fact, set, results, at, head, tail, …] }  six per file
//
// An entry's `fact`, `set`, `results` index the tables; `at`, `head`, `tail` place its kept
// bytes. (Columns of plain values: JSON.parse makes no object per file.) The checksum finds accidents; these checks find a manifest edited and signed again that
// no tsfile-bloom wrote, one whose answers would be wrong in a way it shows itself: an index out
// of its table, results of another length than their path set, `absent` for a file without a
// filter or for a path its audited index lists, a value of the wrong kind, a file twice, kept
// bytes outside their section. What no check can find — a well-formed verdict changed, maybe to
// absent — is why a manifest is trusted only as far as the directory it sits in (docs/fleet.md). A violation is kind 'manifest', reason 'corrupt', with `field`.

import { DECISIONS, HEAD_LENGTH as HEAD } from '../wire.js';
import { HEALTH_STATES } from '../core-tables.js';

/** Values per file in `ids` and in `entries`. */
export const ID = 5;
export const ENTRY = 6;

/** A corrupt manifest's error: made by the caller (manifestError), thrown here. */
export class Corrupt extends Error {
  constructor(field, what) {
    super(`its ${field} ${what}`);
    this.field = field;
  }
}
const bad = (field, what) => {
  throw new Corrupt(field, what);
};

/** The verdicts a result holds (docs/verdicts.md). */
const VERDICTS = ['absent', 'maybe', 'unknown'];
const AUDIT_STATUSES = ['established', 'ambiguous', 'not_reproduced', 'no_filter', 'unsupported_hash'];

const isIndex = (x, length) => Number.isInteger(x) && x >= 0 && x < length;
const isCount = (x) => Number.isSafeInteger(x) && x >= 0;
const isString = (x) => typeof x === 'string';
const isBool = (x) => typeof x === 'boolean';
const orNull = (ok) => (x) => x === null || ok(x);
const isPlain = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);
const ratio = (x) => typeof x === 'number' && x >= 0 && x <= 1;
const real = (x) => Number.isFinite(x) && x >= 0;
const printable = (x) => isString(x) && /^[\x20-\x7e]*$/.test(x);
/** An object whose keys are exactly those of `kinds`, each value of its kind. */
const shaped = (x, kinds) => isPlain(x) && Object.keys(x).length === Object.keys(kinds).length && Object.entries(kinds).every(([k, ok]) => k in x && ok(x[k]));

// bloomInfo().health: the filter's design and state (src/health.rs).
const HEALTH = { state: (x) => HEALTH_STATES.includes(x), errorRate: ratio, sizedForItems: isCount, designFill: ratio };
// TsFile#bloomInfo(): what each figure may be.
const BLOOM = {
  present: isBool, encoding: printable, offset: orNull(isCount), bitsOffset: orNull(isCount), byteLength: orNull(isCount), bitCount: orNull(isCount), hashFunctionCount: orNull(isCount),
  hash: orNull(printable), setBits: orNull(isCount), fillRatio: orNull(ratio), estimatedItems: orNull(real), indexedItems: orNull(isCount), fppFormula: orNull(ratio), fppFromFill: orNull(ratio),
  optimalK: orNull(real), filledPastDesign: orNull(isBool), cppSizedFor: orNull(isCount),
  health: orNull((x) => shaped(x, HEALTH)),
};
const AUDIT = { status: (x) => AUDIT_STATUSES.includes(x), variant: orNull(printable), charset: orNull(printable), writer: orNull(isString), summary: isString };
const FACT = { version: Number.isInteger, bloomFilter: (x) => shaped(x, BLOOM), audit: orNull((x) => shaped(x, AUDIT)) };
const PLAIN_RESULT = { verdict: (x) => VERDICTS.includes(x) };
const AUDITED_RESULT = { ...PLAIN_RESULT, decision: (x) => DECISIONS.includes(x), indexed: orNull(isBool), severalHashes: isBool };

/** The body of a manifest whose kept bytes are `kept` bytes long; returns its entries' index by file. */
export function checkBody(body, kept) {
  if (!isPlain(body)) bad('body', 'is not a JSON object');
  if (!orNull(isCount)(body.maxIndexBytes)) bad('maxIndexBytes', 'is neither null nor a byte count');
  for (const k of ['pathSets', 'facts', 'results', 'files', 'ids', 'entries']) if (!Array.isArray(body[k])) bad(k, 'is not a list');
  const n = body.files.length;
  if (body.ids.length !== ID * n) bad('ids', `hold ${body.ids.length} values for ${n} files, not ${ID} a file`);
  if (body.entries.length !== ENTRY * n) bad('entries', `hold ${body.entries.length} values for ${n} files, not ${ENTRY} a file`);
  body.pathSets.forEach((s, i) => (Array.isArray(s) && s.every(isString)) || bad('pathSets', `entry ${i} is not a list of paths`));
  body.facts.forEach((f, i) => shaped(f, FACT) || bad('facts', `entry ${i} is not a record's version, bloomInfo() and audit`));
  body.results.forEach((r, i) => (Array.isArray(r) && r.every((x) => shaped(x, PLAIN_RESULT) || shaped(x, AUDITED_RESULT))) || bad('results', `entry ${i} is not a list of verdicts`));
  const index = new Map();
  const checked = new Set();
  const sets = body.pathSets.length;
  const lists = body.results.length;
  let total = 0;
  body.files.forEach((file, i) => {
    const [fact, set, results, , head, tail] = checkEntry(body, i, kept);
    if (index.has(file)) bad('file', `of entry ${i} (${file}) is another entry's too`);
    index.set(file, i);
    total += head + tail;
    // Each combination of facts, path set and results is checked once.
    const key = (fact * sets + set) * lists + results;
    if (!checked.has(key)) checkResults(body, file, fact, set, results, i);
    checked.add(key);
  });
  if (total !== kept) bad('bytes', `of the entries add up to ${total}, not the ${kept} kept`);
  return index;
}

const isLocalId = (id) => isCount(id[0]) && Number.isFinite(id[1]) && Number.isFinite(id[2]) && Number.isFinite(id[3]) && Number.isFinite(id[4]);
const isObjectId = (id) => isCount(id[0]) && orNull(isString)(id[1]) && orNull(isString)(id[2]) && (id[1] !== null || id[2] !== null) && id[3] === null && id[4] === null;

/** Entry `i` of `body`: each of its fields of its kind, within its table or its file; returns its six numbers. */
function checkEntry(body, i, kept) {
  const file = body.files[i];
  const id = body.ids.slice(ID * i, ID * i + ID);
  const [fact, set, results, at, head, tail] = body.entries.slice(ENTRY * i, ENTRY * i + ENTRY);
  if (!isString(file) || file === '') bad('file', `of entry ${i} is not a file's name`);
  if (!(isLocalId(id) || isObjectId(id))) bad('id', `of entry ${i} (${file}) is neither a file's size, times, inode and device nor an object's size, ETag and Last-Modified`);
  if (!isIndex(fact, body.facts.length)) bad('fact', `of entry ${i} (${file}) is ${JSON.stringify(fact)}, outside the ${body.facts.length} recorded`);
  if (!isIndex(set, body.pathSets.length)) bad('set', `of entry ${i} (${file}) is ${JSON.stringify(set)}, outside the ${body.pathSets.length} path sets`);
  if (!isIndex(results, body.results.length)) bad('results', `of entry ${i} (${file}) is ${JSON.stringify(results)}, outside the ${body.results.length} recorded`);
  const size = id[0];
  const b = body.facts[fact].bloomFilter;
  if (b.offset > size || b.bitsOffset > size) bad('fact', `of entry ${i} (${file}) puts its filter past the end of its ${size} bytes`);
  if (!isCount(at) || !isCount(head) || !isCount(tail) || head > Math.min(HEAD, size) || tail > size || at + head + tail > kept) bad('bytes', `of entry ${i} (${file}): ${head} + ${tail} bytes at ${at}, outside its file or the ${kept} kept`);
  return [fact, set, results, at, head, tail];
}

/** Entry `i`'s results against its path set, its filter and whether its file was audited. */
function checkResults(body, file, fact, set, results, i) {
  const paths = body.pathSets[set];
  const list = body.results[results];
  const { bloomFilter, audit } = body.facts[fact];
  const entry = `of entry ${i} (${file})`;
  if (list.length !== paths.length) bad('results', `${entry} are ${list.length}, for ${paths.length} paths`);
  list.forEach((r, j) => {
    // A file without a filter answers nothing; only an audit says what its index lists, and a
    // path the index lists is never absent.
    if (!bloomFilter.present && r.verdict !== 'unknown') bad('results', `${entry} answer ${JSON.stringify(paths[j])} for a file without a filter`);
    if ((audit !== null) !== ('indexed' in r)) bad('results', `${entry} ${audit ? 'lack' : 'say'} what its index lists of ${JSON.stringify(paths[j])} ${audit ? 'with' : 'without'} an audit`);
    if (r.indexed === true && r.verdict === 'absent') bad('results', `${entry} say ${JSON.stringify(paths[j])} is absent where its index lists it`);
  });
}
