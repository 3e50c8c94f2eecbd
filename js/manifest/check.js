// What a manifest must be before a scan answers from it (js/manifest/file.js's readManifest
// calls these once its checksum holds): every table and column is checked against the others
// and against the trees it records. The checksum finds accidents; these find a manifest edited
// and signed again that no tsfile-bloom wrote — one whose answers would be wrong in a way
// the manifest itself shows (an index out of its table, a verdict string of another length
// than its path set, `absent` for a file without a filter or for a path its audited index
// lists, a tree that drops or moves files, kept bytes outside their section). A violation is
// kind 'manifest', reason 'corrupt', with `field`. What no check can find — a well-formed
// verdict changed, say maybe to absent — is why a manifest is trusted only as far as the
// directory it sits in (README, "Repeat scans").
import { join } from 'node:path';
import { ENCODINGS, FIGURES, VARIANTS } from '../wire.js';

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

const isIndex = (x, length) => Number.isInteger(x) && x >= 0 && x < length;
const isCount = (x) => Number.isSafeInteger(x) && x >= 0;
const isString = (x) => typeof x === 'string';
const orNullOf = (ok) => (x) => x === null || ok(x);
const FIGURE_KINDS = FIGURES.map((k) => (k === 'version' ? Number.isInteger : k === 'present' ? (x) => x === 0 || x === 1 : k === 'encoding' ? (x) => isIndex(x, ENCODINGS.length) : k === 'offset' || k === 'bitsOffset' ? (x) => x === null : orNullOf(Number.isFinite)));
const AUDIT_STATUSES = ['established', 'ambiguous', 'not_reproduced', 'no_filter'];
const AUDIT_KEYS = { status: (x) => AUDIT_STATUSES.includes(x), variant: orNullOf((x) => VARIANTS.includes(x)), charset: orNullOf(isString), writer: orNullOf(isString), summary: isString };
const isPlain = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);

// A path's code (file.js's `codes`): 48 + 6 verdict + 2 indexed + severalHashes, where
// severalHashes is only said of a path whose indexed is known.
const ABSENT = 0;
const UNKNOWN = 2;
const codeOk = (n) => n >= 0 && n < 18 && n % 6 !== 1;
const verdictOf = (n) => Math.floor(n / 6);
const indexedOf = (n) => Math.floor(n / 2) % 3; // 0 not known, 1 listed, 2 not listed

/**
 * The tables (the manifest's JSON body), before its columns are read: their shapes, and
 * `count` and `refs` (which size the columns).
 */
