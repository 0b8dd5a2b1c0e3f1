import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/build.mjs';
import { loadBundle } from '../../scripts/bundle.mjs';

// Inside the checkout, so that the bundle's require() of a package finds node_modules as dist/main.cjs does.
const dir = join(ROOT, `dist.bundle-test-${process.pid}`);
const file = join(dir, 'main.cjs');
const caches = () => readdirSync(dir).filter((f) => f.endsWith('.v8cache'));

function writeBundle(answer: number): void {
  writeFileSync(
    file,
    [
      `exports.answer = () => ${answer};`,
      'exports.filename = __filename;',
      "exports.papaParses = () => require('papaparse').parse('a;b').data[0].length;",
      "exports.usesRequire = () => require('node:path').basename(__filename);",
    ].join('\n'),
  );
}

/**
 * One start in a process of its own, as `npm start` makes one: within one process V8 reuses what it compiled
 * and would never look at the cache on disk.
 */
function start(flags: string[] = []): { cache: string; answer: number; saved: boolean } {
  const script = `import { loadBundle } from ${JSON.stringify(join(ROOT, 'scripts/bundle.mjs'))};
const run = loadBundle(${JSON.stringify(file)});
const answer = run.exports.answer();
console.log(JSON.stringify({ cache: run.cache, answer, saved: run.saveCache() }));`;
  return JSON.parse(
    execFileSync(process.execPath, [...flags, '--input-type=module', '-e', script], { encoding: 'utf8' }),
  );
}

describe('loadBundle (scripts/bundle.mjs): a build bundle run with its code cache', () => {
  beforeEach(() => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeBundle(42);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the bundle as CommonJS, with require of a package from node_modules and __filename', () => {
    const { exports } = loadBundle(file);
    expect(exports.answer()).toBe(42);
    expect(exports.filename).toBe(file);
    expect(exports.usesRequire()).toBe('main.cjs');
    expect(exports.papaParses()).toBe(2);
  });

  it('has no cache on the first start, writes one after it, and the next start uses it', () => {
    expect(start()).toEqual({ cache: 'missing', answer: 42, saved: true });
    expect(caches()).toHaveLength(1);
    // Nothing to write when the cache was used.
    expect(start()).toEqual({ cache: 'used', answer: 42, saved: false });
  });

  it('never runs a rebuilt bundle from the cache of the one before, even of the same length', () => {
    start();
    writeBundle(43);
    expect(start()).toEqual({ cache: 'missing', answer: 43, saved: true });
    expect(caches()).toHaveLength(2);
  });

  it('writes the cache again when V8 refuses it: a damaged file, other V8 flags', () => {
    start();
    writeFileSync(join(dir, caches()[0]!), 'not a code cache');
    expect(start()).toEqual({ cache: 'rejected', answer: 42, saved: true });
    expect(start()).toEqual({ cache: 'used', answer: 42, saved: false });
    // One byte changed inside a real cache: V8 would take it (or crash in its deserializer); it never sees it.
    const cacheFile = join(dir, caches()[0]!);
    const bytes = readFileSync(cacheFile);
    for (const at of [bytes.length >> 1, bytes.length - 1]) {
      const damaged = Buffer.from(bytes);
      damaged[at]! ^= 0x10;
      writeFileSync(cacheFile, damaged);
      expect(start()).toEqual({ cache: 'rejected', answer: 42, saved: true });
    }
    expect(start()).toEqual({ cache: 'used', answer: 42, saved: false });
    expect(start(['--max-semi-space-size=32'])).toEqual({ cache: 'rejected', answer: 42, saved: true });
    expect(start(['--max-semi-space-size=32'])).toEqual({ cache: 'used', answer: 42, saved: false });
  });

  it('starts without a cache when it cannot be written (a read-only deployment)', () => {
    const run = loadBundle(file);
    rmSync(dir, { recursive: true, force: true });
    expect(run.saveCache()).toBe(false);
  });
});
