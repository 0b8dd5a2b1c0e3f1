import { fork } from 'node:child_process';
import type { BotTransport } from '../workspace/index.js';

/**
 * A driver transport whose requests are sent and timed in a process of their own (bench/ack-timer-child.mjs).
 * bench/uploads.ts plays Slack in its own process while it times the bot's acks: serving 100,000-row files,
 * taking the views of their confirmations, a campaign's cards. Timed there, an ack also waited for that work:
 * the bench's own event loop was held 14 ms at p99 (21 ms at most) while .xlsx files were read, against 4-5 ms
 * idle (2026-11-28), and that counted as the bot's. Here only the bot and the loopback are in the figure.
 */
export function ackTimer(): { transport: BotTransport; close(): Promise<void> } {
  const child = fork(new URL('./ack-timer-child.mjs', import.meta.url), [], {
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  type Answer = Awaited<ReturnType<BotTransport>> & { id: number; error?: string };
  const waiting = new Map<number, { resolve(a: Answer): void; reject(e: Error): void }>();
  let next = 0;
  child.on('message', (answer: Answer) => {
    const w = waiting.get(answer.id);
    waiting.delete(answer.id);
    if (answer.error) w?.reject(new Error(`ack timer: ${answer.error}`));
    else w?.resolve(answer);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => {
    for (const w of waiting.values()) w.reject(new Error('the ack timer exited'));
    waiting.clear();
  });
  return {
    transport: (request) =>
      new Promise((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve, reject });
        child.send({ id, ...request });
      }),
    close: async () => {
      child.disconnect();
      await exited;
    },
  };
}
