import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/store/index.js';
import { createSlackDriver, type FakeSlack, SEEDED, startFakeSlack } from '../workspace/index.js';
import { closedPort } from './support/raw-server.js';
import { startTestSimulator } from './support/simulator.js';

const SECRET = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
let fake: FakeSlack;
let dir: string;

beforeAll(async () => {
  fake = await startFakeSlack();
  dir = mkdtempSync(join(tmpdir(), 'smsops-main-'));
});
afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

function start(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
} {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => {
    output += d;
  });
  child.stderr!.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** The bot in HTTP mode on the fake Slack, listening on port, its store at databaseUrl. */
function startOnFakeSlack(
  port: number,
  databaseUrl: string,
  env: Record<string, string> = {},
): ReturnType<typeof start> {
  return start({
    SLACK_BOT_TOKEN: fake.botToken,
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: fake.apiUrl,
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    ...env,
  });
}

async function waitForLine(output: () => string, pattern: RegExp, exited: Promise<unknown>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!pattern.test(output())) {
    const done = await Promise.race([
      exited.then(() => true),
      new Promise((r) => setTimeout(() => r(false), 50)),
    ]);
    if (done || Date.now() > deadline) throw new Error(`never printed ${pattern}:\n${output()}`);
  }
}

/** An address of this machine other than 127.0.0.1: a real interface if there is one, else 127.0.0.2 (Linux). */
function otherLocalAddress(): string {
  const external = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal);
  return external?.address ?? '127.0.0.2';
}

/** Whether a TCP connection to address:port is accepted. */
function accepts(address: string, port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: address, port, timeout: 5_000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(new Error(`no answer from ${address}:${port}`));
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED') resolve(false);
      else reject(error);
    });
  });
}

/** `/sms <text>` from the workspace's admin in #sms-ops, signed as Slack signs it. */
function adminSms(driver: ReturnType<typeof createSlackDriver>, text: string) {
  return driver.slashCommand({
    command: '/sms',
    text,
    userId: SEEDED.users.admin,
    channelId: SEEDED.channels.smsOps,
  });
}

