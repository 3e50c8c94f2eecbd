// A scan's cancellation: the error a cancelled scan rejects with, and the per-file signals
// under the scan's one.
import { TsFileBloomError } from './errors.js';

/** The error a cancelled scan rejects with (kind 'cancelled', an AbortError). */
export function cancelledError() {
  return new TsFileBloomError('cancelled', 'the scan was cancelled', { name: 'AbortError' });
}

/**
 * Per-file AbortSignals under one scan's signal, which gets a single listener however many
 * files are read at once (an EventTarget warns past 10 listeners): `child()` gives a signal
 * and its `done()`.
 */
export function fanOut(signal) {
  const live = new Set();
  signal?.addEventListener('abort', () => live.forEach((c) => c.abort()), { once: true });
  return () => {
    const c = new AbortController();
    if (signal?.aborted) c.abort();
    live.add(c);
    return { signal: c.signal, done: () => live.delete(c) };
  };
}
