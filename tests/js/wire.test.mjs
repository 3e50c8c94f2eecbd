// js/wire.js, the package's one decoder of the core's layouts (src/tsfile/wire/): its two walks of
// the listing's columns agree on every fixture, and each decoded value is what the API's own
// objects say. (Its code tables are js/core-tables.js, generated from the core: tests/generated.rs.)
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openTsFile } from 'tsfile-bloom';
import { listingColumns } from '../../js/tsfile.js';
import {
  DATA_TYPES, LISTING_NULL, LISTING_STRIDE, listingBounds, listingFrom, recordMaybe, recordName, recordOffset, recordSegments, recordType, isTimeColumn,
} from '../../js/wire.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

function tsfiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? tsfiles(p) : name.endsWith('.tsfile') ? [p] : [];
  });
}

/** The listing rebuilt from listingBounds' positions (the walk report.js uses), independently of listingFrom's. */
function fromBounds([bytes, bounds, numbers]) {
  const text = (b) => (bounds[b] === LISTING_NULL ? null : new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(bounds[b], bounds[b + 1])));
  const at = listingBounds(numbers);
  assert.equal(at.length, (3 * numbers.length) / LISTING_STRIDE);
  const out = { series: [], timeColumns: [] };
  const names = [];
  let prefix;
  let table;
  let device;
  for (let i = 0, n = 0; n < numbers.length; i += 3, n += LISTING_STRIDE) {
    if (at[i] >= 0) {
      prefix = text(at[i]);
      table = text(at[i] + 2);
      device = Array.from({ length: recordSegments(numbers, n) }, (_, j) => text(at[i] + 4 + 2 * j));
    }
    if (at[i + 1] >= 0) names.push(text(at[i + 1]));
    const measurement = names[recordName(numbers, n)];
    const path = at[i + 2] >= 0 ? text(at[i + 2]) : prefix + measurement;
    const flags = numbers[n];
    const item = { path, table, device, measurement, dataType: DATA_TYPES[recordType(numbers, n)], offset: recordOffset(numbers, n), maybePresent: recordMaybe(flags) };
    (isTimeColumn(flags) ? out.timeColumns : out.series).push(item);
  }
  return out;
}

test('listingFrom and listingBounds walk the columns alike on every fixture, and give the API listing', async () => {
  let files = 0;
  let records = 0;
  for (const path of tsfiles(FIXTURES)) {
    let t;
    try {
      t = await openTsFile(path);
    } catch {
      continue; // a file that does not open has no listing
    }
    try {
      const columns = await listingColumns(t);
      const listing = listingFrom(columns);
      assert.deepEqual(fromBounds(columns), listing, path);
      // (what a damaged index gave, as the columns)
      const api = { series: await t.series({ partial: true }), timeColumns: await t.timeColumns({ partial: true }) };
      assert.deepEqual(listing, api, path);
      // The records of one device share one frozen array.
      for (const s of listing.series) assert.ok(Object.isFrozen(s.device), path);
      files++;
      records += listing.series.length + listing.timeColumns.length;
    } finally {
      await t.close();
    }
  }
  assert.ok(files > 40 && records > 10000, `${files} files, ${records} records`);
});
