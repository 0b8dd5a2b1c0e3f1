// `node [--import ./test/support/loaded-modules.mjs] test/support/run-build.mjs <dist>`: runs a build as
// `npm start` runs dist/ (scripts/bundle.mjs: main(), then the code cache) and says on stderr what became of
// the cache, for the build's tests.
import { join } from 'node:path';
import { runBundle } from '../../scripts/bundle.mjs';

const cache = await runBundle(join(process.argv[2], 'main.cjs'));
process.stderr.write(`bundle cache: ${cache}\n`);