export function checkTables(body) {
  if (!isPlain(body)) bad('body', 'is not a JSON object');
  if (!(body.maxIndexBytes === null || isCount(body.maxIndexBytes))) bad('maxIndexBytes', 'is neither null nor a byte count');
  for (const k of ['count', 'refs']) if (!isCount(body[k])) bad(k, `is ${JSON.stringify(body[k])}, not a count`);
  for (const k of ['dirs', 'figures', 'pathSets', 'verdicts', 'audits', 'objects', 'targets']) if (!Array.isArray(body[k])) bad(k, 'is not a list');
  const { dirs, figures, pathSets, verdicts, audits, objects, targets, count } = body;
  dirs.forEach((d, i) => isString(d) || bad('dirs', `entry ${i} is not a string`));
  figures.forEach((f, i) => (Array.isArray(f) && f.length === FIGURES.length && f.every((x, j) => FIGURE_KINDS[j](x))) || bad('figures', `entry ${i} is not a set of ${FIGURES.length} figures`));
  pathSets.forEach((s, i) => (Array.isArray(s) && s.every(isString)) || bad('pathSets', `entry ${i} is not a list of paths`));
  verdicts.forEach((v, i) => {
    if (!isString(v)) bad('verdicts', `entry ${i} is not a string`);
    for (let j = 0; j < v.length; j++) if (!codeOk(v.charCodeAt(j) - 48)) bad('verdicts', `entry ${i} holds ${JSON.stringify(v[j])}, not a verdict's code`);
  });
  audits.forEach((a, i) => (isPlain(a) && Object.entries(AUDIT_KEYS).every(([k, ok]) => ok(a[k]))) || bad('audits', `entry ${i} is not an audit`));
  const listed = new Set();
  objects.forEach((o, i) => {
    if (!Array.isArray(o) || o.length !== 3 || !isIndex(o[0], count) || !orNullOf(isString)(o[1]) || !orNullOf(isString)(o[2])) bad('objects', `entry ${i} is not [entry, ETag, Last-Modified]`);
    if (listed.has(o[0])) bad('objects', `name entry ${o[0]} twice`);
    listed.add(o[0]);
  });
  const names = new Set();
  let next = 0;
  targets.forEach((t, i) => {
    if (!isPlain(t) || !isString(t.target) || !Array.isArray(t.dirs) || !Array.isArray(t.extra)) bad('targets', `entry ${i} is not a tree`);
    if (names.has(t.target)) bad('targets', `name ${JSON.stringify(t.target)} twice`);
    names.add(t.target);
    // The trees' files lie one after another in `refs`, each tree's after the one before.
    if (t.from !== next || !Number.isInteger(t.to) || t.to < t.from || t.to > body.refs) bad('targets', `entry ${i} (${JSON.stringify(t.target)}) lists files ${t.from} to ${t.to}, not from ${next} on within the ${body.refs} recorded`);
    next = t.to;
    if (t.dirs.length === 0 || t.dirs[0][0] !== t.target) bad('targets', `entry ${i} does not start with its own directory`);
    const under = join(t.target, 'x').slice(0, -1);
    t.dirs.forEach((d, j) => (Array.isArray(d) && d.length === 5 && isString(d[0]) && (j === 0 || d[0].startsWith(under)) && d.slice(1).every(Number.isFinite)) || bad('targets', `entry ${i}'s directory ${j} is not one of its tree`));
    t.extra.forEach((x, j) => (Array.isArray(x) && x.length === 2 && isIndex(x[0], dirs.length) && isString(x[1])) || bad('targets', `entry ${i}'s extra file ${j} is not [directory, name]`));
  });
  if (next !== body.refs) bad('targets', `list ${next} of the ${body.refs} files recorded`);
}

/**
 * The entries' columns `c` (js/manifest/file.js: F64, I32, I8, refs) against the tables and each
 * other; `blobs`: the length of the kept bytes' section.
 */
export function checkEntries(body, c, blobs) {
  const n = body.count;
  const { dirs, figures, pathSets, verdicts, audits } = body;
  // Column by column, each a loop of plain comparisons (100,000 entries in a few ms).
  wholes(c.size, n, 'size', null);
  const object = new Uint8Array(n);
  for (const [i] of body.objects) object[i] = 1;
  for (let i = 0; i < n; i++) if (c.kind[i] !== object[i]) bad('kind', `of entry ${i} is ${c.kind[i]}, but the objects ${object[i] ? 'list' : 'do not list'} it`);
  // A local file's stat; an object's identity is its listing's (in `objects`): NaN here.
  for (const k of ['mtime', 'ctime', 'ino', 'dev']) {
    const x = c[k];
    for (let i = 0; i < n; i++) if (c.kind[i] === 0 ? !Number.isFinite(x[i]) : x[i] === x[i]) bad(k, `of entry ${i} is ${x[i]}`);
  }
  // NaN (null) or whole, an offset within the file.
  wholes(c.offset, n, 'offset', c.size, true);
  wholes(c.bitsOffset, n, 'bitsOffset', c.size, true);
  wholes(c.indexed, n, 'indexed', null, true);
  indexes(c.dir, n, dirs.length, 'dir', 'directories');
  indexes(c.fig, n, figures.length, 'fig', 'figure sets');
  indexes(c.set, n, pathSets.length, 'set', 'path sets');
  indexes(c.verd, n, verdicts.length, 'verd', 'verdict strings');
  indexes(c.audit, n, audits.length, 'audit', 'audits', -1);
  indexes(c.past, n, 2, 'past', 'values of filledPastDesign', -1);
  checkAnswers(body, c);
  checkKept(c, n, blobs);
  checkRefs(body, c);
}

