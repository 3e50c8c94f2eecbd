// The packed tarball's type declarations (hand-written ones around js/types.generated.d.ts),
// type-checked by `tsc --noEmit` (strict, skipLibCheck: false) in the setups users have: a strict
// consumer (noUncheckedIndexedAccess, exactOptionalPropertyTypes), a Node-only project (lib es2022 and
// @types/node, no DOM), a project with no ambient types at all, a browser project (DOM, bundler
// resolution), DOM with @types/node, a Worker project (lib webworker) — ESM and CommonJS — and
// the examples of README.md and docs/*.md marked `<!-- typecheck: FILE -->`, compiled as they stand. A program with
// a type error must fail, so the declarations really constrain.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, NODE_LTS, ROOT, installedApp } from './packed.mjs';

let app;
before(() => {
  app = installedApp('types', { tools: ['@types/node'] });
});
after(() => app?.cleanup());

// A Node program touching the API's types, values and options (ESM).
const NODE_PROGRAM = `
import { openTsFile, scanTsFiles, BloomFilter, hash32, loadCharsets, type FileProbeResult, type TsFileBloomError, type ScanRecord, type RemoteOptions } from 'tsfile-bloom';
const h: number = hash32('root.a.b', 5, 'zero-extended');
const f: BloomFilter = BloomFilter.withCapacity(10, 0.05).add('root.a.b');
const verdict: 'absent' | 'maybe' = f.probe('root.a.b', { charset: 'GBK' }).verdict;
const data: Int32Array = f.probeMany(['x'], { compact: true }).data;
const t = await openTsFile('x.tsfile');
const p: FileProbeResult = t.probe('root.a.b');
const disposeAsync: () => Promise<void> = t[Symbol.asyncDispose];
const disposeFilter: () => void = f[Symbol.dispose];
const reads: number = t.reads + t.bytesRead;
const audit = await t.audit();
const status: string | undefined = audit?.status;
const options: RemoteOptions = { headers: { Authorization: 'Bearer x' }, signal: AbortSignal.timeout(1000), timeoutMs: 5000, fetch };
const remote = await openTsFile(new URL('https://example.org/x.tsfile'), options);
const fromBlob = await openTsFile(new Blob([new Uint8Array(8)]));
await loadCharsets();
for await (const r of scanTsFiles(['/data', new URL('https://example.org/y.tsfile')], { paths: ['root.a.b'] })) { const rec: ScanRecord = r; }
try { BloomFilter.decode(new Uint8Array([0])); } catch (e) { const k: string = (e as TsFileBloomError).kind; }
await t.close(); await remote.close(); await fromBlob.close();
export { h, verdict, data, p, status, reads, disposeAsync, disposeFilter };
`;

// The same API in CommonJS (import = require).
const CJS_PROGRAM = `
import tb = require('tsfile-bloom');
const n: number = tb.hash32('root.a.b', 5);
async function main(): Promise<number> {
  const t = await tb.openTsFile(new Uint8Array(16));
  const v: 'absent' | 'maybe' | 'unknown' = t.probe('root.a.b').verdict;
  await t.close();
  return v.length + n;
}
export = main;
`;

// With no ambient types: bytes in, results out.
const BARE_PROGRAM = `
import { openTsFile, hash32, type SeriesInfo } from 'tsfile-bloom';
const t = await openTsFile(new Uint8Array(16));
const series: SeriesInfo[] = await t.series();
const n: number = hash32('root.a.b', 5) + series.length;
await t.close();
export { n };
`;

// A page: the default entry, a File from an <input>, a FileList scanned, the explicit web entry.
const DOM_PROGRAM = `
import { openTsFile, scanTsFiles } from 'tsfile-bloom';
import init, { initSync } from 'tsfile-bloom/web';
await init({ module_or_path: new URL('/assets/tsfile_bloom_bg.wasm', location.href), charsets: '/assets/charsets_bg.wasm', leveldb: fetch('/assets/leveldb_bg.wasm') });
const input = document.querySelector('input')!;
const t = await openTsFile(input.files![0]);
const fromPage = await openTsFile('data/x.tsfile');
for await (const r of scanTsFiles(input.files!, { paths: ['root.a.b'], signal: new AbortController().signal })) console.log(r.file);
const dir = await (window as unknown as { showDirectoryPicker(): Promise<FileSystemDirectoryHandle> }).showDirectoryPicker();
await scanTsFiles(dir).summary;
initSync({ module: new Uint8Array(8) });
await t.close(); await fromPage.close();
export {};
`;

