import { createRequire } from "node:module";

const requireModule = createRequire(import.meta.url);

/**
 * A package loaded on its first use instead of at start-up (decision 072), for the heavy ones
 * only some requests need (a web page's reader, run_code's transpiler, the zip writer): a
 * server that never uses them starts sooner and holds less memory, and the first use pays
 * the load once. CommonJS (or dual) packages only, since the load is synchronous.
 */
export function lazyModule<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= requireModule(id) as T;
    return loaded;
  };
}
