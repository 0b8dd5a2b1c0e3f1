import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { closedPort } from '../support/raw-server.js';
import { channels, type Harness, startHarness, textBlockOf, users } from '../support/slack-harness.js';

const THREE = '0532 123 45 67\n0533 123 45 67\n0534 123 45 67';

function viewText(e: { view: { blocks: unknown[] } }): string {
  return JSON.stringify(e.view.blocks);
}

describe('sending when the gateway misbehaves', () => {
  let h: Harness;
  let start = 0;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());
  beforeEach(async () => {
    await h.control.reset();
    start = h.fake.state.journal.seq;
  });

  it.each([
    ['http500', 'an HTTP 500'],
    ['notjson', 'an HTML page'],
  ])('a Submit answered with %s (%s) is left unknown, shown as such, and not resent', async (kind) => {
    await h.control.fault({ operation: 'Submit', kind });
    const view = await h.openCompose();
    const text = `fault ${kind}`;
    await h.driver.viewSubmission({
      userId: users.admin,
      view,
      values: { recipients: { recipients: THREE }, [textBlockOf(view)]: { text } },
    });
    await h.fake.state.waitFor('view', (e) => viewText(e).includes('State unknown'), { after: start });
    const row = (await h.store.outbox.recent(50)).find((r) => r.text === text)!;
    expect(row.state).toBe('unknown');
    expect(await h.control.callCount('Submit')).toBe(1);
    // The tracker never polls or resends an unknown send.
    expect(await h.tracker.tick()).toBe(0);
    expect(await h.control.callCount('Submit')).toBe(1);
  });

  it('a Slack retry of the same view submission (X-Slack-Retry-Num) sends nothing twice', async () => {
    const view = await h.openCompose();
    const values: Record<string, Record<string, string>> = {
      recipients: { recipients: THREE },
      [textBlockOf(view)]: { text: 'retried by Slack' },
    };
    await h.driver.viewSubmission({ userId: users.admin, view, values });
    await h.driver
      .viewSubmission({ userId: users.admin, view, values, retryNum: 1, retryReason: 'http_timeout' })
      .catch(() => undefined);
    await h.fake.state.waitForMessage((m) => m.channel === channels.smsOps && /SMS batch \d+:/.test(m.text), {
      after: start,
    });
    expect(await h.control.callCount('Submit')).toBe(1);
    expect((await h.store.outbox.recent(50)).filter((r) => r.text === 'retried by Slack')).toHaveLength(1);
  });

  it('a send and a cancel are written to the audit log', async () => {
    const view = await h.openCompose();
    await h.driver.viewSubmission({
      userId: users.admin,
      view,
      values: { recipients: { recipients: THREE }, [textBlockOf(view)]: { text: 'audited' } },
    });
    const card = await h.fake.state.waitForMessage(
      (m) => m.channel === channels.smsOps && /SMS batch \d+:/.test(m.text),
      { after: start },
    );
    await h.driver.blockAction({ userId: users.admin, message: card, actionId: 'card_cancel' });
    const row = (await h.store.outbox.recent(50)).find((r) => r.text === 'audited')!;
    await h.fake.state.waitForMessage(
      (m) => m.ts === card.ts && JSON.stringify(m.blocks).includes('Cancelled by'),
      { after: start },
    );
    const audit = await h.store.audit.recent(10);
    expect(audit.find((a) => a.action === 'send' && a.target === row.messageId)).toMatchObject({
      actor: users.admin,
    });
    expect(audit.find((a) => a.action === 'cancel' && a.target === row.messageId)).toMatchObject({
      actor: users.admin,
    });
  });
});

describe('sending when the gateway cannot be reached at all', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ gatewayUrl: `http://127.0.0.1:${await closedPort()}` });
  });
  afterAll(() => h.close());

  it('the composer still opens, with the sender as a text field and the reason', async () => {
    const view = await h.openCompose();
    expect(JSON.stringify(view.blocks)).toContain('Sender names could not be loaded from the gateway');
  });

  it('a send is refused before it left: failed, not unknown, and the user is told nothing was sent', async () => {
    const start = h.fake.state.journal.seq;
    const view = await h.openCompose();
    await h.driver.viewSubmission({
      userId: users.admin,
      view,
      values: {
        sender: { sender: 'SMSOPS' },
        recipients: { recipients: THREE },
        [textBlockOf(view)]: { text: 'never left' },
      },
    });
    await h.fake.state.waitFor(
      'view',
      (e) => viewText(e).includes('could not be reached, so nothing was sent'),
      { after: start },
    );
    const row = (await h.store.outbox.recent(10)).find((r) => r.text === 'never left')!;
    expect(row.state).toBe('failed');
    expect(row.reason).toMatch(/^not sent: Submit: connection refused/);
  });

  it('a look-up says the gateway cannot be reached, without a stack trace', async () => {
    await h.sms('status 100001');
    const reply = await h.ephemeral(users.admin, /SMS gateway cannot be reached/);
    expect(JSON.stringify(reply)).not.toMatch(/at .*\.ts:\d+/);
  });
});
