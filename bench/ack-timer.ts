import { fork } from 'node:child_process';
import type { BotTransport } from '../workspace/index.js';

/**
 * A driver transport whose requests are sent and timed in a process of their own (bench/ack-timer-child.mjs).
 * bench/uploads.ts plays Slack in its own process while it times the bot's acks: serving 100,000-row files,
 * taking the views of their confirmations, a campaign's cards. Timed there, an ack also waited for that work:
 * the bench's own event loop was held 14 ms at p99 (21 ms at most) while .xlsx files were read, against 4-5 ms
 * idle (2026-11-28), and that counted as the bot's. Here the bench's event loop is out of the figure; the
 * machine's cores are still shared by every process of the bench.
 */
export function ackTimer(): { transport: BotTransport; close(): Promise<void> } {
  const child = fork(new URL('./ack-timer-child.mjs', import.meta.url), [], {
    // Plain JavaScript: no compiler loaded (the parent's execArgv may hold tsx's).
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  type Answer = Awaited<ReturnType<BotTransport>> & { id: number };
  type Failure = { id: number; error: string };
  const waiting = new Map<number, { resolve(a: Answer): void; reject(e: Error): void }>();
  let next = 0;
  let gone: Error | undefined;
  const failAll = (error: Error) => {
    gone ??= error;
    for (const w of waiting.values()) w.reject(gone);
    waiting.clear();
  };
  child.on('message', (answer: Answer | Failure) => {
    const w = waiting.get(answer.id);
    waiting.delete(answer.id);
    if ('error' in answer) w?.reject(new Error(`ack timer: ${answer.error}`));
    else w?.resolve(answer);
  });
  // Not started, or its channel broken: every request waiting fails with the reason, none hangs.
  child.on('error', (error) => failAll(new Error(`ack timer: ${error.message}`)));
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      failAll(new Error(`the ack timer exited (${signal ?? `code ${code}`})`));
      resolve();
    }),
  );
  return {
    transport: (request) =>
      new Promise((resolve, reject) => {
        if (gone || !child.connected) {
          reject(gone ?? new Error('the ack timer is closed'));
          return;
        }
        const id = next++;
        waiting.set(id, { resolve, reject });
        child.send({ id, ...request }, (error) => {
          if (!error) return;
          waiting.delete(id);
          reject(new Error(`ack timer: ${error.message}`));
        });
      }),
    // Safe to call twice, or after the child died: it only waits for the child to be gone.
    close: async () => {
      if (child.connected) child.disconnect();
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) await exited;
    },
  };
}
