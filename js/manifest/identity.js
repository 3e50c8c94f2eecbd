// What identifies one version of a local file (identityOf), of a directory (dirIdentity) and of
// an object of a listing (objectIdentity), and how new a version may be and still be recorded
// (RACY_MS, OBJECT_RACY_MS): the rules that make an answer from the manifest the file's own.
//
// Soundness: an entry is used only when the file's identity is exactly the recorded one. ctime
// is in it because it cannot be set back (utimes restores mtime, never ctime): a write at equal
// size whose mtime was restored still changes ctime. A file modified within RACY_MS of the
// moment it was read is not recorded (its timestamps may not move on a second write in the
// same clock tick: "racy git"). Verdicts for paths the manifest already holds are the core's
// verdicts of that file; a path it does not hold is asked of the core again, from the recorded
// bytes (wasm scanTail: the fast scan's own rule), or — for a file recorded with --audit, whose
// rule needs the file's audit — the file is read again. Errors are never recorded: a file that
// could not be read is read again. An object of an s3:// listing is identified by the listing's
// ETag, size and Last-Modified (without an ETag, recorded only once its Last-Modified is
// OBJECT_RACY_MS past); a URL without a listing is read every time. The bytes recorded for an
// object are the listed version's: its read must answer with the listing's ETag and size (else,
// without an ETag, its Last-Modified), or it fails 'changed' (js/http-source.js) and is not kept.
//
// These rules are kept where entries are made (js/manifest/keep.js: keepFromWindow and
// keepByReading refuse a racy or changing file, keptFacts a failed record; js/manifest.js's
// `object`: recordable) and where they are used (js/manifest.js: attach, sameHere and
// sameInChunk, recordFromBytes, the trees' replay by dirIdentity and sameDir).

/** A file modified less than this before it was read is not recorded (timestamps move in clock ticks). */
export const RACY_MS = 2000;

/** What identifies one version of a local file: size, mtime, ctime, inode, device. */
export const identityOf = (st) => [st.size, st.mtimeMs, st.ctimeMs, st.ino, st.dev];
export const sameIdentity = (a, b) => a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3] && a[4] === b[4];

export const dirIdentity = (st) => [st.mtimeMs, st.ctimeMs, st.ino, st.dev];
export const sameDir = (a, b) => a[1] === b[0] && a[2] === b[1] && a[3] === b[2] && a[4] === b[3];

/**
 * An object's identity from its listing (`{size, etag, lastModified}`): its ETag, size and
 * Last-Modified; null when it has neither ETag nor Last-Modified.
 */
export const objectIdentity = (v) => (v && ((typeof v.etag === 'string' && v.etag !== '') || typeof v.lastModified === 'string') ? ['object', v.size, v.etag || null, v.lastModified ?? null, 0] : null);
/**
 * An object listed without an ETag is recorded only when its Last-Modified is this long past
 * (stores keep it to the second, and the store's clock is not ours).
 */
export const OBJECT_RACY_MS = 60_000;
export const recordable = (id, now, racyMs) => id !== null && (id[2] !== null || now - Date.parse(id[3]) >= racyMs);
export const sameVersion = (a, b) => b !== null && a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3];
