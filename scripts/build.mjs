// The build: every TypeScript file of src/ and workspace/ compiled to plain JavaScript in dist/ (same
// layout: dist/src/main.js, dist/workspace/...), file by file with esbuild (well under a second), so a
// lazily imported module stays lazy. The files the code reads beside itself come along: the local
// workspace page (workspace/page/ui/) and manifest.yml. Types are checked by `npm run typecheck`, not here.
//
// Plain JavaScript on purpose: it runs before anything is compiled (`npm start` → scripts/start.mjs).
//
//   node scripts/build.mjs            build dist/ if the sources changed since the last build
//   node scripts/build.mjs --force    build dist/ whatever the stamp says
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DIST = join(ROOT, 'dist');
const STAMP = '.build-stamp.json';
/** Folders compiled, every file under them part of the signature. */
const SOURCE_DIRS = ['src', 'workspace'];
/** Single files the output depends on: what is copied, and what tells esbuild how to compile. */
const SOURCE_FILES = ['manifest.yml', 'package.json', 'tsconfig.json', 'scripts/build.mjs'];
/** Copied as they are (read at run time relative to the module that reads them). */
const COPIED = ['workspace/page/ui', 'manifest.yml'];

function walk(dir, out) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

function sourceFiles(root) {
  const files = [];
  for (const dir of SOURCE_DIRS) walk(join(root, dir), files);
  for (const file of SOURCE_FILES) if (existsSync(join(root, file))) files.push(join(root, file));
  return files.sort();
}

/**
 * What the build was made from: every source file's path, size and modification time, hashed. Any change
 * (a file edited, added, removed, or checked out older) changes it; reading it costs a few milliseconds.
 */
export function sourceSignature(root = ROOT) {
  const hash = createHash('sha256');
  for (const file of sourceFiles(root)) {
    const s = statSync(file);
    hash.update(`${relative(root, file)}\0${s.size}\0${s.mtimeMs}\n`);
  }
  return hash.digest('hex');
}

/** The signature dist/ was built from, or undefined when there is no complete build. */
export function builtSignature(dist = DIST) {
  try {
    return JSON.parse(readFileSync(join(dist, STAMP), 'utf8')).signature;
  } catch {
    return undefined;
  }
}

export function isStale({ root = ROOT, dist = DIST } = {}) {
  return builtSignature(dist) !== sourceSignature(root);
}

/**
 * Compiles into a fresh folder beside `dist` and swaps it in, so a half-written build is never run and a
 * deleted source leaves no stale module behind.
 */
export async function build({ root = ROOT, dist = DIST } = {}) {
  const started = performance.now();
  const signature = sourceSignature(root);
  const { build: esbuild } = await import('esbuild');
  const next = `${dist}.next-${process.pid}`;
  rmSync(next, { recursive: true, force: true });
  const entryPoints = sourceFiles(root).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  await esbuild({
    absWorkingDir: root,
    entryPoints,
    outdir: next,
    outbase: root,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Stack traces of the compiled code point at the TypeScript lines (node --enable-source-maps).
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
  });
  for (const path of COPIED) cpSync(join(root, path), join(next, path), { recursive: true });
  writeFileSync(join(next, STAMP), `${JSON.stringify({ signature, builtAt: new Date().toISOString() })}\n`);
  const old = `${dist}.old-${process.pid}`;
  if (existsSync(dist)) renameSync(dist, old);
  mkdirSync(dirname(dist), { recursive: true });
  renameSync(next, dist);
  rmSync(old, { recursive: true, force: true });
  return { files: entryPoints.length, ms: Math.round(performance.now() - started) };
}

/** Builds when the sources changed since the last build; says so on stderr. */
export async function ensureBuilt(options = {}) {
  if (!options.force && !isStale(options)) return false;
  const { files, ms } = await build(options);
  process.stderr.write(`smsops: compiled ${files} TypeScript files into dist/ in ${ms} ms\n`);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await ensureBuilt({ force: process.argv.includes('--force') });
}
