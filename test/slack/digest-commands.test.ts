import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DigestScheduler } from '../../src/jobs/digest-scheduler.js';
import { type Logger, silentLogger } from '../../src/log.js';
import { SlackDigestPoster } from '../../src/slack/digest-poster.js';
import { checkBlocks, type SlackMessage, startFakeSlack } from '../../workspace/index.js';
import { manifestBotScopes } from '../../workspace/web-api/scopes.js';
import { channels, ephemeralText, type Harness, startHarness, users } from '../support/slack-harness.js';

let h: Harness;
let _client: WebClient;

beforeAll(async () => {
  h = await startHarness();
  await h.store.permissions.grant(users.alice, 'viewer', users.admin);
  _client = new WebClient(h.fake.botToken, { slackApiUrl: h.fake.apiUrl, retryConfig: { retries: 0 } });
});
afterAll(() => h.close());

/** A message posted in the channel after `after` whose text matches. */
function posted(match: RegExp, after: number, channel: string = channels.smsOps): Promise<SlackMessage> {
  return h.fake.state.waitForMessage((m) => m.channel === channel && match.test(ephemeralText(m)), { after });
}

function scheduler(poster: SlackDigestPoster, instanceId = 'e2e') {
  return new DigestScheduler({
    gateway: h.deps.gateway,
    store: h.store,
    poster,
    logger: silentLogger,
    // The schedules below run every minute or second: DIGEST_MIN_INTERVAL_SECONDS lowered, as tests may.
    settings: { reportTimeZone: 'Europe/Istanbul', simulated: true, instanceId, minIntervalSeconds: 1 },
  });
}

describe('/sms subscribe digest, subscriptions, unsubscribe', () => {
  it('subscribes the channel, says so in the channel, and lists it with its next run', async () => {
    const after = h.fake.state.journal.seq;
    await h.sms('subscribe digest balance weekdays 08:30');
    await posted(
      /subscribed this channel to the balance digest, weekdays at 08:30 \(Europe\/London, <@U0ADMIN>’s Slack time zone\)\. Next: \*/,
      after,
    );
    await h.sms('subscriptions', users.alice);
    const list = await h.ephemeral(users.alice, /This channel’s subscriptions/);
    expect(ephemeralText(list)).toMatch(
      /Balance digest\* · weekdays at 08:30 \(Europe\/London\) · next \*\d{4}-\d\d-\d\d 08:30\*/,
    );
    const subs = await h.store.subscriptions.listByChannel(channels.smsOps);
    expect(subs).toEqual([
      expect.objectContaining({
        kind: 'digest',
        digest: 'balance',
        cron: '30 8 * * 1-5',
        timezone: 'Europe/London',
      }),
    ]);
  });

  it('“all” makes three subscriptions; repeating it changes nothing', async () => {
    await h.sms('subscribe digest all daily 09:00', users.admin, channels.general);
    await posted(/balance, statistics and surveys digests, daily at 09:00/, 0, channels.general);
    await h.sms('subscribe digest all daily 09:00', users.admin, channels.general);
    await h.ephemeral(users.admin, /already gets the balance, statistics and surveys digests/);
    expect(await h.store.subscriptions.listByChannel(channels.general)).toHaveLength(3);
  });

  it('answers a bad schedule with what is wrong and an example', async () => {
    await h.sms('subscribe digest stats weekly funday 09:00');
    const e = await h.ephemeral(users.admin, /not a day of the week/);
    expect(ephemeralText(e)).toMatch(/weekly monday 09:00.*\/sms subscribe digest balance weekdays 09:00/s);
    await h.sms('subscribe digest stats cron "0 9 * *"');
    await h.ephemeral(users.admin, /not a cron expression I can use.*5 fields/);
  });

  it('refuses a schedule that would run more often than DIGEST_MIN_INTERVAL_SECONDS, saying how often and the minimum', async () => {
    const before = await h.store.audit.recent(1000);
    await h.sms('subscribe digest stats cron "* * * * * *"', users.admin, channels.alerts);
    const everySecond = ephemeralText(await h.ephemeral(users.admin, /would run 1 second apart/));
    expect(everySecond).toContain(
      'cron "* * * * * *" would run 1 second apart at its closest, but digests run at most once every 15 minutes (DIGEST_MIN_INTERVAL_SECONDS=900)',
    );
    expect(everySecond).toMatch(/Schedules: `daily 09:00`/);
    // Twice a day, but a minute apart: the closest two runs count, not how many there are.
    await h.sms('subscribe digest balance cron "0,1 9 * * *"', users.admin, channels.alerts);
    await h.ephemeral(users.admin, /cron "0,1 9 \* \* \*" would run 1 minute apart at its closest/);
    await h.sms('subscribe digest balance cron "*/5 * * * *"', users.admin, channels.alerts);
    await h.ephemeral(
      users.admin,
      /would run 5 minutes apart at its closest, but digests run at most once every 15 minutes/,
    );
    // Nothing was stored, announced or audited.
    expect(await h.store.subscriptions.listByChannel(channels.alerts)).toEqual([]);
    expect(await h.store.audit.recent(1000)).toHaveLength(before.length);
    // Every 15 minutes is allowed.
    const after = h.fake.state.journal.seq;
    await h.sms('subscribe digest balance cron "*/15 * * * *"', users.admin, channels.alerts);
    await posted(/subscribed this channel to the balance digest/, after, channels.alerts);
    const added = await h.store.subscriptions.listByChannel(channels.alerts);
    expect(added).toEqual([expect.objectContaining({ kind: 'digest', cron: '*/15 * * * *' })]);
    for (const sub of added) await h.store.subscriptions.remove(sub.id);
  });

  it('is for admins only', async () => {
    await h.sms('subscribe digest balance daily 09:00', users.alice);
    await h.ephemeral(users.alice, /You need the \*admin\* role/);
    await h.sms('alert balance below 5', users.alice);
    await h.ephemeral(users.alice, /You need the \*admin\* role/);
  });

  it('unsubscribes one kind or all, and says when there is nothing to stop', async () => {
    let after = h.fake.state.journal.seq;
    await h.sms('unsubscribe digest stats', users.admin, channels.general);
    await posted(/stopped the statistics digest in this channel/, after, channels.general);
    after = h.fake.state.journal.seq;
    await h.sms('unsubscribe digest', users.admin, channels.general);
    await posted(/stopped the balance and surveys digests/, after, channels.general);
    await h.sms('unsubscribe digest', users.admin, channels.general);
    await h.ephemeral(users.admin, /This channel has no digest/);
    await h.sms('unsubscribe digest weekly', users.admin, channels.general);
    await h.ephemeral(users.admin, /not a digest kind/);
  });
});

