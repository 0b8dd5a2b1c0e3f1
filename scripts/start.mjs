// `npm start`: runs the compiled bot (dist/main.cjs), compiling it first when the TypeScript sources
// changed since the last build (a fresh clone, a pull, an edit), so no manual build step is ever needed.
// The check costs a few milliseconds; compiling, under a second. The bundle runs with V8's code cache
// (scripts/bundle.mjs), written once the first start after a build is up. Plain JavaScript: nothing to compile.
import { builtSignature, DIST, ensureBuilt } from './build.mjs';
import { runBundle } from './bundle.mjs';

try {
  await ensureBuilt();
} catch (error) {
  // A read-only deployment with a build made at install time still starts, from that build.
  const reason = error instanceof Error ? error.message : String(error);
  if (builtSignature() === undefined) {
    process.stderr.write(`smsops: cannot compile the sources into dist/ (${reason})\n`);
    process.exit(1);
  }
  process.stderr.write(
    `smsops: the sources changed but dist/ could not be rebuilt (${reason}); running the last build\n`,
  );
}
await runBundle(`${DIST}/main.cjs`);
