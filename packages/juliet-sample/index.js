// juliet-sample - juliet-world as the sample game's tools use it: the same
// API, with loadJuliet() loading the sample game's build of the module, the
// library's exports with the sample classes Inert, Light and Prop compiled
// in (c/sample, linked by the juliet_sample_wasm target of c/wasm into the
// generated dist/), the way a game links its own classes. The inspector,
// its local server and the JavaScript suites open the sample world through
// it; the library's own module has no class compiled in.
import { loadJuliet as loadModule } from 'juliet-world';
import createSampleModule from './dist/juliet_wasm.mjs';

export * from 'juliet-world';

/**
 * The sample game's module, loaded once (every call returns the same
 * promise): juliet-world's loadJuliet with its classes compiled in.
 * @returns {Promise<import('juliet-world').Juliet>}
 */
export function loadJuliet() {
  return loadModule({ module: createSampleModule });
}
