// The build: src/main.ts compiled by esbuild into dist/main.cjs, bundled with the small pure-JavaScript
// libraries it uses (kysely, zod, date-fns, libphonenumber-js, node-cron, …): one file loads in a fraction
// of the time and memory of hundreds of little modules. CommonJS, not an ES module, because Node 20 keeps
// V8's code cache only for scripts: `npm start` runs dist/main.cjs through scripts/bundle.mjs, which keeps
// the compiled code of everything a start ran beside the bundle, so the next start parses and compiles
// none of it (about a fifth of a bare Bolt app's start). The local workspace and the simulator are bundles
// of their own (dist/workspace.cjs, dist/simulator.cjs), loaded only in the mode that runs them. Left to
// node_modules, loaded as they are: Bolt and its dependencies (as a bare Bolt app loads them), native and
// worker-based packages (better-sqlite3, pg, pino, pino-pretty), the chart renderer's WebAssembly package,
// undici and dotenv, and what only a file upload or METRICS_PORT needs (iconv-lite, Papa Parse, exceljs,
// prom-client). Types are checked by `npm run typecheck`, not here.
//
// Plain JavaScript on purpose: it runs before anything is compiled (`npm start` → scripts/start.mjs).
//
//   node scripts/build.mjs            build dist/ if the sources changed since the last build
//   node scripts/build.mjs --force    build dist/ whatever the stamp says
import { createHash } from 'node:crypto';
import {
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
/**
 * Single files the output depends on: the compiler's settings, and the installed versions of the bundled
 * libraries (an `npm ci` rewrites node_modules/.package-lock.json).
 */
const SOURCE_FILES = [
  'package.json',
  'package-lock.json',
  'node_modules/.package-lock.json',
  'tsconfig.json',
  'scripts/build.mjs',
];
/** Loaded from node_modules at run time rather than bundled (see above). */
export const EXTERNAL = [
  '@slack/bolt',
  'better-sqlite3',
  'pg',
  'pino',
  'pino-pretty',
  '@resvg/resvg-wasm',
  'dotenv',
  // Bolt loads undici's index anyway (@slack/socket-mode): the gateway client shares that one copy.
  'undici',
  // Loaded only when used (a file read, METRICS_PORT set): left out of the bundle, read from node_modules.
  'iconv-lite',
  'papaparse',
  'exceljs',
  'prom-client',
];

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
 * Bundles of their own, loaded by the main bundle only in the mode that runs them. What they share with the
 * main bundle is stateless (a logger that logs nothing, same-site checks, constants), so a copy is harmless.
 */
const SEPARATE = { workspace: 'workspace/index.ts', simulator: 'src/simulator/server.ts' };

/**
 * Bundles run as worker threads, not imported: the reading thread of uploaded files (src/tables/worker/script.ts
 * finds it beside main.cjs).
 */
const THREADS = { 'table-reader': 'src/tables/worker/thread-main.ts' };

/**
 * Every `await import()` of a separate bundle or of a package left to node_modules becomes a require() of it:
 * V8's code cache does not keep what a script needs for `import()` (Node 20 fails it with "A dynamic import
 * callback was not specified" once the script comes from the cache), and all of them are CommonJS anyway.
 * The import still loads the module when it runs, not before, with the namespace `import()` would give.
 */
function lazyRequires(root) {
  const bundleOf = new Map(
    Object.entries(SEPARATE).map(([name, file]) => [join(root, file), `./${name}.cjs`]),
  );
  const isExternal = (path) => EXTERNAL.some((name) => path === name || path.startsWith(`${name}/`));
  return {
    name: 'lazy-requires',
    setup(on) {
      on.onResolve({ filter: /.*/ }, (args) => {
        if (args.namespace === 'lazy-require') return { path: args.path, external: true };
        if (args.kind !== 'dynamic-import') return undefined;
        const target = args.path.startsWith('.')
          ? bundleOf.get(join(args.resolveDir, args.path).replace(/\.js$/, '.ts'))
          : isExternal(args.path)
            ? args.path
            : undefined;
        return target === undefined ? undefined : { path: target, namespace: 'lazy-require' };
      });
      on.onLoad({ filter: /.*/, namespace: 'lazy-require' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(args.path)});`,
        loader: 'js',
      }));
    },
  };
}

/**
 * esbuild escapes what is not ASCII in strings, but leaves it in some regular expressions (numfmt's locale
 * patterns, in the reading thread's bundle): each such UTF-16 unit becomes its \\uXXXX escape, which means the
 * same in a string, a template and a regular expression, so that every bundle stays ASCII (see `minifyWhitespace`).
 */
function asciiOnly(file) {
  const source = readFileSync(file, 'utf8');
  const beyondAscii = /[\u0080-\uffff]/g;
  if (!beyondAscii.test(source)) return;
  const escaped = (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  writeFileSync(file, source.replace(beyondAscii, escaped));
}

/**
 * Compiles into a fresh folder beside `dist` and swaps it in, so a half-written build is never run and a
 * deleted source leaves no stale module (or code cache) behind.
 */
export async function build({ root = ROOT, dist = DIST } = {}) {
  const started = performance.now();
  const signature = sourceSignature(root);
  const { build: esbuild } = await import('esbuild');
  const next = `${dist}.next-${process.pid}`;
  rmSync(next, { recursive: true, force: true });
  const result = await esbuild({
    absWorkingDir: root,
    entryPoints: { main: 'src/main.ts', ...SEPARATE, ...THREADS },
    outdir: next,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    plugins: [lazyRequires(root)],
    // import.meta.url (a file next to the sources, createRequire) is the bundle's own URL.
    define: { 'import.meta.url': '__smsopsModuleUrl' },
    banner: { js: "var __smsopsModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
    // Whitespace and comments out: the bundle's source stays in the heap for the life of the process, and a
    // single non-ASCII character in a comment (a library's ’ or §) makes V8 keep a whole file as a two-byte
    // string (a 2 MB main.js took 4 MB). Names are kept, so stack traces still name the functions.
    minifyWhitespace: true,
    // The libraries' licence comments go to dist/*.LEGAL.txt (one, with a non-ASCII name, was in main.js).
    legalComments: 'external',
    // `node --enable-source-maps dist/main.cjs` gives the TypeScript lines in stack traces (`npm start` runs
    // the bundle through vm.Script, for which Node takes no source map: its traces name main.cjs' lines).
    sourcemap: 'linked',
    sourcesContent: false,
    metafile: true,
    logLevel: 'warning',
  });
  for (const file of readdirSync(next).filter((f) => f.endsWith('.cjs'))) asciiOnly(join(next, file));
  writeFileSync(join(next, 'meta.json'), JSON.stringify(result.metafile));
  writeFileSync(join(next, STAMP), `${JSON.stringify({ signature, builtAt: new Date().toISOString() })}\n`);
  const old = `${dist}.old-${process.pid}`;
  if (existsSync(dist)) renameSync(dist, old);
  mkdirSync(dirname(dist), { recursive: true });
  renameSync(next, dist);
  rmSync(old, { recursive: true, force: true });
  return { files: Object.keys(result.metafile.inputs).length, ms: Math.round(performance.now() - started) };
}

/** Builds when the sources changed since the last build; says so on stderr. */
export async function ensureBuilt(options = {}) {
  if (!options.force && !isStale(options)) return false;
  const { files, ms } = await build(options);
  process.stderr.write(`smsops: compiled ${files} modules into dist/ in ${ms} ms\n`);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await ensureBuilt({ force: process.argv.includes('--force') });
}
