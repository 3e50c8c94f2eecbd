// The Worker's open TsFile: the answers its ops give about it (js/worker.js holds one at a time,
// or a synthetic filter: js/worker-synthetic.js, with the same members).
import { openTsFile, writerHypothesis } from './web.js';
import { provenance, transferred } from './worker-provenance.js';

/** Opens `blob`, shown as `name` (else the Blob's own). */
export async function openFile(blob, name) {
  const file = await openTsFile(blob);
  name = name ?? blob?.name ?? null;
  return {
    info: () => ({
      synthetic: false, name: file.name ?? name, size: file.size, version: file.version, metadata: file.metadata, bloom: file.bloomInfo(),
      properties: file.properties, tableSchemas: file.tableSchemas, tableNames: file.tableNames, warnings: file.warnings,
    }),
    filter: () => file.bloomFilter,
    // As TsFile's: an index that could not be read to its end rejects with its error, or with
    // `partial` gives what was read before it.
    loadIndex: () => file.loadIndex(),
    audit: (options) => file.audit(options),
    series: (options) => file.series(options),
    timeColumns: (options) => file.timeColumns(options),
    async probe(path, options) {
      await file.loadIndex();
      return file.probe(path, options);
    },
    /** Before a batch: the verdicts follow the file's rules with its index read. */
    prepare: () => file.loadIndex(),
    /** probeMany's rows, as TsFile#probeMany gives them (an override as in probe). */
    verdicts: (paths, options) => file.probeMany(paths, options),
    /**
     * Which indexed paths set each bit, under the writer's hash as the audit establishes it
     * (Java if ambiguous). Paths are the series, then the time columns when they were inserted.
     */
    async provenance() {
      await file.loadIndex();
      const h = writerHypothesis(await file.audit());
      // The writer's keys (its path join, its charset) come from the core, pre-encoded.
      const { bytes, ends, seriesCount } = await file.writerKeys(h);
      const p = provenance(file.bloomFilter, { bytes, ends }, { variant: h.variant });
      return transferred(p, { count: ends.length, seriesCount, variant: h.variant, charset: h.charset, timeColumns: h.timeColumns, established: h.established });
    },
    close: () => file.close(),
  };
}
