// LevelDB tables (.ldb/.sst) and LevelDB's Bloom filter policy, from a second wasm
// module that is only fetched when a table is opened or a LevelDB filter is built.

import initLevelDb, {
  initSync as initLevelDbSync,
  WasmLevelDbTable,
  levelDbHash,
  levelDbK,
  levelDbFilterBits,
  buildLevelDbFilter,
  probeLevelDbFilter,
  stageKeys,
  wasmMemory,
} from '../dist/web/leveldb.js';
import { stagePaths } from './core.js';
import { invalidArgument, TsFileBloomError } from './errors.js';
import { lazyWasm } from './lazy-wasm.js';
import { toSource } from './source.js';
import { LEVELDB_TABLE_MAGIC } from './core-tables.js';


/** Tables are read whole; LevelDB writes them at a few MiB. */
const MAX_TABLE_BYTES = 256 * 1024 * 1024;

// The module, loaded on first use (js/lazy-wasm.js). The literal `new URL(…, import.meta.url)`
// is what bundlers look for to copy the asset.
export const levelDbWasm = lazyWasm(initLevelDb, initLevelDbSync, () => new URL('../dist/web/leveldb_bg.wasm', import.meta.url));

/**
 * Loads the LevelDB module once; resolves to the synchronous LevelDB helpers. `module_or_path`
 * (a URL, Response, bytes or WebAssembly.Module) overrides where it comes from.
 */
export async function loadLevelDb(options) {
  await levelDbWasm.load(options);
  return levelDbHelpers;
}

const utf8 = new TextEncoder();
const keyBytes = (key) => {
  if (typeof key === 'string') return utf8.encode(key);
  if (key instanceof Uint8Array) return key;
  throw invalidArgument('key', 'a key must be a string (UTF-8) or a Uint8Array');
};

/** Synchronous helpers, available once loadLevelDb() has resolved. */
const levelDbHelpers = Object.freeze({
  /** LevelDB's BloomHash (Hash with seed 0xbc9f1d34). */
  hash: (key) => levelDbHash(keyBytes(key)),
  /** k = floor(bitsPerKey × 0.69), clamped to 1..30 (BloomFilterPolicy). */
  k: (bitsPerKey) => levelDbK(bitsPerKey),
  /** The bit count CreateFilter gives `n` keys: n × bitsPerKey, at least 64, whole bytes. */
  filterBits: (n, bitsPerKey) => levelDbFilterBits(n, bitsPerKey),
  /** BloomFilterPolicy(bitsPerKey).CreateFilter(keys): `{bytes, k, bitCount}` (bytes end with k). */
  buildFilter(keys, bitsPerKey = 10) {
    if (!Array.isArray(keys)) throw invalidArgument('keys', 'buildFilter expects an array of keys');
    if (!Number.isInteger(bitsPerKey) || bitsPerKey < 0) throw invalidArgument('bitsPerKey', `bitsPerKey must be a non-negative integer, not ${String(bitsPerKey)}`);
    const { count } = stagePaths(keys, undefined, { stageKeys, wasmMemory });
    const bytes = buildLevelDbFilter(count, bitsPerKey);
    return { bytes, k: bytes[bytes.length - 1], bitCount: (bytes.length - 1) * 8 };
  },
  /** KeyMayMatch with every probe shown: `{verdict, reason, hash, probes: [{bit, set}]}`. */
  probeFilter: (key, filterBytes) => probeLevelDbFilter(keyBytes(key), filterBytes),
});

const OPEN = Symbol('open');
const registry = typeof FinalizationRegistry === 'undefined' ? null : new FinalizationRegistry((raw) => raw.free());

export class LevelDbTable {
  #raw;
  #name;
  #size;
  #filters = null;
  #info = null;

  /** Use openLevelDbTable(). */
  constructor(raw, name, size, token) {
    if (token !== OPEN) throw invalidArgument('this', 'a LevelDbTable is made by openLevelDbTable(), not by its constructor');
    this.#raw = raw;
    this.#name = name;
    this.#size = size;
    registry?.register(this, raw, this);
  }

  // Every member goes through #table: after close() each throws this one typed error.
  get #table() {
    if (!this.#raw) throw invalidArgument('this', 'this table is closed');
    return this.#raw;
  }

  get name() {
    return this.#table && this.#name;
  }

  get size() {
    return this.#table && this.#size;
  }

  /** `{fileSize, filterPolicy, policySupported, baseLg, keyFormat, filterBlock, metaindex, index, metaEntries}`. */
  get info() {
    const table = this.#table; // closed: the typed error, cached or not
    return (this.#info ??= table.info());
  }

  /** `[{index, offset, length, k, bitCount, setBits, dataBlockOffsets}]` in file order, empty filters included. */
  get filters() {
    const table = this.#table; // closed: the typed error, cached or not
    return (this.#filters ??= table.filters());
  }

  /** `[{index, offset, size, separatorHex, filterIndex}]` from the index block. */
  dataBlocks() {
    return this.#table.dataBlocks();
  }

  /** Filter `index` as stored: the bit bytes followed by the k byte. */
  filterBytes(index) {
    return this.#table.filterBytes(index) ?? null;
  }

  /**
   * Routes a user key (UTF-8 string or bytes) through the index to its data block and
   * that block's filter: `{verdict, reason, blockIndex, dataBlock, filterIndex, hash, probes}`.
   */
  probe(key) {
    return this.#table.probe(keyBytes(key));
  }

  close() {
    if (!this.#raw) return;
    registry?.unregister(this);
    this.#raw.free();
    this.#raw = null;
  }

  /** `using table = await openLevelDbTable(…)` closes it at the end of the block. */
  [Symbol.dispose ?? Symbol.for('Symbol.dispose')]() {
    this.close();
  }
}

/** Opens a LevelDB table (.ldb/.sst). Rejects with a TsFileBloomError. */
export async function openLevelDbTable(input, { source: makeSource = toSource } = {}) {
  await loadLevelDb();
  const source = await makeSource(input);
  try {
    if (source.size > MAX_TABLE_BYTES) {
      throw new TsFileBloomError('too_large', `${source.size} bytes is larger than any LevelDB table (limit ${MAX_TABLE_BYTES})`);
    }
    const bytes = await source.read(0, source.size);
    return new LevelDbTable(WasmLevelDbTable.open(bytes), source.name ?? null, source.size, OPEN);
  } finally {
    await source.close?.();
  }
}

/** True when the bytes end with LevelDB's table magic. */
export function isLevelDbFooter(last8) {
  return last8.length === 8 && LEVELDB_TABLE_MAGIC.every((b, i) => last8[i] === b);
}