// The Worker client on a page: TsFile's members answer with TsFile's types.
const CLIENT_PROGRAM = `
import { createWorker } from 'tsfile-bloom/worker-client';
import type { AuditResult, FileProbeResult, SeriesInfo, TsFileBloomError } from 'tsfile-bloom';
const w = createWorker();
await w.open(new Blob([]), 'x.tsfile');
const indexError: TsFileBloomError | null = await w.loadIndex();
const audit: AuditResult | null = await w.audit({ partial: true });
const series: SeriesInfo[] = await w.series();
const timeColumns: SeriesInfo[] = await w.timeColumns({ partial: true });
const probe: FileProbeResult = await w.probe('root.a.b');
w.terminate();
// A Worker of one's own (the pattern bundlers follow), and a MessagePort made to look like one.
const own = createWorker(new Worker(new URL('./tsfile-worker.js', import.meta.url), { type: 'module' }));
const { port1 } = new MessageChannel();
const viaPort = createWorker(Object.assign(port1, { terminate: () => port1.close() }), { fallback: false });
// @ts-expect-error: a number is neither a Worker nor a URL
createWorker(42);
own.terminate(); viaPort.terminate();
export { indexError, audit, series, timeColumns, probe };
`;

// A module Worker.
const WORKER_PROGRAM = `
import { openTsFile } from 'tsfile-bloom';
self.onmessage = async (e: MessageEvent<Blob>) => {
  const t = await openTsFile(e.data);
  postMessage(t.probe('root.a.b').verdict);
  await t.close();
};
export {};
`;

// A strict consumer: every closed set the core names narrows exhaustively (its union is generated
// from the Rust types: js/types.generated.d.ts), indexed access may miss, optional properties are
// exact; the Worker script's handler and the Worker client as well, without DOM's types.
const STRICT_PROGRAM = `
import { openTsFile, BloomFilter, TsFileBloomError, scanTsFiles, type AuditStatus, type BloomEncoding, type ColumnCategory, type DataType, type ErrorKind, type FileVerdict, type JvmCharset } from 'tsfile-bloom';
import { createHandler } from 'tsfile-bloom/worker';
import { createWorker } from 'tsfile-bloom/worker-client';
const unreachable = (x: never): never => { throw new Error(String(x)); };
function holdsBits(e: BloomEncoding): boolean {
  switch (e) {
    case 'standard': case 'v3': return true;
    case 'missing': case 'empty': case 'legacy_cpp_empty': case 'java_null': return false;
    default: return unreachable(e);
  }
}
const t = await openTsFile(new Uint8Array(16));
const bits: boolean = holdsBits(t.bloomInfo().encoding);
const first = (await t.series())[0];
const type: DataType | undefined = first?.dataType;
const categories: ColumnCategory[] = t.tableSchemas.flatMap((s) => s.columns.map((c) => c.category));
const audit = await t.audit({ partial: true });
const status: AuditStatus | undefined = audit?.status;
const charset: JvmCharset | null | undefined = audit?.charset;
const verdict: FileVerdict = t.probe('root.a.b', { variant: 'zero-extended', charset: 'cp936' }).verdict;
const kinds: ErrorKind[] = [];
try { new BloomFilter(0, 5); } catch (e) { if (e instanceof TsFileBloomError) kinds.push(e.kind); }
const handle = createHandler();
await handle({ id: 1, op: 'bits' }, (reply, transfer) => void [reply, transfer?.length]);
const w = createWorker();
const same: FileVerdict = (await w.probe('root.a.b')).verdict;
for await (const r of scanTsFiles(['/data'], { paths: ['root.a.b'] })) { const s: AuditStatus | undefined = r.audit?.status; void s; }
await t.close();
export { bits, type, categories, status, charset, verdict, kinds, same };
`;