/** Each of `x`'s first `n` a whole number ≥ 0 (or NaN, when `orNaN`), at most `within[i]`. */
function wholes(x, n, field, within, orNaN = false) {
  for (let i = 0; i < n; i++) {
    const v = x[i];
    if (v !== v ? !orNaN : !(v >= 0 && v <= Number.MAX_SAFE_INTEGER && Math.floor(v) === v && (within === null || v <= within[i]))) bad(field, `of entry ${i} is ${v}${within ? ` (the file has ${within[i]} bytes)` : ''}`);
  }
}
/** Each of `x`'s first `n` an index into a table of `length` (or from `from`: -1 for none). */
function indexes(x, n, length, field, what, from = 0) {
  for (let i = 0; i < n; i++) if (!(x[i] >= from && x[i] < length)) bad(field, `of entry ${i} is ${x[i]}, outside the ${length} ${what}`);
}
/** Each entry's verdicts, once per (verdict string, path set, figures, audited). */
function checkAnswers({ figures, pathSets, verdicts }, c) {
  const n = c.size.length;
  const [S, F] = [pathSets.length, figures.length];
  const checked = new Set();
  let last = -1;
  for (let i = 0; i < n; i++) {
    const key = ((c.verd[i] * S + c.set[i]) * F + c.fig[i]) * 2 + (c.audit[i] >= 0 ? 1 : 0);
    if (key !== last && !checked.has(key)) {
      checkVerdicts(i, verdicts[c.verd[i]], pathSets[c.set[i]], figures[c.fig[i]], c.audit[i] >= 0);
      checked.add(key);
    }
    last = key;
  }
}
/** Each entry's kept bytes: a head of at most 12 bytes and a tail, within its file and the section of `blobs` bytes, which they fill. */
function checkKept({ blob, head, tail, size }, n, blobs) {
  let kept = 0;
  for (let i = 0; i < n; i++) {
    const h = head[i];
    const t = tail[i];
    if (!(blob[i] >= 0 && Math.floor(blob[i]) === blob[i] && h >= 0 && h <= 12 && h <= size[i] && t >= 0 && t <= size[i] && blob[i] + h + t <= blobs)) bad('blob', `of entry ${i}: ${h} + ${t} bytes at ${blob[i]}, outside its file or the ${blobs} kept`);
    kept += h + t;
  }
  if (kept !== blobs) bad('blob', `lengths add up to ${kept} bytes, not the ${blobs} kept`);
}

/** The verdict string `v` of entry `i` against its path set, its figures and whether it was audited. */
function checkVerdicts(i, v, set, figures, audited) {
  if (v.length !== set.length) bad('verdicts', `of entry ${i} are ${v.length}, for ${set.length} paths`);
  const present = figures[FIGURES.indexOf('present')] === 1;
  for (let j = 0; j < v.length; j++) {
    const n = v.charCodeAt(j) - 48;
    const verdict = verdictOf(n);
    // A file without a filter answers nothing; only an audit says what its index lists, and a
    // path the index lists is never absent.
    if (!present && verdict !== UNKNOWN) bad('verdicts', `of entry ${i} answer ${JSON.stringify(set[j])} for a file without a filter`);
    if (!audited && indexedOf(n) !== 0) bad('verdicts', `of entry ${i} say what its index lists of ${JSON.stringify(set[j])} without an audit`);
    if (indexedOf(n) === 1 && verdict === ABSENT) bad('verdicts', `of entry ${i} say ${JSON.stringify(set[j])} is absent where its index lists it`);
  }
}

/** The trees' files: each an entry (a local file, in one of its tree's directories) or an extra name, each entry in one tree at most once. */
export function checkRefs(body, c) {
  const n = body.count;
  const dirIndex = new Map(body.dirs.map((d, i) => [d, i]));
  const inTrees = new Uint8Array(n);
  for (const t of body.targets) {
    // The directories of the tree as the walk names its files' (join's prefix).
    const own = new Uint8Array(body.dirs.length);
    for (const d of t.dirs) {
      const i = dirIndex.get(join(d[0], 'x').slice(0, -1));
      if (i !== undefined) own[i] = 1;
    }
    for (const [d] of t.extra) if (!own[d]) bad('targets', `tree ${JSON.stringify(t.target)} has an extra file outside its directories`);
    for (let k = t.from; k < t.to; k++) {
      const r = c.refs[k];
      if (r < 0 ? -r - 1 >= t.extra.length : r >= n || c.kind[r] !== 0 || !own[c.dir[r]]) bad('refs', `file ${k} (${r}) is not an entry or extra file of tree ${JSON.stringify(t.target)}`);
      if (r >= 0 && inTrees[r]++) bad('refs', `list entry ${r} twice`);
    }
  }
}