describe('/sms digest (preview)', () => {
  it('shows the balance digest only to the person asking, with figures from the gateway', async () => {
    const balance = await h.deps.gateway.getBalance();
    await h.sms('digest balance', users.alice);
    const e = await h.ephemeral(users.alice, /Balance digest/);
    const text = ephemeralText(e);
    expect(text).toContain('Preview');
    expect(text).toContain(
      `${new Intl.NumberFormat('tr-TR', { minimumFractionDigits: 2 }).format(balance.usable)} ₺`,
    );
    expect(text).toMatch(/Spent today \(since 00:00 Europe\/Istanbul\)/);
    expect(text).toMatch(/credit lasts|Nothing was spent/);
    expect(checkBlocks(e.blocks, 'message', '/blocks')).toEqual([]);
  });

  it('“digest” alone previews all three', async () => {
    await h.sms('digest', users.alice);
    await h.ephemeral(users.alice, /Balance digest/);
    await h.ephemeral(users.alice, /Monthly statistics digest/);
    const surveys = await h.ephemeral(users.alice, /Surveys digest/);
    expect(ephemeralText(surveys)).toContain('Customer satisfaction');
  });
});

describe('scheduled digests through Slack', () => {
  it('posts the statistics digest in the channel with the 12-month PNG in its thread', async () => {
    const { subscription } = await h.store.subscriptions.add(
      channels.alerts,
      { kind: 'digest', digest: 'stats', cron: '* * * * *', timezone: 'Europe/Istanbul' },
      users.admin,
      new Date(Date.now() - 3_600_000),
    );
    const after = h.fake.state.journal.seq;
    const outcomes = await h.bot.digests.tick();
    expect(outcomes).toEqual([
      expect.objectContaining({ subscriptionId: subscription.id, outcome: 'posted' }),
    ]);
    const message = await posted(/Monthly statistics digest/, after, channels.alerts);
    expect(ephemeralText(message)).toMatch(/```\\nDec|```\\n[A-Z][a-z]{2} \d\d/);
    const upload = await h.fake.state.waitForCall('files.completeUploadExternal', () => true, { after });
    expect(upload.status).toBe(200);
    expect(upload.args).toMatchObject({ channel_id: channels.alerts, thread_ts: message.ts });
    const reply = await h.fake.state.waitForMessage(
      (m) => m.thread_ts === message.ts && (m.files?.length ?? 0) > 0,
      {
        after,
      },
    );
    expect(reply.files![0]).toMatchObject({ mimetype: 'image/png', name: 'sms-sent-12-months.png' });
    // The chart's alternative text reaches Slack under the name Slack documents, alt_txt.
    expect(h.fake.state.files.get(reply.files![0]!.id)?.altText).toMatch(/^Bar chart of SMS sent per month/);
    await h.store.subscriptions.remove(subscription.id);
  });

  it('without files:write the digest keeps its text chart, and the PNG is skipped quietly from then on', async () => {
    const warnings: string[] = [];
    const logger = {
      ...silentLogger,
      warn: (_o: unknown, msg?: string) => warnings.push(msg ?? ''),
    } as unknown as Logger;
    // A workspace whose token lacks files:write: Slack answers the upload with missing_scope.
    const noFiles = await startFakeSlack({ scopes: manifestBotScopes().filter((s) => s !== 'files:write') });
    const noScope = new WebClient(noFiles.botToken, {
      slackApiUrl: noFiles.apiUrl,
      retryConfig: { retries: 0 },
    });
    const poster = new SlackDigestPoster({ client: noScope, logger });
    const { subscription } = await h.store.subscriptions.add(
      channels.alerts,
      { kind: 'digest', digest: 'stats', cron: '*/2 * * * * *', timezone: 'UTC' },
      users.admin,
      new Date(Date.now() - 3_600_000),
    );
    const s = scheduler(poster, 'no-scope');
    const first = new Date();
    expect((await s.tick(first))[0]?.outcome).toBe('posted');
    await noFiles.waitForMessage(
      (m) => m.channel === channels.alerts && /Monthly statistics digest/.test(m.text),
    );
    // The next slot of the every-2-seconds schedule, on the scheduler's clock rather than a sleep.
    expect((await s.tick(new Date(first.getTime() + 2_100)))[0]?.outcome).toBe('posted');
    const uploads = noFiles.state.calls('files.getUploadURLExternal');
    expect(uploads.map((c) => [c.result.error, c.result.needed])).toEqual([['missing_scope', 'files:write']]);
    expect(poster.chartsEnabled).toBe(false);
    expect(warnings.filter((w) => /files:write/.test(w))).toHaveLength(1);
    await h.store.subscriptions.remove(subscription.id);
    await noFiles.close();
  });
});

