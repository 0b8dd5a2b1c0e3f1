// Runs a CommonJS bundle of the build (dist/main.cjs) as require() would, with V8's code cache kept beside it.
// Node 20 compiles every script from source at every start; a code cache holds the bytecode of the functions
// a run compiled, so the next start with the same bundle, Node and V8 flags neither parses nor compiles them.
// The cache is named after the bundle's content: a rebuilt bundle (or an old process finishing its start
// after a rebuild) never meets a cache that is not its own, and V8 itself refuses one from another version or
// other flags (then it is written again). Plain JavaScript: it runs before anything is compiled.
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname } from 'node:path';
import vm from 'node:vm';

/**
 * Loads `file` and returns its exports, with `saveCache()` to call once the process has done what a start does
 * (the cache then holds that work too). `cache` says what became of the cache: `used`, `missing` (none yet)
 * or `rejected` (V8 refused it: another Node, other flags).
 */
export function loadBundle(file) {
  const bytes = readFileSync(file);
  const cacheFile = `${file}.${createHash('sha1').update(bytes).digest('hex').slice(0, 16)}.v8cache`;
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  // The build keeps every bundle ASCII (test/scripts/build.test.ts): latin1 is its text, decoded at memcpy speed.
  const script = new vm.Script(Module.wrap(bytes.toString('latin1')), {
    filename: file,
    cachedData,
    // `import()` in the bundle (a package loaded on first use, the local workspace) as a module's own would.
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const cache = cachedData === undefined ? 'missing' : script.cachedDataRejected ? 'rejected' : 'used';
  const module = new Module(file);
  module.filename = file;
  module.paths = Module._nodeModulePaths(dirname(file));
  module.loaded = true;
  const require = createRequire(file);
  script.runInThisContext().call(module.exports, module.exports, require, module, file, dirname(file));
  return {
    exports: module.exports,
    cache,
    /** Writes the cache when there was none to use; never fails the process (a read-only deployment). */
    saveCache() {
      if (cache === 'used') return false;
      const partial = `${cacheFile}.${process.pid}`;
      try {
        writeFileSync(partial, script.createCachedData());
        renameSync(partial, cacheFile);
        return true;
      } catch {
        rmSync(partial, { force: true });
        return false;
      }
    },
  };
}

/**
 * What `npm start` does with the build: runs the bundle's main(), then writes the code cache if it had none
 * to use. Resolves with what became of the cache once the bot is up.
 */
export async function runBundle(file) {
  const bot = loadBundle(file);
  await bot.exports.main();
  // After the start, not before: the cache then holds every function the start compiled.
  bot.saveCache();
  return bot.cache;
}
