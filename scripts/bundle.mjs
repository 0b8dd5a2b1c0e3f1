// Runs a CommonJS bundle of the build (dist/main.cjs) as require() would, with V8's code cache kept beside it.
// Node 20 compiles every script from source at every start; a code cache holds the bytecode of the functions
// a run compiled, so the next start with the same bundle, Node and V8 flags neither parses nor compiles them.
// The cache is named after the bundle's content: a rebuilt bundle (or an old process finishing its start
// after a rebuild) never meets a cache that is not its own, and V8 itself refuses one from another version or
// other flags (then it is written again). V8 does not check the cache's own bytes (a damaged one can crash the
// process in its deserializer, or run wrong code), so the file starts with a SHA-1 of the rest, checked before
// V8 is given it. Stack traces of code run this way name dist/main.cjs' lines: Node does not take a source map
// for a vm.Script (`node --enable-source-maps dist/main.cjs` gives the TypeScript lines). Plain JavaScript: it
// runs before anything is compiled.
import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname } from 'node:path';
import vm from 'node:vm';

/**
 * Loads `file` and returns its exports, with `saveCache()` to call once the process has done what a start does
 * (the cache then holds that work too). `cache` says what became of the cache: `used`, `missing` (none yet)
 * or `rejected` (V8 refused it: another Node, other flags; or its bytes were damaged).
 */
export function loadBundle(file) {
  // The build keeps every bundle ASCII (test/scripts/build.test.ts): read as latin1, its text is decoded at memcpy
  // speed, and straight into one string (a Buffer and a string of it were 1.2 MB more left for the collector).
  const source = readFileSync(file, 'latin1');
  const cacheFile = `${file}.${createHash('sha1').update(source, 'latin1').digest('hex').slice(0, 16)}.v8cache`;
  const stored = readCache(cacheFile);
  const cachedData = stored === 'damaged' ? undefined : stored;
  const script = new vm.Script(Module.wrap(source), {
    filename: file,
    // No importModuleDynamically: a script restored from a code cache cannot run import() in Node 20 (its
    // callback is not restored with it), so the build turns every import() into a require().
    cachedData,
  });
  const cache =
    stored === undefined
      ? 'missing'
      : stored === 'damaged' || script.cachedDataRejected
        ? 'rejected'
        : 'used';
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
        writeCache(partial, script.createCachedData());
        renameSync(partial, cacheFile);
        return true;
      } catch {
        rmSync(partial, { force: true });
        return false;
      }
    },
  };
}

const DIGEST_BYTES = 20;
const digestOf = (bytes) => createHash('sha1').update(bytes).digest();

/** The cache's bytes; undefined when there is none, `damaged` when they are not what was written. */
function readCache(file) {
  let bytes;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  if (bytes.length <= DIGEST_BYTES) return 'damaged';
  const data = bytes.subarray(DIGEST_BYTES);
  return digestOf(data).equals(bytes.subarray(0, DIGEST_BYTES)) ? data : 'damaged';
}

/** Digest, then the cache, flushed to the disk before the caller renames it into place. */
function writeCache(file, data) {
  const fd = openSync(file, 'w');
  try {
    writeSync(fd, digestOf(data));
    writeSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
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
