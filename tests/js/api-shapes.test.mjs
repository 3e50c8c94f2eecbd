// Every object the JS API returns has exactly the keys js/index.d.ts declares for it — none
// missing, none undeclared — and no value is `undefined` (absent values are null, where the
// type says `| null`). The declared keys come from parsing index.d.ts and the records it imports
// from js/types.generated.d.ts (generated from the Rust types) with the TypeScript compiler (each
// member's declared type, followed into nested interfaces, object types, `Pick`s, intersections,
// arrays and literals), never from runtime output. Objects come from real fixtures: C++-written
// TsFiles of several shapes, Java-written ones and LevelDB tables.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import {
  openTsFile, BloomFilter, openLevelDbTable, loadLevelDb, javaSizing, writerHypothesis,
} from 'tsfile-bloom';

const interfaces = new Map(); // name → interface, or an object type's alias
const classes = new Map();
const functions = new Map();
for (const file of ['index.d.ts', 'types.generated.d.ts']) {
  const text = readFileSync(fileURLToPath(new URL(`../../js/${file}`, import.meta.url)), 'utf8');
  for (const st of ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true).statements) {
    if (ts.isInterfaceDeclaration(st) || (ts.isTypeAliasDeclaration(st) && (ts.isTypeLiteralNode(st.type) || ts.isIntersectionTypeNode(st.type)))) interfaces.set(st.name.text, st);
    else if (ts.isClassDeclaration(st) && st.name) classes.set(st.name.text, st);
    else if (ts.isFunctionDeclaration(st) && st.name) functions.set(st.name.text, st);
  }
}

const nameOf = (m) => m.name && (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name)) ? m.name.text : null;

/** The declared properties of an interface or object type, inherited ones included: name → type node. */
function members(name) {
  const decl = interfaces.get(name);
  assert.ok(decl, `the declarations declare ${name}`);
  const out = new Map();
  for (const h of decl.heritageClauses ?? []) {
    for (const t of h.types) for (const [k, v] of members(t.expression.getText())) out.set(k, v);
  }
  for (const [k, v] of decl.members ? literalMembers(decl.members, name) : typeMembers(decl.type)) out.set(k, v);
  return out;
}

function literalMembers(list, name) {
  const out = new Map();
  for (const m of list) {
    if (ts.isPropertySignature(m)) {
      assert.ok(!m.questionToken, `${name}.${nameOf(m)} is declared optional: result types declare null instead`);
      out.set(nameOf(m), m.type);
    }
  }
  return out;
}

/** The properties of an object type: a literal, a named one, `Pick<T, 'a' | …>`, or `A & B`. */
function typeMembers(type) {
  if (ts.isTypeLiteralNode(type)) return literalMembers(type.members, type.getText());
  if (ts.isIntersectionTypeNode(type)) return new Map(type.types.flatMap((t) => [...typeMembers(t)]));
  if (isPick(type)) {
    const keys = new Set(literals(type.typeArguments[1]));
    return new Map([...typeMembers(type.typeArguments[0])].filter(([k]) => keys.has(k)));
  }
  return members(typeName(type));
}

const isPick = (t) => ts.isTypeReferenceNode(t) && t.typeName.getText() === 'Pick';
const literals = (t) => (ts.isUnionTypeNode(t) ? t.types : [t]).map((l) => l.literal.text);
/** An object type the checker can follow. */
const isObjectType = (t) => ts.isTypeLiteralNode(t) || ts.isIntersectionTypeNode(t) || isPick(t) || (ts.isTypeReferenceNode(t) && interfaces.has(typeName(t)));
/** `T[]` or `Array<T>`: the element type, else null. */
const elementType = (t) => ts.isArrayTypeNode(t) ? t.elementType : ts.isTypeReferenceNode(t) && t.typeName.getText() === 'Array' ? t.typeArguments[0] : null;

const unwrapPromise = (t) =>
  ts.isTypeReferenceNode(t) && t.typeName.getText() === 'Promise' ? t.typeArguments[0] : t;

/** The declared type of a class property, or the return type of a method (`overload`: which one). */
function memberType(cls, member, overload = 0) {
  const decl = classes.get(cls);
  const found = decl.members.filter((m) => nameOf(m) === member);
  assert.ok(found.length > overload, `${cls}.${member} is declared`);
  const m = found[overload];
  return unwrapPromise(ts.isPropertyDeclaration(m) ? m.type : m.type);
}

