import { spawn } from 'node:child_process';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Bot } from '../src/bot.js';
import type { OutboxRow } from '../src/store/index.js';
import { SEEDED, type SlackMessage, type ViewOutput } from '../workspace/index.js';
import { useLocalDataDirs } from './support/local-data-dir.js';
import { closedPort } from './support/raw-server.js';
import { SimulatorControl } from './support/simulator.js';

const { users, channels } = SEEDED;
const { dataDir, startLocal, stop } = useLocalDataDirs('smsops-local-state-');

/** What the page shows in a channel: GET /_ws/history, as the browser asks for it. */
async function channelOnPage(bot: Bot, channel: string): Promise<SlackMessage[]> {
  const res = await fetch(`${bot.http.url}/_ws/history?user=${users.admin}&channel=${channel}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { messages: SlackMessage[] }).messages;
}

/** A person writes in a card's thread on the page: POST /_ws/message, as the browser sends it. */
async function replyOnPage(bot: Bot, card: SlackMessage, text: string): Promise<void> {
  const res = await fetch(`${bot.http.url}/_ws/message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: bot.http.url },
    body: JSON.stringify({ user: users.admin, channel: card.channel, text, threadTs: card.ts }),
  });
  expect(res.status).toBe(200);
}

/** A thread as the page shows it: GET /_ws/thread. */
async function threadOnPage(bot: Bot, card: SlackMessage): Promise<SlackMessage[]> {
  const res = await fetch(
    `${bot.http.url}/_ws/thread?user=${users.admin}&channel=${card.channel}&ts=${card.ts}`,
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { messages: SlackMessage[] }).messages;
}

/** The admin sends one SMS from the compose modal, as on the page; resolves with its card and its outbox row. */
async function sendFromCompose(bot: Bot, text: string): Promise<{ card: SlackMessage; row: OutboxRow }> {
  const { state, driver } = bot.workspace!;
  const after = state.journal.seq;
  await driver.slashCommand({
    command: '/sms',
    text: 'send',
    userId: users.admin,
    channelId: channels.smsOps,
  });
  const opened = await state.waitForCall(
    'views.update',
    (c) => (c.args.view as { callback_id?: string }).callback_id === 'compose',
    { after },
  );
  const view = state.views.get(String(opened.args.view_id)) as ViewOutput;
  const textBlock = (view.blocks as { block_id?: string }[]).find((b) => b.block_id?.startsWith('text'))!
    .block_id!;
  const result = await driver.viewSubmission({
    userId: users.admin,
    view,
    values: { recipients: { recipients: '0532 123 45 67' }, [textBlock]: { text } },
  });
  expect(result.outcome.kind).not.toBe('errors');
  const card = await state.waitForMessage(
    (m) => m.channel === channels.smsOps && /SMS batch \d+:/.test(m.text),
    { after },
  );
  const messageId = /SMS batch (\d+):/.exec(card.text)![1]!;
  const row = await bot.store.outbox.getByMessageId(messageId);
  return { card, row: row! };
}

/** `/sms status <id>` as the admin: the ephemeral it answers with, as text and blocks. */
async function status(bot: Bot, messageId: string): Promise<string> {
  const { state, driver } = bot.workspace!;
  const after = state.journal.seq;
  await driver.slashCommand({
    command: '/sms',
    text: `status ${messageId}`,
    userId: users.admin,
    channelId: channels.smsOps,
  });
  const answer = await state.waitFor('ephemeral', (e) => e.message.recipient === users.admin, { after });
  return `${answer.message.text}\n${JSON.stringify(answer.message.blocks ?? [])}`;
}

