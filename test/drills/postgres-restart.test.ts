import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from '../../workspace/index.js';
import { closedPort } from '../support/raw-server.js';
import { startTestSimulator } from '../support/simulator.js';
import { type BotProcess, channels, startBot, until, users } from './bot-process.js';

/**
 * Drill: the PostgreSQL server is restarted for real under the running bot. The bot must come back by
 * itself: store-backed commands answer again and /healthz returns to ok, without restarting the bot.
 *
 * The machine's shared PostgreSQL is left alone: the drill runs a private cluster (initdb + pg_ctl as
 * the `postgres` OS user) on a free port in a temp folder. Without root, a `postgres` user or the
 * binaries, it is skipped with the reason.
 */

const BIN = '/usr/lib/postgresql/15/bin';
const run = promisify(execFile);

function cannotRun(): string | undefined {
  if (process.getuid?.() !== 0) return 'needs root to run pg_ctl as the postgres user';
  if (!existsSync(`${BIN}/initdb`) || !existsSync(`${BIN}/pg_ctl`))
    return `no PostgreSQL 15 binaries in ${BIN}`;
  try {
    execFileSync('id', ['postgres'], { stdio: 'ignore' });
  } catch {
    return 'no postgres OS user';
  }
  return undefined;
}
const reason = cannotRun();

let dir: string;
let port: number;
let fake: FakeSlack;
let sim: Awaited<ReturnType<typeof startTestSimulator>>['sim'];
let bot: BotProcess | undefined;

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
/** pg_ctl as the postgres user, never blocking this process: the fake Slack lives in it. */
const pgCtl = (action: 'start' | 'stop') =>
  run(
    'su',
    [
      'postgres',
      '-s',
      '/bin/sh',
      '-c',
      `${BIN}/pg_ctl -D ${quote(join(dir, 'data'))} -l ${quote(join(dir, 'log'))} -w -t 30 ${
        action === 'start'
          ? `-o ${quote(`-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`)} start`
          : '-m fast stop'
      }`,
    ],
    { timeout: 40_000 },
  );

describe.skipIf(reason !== undefined)(
  `PostgreSQL restarted under the running bot${reason ? ` (skipped: ${reason})` : ''}`,
  () => {
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'smsops-drill-pg-'));
      chmodSync(dir, 0o755);
      chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString().trim()), -1);
      port = await closedPort();
      await run(
        'su',
        [
          'postgres',
          '-s',
          '/bin/sh',
          '-c',
          `${BIN}/initdb -D ${quote(join(dir, 'data'))} -A trust -U postgres --no-sync -E UTF8`,
        ],
        { timeout: 60_000 },
      );
      await pgCtl('start');
      fake = await startFakeSlack();
      ({ sim } = await startTestSimulator());
      bot = await startBot({
        fake,
        gatewayUrl: sim.url,
        databaseUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
      });
    }, 90_000);
    afterAll(async () => {
      await bot?.crash();
      await fake?.close();
      await sim?.close();
      if (dir) {
        await pgCtl('stop').catch(() => undefined);
        rmSync(dir, { recursive: true, force: true });
      }
    }, 60_000);

    async function who(): Promise<string> {
      const seq = fake.state.journal.seq;
      const ack = await bot!.driver.slashCommand({
        command: '/sms',
        text: 'who',
        userId: users.admin,
        channelId: channels.smsOps,
      });
      expect(ack.late).toBe(false);
      expect(ack.elapsedMs).toBeLessThan(3_000);
      const answer = await fake.state.waitFor('ephemeral', (e) => e.message.recipient === users.admin, {
        after: seq,
        timeoutMs: 20_000,
      });
      return JSON.stringify(answer.message);
    }

    it('answers store-backed commands and is healthy again after the restart, without a restart of its own', async () => {
      // A role of our own, so `/sms who` must read it back from the database.
      const seq = fake.state.journal.seq;
      await bot!.driver.slashCommand({
        command: '/sms',
        text: `grant <@${users.alice}> sender`,
        userId: users.admin,
        channelId: channels.smsOps,
      });
      await fake.state.waitFor('ephemeral', (e) => e.message.recipient === users.admin, {
        after: seq,
        timeoutMs: 10_000,
      });
      expect(await who()).toContain(users.alice);
      expect((await bot!.health()).body.ok).toBe(true);

      await pgCtl('stop');
      const down = await bot!.health();
      expect(down.body.ok).toBe(false);
      // A code, not the driver's text: /healthz is unauthenticated and names no internal host.
      expect(down.body.store).toEqual({ ok: false, reason: 'unreachable' });
      expect(JSON.stringify(down.body)).not.toMatch(/127\.0\.0\.1|postgres:/);
      // Intake never blocks on the database: the ack still comes in time while it is gone.
      const ack = await bot!.driver.slashCommand({
        command: '/sms',
        text: 'who',
        userId: users.admin,
        channelId: channels.smsOps,
      });
      expect(ack.late).toBe(false);

      await pgCtl('start');
      await until('healthz ok again', async () => (await bot!.health()).body.ok === true, 30_000, 250);
      expect(await who()).toContain(users.alice);
      expect(bot!.child.exitCode).toBeNull();
      expect(bot!.output()).toMatch(/database available again|database unavailable/);
    }, 90_000);
  },
);
