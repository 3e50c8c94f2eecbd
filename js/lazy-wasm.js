// The wasm modules loaded on first use (the charsets and LevelDB ones). Where one comes from is
// decided at first use, never at import (a runtime without a usable import.meta.url, such as
// Cloudflare's workerd, must be able to import the package): an entry's synchronous provider
// (Node reads the file, Deno and Workers import it, the web entry's initSync is given it), the
// web entry's init({ charsets, leveldb }), load({ module_or_path }), or by default `defaultUrl()`,
// the .wasm beside the package's glue.

/** A module loaded once, when first asked for, by its wasm-bindgen glue's `init` and `initSync`. */
export function lazyWasm(init, initSync, defaultUrl) {
  let provider = null;
  let located;
  let loaded = false;
  let loading = null;
  const lazy = {
    /** An entry's synchronous provider of the module: `() => bytes | WebAssembly.Module`. */
    provide(provide) {
      provider = provide;
    },
    /** Where a browser loads the module from when it is first needed (the web entry's init option). */
    locate(moduleOrPath) {
      located = moduleOrPath;
    },
    /** Whether the module is ready now, without awaiting load(). */
    loaded: () => loaded,
    /** Loads the module now when that can be done synchronously (an entry's provider); returns whether it is loaded. */
    loadSync() {
      if (!loaded && provider) {
        initSync({ module: provider() });
        loaded = true;
      }
      return loaded;
    },
    /** Loads the module once; later calls return the same promise. `module_or_path` overrides where it comes from. */
    load(options) {
      const given = options?.module_or_path;
      loading ??= (async () => {
        if (loaded || (given === undefined && lazy.loadSync())) return;
        await init({ module_or_path: given ?? located ?? defaultUrl() });
        loaded = true;
      })().catch((e) => {
        loading = null; // a failed fetch may be retried
        throw e;
      });
      return loading;
    },
  };
  return lazy;
}
