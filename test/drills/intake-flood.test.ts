import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker } from '../support/worker.js';
import { type BotProcess, type DrillWorld, sleepMs, startBot, startDrillWorld } from './bot-process.js';
import type { AnswerCounts, AttackerArgs } from './flood-attacker.js';

/**
 * Drill: a few hundred slow uploads that nobody signed (and some with forged signature headers) keep
 * coming at the real bot process for ten seconds, each reconnecting as soon as it is cut off. The bot's
 * memory stays within 50 MiB of idle and signed `/sms help` commands keep acking within Slack's 3 s.
 * Before the gate, 150 such uploads took the bot from 191 MB to 763 MB.
 */

const ATTACK_MS = 10_000;
const UNSIGNED = 250;
const FORGED = 50;
const MiB = 1024 * 1024;
const ALLOWED_GROWTH = 50 * MiB;

let fake: DrillWorld['fake'];
let sim: DrillWorld['sim'];
let world: DrillWorld;
let bot: BotProcess;

beforeAll(async () => {
  world = await startDrillWorld('flood');
  ({ fake, sim } = world);
  bot = await startBot({ fake, gatewayUrl: sim.url, databaseUrl: world.databaseUrl });
}, 40_000);
afterAll(async () => {
  await bot?.stop();
  await world.close();
});

/** The bot's resident memory, as the kernel counts it. */
function rssBytes(): number {
  const status = readFileSync(`/proc/${bot.child.pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)![1]) * 1024;
}

function help() {
  return bot.sms('help');
}

describe('a flood of slow uploads against the real bot process', () => {
  it('keeps memory within 50 MiB of idle while signed commands keep acking within 3 s', async () => {
    // Warm up every path a command takes, then take idle memory.
    for (let i = 0; i < 3; i++) expect((await help()).status).toBe(200);
    const idleSamples: number[] = [];
    for (let i = 0; i < 5; i++) {
      idleSamples.push(rssBytes());
      await sleepMs(200);
    }
    const idle = idleSamples.sort((a, b) => a - b)[2]!;

    const args: AttackerArgs = { port: bot.port, unsigned: UNSIGNED, forged: FORGED, rampMs: 1_000 };
    const attacker = startWorker(
      fileURLToPath(new URL('./flood-attacker.ts', import.meta.url)),
      [JSON.stringify(args)],
      'attacker',
    );
    let peak = idle;
    let sampler: NodeJS.Timeout | undefined;
    let acks: { status: number; elapsedMs: number }[];
    let answers: { unsigned: AnswerCounts; forged: AnswerCounts };
    try {
      await attacker.expectMessage('attacking');
      sampler = setInterval(() => {
        peak = Math.max(peak, rssBytes());
      }, 100);
      // A command every half second, each on its own: a slow ack does not thin out the ones after it.
      const commands: ReturnType<typeof help>[] = [];
      const started = Date.now();
      while (Date.now() - started < ATTACK_MS) {
        commands.push(help());
        await sleepMs(500);
      }
      acks = (await Promise.all(commands)).map((a) => ({
        status: a.status,
        elapsedMs: Math.round(a.elapsedMs),
      }));
      peak = Math.max(peak, rssBytes());
      attacker.child.send({ type: 'stop' });
      answers = await attacker.expectMessage<{ type: string } & typeof answers>('done');
    } finally {
      clearInterval(sampler);
      if (attacker.child.exitCode === null) attacker.child.kill();
    }

    const summary = JSON.stringify({
      idleMiB: Math.round(idle / MiB),
      peakMiB: Math.round(peak / MiB),
      unsigned: answers.unsigned,
      forged: answers.forged,
      acks,
    });
    // The attack ran: every unsigned upload was refused at once, and more came.
    expect(answers.unsigned['401'] ?? 0, summary).toBeGreaterThan(UNSIGNED);
    expect(
      acks.every((a) => a.status === 200 && a.elapsedMs < 3_000),
      summary,
    ).toBe(true);
    expect(peak - idle, summary).toBeLessThan(ALLOWED_GROWTH);
    expect(bot.child.exitCode).toBeNull();
    // Refusals are counted, not logged one by one.
    const refusalLines = bot.output().match(/refused requests/g) ?? [];
    expect(refusalLines.length, summary).toBeLessThan(20);
  }, 50_000);
});
