import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

/**
 * A process started as `npm start` starts the bot (with --max-semi-space-size, here 1 MiB to tell them apart)
 * starts a worker thread asking for a young generation of 48 MB, which keeps a few megabytes of short-lived
 * objects alive, as a file's rows are while it is read; it answers with the largest its new space grew to.
 */
async function grownNewSpaceMb(honoured: boolean): Promise<number> {
  const module = new URL('../../src/threads/young-generation.ts', import.meta.url).href;
  const script = `
    import { Worker } from 'node:worker_threads';
    import { honourYoungGenerationLimit } from ${JSON.stringify(module)};
    if (${honoured}) honourYoungGenerationLimit(48);
    const thread = new Worker(\`
      const { getHeapSpaceStatistics } = require('node:v8');
      const { parentPort } = require('node:worker_threads');
      const kept = new Array(100000);
      let most = 0;
      for (let i = 0; i < 400000; i++) {
        kept[i % 100000] = { i, name: 'satır ' + i };
        if (i % 1000 === 0) {
          const space = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
          if (space > most) most = space;
        }
      }
      parentPort.postMessage(most);
    \`, { eval: true, execArgv: [], resourceLimits: { maxYoungGenerationSizeMb: 48 } });
    thread.once('message', (most) => { console.log(most / 2 ** 20); thread.terminate(); });
  `;
  const { stdout } = await run(
    process.execPath,
    ['--max-semi-space-size=1', '--import', 'tsx', '--input-type=module', '-e', script],
    { timeout: 60_000 },
  );
  return Number(stdout.trim());
}

describe('a worker thread’s young generation', () => {
  it('is what its resourceLimits ask, not the cap the process was started with', async () => {
    // Without it, the process's 1 MiB semi-spaces: the space never grows past them.
    expect(await grownNewSpaceMb(false)).toBeLessThanOrEqual(2);
    expect(await grownNewSpaceMb(true)).toBeGreaterThan(4);
  });
});
