import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboundMessage } from '../../src/gateway/index.js';
import { HOME_REFRESH_ACTION, type HomeData, homeView } from '../../src/slack/ui/home-view.js';
import type { OutboxRow, Subscription } from '../../src/store/index.js';
import { checkBlocks } from '../../workspace/index.js';
import { channels, type Harness, openAppHome, startHarness, users } from '../support/slack-harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  await h.store.permissions.grant(users.alice, 'viewer', users.admin);
});
afterAll(() => h.close());

async function openHome(userId: string) {
  return openAppHome(h, userId);
}

describe('App Home', () => {
  it('shows a member with a role the live dashboard, published each time the tab is opened', async () => {
    await h.store.subscriptions.add(
      channels.smsOps,
      { kind: 'digest', digest: 'balance', cron: '0 9 * * *', timezone: 'Europe/Istanbul' },
      users.admin,
    );
    const pending = await h.store.outbox.createPending({
      idempotencyKey: 'home-test-1',
      slackUser: users.admin,
      channel: channels.smsOps,
      sender: 'SMSOPS',
      recipients: ['905321234567', '905331234567'],
      text: 'Hello',
      segments: 1,
      encoding: 'GSM-7',
      estimatedCost: 0.1,
    });
    await h.store.outbox.markSubmitted(pending.row.id, '100777');
    await h.control.inbound({ MSISDN: '905551112233', Text: 'ANKET 5' });
    const balance = await h.deps.gateway.getBalance();

    const { text } = await openHome(users.alice);
    expect(text).toContain('Your role: *viewer*');
    expect(text).toContain(
      `${new Intl.NumberFormat('tr-TR', { minimumFractionDigits: 2 }).format(balance.usable)} ₺`,
    );
    expect(text).toMatch(/credit lasts|Nothing was spent/);
    expect(text).toMatch(/Batches\*\\n1/);
    expect(text).toContain('*`100777`* · SMSOPS');
    expect(text).toContain('0 delivered · 0 undelivered · 2 pending');
    expect(text).toContain('ANKET 5');
    expect(text).toContain(`<#${channels.smsOps}>`);
    expect(text).toMatch(/Balance digest\* · daily at 09:00 \(Europe\/Istanbul\) · next/);

    // Opened again: published again, with what changed since.
    await h.store.subscriptions.add(channels.general, { kind: 'low_balance', threshold: 50 }, users.admin);
    const again = await openHome(users.alice);
    expect(again.text).toContain('Balance alert* below 50,00 ₺');
  });

  it('refreshes on its Refresh button', async () => {
    const { call } = await openHome(users.admin);
    const after = h.fake.state.journal.seq;
    const view = (call.result as { view: Parameters<typeof h.driver.blockAction>[0]['view'] }).view;
    await h.driver.blockAction({ userId: users.admin, actionId: HOME_REFRESH_ACTION, view });
    await h.fake.state.waitForCall('views.publish', (c) => c.args.user_id === users.admin, { after });
  });

  it('shows no figures to someone without a role', async () => {
    const { text } = await openHome(users.bob);
    expect(text).toContain('You have no smsops role yet');
    expect(text).not.toContain('Usable credit');
    expect(text).not.toContain('Open batches');
  });
});

describe('homeView within Slack’s limits', () => {
  it('stays under 100 blocks and every text limit with huge data, and says when a part is unavailable', () => {
    const now = new Date('2026-11-20T06:00:00Z');
    const row = (i: number): OutboxRow =>
      ({
        id: i,
        messageId: String(100000 + i),
        sender: 'S'.repeat(200),
        slackUser: 'U0ADMIN',
        recipientCount: 10_000,
        createdAt: now,
        submittedAt: now,
        delivery: {
          delivered: i,
          undelivered: 1,
          count: 10_000,
          state: 'Sending',
          final: false,
          lastPolledAt: null,
          nextPollAt: null,
        },
      }) as unknown as OutboxRow;
    const inbound = (i: number): InboundMessage => ({
      id: i,
      received: now,
      network: 1,
      msisdn: '905321234567',
      recipient: '4440123',
      keyword: 'K'.repeat(100),
      text: '<!channel> '.repeat(200),
      price: 0,
      xser: '',
    });
    const sub = (i: number): Subscription => ({
      id: i,
      channel: `C${String(i % 300).padStart(8, '0')}`,
      createdBy: 'U0',
      createdAt: now,
      alertState: null,
      alertedAt: null,
      kind: 'digest',
      digest: 'surveys',
      cron: '0 9 * * *',
      timezone: 'America/Argentina/ComodRivadavia',
    });
    const data: HomeData = {
      userId: 'U0ADMIN',
      role: 'admin',
      now,
      timeZone: 'UTC',
      simulated: true,
      balance: { ok: false, reason: 'The SMS gateway did not answer in time.' },
      today: { ok: true, value: { batches: 5000, recipients: 5e7, segments: 1e8, cost: 5e6 } },
      openBatches: { ok: true, value: Array.from({ length: 500 }, (_, i) => row(i)) },
      inbound: { ok: true, value: Array.from({ length: 500 }, (_, i) => inbound(i)) },
      subscriptions: {
        ok: true,
        value: Array.from({ length: 2000 }, (_, i) => ({ sub: sub(i), next: now })),
      },
    };
    const view = homeView(data);
    expect(checkBlocks(view.blocks, 'home', '/blocks')).toEqual([]);
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    const text = JSON.stringify(view.blocks);
    expect(text).toContain('Not available right now: The SMS gateway did not answer in time.');
    expect(text).toMatch(/more open batches/);
    expect(text).toMatch(/more channels/);
    expect(text).not.toContain('<!channel>');
  });
});
