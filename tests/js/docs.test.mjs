// The docs and the code's comments describe the tree that is there: every file path they cite
// exists, and where a citation names a function, type or constant in a file (`path` `name`), that
// file holds the name. Scanned: the Markdown docs (but CHANGELOG.md, which is history) and the
// comments of every source file under src/, crates/, js/, www/, scripts/, tests/, benches/,
// fuzz/ and examples/.
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TOP = ['src', 'crates', 'js', 'www', 'scripts', 'tests', 'benches', 'fuzz', 'examples', 'docs'];
const SKIP = new Set(['node_modules', 'target', 'dist', 'fixtures', 'corpus', 'artifacts', '.work', 'reference']);
const TEXT = /\.(rs|js|mjs|cjs|ts|md|sh|py|html|css|toml|java)$/;

function files(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = lstatSync(p);
    if (st.isSymbolicLink()) continue; // www/'s links to the package and the samples
    if (st.isDirectory()) {
      if (!SKIP.has(name)) out.push(...files(p));
    } else if (TEXT.test(name)) out.push(p);
  }
  return out;
}

const sources = [
  ...TOP.filter((d) => existsSync(join(ROOT, d))).flatMap((d) => files(join(ROOT, d))),
  ...['README.md', 'ARCHITECTURE.md', 'BENCHMARKS.md', 'RELIABILITY.md', 'CONTRIBUTING.md'].map((f) => join(ROOT, f)),
];

// A repository path: one of the top folders, then segments, ending in a file name with an extension.
const PATH = /(?<![\w./-])((?:src|crates|js|www|scripts|tests|benches|fuzz|examples|docs)\/[\w@+.-]+(?:\/[\w@+.-]+)*\.(?:tsfile|toml|json|java|html|mjs|cjs|css|ldb|bin|txt|rs|js|ts|md|sh|py)(?![\w-]))(?::\d+)?(?:`?\s+`([A-Za-z_][\w:]*)`|\s+(?:`([A-Za-z_][\w:]*)`))?/g;
// Paths written for another tree: generated or installed ones (dist/, node_modules/) are not cited.
const GENERATED = /^(?:tests\/consumer\/\.work|fuzz\/(?:target|corpus|artifacts|logs)|target)\//;

// In source files only the comments are read (a test may name a file that must not exist).
const COMMENT = /^\s*(?:\/\/|\/?\*|#(?!!|\[)|<!--)/;
// A path of another repository is named after it: `apache/iotdb` `scripts/…`.
const OTHER_REPO = /`[\w.-]+\/[\w.-]+`\s+`?$/;

function citations() {
  const out = [];
  for (const file of sources) {
    const text = readFileSync(file, 'utf8');
    const prose = file.endsWith('.md');
    text.split('\n').forEach((line, i) => {
      if (!prose && !COMMENT.test(line)) return;
      for (const m of line.matchAll(PATH)) {
        const [, path, name1, name2] = m;
        if (GENERATED.test(path) || path.includes('*') || OTHER_REPO.test(line.slice(0, m.index))) continue;
        out.push({ from: `${relative(ROOT, file)}:${i + 1}`, path, name: name1 ?? name2 ?? null });
      }
    });
  }
  return out;
}

test('every file path the docs and comments cite exists, and holds the name cited beside it', () => {
  const cited = citations();
  assert.ok(cited.length > 200, `${cited.length} citations found`);
  const missing = cited.filter((c) => !existsSync(join(ROOT, c.path)));
  assert.deepEqual(missing.map((c) => `${c.from} cites ${c.path}`), []);
  const unnamed = cited.filter((c) => {
    if (!c.name) return false;
    const last = c.name.split('::').pop();
    return !readFileSync(join(ROOT, c.path), 'utf8').includes(last);
  });
  assert.deepEqual(unnamed.map((c) => `${c.from} cites ${c.path} \`${c.name}\``), []);
});

// The repository's own address: the npm page has no other files, so the docs link there.
const REPO = 'https://github.com/tsfile-bloom/tsfile-bloom';
const RAW = 'https://raw.githubusercontent.com/tsfile-bloom/tsfile-bloom/main/';

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
const anchor = (heading) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');

function anchors(file) {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1])));
}

/** Every Markdown link of the docs: `{from, target}` with the target as written. */
function links() {
  const out = [];
  for (const file of sources.filter((f) => f.endsWith('.md'))) {
    const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) out.push({ from: relative(ROOT, file), target: m[1] });
  }
  return out;
}

/** What is wrong with one link (null when nothing): its file, or its heading, is not there. */
function brokenLink({ from, target }) {
  let path;
  if (target.startsWith(`${REPO}/blob/main/`) || target.startsWith(`${REPO}/tree/main/`)) path = target.slice(REPO.length + 11);
  else if (target.startsWith(RAW)) path = target.slice(RAW.length);
  else if (/^[a-z]+:/i.test(target)) return null;
  else path = target.startsWith('#') ? from + target : join(dirname(from), target);
  const [file, hash] = path.split('#');
  if (!existsSync(join(ROOT, file))) return `${from} links ${target}: no ${file}`;
  if (hash && file.endsWith('.md') && !anchors(join(ROOT, file)).has(hash)) return `${from} links ${target}: no heading #${hash} in ${file}`;
  return null;
}

test('every link of the docs leads to a file and a heading that are there (the repository\'s on GitHub too)', () => {
  const all = links();
  assert.ok(all.length > 50, `${all.length} links found`);
  assert.deepEqual(all.map(brokenLink).filter(Boolean), []);
});
