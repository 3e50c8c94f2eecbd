// What a consumer's page (or Worker, or runtime) does with the package, as plain code that
// every bundler in the matrix bundles beside the recipe's entry: each file opened from its URL
// with default options and from its bytes, read in full (metadata, listing, audit, probes), the
// URLs scanned, a GBK encode (the lazily loaded charsets module) and a LevelDB table (the lazily
// loaded LevelDB module). The test compares the result with the same code run on the local
// files in Node.

/**
 * Everything a TsFile says, as plain data (errors as {kind, offset, message}); the listing in
 * full with `fullListing`, else its counts and first 50 series (what crosses a page cheaply).
 */
export async function everything(t, { fullListing = false } = {}) {
  const opened = {
    version: t.version,
    size: t.size,
    metadata: t.metadata,
    bloomInfo: t.bloomInfo(),
    properties: t.properties,
    tableNames: t.tableNames,
    tableSchemas: t.tableSchemas,
    warnings: t.warnings,
  };
  const indexError = await t.loadIndex();
  // What was read before an index error too (the members reject with it otherwise).
  const listing = { series: await t.series({ partial: true }), timeColumns: await t.timeColumns({ partial: true }) };
  const paths = [...listing.series.map((s) => s.path), 'root.nowhere.d1.s1', 'root.sg1.d1.s1'].slice(0, 200);
  return {
    ...opened,
    indexError: indexError && { kind: indexError.kind, offset: indexError.offset, message: indexError.message },
    ...(fullListing ? { listing } : { series: listing.series.length, timeColumns: listing.timeColumns.length, firstSeries: listing.series.slice(0, 50) }),
    audit: await t.audit({ partial: true }),
    probes: paths.map((p) => t.probe(p)),
    bloomAfter: t.bloomInfo(),
  };
}

const plainError = (e) => ({ kind: e?.kind ?? null, offset: e?.offset ?? null, message: String(e?.message ?? e) });

/** Opens `input` and reads everything, or the typed error it fails with. */
export async function openAndRead(api, input, options) {
  let t;
  try {
    t = await api.openTsFile(input, options);
  } catch (e) {
    return { error: plainError(e) };
  }
  try {
    return { file: await everything(t), reads: t.reads };
  } catch (e) {
    return { error: plainError(e) };
  } finally {
    await t.close();
  }
}

/**
 * The whole check. `files`: URLs (strings) of TsFiles; `bytesOf(url)` gives a file's bytes;
 * `leveldb`: a LevelDB table's bytes (or null to skip).
 */
export async function runChecks(api, { files, bytesOf, leveldb = null, scanPaths = ['root.sg1.d1.s1', 'root.nowhere.d.s'], gbkText = 'root.设备.s1' }) {
  const out = { fromUrl: {}, fromBytes: {}, requests: {} };
  for (const url of files) {
    const remote = await openAndRead(api, url);
    out.fromUrl[url] = remote.error ? { error: remote.error } : remote.file;
    out.requests[url] = remote.reads ?? null;
    const local = await openAndRead(api, await bytesOf(url));
    out.fromBytes[url] = local.error ? { error: local.error } : local.file;
  }
  const records = [];
  const scan = api.scanTsFiles(files, { paths: scanPaths });
  for await (const r of scan) records.push(r);
  const summary = await scan.summary;
  out.scan = { records: records.map(({ file, bytesRead, reads, ...rest }) => ({ file, ...rest })), files: summary.files, ok: summary.ok, errors: summary.errors };
  out.gbk = Array.from(await encodeGbk(api, gbkText));
  if (leveldb) {
    const table = await api.openLevelDbTable(leveldb);
    out.leveldb = { policy: table.info.filterPolicy, filters: table.filters.length };
    table.close();
  }
  return out;
}

async function encodeGbk(api, text) {
  // In browsers the charsets module is fetched on first use; Node, Deno and Workers load it synchronously.
  await api.loadCharsets();
  return api.encodePath(text, 'GBK');
}

/**
 * What a worker client (`w`, the bundled app's) says of a file's bytes opened as a Blob: its
 * mode ('worker', not the in-thread fallback), the filter at open, and each path's probe (the
 * worker reads the index first). Terminates the worker.
 */
export async function workerAnswers(w, bytes, paths) {
  try {
    const info = await w.open(new Blob([bytes]), 'worker.tsfile');
    const probes = [];
    for (const p of paths) probes.push(await w.probe(p));
    return { mode: w.mode, bloom: info.bloom, probes };
  } catch (e) {
    return { error: plainError(e) };
  } finally {
    w.terminate();
  }
}