describe('local mode keeps what a person sees across a restart', () => {
  it('the card, its thread and its updates, the batch under its id, and MessageIds that never repeat', async () => {
    const dir = dataDir();
    const first = await startLocal(dir);
    const { card, row } = await sendFromCompose(first, 'Sent before the restart');
    const oldId = row.messageId!;
    await replyOnPage(first, card, 'Checking on this one');
    await stop(first);

    const second = await startLocal(dir);
    // The channel still shows the card, as the page reads it.
    const shown = await channelOnPage(second, channels.smsOps);
    expect(shown.find((m) => m.ts === card.ts)).toMatchObject({ text: card.text, reply_count: 1 });
    expect((await threadOnPage(second, card)).map((m) => m.text)).toEqual([
      card.text,
      'Checking on this one',
    ]);

    // The card keeps updating: the tracker's edit lands on it, where a fresh workspace said message_not_found.
    const { state } = second.workspace!;
    const after = state.journal.seq;
    await new SimulatorControl({ url: second.simulatorUrl! }).advance({ deliver: 1, share: 1 });
    await second.tracker.pollNow(row.id);
    const edit = await state.waitForCall('chat.update', (c) => c.args.ts === card.ts, { after });
    expect(edit.result).toMatchObject({ ok: true });
    expect(state.calls().filter((c) => c.result.error === 'message_not_found')).toEqual([]);
    expect(state.messages.find(channels.smsOps, card.ts)?.text).toMatch(/1 delivered/);

    // A new send gets a MessageId above the old one; the old id still shows the old batch.
    const next = await sendFromCompose(second, 'Sent after the restart');
    expect(BigInt(next.row.messageId!)).toBeGreaterThan(BigInt(oldId));
    const answer = await status(second, oldId);
    expect(answer).toContain(`SMS batch ${oldId}`);
    expect(answer).toMatch(/1 delivered/);
    expect(answer).not.toContain(`SMS batch ${next.row.messageId}`);
  }, 30_000);

  it('a simulator that lost its file (a crash before it was written) counts on above the ids the store holds', async () => {
    const dir = dataDir();
    const first = await startLocal(dir);
    const { row } = await sendFromCompose(first, 'Sent before the crash');
    await stop(first);
    rmSync(join(dir, 'simulator.json'), { force: true });

    const second = await startLocal(dir);
    const next = await sendFromCompose(second, 'Sent after the crash');
    expect(BigInt(next.row.messageId!)).toBeGreaterThan(BigInt(row.messageId!));
  }, 30_000);

  it('an unreadable or cut-short state file: a fresh start with one warning line each, the file kept aside', async () => {
    const dir = dataDir();
    const first = await startLocal(dir);
    await sendFromCompose(first, 'Sent before the files broke');
    await stop(first);
    writeFileSync(join(dir, 'workspace.json'), '{"version":1,"teamId":"T0LOCAL","ids":{"V":');
    writeFileSync(join(dir, 'simulator.json'), JSON.stringify({ version: 1, main: 'lots' }));

    const second = await startLocal(dir);
    const warnings = second.logLines.filter((l) => l.level === 'warn' && /\.json/.test(l.msg));
    expect(warnings.map((l) => l.msg)).toEqual([
      expect.stringMatching(
        /^simulator\.json is unreadable \(main: .+\), kept as simulator\.json\.unreadable: the simulator starts a fresh account$/,
      ),
      expect.stringMatching(
        /^workspace\.json is unreadable \(not whole JSON \(cut short\?\)\), kept as workspace\.json\.unreadable: the local workspace starts empty$/,
      ),
    ]);
    expect(readdirSync(dir)).toEqual(
      expect.arrayContaining(['workspace.json.unreadable', 'simulator.json.unreadable']),
    );
    // It works: a send goes out and shows its card, and the new state is written whole on stop.
    await sendFromCompose(second, 'Sent after a fresh start');
    await stop(second);
    const third = await startLocal(dir);
    const shown = await channelOnPage(third, channels.smsOps);
    expect(shown.map((m) => m.text).join('\n')).toMatch(/SMS batch \d+:/);
  }, 30_000);

  it('npm start stopped by a signal (as npm run dev restarts on an edit) and started again shows the same channel', async () => {
    const dir = dataDir();
    const port = await closedPort();
    const base = `http://127.0.0.1:${port}`;
    const run = async (during: () => Promise<void>) => {
      let output = '';
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          PORT: String(port),
          DATABASE_URL: `sqlite:${join(dir, 'smsops.db')}`,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      const started = new Promise<void>((resolve) => {
        const read = (chunk: Buffer) => {
          output += chunk;
          if (output.includes(`open http://localhost:${port}/`)) resolve();
        };
        child.stdout!.on('data', read);
        child.stderr!.on('data', read);
      });
      await Promise.race([started, exited.then(() => Promise.reject(new Error(`exited:\n${output}`)))]);
      await during();
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    };
    await run(async () => {
      const res = await fetch(`${base}/_ws/message`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: base },
        body: JSON.stringify({
          user: users.admin,
          channel: channels.general,
          text: 'Written before the restart',
        }),
      });
      expect(res.status).toBe(200);
    });
    await run(async () => {
      const res = await fetch(`${base}/_ws/history?user=${users.admin}&channel=${channels.general}`);
      const { messages } = (await res.json()) as { messages: SlackMessage[] };
      expect(messages.map((m) => m.text)).toContain('Written before the restart');
    });
  }, 60_000);
});