const STRICT = { noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true };
const NODENEXT = { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, skipLibCheck: false };
const BUNDLER = { module: 'esnext', moduleResolution: 'bundler', target: 'es2022', strict: true, noEmit: true, skipLibCheck: false };

function tsc(name, compilerOptions, files) {
  for (const [file, text] of Object.entries(files)) writeFileSync(join(app.dir, file), text);
  writeFileSync(join(app.dir, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions, files: Object.keys(files) }));
  return spawnSync(BIN('tsc'), ['-p', `tsconfig.${name}.json`], { cwd: app.dir, encoding: 'utf8' });
}

function assertCompiles(name, compilerOptions, files) {
  const r = tsc(name, compilerOptions, files);
  assert.equal(r.status, 0, `${name}:\n${r.stdout}${r.stderr}`);
}

/** The blocks of README.md and docs/*.md marked `<!-- typecheck: FILE -->`: {FILE: text}. */
function readmeExamples() {
  const docs = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  const readme = docs.map((d) => readFileSync(join(ROOT, d), 'utf8')).join('\n');
  const out = {};
  for (const [, file, body] of readme.matchAll(/<!-- typecheck: (\S+) -->\n```\w*\n([\s\S]*?)```/g)) out[file] = `${body}\nexport {};\n`;
  return out;
}

test('a Node-only project: lib es2022 and @types/node, no DOM (ESM and CommonJS)', () => {
  assertCompiles('node', { ...NODENEXT, lib: ['es2022'], types: ['node'] }, { 'node-program.mts': NODE_PROGRAM, 'cjs-program.cts': CJS_PROGRAM });
});

test('a project with no ambient types at all: lib es2022, types []', () => {
  assertCompiles('bare', { ...NODENEXT, lib: ['es2022'], types: [] }, { 'bare-program.mts': BARE_PROGRAM, 'bare-cjs.cts': CJS_PROGRAM });
});

test('a browser project: lib dom, bundler resolution (the Worker client too); and DOM with @types/node', () => {
  assertCompiles('dom', { ...BUNDLER, lib: ['es2022', 'dom', 'dom.iterable'], types: [] }, { 'dom-program.ts': DOM_PROGRAM, 'client-program.ts': CLIENT_PROGRAM });
  assertCompiles('dom-node', { ...NODENEXT, lib: ['es2022', 'dom', 'dom.iterable'], types: ['node'] }, { 'node-program.mts': NODE_PROGRAM, 'cjs-program.cts': CJS_PROGRAM });
});

test('`using` and `await using` in a project whose lib has explicit resource management (esnext)', () => {
  const program = `import { openTsFile, BloomFilter } from 'tsfile-bloom';\nawait using t = await openTsFile(new Uint8Array(16));\nusing f = BloomFilter.withCapacity(10);\nexport const n = t.size + f.bitCount;\n`;
  assertCompiles('using', { ...NODENEXT, target: 'esnext', lib: ['esnext'], types: [] }, { 'using-program.mts': program });
  assertCompiles('using-node', { ...NODENEXT, target: 'esnext', lib: ['esnext'], types: ['node'] }, { 'using-program.mts': program });
});

test('a module Worker: lib webworker', () => {
  assertCompiles('worker', { ...BUNDLER, lib: ['es2022', 'webworker'], types: [] }, { 'worker-program.ts': WORKER_PROGRAM });
});

test("the docs' examples (README.md, docs/*.md) compile as they stand, strict, in a Node-only project and with DOM", () => {
  const examples = readmeExamples();
  assert.ok(Object.keys(examples).length >= 3, Object.keys(examples).join(' '));
  assertCompiles('readme-node', { ...NODENEXT, ...STRICT, lib: ['es2022'], types: ['node'] }, examples);
  assertCompiles('readme-dom', { ...NODENEXT, ...STRICT, lib: ['es2022', 'dom'], types: ['node'] }, examples);
});

