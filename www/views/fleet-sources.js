// What the folder view scans, and what a row opens: `{name, targets, count, resolve(row)}` for a
// FileList (the folder input), a folder picked or dropped (a FileSystemDirectoryHandle), and URLs
// (views/remote.js).
import { TsFileBloomError } from '../pkg/js/errors.js';
import { fmt } from '../shared/format.js';

const TSFILE_NAME = /\.tsfile$/i;

/** A FileList or File array (the folder input's: each with its webkitRelativePath). */
export function filesSource(fileList, { name } = {}) {
  const all = Array.from(fileList);
  const picked = all.filter((f) => TSFILE_NAME.test(f.webkitRelativePath || f.name));
  const root = name ?? ((picked[0]?.webkitRelativePath || picked[0]?.name)?.split('/')[0] || 'folder');
  return {
    name: `${root} (${fmt(picked.length)} TsFiles${all.length > picked.length ? `; ${fmt(all.length - picked.length)} other files passed by` : ''})`,
    targets: picked,
    count: picked.length,
    // Records come in the order of the targets (scanTsFiles walks a list in order): row i is File i.
    resolve: async (r) => picked[r.index],
  };
}

/** A FileSystemDirectoryHandle (showDirectoryPicker, or a folder dropped in Chromium): walked in the worker. */
export function directorySource(handle) {
  return {
    name: handle.name,
    targets: handle,
    count: null,
    // The worker names files "<dir>/<sub>/…/<file>"; the same walk from the handle finds it.
    async resolve(r) {
      const parts = r.file.split('/').slice(1);
      let dir = handle;
      for (const p of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(p);
      return (await dir.getFileHandle(parts[parts.length - 1])).getFile();
    },
  };
}

/**
 * http(s) URLs and bucket listings (views/remote.js): read in the worker, as a folder's files
 * are. `name` titles the view, `count` is the number of files when known, `resolve(row)` what a
 * row opens (an object's URL, which the inspector reads as it reads a dropped file).
 */
export function urlsSource(urls, { name, count = null, resolve = async (r) => r.file } = {}) {
  return { name: name ?? `${fmt(urls.length)} URLs`, targets: [...urls], count, resolve };
}

/**
 * A drop that holds a folder: `{name, source: Promise<source>}`, read through the directory handle
 * the browser gives (Chromium's getAsFileSystemHandle; elsewhere the promise rejects, naming
 * "Open folder…"); null for a drop without a folder. Must run during the drop event: its items
 * expire after it.
 */
export function droppedFolder(dt) {
  const items = [...(dt?.items ?? [])].filter((it) => it.kind === 'file');
  const entries = items.map((it) => it.webkitGetAsEntry?.() ?? null);
  const at = entries.findIndex((e) => e?.isDirectory);
  if (at < 0) return null;
  const unreadable = new TsFileBloomError('invalid_argument', 'this browser gives the page no way to read a dropped folder: open it with “Open folder…”', { argument: 'source' });
  const handle = items[at].getAsFileSystemHandle?.() ?? Promise.resolve(null);
  const source = handle.then((h) => {
    if (h?.kind !== 'directory') throw unreadable;
    return directorySource(h);
  });
  return { name: entries[at].name, source };
}
