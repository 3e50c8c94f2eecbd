// What a manifest must be before a scan answers from it (js/manifest/file.js's readManifest
// calls checkCounts before the columns are read, checkTables once the checksum holds, and
// checkEntries from verify(), before any answer): every table and column is checked against
// the others and against the trees it records. The checksum finds accidents; these find a manifest edited
// and signed again that no tsfile-bloom wrote — one whose answers would be wrong in a way
// the manifest itself shows (an index out of its table, a verdict string of another length
// than its path set, `absent` for a file without a filter or for a path its audited index
// lists, a tree that drops or moves files, kept bytes outside their section). A violation is
// kind 'manifest', reason 'corrupt', with `field`. What no check can find — a well-formed
// verdict changed, say maybe to absent — is why a manifest is trusted only as far as the
// directory it sits in (README, "Repeat scans").
import { join } from 'node:path';
import { ENCODINGS, FIGURES, FILTER_HASHES, VARIANTS } from '../wire.js';

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
const FIGURE_KINDS = FIGURES.map((k) => (k === 'version' ? Number.isInteger : k === 'present' ? (x) => x === 0 || x === 1 : k === 'encoding' ? (x) => isIndex(x, ENCODINGS.length) : k === 'hash' ? orNullOf((x) => isIndex(x, FILTER_HASHES.length)) : k === 'offset' || k === 'bitsOffset' ? (x) => x === null : orNullOf(Number.isFinite)));
const AUDIT_STATUSES = ['established', 'ambiguous', 'not_reproduced', 'no_filter', 'unsupported_hash'];
const AUDIT_KEYS = { status: (x) => AUDIT_STATUSES.includes(x), variant: orNullOf((x) => VARIANTS.includes(x)), charset: orNullOf(isString), writer: orNullOf(isString), summary: isString };
const isPlain = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);

// A path's code (file.js's `codes`): 48 + 6 verdict + 2 indexed + severalHashes, where
// severalHashes is only said of a path whose indexed is known.
const ABSENT = 0;
const UNKNOWN = 2;
const codeOk = (n) => n >= 0 && n < 18 && n % 6 !== 1;
const verdictOf = (n) => Math.floor(n / 6);
const indexedOf = (n) => Math.floor(n / 2) % 3; // 0 not known, 1 listed, 2 not listed

/** The tables' `count` and `refs`, which size the columns: before the columns are read. */
export function checkCounts(body) {
  if (!isPlain(body)) bad('tables', 'are not a JSON object');
  for (const k of ['count', 'refs']) if (!isCount(body[k])) bad(k, `is ${JSON.stringify(body[k])}, not a number of ${k === 'count' ? 'entries' : 'tree files'}`);
}

