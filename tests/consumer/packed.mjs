// The package as a user installs it: `npm pack` of this tree (dist/ already built), installed
// into a scratch project. Tools a recipe needs (bundlers, servers) are linked into the
// project's node_modules (and their commands into node_modules/.bin) from this repository's, as
// `npm i -D <tool>` would put them there.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = (name) => join(ROOT, 'node_modules/.bin', name);
/** Node's current LTS (scripts/setup.sh --node-lts), or null when this machine has no build of it. */
export const NODE_LTS = existsSync(join(ROOT, '.tools/node-lts/bin/node')) ? join(ROOT, '.tools/node-lts/bin/node') : null;

let packed = null;

/**
 * Packs the tree once per process: `{file, files, size}`. TSFILE_BLOOM_TARBALL names a tarball
 * packed elsewhere instead (clean-clone.test.mjs runs this suite on a clean clone's).
 */
export function tarball() {
  const given = process.env.TSFILE_BLOOM_TARBALL;
  if (!packed && given) {
    const files = execFileSync('tar', ['-tzf', given], { encoding: 'utf8' }).split('\n').filter((f) => f && !f.endsWith('/')).map((f) => f.replace(/^package\//, ''));
    packed = { dir: dirname(given), file: given, files, size: statSync(given).size };
  }
  if (!packed) {
    const dir = mkdtempSync(join(tmpdir(), 'tsfile-bloom-pack-'));
    // --ignore-scripts: dist/ is built by the suite's build step; packing must not rebuild it.
    const out = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8' }));
    packed = { dir, file: join(dir, out[0].filename), files: out[0].files.map((f) => f.path), size: out[0].size };
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return packed;
}

/**
 * A scratch project with the tarball installed: `{dir, cleanup()}`. `packageJson` is merged
 * into its package.json; `tools` are package names linked from this repository's node_modules.
 */
export function installedApp(name, { packageJson = {}, tools = [] } = {}) {
  const dir = join(mkdtempSync(join(tmpdir(), `tsfile-bloom-${name}-`)), 'app');
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `consumer-${name}`, private: true, type: 'module', ...packageJson }, null, 2));
  execFileSync('npm', ['install', tarball().file, '--no-audit', '--no-fund', '--prefer-offline'], { cwd: dir, stdio: 'pipe' });
  for (const tool of tools) {
    const link = join(dir, 'node_modules', tool);
    mkdirSync(dirname(link), { recursive: true });
    if (!existsSync(link)) symlinkSync(join(ROOT, 'node_modules', tool), link);
    linkBins(dir, tool);
  }
  return { dir, cleanup: () => rmSync(dirname(dir), { recursive: true, force: true }) };
}

/** The tool's commands in the project's node_modules/.bin, where `npx TOOL` finds them. */
function linkBins(dir, tool) {
  const { name, bin = {} } = JSON.parse(readFileSync(join(ROOT, 'node_modules', tool, 'package.json'), 'utf8'));
  const bins = typeof bin === 'string' ? { [name.replace(/^@[^/]+\//, '')]: bin } : bin;
  mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true });
  for (const [command, file] of Object.entries(bins)) {
    const link = join(dir, 'node_modules/.bin', command);
    if (!existsSync(link)) symlinkSync(join(ROOT, 'node_modules', tool, file), link);
  }
}

/**
 * The recipes of the docs (README.md and docs/*.md, or only `doc`, e.g. docs/bundlers.md):
 * `<!-- recipe: NAME -->` followed
 * by fenced blocks up to the next heading or recipe marker. A `sh` block holds commands; a block
 * whose first line is `// FILE` or `# FILE` (FILE with a dot or a slash, optionally followed by
 * `:` and words) is that file's content. Returns `{files: {path: text}, commands: [line], text}`
 * (`text`: the section as written).
 */
export function readmeRecipe(name, doc) {
  const marker = `<!-- recipe: ${name} -->`;
  const docs = doc ? [doc] : ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  const readme = docs.map((d) => readFileSync(join(ROOT, d), 'utf8')).find((text) => text.includes(marker));
  if (!readme) throw new Error(`${docs.join(', ')}: no recipe ${name}`);
  const start = readme.indexOf(marker);
  // The section ends at the next heading or recipe marker outside a code fence.
  const lines = readme.slice(start).split('\n');
  let fenced = false;
  let end = 1;
  for (; end < lines.length; end++) {
    if (lines[end].startsWith('```')) fenced = !fenced;
    else if (!fenced && (/^#{1,6} /.test(lines[end]) || lines[end].startsWith('<!-- recipe: '))) break;
  }
  const section = lines.slice(0, end).join('\n');
  const recipe = { files: {}, commands: [], text: section };
  for (const [, lang, body] of section.matchAll(/```(\w*)\n([\s\S]*?)```/g)) {
    const first = body.split('\n')[0];
    const named = /^(?:\/\/|#) ([\w./-]*[./][\w./-]*)(?::.*)?$/.exec(first);
    if (named && lang !== 'sh') recipe.files[named[1]] = body;
    else if (lang === 'sh') recipe.commands.push(...body.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#')));
  }
  return recipe;
}