test('a strict consumer (noUncheckedIndexedAccess, exactOptionalPropertyTypes) narrows the generated unions; lib es2022 + @types/node, and with DOM', () => {
  assertCompiles('strict-node', { ...NODENEXT, ...STRICT, lib: ['es2022'], types: ['node'] }, { 'strict-program.mts': STRICT_PROGRAM });
  assertCompiles('strict-dom', { ...NODENEXT, ...STRICT, lib: ['es2022', 'dom'], types: ['node'] }, { 'strict-program.mts': STRICT_PROGRAM });
  // A closed set is closed: a case it lacks does not compile.
  const missing = STRICT_PROGRAM.replace(" case 'java_null':", '');
  assert.notEqual(missing, STRICT_PROGRAM);
  const r = tsc('strict-missing', { ...NODENEXT, ...STRICT, lib: ['es2022'], types: ['node'] }, { 'strict-missing.mts': missing });
  assert.notEqual(r.status, 0);
  assert.match(r.stdout, /"java_null"' is not assignable to parameter of type 'never'/);
});

test('the declarations constrain: type errors are caught', () => {
  const wrongResult = tsc('bad', { ...NODENEXT, lib: ['es2022'], types: ['node'] }, { 'bad.mts': `import { hash32 } from 'tsfile-bloom';\nconst s: string = hash32('x', 5);\nexport { s };\n` });
  assert.notEqual(wrongResult.status, 0);
  assert.match(wrongResult.stdout, /TS2322/);
  const wrongInput = tsc('bad-input', { ...NODENEXT, lib: ['es2022'], types: ['node'] }, { 'bad-input.mts': `import { openTsFile } from 'tsfile-bloom';\nawait openTsFile(42);\nexport {};\n` });
  assert.notEqual(wrongInput.status, 0);
  assert.match(wrongInput.stdout, /TS2345/);
  const nullAudit = tsc('bad-audit', { ...NODENEXT, lib: ['es2022'], types: ['node'] }, { 'bad-audit.mts': `import { openTsFile } from 'tsfile-bloom';\nconst t = await openTsFile('x');\nconst a = await t.audit({ partial: true });\nconsole.log(a.summary);\nexport {};\n` });
  assert.notEqual(nullAudit.status, 0);
  assert.match(nullAudit.stdout, /TS18047/);
});

// The error class as a TypeScript user writes it, run as it stands by Node's type stripping.
const ERRORS_PROGRAM = `
import { BloomFilter, TsFileBloomError, openTsFile, type ErrorKind } from 'tsfile-bloom';
const kinds: ErrorKind[] = [];
const named: (string | undefined)[] = [];
try {
  new BloomFilter(0, 5);
} catch (e) {
  if (e instanceof TsFileBloomError) {
    kinds.push(e.kind);
    named.push(e.argument);
  }
}
await openTsFile(new Uint8Array(64)).catch((e: unknown) => e instanceof TsFileBloomError && kinds.push(e.kind));
console.log(JSON.stringify({ kinds, named }));
`;

/** A Node that strips types (>= 22.6): the machine's, or the LTS build; null when neither does. */
const STRIPPING = [process.execPath, NODE_LTS].find((node) => node && spawnSync(node, ['--experimental-strip-types', '-e', 'const n: number = 1'], { encoding: 'utf8' }).status === 0) ?? null;

test('TsFileBloomError: compiled strict, and run under Node\'s type stripping from a .ts file', { skip: STRIPPING ? false : 'no Node here strips types (>= 22.6; scripts/setup.sh --node-lts)' }, () => {
  assertCompiles('errors', { ...NODENEXT, lib: ['es2022'], types: ['node'] }, { 'errors.mts': ERRORS_PROGRAM });
  writeFileSync(join(app.dir, 'errors.ts'), ERRORS_PROGRAM);
  const r = spawnSync(STRIPPING, ['--experimental-strip-types', '--no-warnings', 'errors.ts'], { cwd: app.dir, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { kinds: ['invalid_argument', 'bad_head_magic'], named: ['bitCount'] });
  const wrongKind = tsc('bad-kind', { ...NODENEXT, lib: ['es2022'], types: ['node'] }, { 'bad-kind.mts': `import type { ErrorKind } from 'tsfile-bloom';\nconst k: ErrorKind = 'bad_magic';\nexport { k };\n` });
  assert.notEqual(wrongKind.status, 0);
  assert.match(wrongKind.stdout, /TS2322/);
});
