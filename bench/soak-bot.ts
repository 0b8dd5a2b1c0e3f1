// The bot of the soak (bench/soak.ts), in a process of its own so that its memory is only the bot's: built by
// the composition (startTestBot → buildBot) with a clock that moves only when told, its loops driven here one
// pass per step as their timers would drive them. Reads lines on stdin:
//   step <ms>   moves the clock on and runs one pass of each loop (inbound poll, delivery tracker, digest
//               tick, low-balance check, retention), then a full GC (node --expose-gc); answers
//               `heap <n> <MiB live>` and `done <n>`
//   stop        stops the bot and exits
// Environment: SOAK_ENV, the bot's environment variables as JSON.
import { createInterface } from 'node:readline';
import { startTestBot } from '../test/support/bot.js';

// A Monday morning in the report zone: digests at */15 fall inside the run.
let clock = Date.parse('2026-03-02T06:00:00Z');
const now = () => new Date(clock);
const { bot, close } = await startTestBot(
  JSON.parse(process.env.SOAK_ENV ?? '{}') as Record<string, string>,
  {
    now,
    instanceId: 'soak',
    // The compressed clock: posts to a channel are not spaced in real time.
    relay: { postIntervalMs: 0 },
  },
);
process.stdout.write(`ready ${bot.http.url}\n`);

let steps = 0;
for await (const line of createInterface({ input: process.stdin })) {
  const [command, arg] = line.trim().split(/\s+/);
  if (command === 'step') {
    clock += Number(arg);
    await bot.relay.pollOnce();
    await bot.tracker.tick();
    await bot.digests.tick(now());
    await bot.alerts.check(now());
    await bot.retention.runDue(now());
    steps += 1;
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const heap = process.memoryUsage().heapUsed / 2 ** 20;
    process.stdout.write(`heap ${steps} ${heap.toFixed(1)}\ndone ${steps}\n`);
  } else if (command === 'stop') {
    await close();
    process.exit(0);
  }
}