const returnType = (fn) => unwrapPromise(functions.get(fn).type);

const typeName = (t) => t.getText();

/** Checks `value` against a declared type node. */
function check(value, type, at) {
  assert.notEqual(value, undefined, `${at} is undefined`);
  if (ts.isParenthesizedTypeNode(type)) return check(value, type.type, at);
  if (ts.isUnionTypeNode(type)) {
    const isNull = (t) => ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword;
    if (value === null) {
      assert.ok(type.types.some(isNull), `${at} is null but ${typeName(type)} does not allow null`);
      return;
    }
    const shaped = type.types.filter((t) => !isNull(t) && (elementType(t) || isObjectType(t)));
    if (shaped.length === 1 && typeof value === 'object') check(value, shaped[0], at);
    return;
  }
  const element = elementType(type);
  if (element) {
    assert.ok(Array.isArray(value), `${at} is an array`);
    value.forEach((v, i) => check(v, element, `${at}[${i}]`));
    return;
  }
  if (isObjectType(type)) return checkKeys(value, typeMembers(type), at);
  if (ts.isLiteralTypeNode(type) && type.literal.kind === ts.SyntaxKind.NullKeyword) assert.equal(value, null, at);
}

function checkKeys(value, declared, at) {
  assert.equal(typeof value, 'object', `${at} is an object`);
  assert.notEqual(value, null, `${at} is not null`);
  assert.deepEqual(Object.keys(value).sort(), [...declared.keys()].sort(), `${at}: keys as declared`);
  for (const [k, t] of declared) check(value[k], t, `${at}.${k}`);
}

const SEEN = new Map(); // declared type → how many runtime objects were checked against it
function expectShape(value, type, at) {
  check(value, type, at);
  const name = typeName(type).replace(/ \| null$/, '');
  SEEN.set(name, (SEEN.get(name) ?? 0) + 1);
}

const TSFILES = new URL('../fixtures/tsfile/', import.meta.url);
const JAVA = new URL('../fixtures/java/', import.meta.url);
const tsfile = (name) => fileURLToPath(new URL(`${name}.tsfile`, TSFILES));

test('TsFile: metadata, filter info, series, audit, probes, properties, schemas, warnings match index.d.ts', async () => {
  const names = [
    'tree_unicode', 'table_null_tags', 'table_multi_tables', 'tree_1series', 'synthetic_v3_tail_unicode',
    'synthetic_v3_empty_filter', 'synthetic_legacy_cpp_empty_filter_v4', 'synthetic_java_null_filter_v4',
    'synthetic_cpp_legacy_no_time_columns', 'table_empty', 'mixed',
  ];
  for (const name of names) {
    const file = await openTsFile(tsfile(name));
    try {
      // Before the index is read, then after.
      expectShape(file.bloomInfo(), memberType('TsFile', 'bloomInfo'), `${name} bloomInfo (before index)`);
      expectShape(file.probe('root.x.y'), memberType('TsFile', 'probe'), `${name} probe (before index)`);
      await file.loadIndex();
      expectShape(file.metadata, memberType('TsFile', 'metadata'), `${name} metadata`);
      expectShape(file.bloomInfo(), memberType('TsFile', 'bloomInfo'), `${name} bloomInfo`);
      expectShape(file.properties, memberType('TsFile', 'properties'), `${name} properties`);
      expectShape(file.tableSchemas, memberType('TsFile', 'tableSchemas'), `${name} tableSchemas`);
      expectShape(file.tableNames, memberType('TsFile', 'tableNames'), `${name} tableNames`);
      expectShape(file.warnings, memberType('TsFile', 'warnings'), `${name} warnings`);
      const series = await file.series();
      expectShape(series, memberType('TsFile', 'series'), `${name} series`);
      expectShape(await file.timeColumns(), memberType('TsFile', 'timeColumns'), `${name} timeColumns`);
      const audit = await file.audit();
      if (audit) expectShape(audit, memberType('TsFile', 'audit'), `${name} audit`);
      expectShape(writerHypothesis(audit), returnType('writerHypothesis'), `${name} writerHypothesis`);
      expectShape(await file.writerKeys(writerHypothesis(audit)), memberType('TsFile', 'writerKeys'), `${name} writerKeys`);
      const paths = [...series.slice(0, 3).map((s) => s.path), 'root.never.written', 'root.数据.温度'];
      for (const p of paths) {
        expectShape(file.probe(p), memberType('TsFile', 'probe'), `${name} probe ${p}`);
        expectShape(file.probe(p, { variant: 'zero-extended', charset: 'windows-1252' }), memberType('TsFile', 'probe'), `${name} probe override`);
        expectShape(file.probe(new TextEncoder().encode(p), { variant: 'java' }), memberType('TsFile', 'probe'), `${name} probe bytes`);
      }
      expectShape(file.probeMany(paths), memberType('TsFile', 'probeMany'), `${name} probeMany`);
      if (file.bloomFilter) expectShape(file.bloomFilter.stats(), memberType('BloomFilter', 'stats'), `${name} stats`);
    } finally {
      await file.close();
    }
  }
});

