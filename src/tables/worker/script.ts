import { createRequire } from 'node:module';
import type { WorkerOptions } from 'node:worker_threads';

/**
 * Where the reading thread's code is. Built (`npm start` runs dist/main.cjs; scripts/build.mjs makes the
 * thread its own bundle beside it, dist/table-reader.cjs), import.meta.url is the bundle's own URL. From the
 * sources (vitest, tsx), the thread is thread-main.ts: Node 20 gives a worker no loader hooks of its parent's
 * and refuses `--import` in its execArgv, so a one-line module registers tsx in the thread, then loads it.
 */
export function readerScript(): { url: URL; options: WorkerOptions } {
  const here = import.meta.url;
  if (here.endsWith('.cjs')) return { url: new URL('./table-reader.cjs', here), options: {} };
  const tsxApi = tsxEsmApi();
  const entry = new URL('./thread-main.ts', here).href;
  const code = `import { register } from ${JSON.stringify(tsxApi)}; register(); await import(${JSON.stringify(entry)});`;
  return { url: new URL(`data:text/javascript,${encodeURIComponent(code)}`), options: {} };
}

/** tsx's ESM API (its `register()`), found through its package's own exports map. */
function tsxEsmApi(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('tsx/package.json');
  const exports = (require(manifest) as { exports: Record<string, { import: { default: string } }> }).exports;
  return new URL(exports['./esm/api']!.import.default, `file://${manifest}`).href;
}