async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('npm start (src/main.ts)', () => {
  it('without Slack credentials starts local mode: the workspace page, the bot behind it, and a clean stop', async () => {
    const port = await closedPort();
    const { child, exited, output } = start({
      PORT: String(port),
      DATABASE_URL: `sqlite:${join(dir, 'local.db')}`,
    });
    await waitForLine(output, new RegExp(`open http://localhost:${port}/`), exited);
    expect(output()).toContain('local mode');
    const page = await fetch(`http://127.0.0.1:${port}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<html/i);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(((await health.json()) as { ok: boolean }).ok).toBe(true);
    // The bot token is random per run: the well-known one gets nowhere.
    const guessed = await fetch(`http://127.0.0.1:${port}/api/auth.test`, {
      method: 'POST',
      headers: { authorization: 'Bearer xoxb-local' },
    });
    expect(await guessed.json()).toMatchObject({ ok: false, error: 'invalid_auth' });
    // The bot has its token all the same: /sms send from the page opens the compose modal through the Web API.
    const command = await fetch(`http://127.0.0.1:${port}/_ws/command`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: SEEDED.users.admin, channel: SEEDED.channels.smsOps, text: '/sms send' }),
    });
    expect(await command.json()).toMatchObject({ ok: true, status: 200 });
    await until(async () => {
      const views = await fetch(`http://127.0.0.1:${port}/_ws/views?user=${SEEDED.users.admin}`);
      return /"callback_id":"compose"/.test(await views.text());
    });
    // A form another site posts from this machine's browser is refused, even naming a channel and text.
    const crossSite = await fetch(`http://127.0.0.1:${port}/api/chat.postMessage`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'http://evil.example',
        'sec-fetch-site': 'cross-site',
      },
      body: `token=xoxb-local&channel=${SEEDED.channels.general}&text=pwned`,
    });
    expect(crossSite.status).toBe(403);
    // Local mode listens on loopback only: this machine's other address is not served.
    expect(await accepts(otherLocalAddress(), port)).toBe(false);
    expect(await accepts('127.0.0.1', port)).toBe(true);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('with a bad variable names it and exits non-zero', async () => {
    const { exited, output } = start({ SLACK_BOT_TOKEN: 'xoxb-local', PORT: 'eighty' });
    expect(await exited).toBe(1);
    expect(output()).toContain('PORT: expected a whole number from 1 to 65535 (got "eighty")');
    expect(output()).toContain('SLACK_SIGNING_SECRET: required in HTTP mode');
  });

  it('refuses a DIGEST_CRON faster than DIGEST_MIN_INTERVAL_SECONDS in one line, and exits non-zero', async () => {
    const { exited, output } = start({
      SLACK_BOT_TOKEN: fake.botToken,
      SLACK_SIGNING_SECRET: SECRET,
      DIGEST_CHANNEL: SEEDED.channels.alerts,
      DIGEST_CRON: '* * * * * *',
    });
    expect(await exited).toBe(1);
    expect(output()).toContain(
      'DIGEST_CRON: cron "* * * * * *" would run 1 second apart at its closest, but digests run at most once every 15 minutes (DIGEST_MIN_INTERVAL_SECONDS=900)',
    );
  });

  it('at start: reports a digest schedule an older version stored too fast, and purges personal data older than RETENTION_DAYS', async () => {
    const databaseUrl = `sqlite:${join(dir, 'older.db')}`;
    const store = await openStore(databaseUrl);
    const { subscription } = await store.subscriptions.add(
      SEEDED.channels.alerts,
      { kind: 'digest', digest: 'stats', cron: '* * * * * *', timezone: 'UTC' },
      SEEDED.users.admin,
    );
    const sent = await store.outbox.createPending({
      idempotencyKey: 'half-a-year-ago',
      slackUser: SEEDED.users.admin,
      recipients: ['905321234567'],
      text: 'Your test result is ready',
      segments: 1,
      encoding: 'GSM-7',
      at: new Date(Date.now() - 200 * 86_400_000),
    });
    await store.outbox.markFailed(sent.row.id, 'rejected', new Date(Date.now() - 200 * 86_400_000));
    await store.close();
    const port = await closedPort();
    const { child, exited, output } = startOnFakeSlack(port, databaseUrl);
    await waitForLine(output, /DIGEST_MIN_INTERVAL_SECONDS/, exited);
    const line = output()
      .split('\n')
      .find((l) => l.includes('DIGEST_MIN_INTERVAL_SECONDS'));
    expect(JSON.parse(line!)).toMatchObject({
      level: 'warn',
      subscriptionId: subscription.id,
      channel: SEEDED.channels.alerts,
      cron: '* * * * * *',
      msg: expect.stringMatching(/would run 1 second apart.*it runs at most every 15 minutes/),
    });
    await waitForLine(output, /personal data older than RETENTION_DAYS purged/, exited);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const after = await openStore(databaseUrl);
    expect(await after.outbox.get(sent.row.id)).toMatchObject({
      text: '',
      recipients: [],
      recipientCount: 1,
    });
    await after.close();
  });

  it('runs in HTTP mode: healthy, answers /sms help, and stops cleanly on SIGTERM', async () => {
    const port = await closedPort();
    const { child, exited, output } = startOnFakeSlack(port, `sqlite:${join(dir, 'sub', 'smsops.db')}`, {
      ADMIN_USER_IDS: SEEDED.users.admin,
      SMS_GATEWAY_PASSWORD: 'must-never-be-printed',
    });
    await waitForLine(output, /smsops is running/, exited);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    // HTTP mode serves Slack on every interface, as it always has (and as the local-mode check needs to mean anything).
    expect(await accepts(otherLocalAddress(), port)).toBe(true);
    const body = (await health.json()) as {
      ok: boolean;
      gateway: { reachable: boolean; simulated: boolean };
    };
    expect(body).toMatchObject({ ok: true, gateway: { reachable: true, simulated: true } });

    const driver = createSlackDriver({
      botUrl: `http://127.0.0.1:${port}/slack/events`,
      signingSecret: SECRET,
      fake,
    });
    const ack = await adminSms(driver, 'help');
    expect(ack.status).toBe(200);
    expect(ack.late).toBe(false);
    await fake.state.waitFor('ephemeral', (e) => e.message.text.includes('/sms send'));
    const forged = await driver.slashCommand({
      command: '/sms',
      text: 'help',
      userId: SEEDED.users.admin,
      channelId: SEEDED.channels.smsOps,
      signing: 'bad-signature',
    });
    expect(forged.status).toBe(401);

    const stoppedAt = Date.now();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(10_000);
    expect(output()).toMatch(/SIMULATED GATEWAY/);
    expect(output()).not.toContain('must-never-be-printed');
  });

  it('stops cleanly on SIGTERM while balance commands wait on a gateway that takes a minute', async () => {
    const { sim, control } = await startTestSimulator({ username: 'demo', password: 'demo' });
    try {
      await control.fault({ operation: 'GetBalance', kind: 'timeout', delayMs: 60_000, times: 40 });
      const port = await closedPort();
      const { child, exited, output } = startOnFakeSlack(port, `sqlite:${join(dir, 'slow-gateway.db')}`, {
        ADMIN_USER_IDS: SEEDED.users.admin,
        SMS_GATEWAY_URL: sim.url,
        SMS_GATEWAY_USERNAME: 'demo',
        SMS_GATEWAY_PASSWORD: 'demo',
        SMS_GATEWAY_TIMEOUT_MS: '120000',
      });
      await waitForLine(output, /smsops is running/, exited);
      const driver = createSlackDriver({
        botUrl: `http://127.0.0.1:${port}/slack/events`,
        signingSecret: SECRET,
        fake,
      });
      for (let i = 0; i < 30; i++) expect((await adminSms(driver, 'balance')).status).toBe(200);
      // Every connection held, the rest of the balance reads queued behind them.
      await until(async () => (await control.callCount('GetBalance')) >= 16);

      child.kill('SIGTERM');

      // Before 2026-11-27 the gateway client waited for every queued read: main.ts' 9 s deadline ended the
      // process with exit code 1 and the store still open.
      expect(await exited).toBe(0);
      expect(output()).toMatch(/"msg":"stopped"/);
      expect(output()).not.toMatch(/shutdown took too long/);
    } finally {
      await sim.close();
    }
  });

  it('a database that cannot be opened stops start-up at once even when Slack cannot be reached either', async () => {
    // Slack's auth.test goes out while the store opens; a Slack that refuses connections is retried for ~15 s.
    const startedAt = Date.now();
    const { exited, output } = start({
      SLACK_BOT_TOKEN: fake.botToken,
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: `http://127.0.0.1:${await closedPort()}/api/`,
      PORT: String(await closedPort()),
      DATABASE_URL: `postgres://smsops@127.0.0.1:${await closedPort()}/smsops`,
    });
    expect(await exited).toBe(1);
    expect(output()).toMatch(/start-up failed/);
    expect(Date.now() - startedAt).toBeLessThan(10_000);
  });

  it('a database that cannot be opened stops start-up with one line naming it, never its password', async () => {
    const { exited, output } = startOnFakeSlack(
      await closedPort(),
      `postgres://smsops:hunter2@127.0.0.1:${await closedPort()}/smsops`,
    );
    expect(await exited).toBe(1);
    expect(output()).toMatch(/start-up failed/);
    expect(output()).toMatch(/postgres:\/\/smsops:\*\*\*@127\.0\.0\.1/);
    expect(output()).not.toContain('hunter2');
  });
});