test('TsFile from the Java writer (GBK): audit with charsets, probes with other hashes', async () => {
  const manifest = JSON.parse(readFileSync(new URL('manifest.json', JAVA), 'utf8'));
  const entry = manifest.files.find((e) => e.charset === 'GBK' && e.name === 'tree_nonaligned');
  const file = await openTsFile(fileURLToPath(new URL(entry.file, JAVA)));
  try {
    const audit = await file.audit();
    expectShape(audit, memberType('TsFile', 'audit'), 'GBK audit');
    const [first] = await file.series();
    expectShape(file.probe(first.path), memberType('TsFile', 'probe'), 'GBK probe');
    expectShape(file.probe(first.path, { charset: 'UTF-8' }), memberType('TsFile', 'probe'), 'GBK probe as UTF-8');
  } finally {
    await file.close();
  }
});

test('an index walk that fails: indexError and the series keep their declared shapes', async () => {
  const file = await openTsFile(tsfile('hostile_chunk_list_len_past_region'));
  try {
    const err = await file.loadIndex();
    assert.ok(err instanceof Error);
    assert.equal(typeof err.kind, 'string');
    assert.equal(typeof err.offset, 'number');
    assert.ok(!err.message.startsWith(err.kind), err.message);
    expectShape(await file.series({ partial: true }), memberType('TsFile', 'series'), 'partial series');
    assert.equal(await file.audit({ partial: true }), null);
    await assert.rejects(file.audit(), (e) => e === err);
    expectShape(file.bloomInfo(), memberType('TsFile', 'bloomInfo'), 'bloomInfo after a failed walk');
  } finally {
    await file.close();
  }
});

test('BloomFilter: probe, probeMany (both forms), stats and javaSizing match index.d.ts', () => {
  const f = BloomFilter.withCapacity(100);
  f.addMany(['root.a.b', 'root.数据.温度']);
  for (const [p, o] of [['root.a.b', {}], ['root.x', { variant: 'zero-extended' }], ['root.数据.温度', { charset: 'GBK' }], [Uint8Array.of(1, 2, 3), {}]]) {
    expectShape(f.probe(p, o), memberType('BloomFilter', 'probe'), `probe ${p}`);
  }
  expectShape(f.probeMany(['root.a.b', 'root.x']), memberType('BloomFilter', 'probeMany', 0), 'probeMany');
  const compact = f.probeMany(['root.a.b'], { compact: true });
  // Typed arrays are objects whose own keys are their indices: check the record's keys only.
  assert.deepEqual(Object.keys(compact).sort(), [...members('CompactProbeResults').keys()].sort());
  expectShape(f.stats(), memberType('BloomFilter', 'stats'), 'stats');
  expectShape(f.stats(2), memberType('BloomFilter', 'stats'), 'stats(2)');
  expectShape(javaSizing(1000, 0.01), returnType('javaSizing'), 'javaSizing');
  f.free();
});

