// What the folder view scans, and what a row opens: `{name, targets, names, count, resolve(row)}`
// for a FileList (the folder input), a dropped folder (a FileSystemDirectoryHandle, or the older
// entries API walked here by names), and URLs (views/remote.js).
import { fmt } from '../shared/format.js';
import { byText } from './fleet-table.js';

const TSFILE_NAME = /\.tsfile$/i;

/** A FileList or File array; a dropped folder walked by entries gives its paths as `names`. */
export function filesSource(fileList, { name, names } = {}) {
  const all = Array.from(fileList);
  const picked = [];
  const pickedNames = [];
  all.forEach((f, i) => {
    // Files from entries have no webkitRelativePath: their paths come in `names`.
    const n = names?.[i] ?? (f.webkitRelativePath || f.name);
    if (TSFILE_NAME.test(n)) {
      picked.push(f);
      pickedNames.push(n);
    }
  });
  const root = name ?? (pickedNames[0]?.split('/')[0] || 'folder');
  return {
    name: `${root} (${fmt(picked.length)} TsFiles${all.length > picked.length ? `; ${fmt(all.length - picked.length)} other files passed by` : ''})`,
    targets: picked,
    names: names ? pickedNames : null,
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

/** The older entries API: the tree walked here (names only, no reading), as a files source. */
async function walkEntry(root) {
  const files = [];
  const names = [];
  const walk = async (entry, prefix) => {
    if (entry.isFile) {
      if (!TSFILE_NAME.test(entry.name)) return;
      files.push(await new Promise((res, rej) => entry.file(res, rej)));
      names.push(`${prefix}${entry.name}`);
      return;
    }
    const reader = entry.createReader();
    const children = [];
    // readEntries returns the children in batches until an empty one.
    for (;;) {
      const batch = await new Promise((res, rej) => reader.readEntries(res, rej));
      if (!batch.length) break;
      children.push(...batch);
    }
    children.sort((a, b) => byText(a.name, b.name));
    for (const c of children) await walk(c, `${prefix}${entry.name}/`);
  };
  await walk(root, '');
  return filesSource(files, { name: root.name, names });
}

/**
 * A drop that holds a folder: `{name, source: Promise<source>}` (a directory handle where the
 * browser gives one, else the entries walked); null for a drop without a folder. Must run
 * during the drop event: its items expire after it.
 */
export function droppedFolder(dt) {
  const items = [...(dt?.items ?? [])].filter((it) => it.kind === 'file');
  const entries = items.map((it) => it.webkitGetAsEntry?.() ?? null);
  const at = entries.findIndex((e) => e?.isDirectory);
  if (at < 0) return null;
  const handle = items[at].getAsFileSystemHandle?.();
  const walked = () => walkEntry(entries[at]);
  const source = handle ? handle.then((h) => (h?.kind === 'directory' ? directorySource(h) : walked()), walked) : walked();
  return { name: entries[at].name, source };
}
