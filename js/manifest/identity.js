// What identifies one version of a local file or of an object of a listing, how new a version
// may be and still be recorded, and so why an answer from an entry is the file's own.
//
// An entry answers only for a file whose identity is exactly the recorded one. ctime is in it
// because it cannot be set back (utimes restores mtime, never ctime): a write at equal size whose
// mtime was restored still changes ctime; a file replaced by rename has a new inode. A file
// modified within RACY_MS of the moment it was read is not recorded (its timestamps may not move
// on a second write in the same clock tick: "racy git"). Errors are never recorded. An object of
// an s3:// listing is identified by the listing's size, ETag and Last-Modified (without an ETag,
// recorded only once its Last-Modified is OBJECT_RACY_MS past); its bytes kept are the listed
// version's, as its reads must answer with the listing's ETag and size (js/http-source.js); a URL
// without a listing is read every time. The answer's rules: js/manifest/answer.js.
import { statSync } from 'node:fs';

/** A file modified less than this before it was read is not recorded (timestamps move in clock ticks). */
export const RACY_MS = 2000;
/** An object listed without an ETag is recorded only when its Last-Modified is this long past (a store's clock is not ours). */
export const OBJECT_RACY_MS = 60_000;

/** A local file's identity: size, mtime, ctime, inode, device. */
export const identityOf = (st) => [st.size, st.mtimeMs, st.ctimeMs, st.ino, st.dev];
/** An object's identity from its listing (`{size, etag, lastModified}`, as long as a file's: two nulls): null when it has neither ETag nor Last-Modified. */
export const objectIdentity = (v) => (v && ((typeof v.etag === 'string' && v.etag !== '') || typeof v.lastModified === 'string') ? [v.size, v.etag || null, v.lastModified ?? null, null, null] : null);
/** Whether identity `a` is the one at `b[i…]` (`i`: 0 unless `b` is the manifest's column). */
export const sameIdentity = (a, b, i = 0) => a !== null && b !== null && a.every((x, j) => x === b[i + j]);
export const recordable = (id, now, racyMs) => id !== null && (id[1] !== null || now - Date.parse(id[2]) >= racyMs);

/** Whether the local file at `path` is (still) the version recorded at `ids[i…i + 4]`. */
export function unchanged(path, ids, i) {
  let st;
  try {
    st = statSync(path, { throwIfNoEntry: false });
  } catch {
    return false; // read, and the scan reports what is wrong
  }
  return st !== undefined && st.isFile() && sameIdentity(identityOf(st), ids, i);
}