test('LevelDB: table info, filters, data blocks, probes and helpers match index.d.ts', async () => {
  const helpers = await loadLevelDb();
  const dir = new URL('../fixtures/leveldb/', import.meta.url);
  for (const name of ['big_blocks_bits20-000008.ldb', 'nofilter-000008.ldb', 'binary_utf8_bits10-000008.ldb']) {
    const t = await openLevelDbTable(fileURLToPath(new URL(name, dir)));
    try {
      expectShape(t.info, memberType('LevelDbTable', 'info'), `${name} info`);
      expectShape(t.filters, memberType('LevelDbTable', 'filters'), `${name} filters`);
      expectShape(t.dataBlocks(), memberType('LevelDbTable', 'dataBlocks'), `${name} dataBlocks`);
      // A key routed to a block, one past the last separator (no block: nulls).
      for (const key of ['row/00000', '\u{10ffff}zzz', '']) expectShape(t.probe(key), memberType('LevelDbTable', 'probe'), `${name} probe ${key}`);
    } finally {
      t.close();
    }
  }
  const built = helpers.buildFilter(['a', 'b', 'c'], 10);
  const helperType = (m) => interfaces.get('LevelDbHelpers').members.find((x) => nameOf(x) === m).type;
  expectShape(built, helperType('buildFilter'), 'buildFilter');
  expectShape(helpers.probeFilter('a', built.bytes), helperType('probeFilter'), 'probeFilter');
});

test('every result interface was checked against at least one runtime object', () => {
  const expected = [
    'TsFileMetadataInfo', 'BloomInfo', 'PropertyInfo[]', 'TableSchemaInfo[]', 'WarningInfo[]', 'SeriesInfo[]', 'AuditResult',
    'FileProbeResult', 'BloomStats', 'ProbeResult', 'BatchProbeResult[]', 'WriterHypothesis', 'WriterKeys',
    'LevelDbTableInfo', 'LevelDbFilterInfo[]', 'LevelDbDataBlock[]', 'LevelDbProbeResult', 'LevelDbFilterProbe',
  ];
  for (const t of expected) assert.ok(SEEN.get(t) > 0, `no runtime ${t} was checked`);
});

// Every export of every entry is declared in its .d.ts, and every declared value is exported:
// nothing internal leaks, nothing declared is missing (the declarations read by the compiler).
test("each entry exports exactly what its declarations declare", async () => {
  const declaredValues = (file) => {
    const src = ts.createSourceFile(file, readFileSync(fileURLToPath(new URL(`../../js/${file}`, import.meta.url)), 'utf8'), ts.ScriptTarget.Latest, true);
    const names = new Set();
    let reexportsIndex = false;
    for (const st of src.statements) {
      const exported = st.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
      if (ts.isExportDeclaration(st) && !st.exportClause && st.moduleSpecifier?.text === './index.js') reexportsIndex = true;
      if (ts.isExportDeclaration(st) && !st.isTypeOnly && st.exportClause && ts.isNamedExports(st.exportClause)) for (const e of st.exportClause.elements) names.add(e.name.text);
      if (!exported) continue;
      if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) && st.name) {
        const isDefault = st.modifiers.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
        names.add(isDefault ? 'default' : st.name.text);
      } else if (ts.isVariableStatement(st)) for (const d of st.declarationList.declarations) names.add(d.name.text);
    }
    return { names, reexportsIndex };
  };
  const index = declaredValues('index.d.ts').names;
  const withIndex = (file) => {
    const { names, reexportsIndex } = declaredValues(file);
    return new Set([...names, ...(reexportsIndex ? index : [])]);
  };
  const cases = [
    ['js/node.js', await import('../../js/node.js'), index],
    ['dist/cjs/index.cjs', (await import('node:module')).createRequire(import.meta.url)('../../dist/cjs/index.cjs'), index],
    ['js/web.js', await import('../../js/web.js'), withIndex('web.d.ts')],
    ['js/worker.js', await import('../../js/worker.js'), withIndex('worker.d.ts')],
    ['js/worker-client.js', await import('../../js/worker-client.js'), withIndex('worker-client.d.ts')],
  ];
  for (const [entry, mod, declared] of cases) {
    const runtime = Object.keys(mod).filter((k) => k !== '__esModule' && !(entry.endsWith('.cjs') && k === 'default'));
    assert.deepEqual(runtime.filter((k) => !declared.has(k)).sort(), [], `${entry} exports what its types do not declare`);
    assert.deepEqual([...declared].filter((k) => !runtime.includes(k)).sort(), [], `${entry} declares what it does not export`);
  }
});