/** The tables (the manifest's JSON body): their shapes, and the trees' runs of files. */
export function checkTables(body) {
  if (!(body.maxIndexBytes === null || isCount(body.maxIndexBytes))) bad('maxIndexBytes', 'is neither null nor a byte count');
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
 * other; `blobs`: the length of the kept bytes' section; `names`: the entries' names (for messages).
 */
export function checkEntries(body, c, blobs, names = []) {
  const n = body.count;
  const { figures, pathSets, verdicts } = body;
  const object = new Uint8Array(n);
  for (const [i] of body.objects) object[i] = 1;
  const { size, kind, mtime, ctime, ino, dev, offset, bitsOffset, indexed, cpp, blob, dir, fig, set, verd, audit, past, head, tail } = c;
  const [D, F, S, V, A] = [body.dirs.length, figures.length, pathSets.length, verdicts.length, body.audits.length];
  // Each (verdict string, path set, figures, audited) is checked once: flags by combination when
  // they are few (a byte each), else a set of them.
  const combinations = V * S * F * 2;
  const flags = combinations <= 1 << 20 ? new Uint8Array(combinations) : null;
  const checked = flags ? null : new Set();
  let kept = 0;
  // One loop of plain comparisons, run once per scan (before it is optimized: kept small); the
  // first entry that fails is then explained field by field (explain).
  for (let i = 0; i < n; i++) {
    const z = size[i];
    const stat = mtime[i] + ctime[i] + ino[i] + dev[i];
    const o = offset[i];
    const bo = bitsOffset[i];
    const x = indexed[i];
    const cp = cpp[i];
    const h = head[i];
    const t = tail[i];
    const at = blob[i];
    const ok =
      z >= 0 && z <= MAX && Math.floor(z) === z &&
      kind[i] === object[i] &&
      // A local file's stat (finite); an object's identity is its listing's, in `objects` (NaN here).
      (kind[i] === 0 ? stat - stat === 0 : mtime[i] !== mtime[i] && ctime[i] !== ctime[i] && ino[i] !== ino[i] && dev[i] !== dev[i]) &&
      // NaN (null) or whole, an offset within its file.
      (o !== o || (o >= 0 && o <= z && Math.floor(o) === o)) &&
      (bo !== bo || (bo >= 0 && bo <= z && Math.floor(bo) === bo)) &&
      (x !== x || (x >= 0 && x <= MAX && Math.floor(x) === x)) &&
      (cp !== cp || (cp >= 1 && cp <= MAX && Math.floor(cp) === cp)) &&
      dir[i] >= 0 && dir[i] < D && fig[i] >= 0 && fig[i] < F && set[i] >= 0 && set[i] < S && verd[i] >= 0 && verd[i] < V &&
      audit[i] >= -1 && audit[i] < A && past[i] >= -1 && past[i] <= 1 &&
      // Its kept bytes: a head of at most 12 bytes and a tail, within its file and the section.
      at >= 0 && Math.floor(at) === at && h >= 0 && h <= 12 && h <= z && t >= 0 && t <= z && at + h + t <= blobs;
    if (!ok) explain(body, c, i, object, blobs);
    kept += h + t;
    const key = ((verd[i] * S + set[i]) * F + fig[i]) * 2 + (audit[i] >= 0 ? 1 : 0);
    if (flags ? flags[key] : checked.has(key)) continue;
    checkVerdicts(`entry ${i} (${body.dirs[dir[i]]}${names[i]})`, verdicts[verd[i]], pathSets[set[i]], figures[fig[i]], audit[i] >= 0);
    if (flags) flags[key] = 1;
    else checked.add(key);
  }
  if (kept !== blobs) bad('blob', `lengths add up to ${kept} bytes, not the ${blobs} kept`);
  checkRefs(body, c);
}
const MAX = Number.MAX_SAFE_INTEGER;

/** Why entry `i` failed checkEntries' loop: the first of its fields that is wrong, thrown. */
function explain(body, c, i, object, blobs) {
  const whole = (k, orNaN, within) => {
    const v = c[k][i];
    if (v !== v ? !orNaN : !(v >= 0 && v <= MAX && Math.floor(v) === v && v <= within)) bad(k, `of entry ${i} is ${v}${within < Infinity ? ` (the file has ${within} bytes)` : ''}`);
  };
  const index = (k, length, what, from = 0) => c[k][i] >= from && c[k][i] < length || bad(k, `of entry ${i} is ${c[k][i]}, outside the ${length} ${what}`);
  whole('size', false, Infinity);
  if (c.kind[i] !== object[i]) bad('kind', `of entry ${i} is ${c.kind[i]}, but the objects ${object[i] ? 'list' : 'do not list'} it`);
  for (const k of ['mtime', 'ctime', 'ino', 'dev']) if (c.kind[i] === 0 ? !Number.isFinite(c[k][i]) : !Number.isNaN(c[k][i])) bad(k, `of entry ${i} is ${c[k][i]}`);
  whole('offset', true, c.size[i]);
  whole('bitsOffset', true, c.size[i]);
  whole('indexed', true, Infinity);
  whole('cpp', true, Infinity);
  index('dir', body.dirs.length, 'directories');
  index('fig', body.figures.length, 'figure sets');
  index('set', body.pathSets.length, 'path sets');
  index('verd', body.verdicts.length, 'verdict strings');
  index('audit', body.audits.length, 'audits', -1);
  index('past', 2, 'values of filledPastDesign', -1);
  bad('blob', `of entry ${i}: ${c.head[i]} + ${c.tail[i]} bytes at ${c.blob[i]}, outside its file or the ${blobs} kept`);
}

/** The verdict string `v` of an entry (`entry`: which) against its path set, its figures and whether it was audited. */
function checkVerdicts(entry, v, set, figures, audited) {
  if (v.length !== set.length) bad('verdicts', `of ${entry} are ${v.length}, for ${set.length} paths`);
  const present = figures[FIGURES.indexOf('present')] === 1;
  for (let j = 0; j < v.length; j++) {
    const n = v.charCodeAt(j) - 48;
    const verdict = verdictOf(n);
    // A file without a filter answers nothing; only an audit says what its index lists, and a
    // path the index lists is never absent.
    if (!present && verdict !== UNKNOWN) bad('verdicts', `of ${entry} answer ${JSON.stringify(set[j])} for a file without a filter`);
    if (!audited && indexedOf(n) !== 0) bad('verdicts', `of ${entry} say what its index lists of ${JSON.stringify(set[j])} without an audit`);
    if (indexedOf(n) === 1 && verdict === ABSENT) bad('verdicts', `of ${entry} say ${JSON.stringify(set[j])} is absent where its index lists it`);
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
    for (let j = 0; j < t.dirs.length; j++) {
      // (The walk names a directory below the target as join names it: only the target's is joined here.)
      const d = t.dirs[j][0];
      const i = dirIndex.get(j === 0 ? join(d, 'x').slice(0, -1) : `${d}/`);
      if (i !== undefined) own[i] = 1;
    }
    for (const [d] of t.extra) if (!own[d]) bad('targets', `tree ${JSON.stringify(t.target)} has an extra file outside its directories`);
    const { refs, kind, dir } = c;
    const extra = t.extra.length;
    for (let k = t.from; k < t.to; k++) {
      const r = refs[k];
      if (r < 0 ? -r - 1 >= extra : r >= n || kind[r] !== 0 || own[dir[r]] !== 1) bad('refs', `file ${k} (${r}) is not an entry or extra file of tree ${JSON.stringify(t.target)}`);
      if (r >= 0 && inTrees[r]++) bad('refs', `list entry ${r} twice`);
    }
  }
}
