// One of two processes racing for the same digest slots (digest-race.test.ts). IPC: booted → (go) → result.
import { DigestScheduler } from '../../src/jobs/digest-scheduler.js';
import { silentLogger } from '../../src/log.js';
import { openStore } from '../../src/store/index.js';
import { FakeGateway, RecordingPoster, twelveMonths } from './digest-fakes.js';

const [url, instanceId, slotsText, startText] = process.argv.slice(2);
const slots = Number(slotsText);
const start = Number(startText);
const send = (message: object) =>
  new Promise<void>((resolve, reject) =>
    process.send!(message, (error: Error | null) => (error ? reject(error) : resolve())),
  );
const go = new Promise<void>((resolve) => {
  process.on('message', (m: { type?: string }) => {
    if (m.type === 'go') resolve();
  });
});

async function main(): Promise<void> {
  const store = await openStore(url!);
  const gateway = new FakeGateway();
  gateway.stats = twelveMonths(2030, 1);
  const poster = new RecordingPoster();
  const scheduler = new DigestScheduler({
    gateway,
    store,
    poster,
    logger: silentLogger,
    // Every minute, as tests may: DIGEST_MIN_INTERVAL_SECONDS lowered to match.
    settings: { reportTimeZone: 'UTC', simulated: true, instanceId: instanceId!, minIntervalSeconds: 60 },
  });
  await send({ type: 'booted' });
  await go;
  const posts: Array<{ subscriptionId: number; slot: string }> = [];
  for (let i = 0; i < slots; i++) {
    // Each process sees the slot a little after it, at its own moment, as two real clocks would.
    const now = new Date(start + i * 60_000 + Math.floor(Math.random() * 900));
    for (const o of await scheduler.tick(now)) {
      if (o.outcome === 'posted') posts.push({ subscriptionId: o.subscriptionId, slot: o.slot });
    }
  }
  await store.close();
  await send({ type: 'result', posts, recorded: poster.posts.length });
}

main()
  .catch(async (error: unknown) => {
    process.exitCode = 1;
    await send({ type: 'error', message: String(error) });
  })
  .finally(() => process.disconnect());