// One way to do each thing (0.3.0): the public names, and none of the removed duplicates or
// internals (CHANGELOG: encodeJvm, levelDbHelpers, LEVELDB_MAGIC, countingSource, charsetsLoaded,
// isMultiByte, bitIndex, web's named init, worker.js's CHUNK, plainError, provenance and ready,
// TsFile#listing, LevelDbTable#free).
test('the public surface: each entry, TsFile, LevelDbTable and the Worker client, by name', async () => {
  const API = [
    'BloomFilter', 'CHARSETS', 'LevelDbTable', 'SEEDS', 'TsFile', 'TsFileBloomError', 'VARIANTS', 'canonicalCharsetName', 'encodePath',
    'fppFormula', 'hash32', 'isLevelDbFooter', 'javaSizing', 'loadCharsets', 'loadLevelDb', 'openLevelDbTable', 'openTsFile', 'optimalK',
    'scanTsFiles', 'writerHypothesis',
  ];
  const names = async (entry) => Object.keys(await import(entry)).sort();
  assert.deepEqual(await names('../../js/node.js'), API);
  assert.deepEqual(await names('../../js/web.js'), [...API, 'default', 'initSync'].sort());
  assert.deepEqual(await names('../../js/worker.js'), ['createHandler', 'installWorker']);
  assert.deepEqual(await names('../../js/worker-client.js'), ['TsFileBloomError', 'createWorker']);
  const members = (cls) => Object.getOwnPropertyNames(cls.prototype).filter((m) => m !== 'constructor').sort();
  const { TsFile, LevelDbTable } = await import('../../js/node.js');
  assert.deepEqual(members(TsFile), [
    'audit', 'bloomFilter', 'bloomInfo', 'bytesRead', 'close', 'indexError', 'loadIndex', 'metadata', 'mightContainMany', 'name', 'probe',
    'probeMany', 'properties', 'reads', 'series', 'size', 'tableNames', 'tableSchemas', 'timeColumns', 'version', 'warnings', 'writerKeys',
  ]);
  assert.deepEqual(members(LevelDbTable), ['close', 'dataBlocks', 'filterBytes', 'filters', 'info', 'name', 'probe', 'size']);
  const { createWorker } = await import('../../js/worker-client.js');
  const w = createWorker(new URL('../../js/worker.js', import.meta.url));
  // What TsFile has, the client has under the same name (answered alike: worker.test.mjs).
  for (const m of ['loadIndex', 'audit', 'series', 'timeColumns', 'probe', 'probeMany', 'close']) assert.equal(typeof w[m], 'function', m);
  w.terminate();
});

test("the Worker's synthetic filter: its bloom and its probes in a file's declared shapes", async () => {
  const { createWorker } = await import('../../js/worker-client.js');
  const w = createWorker(new URL('../../js/worker.js', import.meta.url));
  try {
    const info = await w.synthetic({ capacity: 1000, items: 500 });
    expectShape(info.bloom, memberType('TsFile', 'bloomInfo'), 'synthetic bloom');
    assert.equal(info.bloom.encoding, 'standard', 'one of BloomEncoding’s names: the encoding BloomFilter#encode writes');
    assert.equal(info.bloom.indexedItems, 500);
    for (const options of [{}, { variant: 'zero-extended' }, { charset: 'GBK' }]) {
      expectShape(await w.call('probe', { path: 'root.synthetic.g0.d0.s1', ...options }), memberType('TsFile', 'probe'), `synthetic probe ${JSON.stringify(options)}`);
    }
  } finally {
    w.terminate();
  }
});

test('scanTsFiles hands its scanner only the documented options: a caller’s format or flagWords does nothing', async () => {
  const { scanTsFiles } = await import('tsfile-bloom');
  const records = async (options) => {
    const out = [];
    for await (const r of scanTsFiles([tsfile('tree_1series')], { paths: ['root.x.y'], maxIndexBytes: 8, ...options })) out.push(r);
    return out;
  };
  const plain = await records({});
  assert.equal(plain[0].error.kind, 'too_large');
  assert.match(plain[0].error.message, /maxIndexBytes/);
  const odd = await records({ format: 'ndjson', flagWords: true });
  assert.deepEqual(odd.map(({ bytesRead, reads, ...r }) => r), plain.map(({ bytesRead, reads, ...r }) => r), 'the records as without them (objects, the package’s words, not the CLI’s flags)');
});
