import { describe, expect, it } from 'vitest';
import { JobLoop, type JobOutcome } from '../../src/jobs/loop.js';
import { silentLogger } from '../../src/log.js';

/** Runs a loop until it has made `passes` passes, and returns what its observer was told. */
async function observe(
  run: (pass: number) => Promise<unknown>,
  passes: number,
  failed?: (result: unknown) => boolean,
): Promise<Array<{ job: string; outcome: JobOutcome; seconds: number }>> {
  const told: Array<{ job: string; outcome: JobOutcome; seconds: number }> = [];
  let loop: JobLoop | undefined;
  let pass = 0;
  await new Promise<void>((resolve) => {
    loop = JobLoop.every({
      name: 'test job',
      logger: silentLogger,
      everyMs: 1,
      run: () => run(pass++),
      failed,
      observer: {
        onRun(job, outcome, seconds) {
          told.push({ job, outcome, seconds });
          if (told.length === passes) resolve();
        },
      },
    });
    loop.start();
  });
  await loop!.stop();
  return told.slice(0, passes);
}

describe('JobLoop tells its observer of every pass', () => {
  it('by name and outcome: a pass that throws, or that says it failed, is failed', async () => {
    const told = await observe(
      async (pass) => {
        if (pass === 1) throw new Error('store down');
        return { ok: pass !== 2 };
      },
      3,
      (result) => !(result as { ok: boolean }).ok,
    );
    expect(told.map((t) => [t.job, t.outcome])).toEqual([
      ['test job', 'ok'],
      ['test job', 'failed'],
      ['test job', 'failed'],
    ]);
    for (const t of told) expect(t.seconds).toBeGreaterThanOrEqual(0);
  });
});

describe('JobLoop stops what its pass waits on', () => {
  it('aborts the signal its pass holds when stopped, and gives a new one when started again', async () => {
    let passStarted!: () => void;
    const started = new Promise<void>((resolve) => (passStarted = resolve));
    let ended = 'not yet';
    const loop: JobLoop = JobLoop.every({
      name: 'waiting job',
      logger: silentLogger,
      everyMs: 60_000,
      // A pass that would wait a minute on something it was handed the loop's signal for.
      run: async () => {
        const signal = loop.signal;
        passStarted();
        ended = await new Promise<string>((resolve) => {
          const timer = setTimeout(() => resolve('waited it out'), 60_000);
          signal.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve('aborted');
          });
        });
      },
    });
    loop.start();
    await started;

    await loop.stop();

    expect(ended).toBe('aborted');
    expect(loop.signal.aborted).toBe(true);
    loop.start();
    expect(loop.signal.aborted).toBe(false);
    await loop.stop();
  });
});
