// One contender in the two-process race (race.test.ts). Talks to the test over IPC:
// booted → (open) → opened → (go) → result.
import { openStore } from '../../src/store/index.js';
import { captureLogger } from '../support/logs.js';

const [url, schema, instanceId, countText] = process.argv.slice(2);
const count = Number(countText);
const send = (message: object) =>
  new Promise<void>((resolve, reject) =>
    process.send!(message, (error: Error | null) => (error ? reject(error) : resolve())),
  );
const next = (type: string) =>
  new Promise<void>((resolve) => {
    const listener = (message: { type?: string }) => {
      if (message.type !== type) return;
      process.off('message', listener);
      resolve();
    };
    process.on('message', listener);
  });

async function main(): Promise<void> {
  const opening = next('open');
  await send({ type: 'booted' });
  await opening;

  const { logger, lines } = captureLogger();
  const store = await openStore(url!, { logger, schema: schema || undefined, applicationName: instanceId });
  const migrated = lines.some((l) => Array.isArray(l.migrationsApplied) && l.migrationsApplied.length > 0);
  const going = next('go');
  await send({ type: 'opened', migrated });
  await going;

  const jobWins: number[] = [];
  const inboundWins: number[] = [];
  // A few claims in flight at once, like a busy relay; on SQLite they run one after another anyway.
  let cursor = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (cursor < count) {
        const i = cursor++;
        const slot = new Date(Date.UTC(2030, 0, 1) + i * 60_000);
        if (await store.jobRuns.claim('race', slot, instanceId!)) jobWins.push(i);
        if (await store.inbound.claim(String(9_000_000_000_000_000_000n + BigInt(i)), instanceId!))
          inboundWins.push(i);
      }
    }),
  );
  const ms = performance.now() - started;
  await store.close();
  await send({ type: 'result', jobWins, inboundWins, ms });
}

main()
  .catch(async (error: unknown) => {
    process.exitCode = 1;
    await send({ type: 'error', message: String(error) });
  })
  .finally(() => process.disconnect());
