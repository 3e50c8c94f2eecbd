// The docs and the code's comments describe the tree that is there: every file path they cite
// exists, and where a citation names a function, type or constant in a file (`path` `name`), that
// file holds the name. Scanned: the Markdown docs (but CHANGELOG.md, which is history) and the
// comments of every source file under src/, crates/, js/, www/, scripts/, tests/, benches/,
// fuzz/ and examples/.
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
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
  ...['README.md', 'ARCHITECTURE.md', 'BENCHMARKS.md', 'RELIABILITY.md'].map((f) => join(ROOT, f)),
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
