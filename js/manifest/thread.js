// The manifest's thread (js/manifest/opening.js starts it): reads and checks the manifest
// (js/manifest/file.js) and hands it over, or its typed error; then stats each local file it
// holds, in its order (a walk's order of the same tree): 1 where it is the version recorded.
import { parentPort, workerData } from 'node:worker_threads';
import { checkWritable, readManifest } from './file.js';
import { ID } from './check.js';
import { unchanged } from './identity.js';

/** Files statted per message (a message per file would cost more than its stat). */
const STEP = 1024;

function open(file) {
  try {
    const read = readManifest(file);
    checkWritable(file);
    return read;
  } catch (e) {
    // A typed error crosses as its fields (a clone keeps only an Error's message).
    const { kind = 'internal', offset, cause, ...fields } = e;
    parentPort.postMessage({ error: { kind, message: e.message, fields, code: cause?.code } });
    return undefined;
  }
}

const read = open(workerData.file);
if (read !== undefined) {
  // The body as it is (its index is made on the scan's thread when a walk needs it), the kept bytes moved.
  parentPort.postMessage({ opened: read && { body: read.body, bytes: read.bytes } }, read ? [read.bytes.buffer] : []);
  const { files, ids } = read?.body ?? { files: [], ids: [] };
  for (let from = 0; from < files.length; from += STEP) {
    // (An object's entry is its listing's to judge: 0 here.)
    const flags = new Uint8Array(Math.min(STEP, files.length - from));
    for (let j = 0; j < flags.length; j++) if (ids[ID * (from + j) + 3] !== null && unchanged(files[from + j], ids, ID * (from + j))) flags[j] = 1;
    parentPort.postMessage({ flags }, [flags.buffer]);
  }
}