describe('/sms alert', () => {
  it('sets, shows and turns off an alert; the checker posts it once in the channel', async () => {
    let after = h.fake.state.journal.seq;
    await h.sms('alert balance below 1,000,000');
    await posted(/set a balance alert.*below \*1\.000\.000,00 ₺\*.*already below/, after);
    await h.sms('alert');
    await h.ephemeral(users.admin, /alerted when usable credit falls below \*1\.000\.000,00 ₺\*/);

    const checker = h.bot.alerts;
    after = h.fake.state.journal.seq;
    expect(await checker.check()).toHaveLength(1);
    const alert = await posted(/Usable credit is below 1\.000\.000,00 ₺/, after);
    expect(checkBlocks(alert.blocks, 'message', '/blocks')).toEqual([]);
    expect(await checker.check()).toEqual([]);

    // A new threshold replaces the old one, with a fresh state.
    await h.sms('alert balance below 1');
    expect(
      (await h.store.subscriptions.listByChannel(channels.smsOps)).filter((s) => s.kind === 'low_balance'),
    ).toEqual([expect.objectContaining({ threshold: 1, alertState: null })]);
    after = h.fake.state.journal.seq;
    await h.sms('alert off');
    await posted(/turned off the balance alert/, after);
    await h.sms('alert balance below lots');
    await h.ephemeral(users.admin, /“lots” is not an amount.*alert balance below 100/);
  });
});
