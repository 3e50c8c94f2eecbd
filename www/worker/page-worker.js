// The page's worker: the package's Worker (pkg/js/worker.js) with the page's own ops added —
// the teaching panel's 'teach.*' and the LevelDB view's 'leveldb.*' (teach-ops.js), which the
// npm package does not ship. worker-client's in-thread fallback imports this module and calls
// its createHandler.
import { createHandler as packageHandler, installWorker } from '../pkg/js/worker.js';
import { teachOps } from './teach-ops.js';

export const createHandler = () => packageHandler(teachOps);

installWorker(teachOps);
