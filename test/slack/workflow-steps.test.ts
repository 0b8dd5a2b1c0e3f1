import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Harness, startHarness, users } from '../support/slack-harness.js';

/**
 * The Workflow Builder steps through the real interface: the workspace fires `function_executed` (signed, with the
 * run's own token) at the Bolt app, which ends the step with functions.completeSuccess or completeError.
 */
describe('Workflow Builder steps', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    await h.store.permissions.grant(users.alice, 'sender', users.admin);
    await h.store.permissions.grant(users.bob, 'viewer', users.admin);
  });
  afterAll(() => h.close());

  const submits = async () => (await h.control.state()).callCounts.Submit ?? 0;
  const TWO = '0532 123 45 67, 0533 222 33 44';

  async function run(callbackId: string, inputs: Record<string, unknown>) {
    const delivered = await h.driver.functionExecuted({ callbackId, inputs });
    expect(delivered.status).toBe(200);
    expect(delivered.late).toBe(false);
    return { delivered, ended: await delivered.ended() };
  }

  it('are off until an admin turns them on: the step ends in error and sends nothing', async () => {
    const before = await submits();
    const { ended } = await run('send_sms', { recipients: TWO, message: 'Hello', user: users.alice });
    expect(ended.state).toBe('failed');
    expect(ended.error).toContain('`/sms workflows on`');
    const balance = await run('get_sms_balance', {});
    expect(balance.ended.state).toBe('failed');
    expect(await submits()).toBe(before);

    const refused = await h.sms('workflows on', users.alice);
    expect(JSON.stringify(refused.ackMessage ?? (await h.ephemeral(users.alice, /admin/)))).toContain(
      'admin',
    );
    await h.sms('workflows on', users.admin);
    await h.ephemeral(users.admin, /Workflow Builder steps are \*on\*/);
    expect((await h.store.appSettings.get('workflows'))?.value).toBe('on');
    const audit = await h.store.audit.recent(5);
    expect(audit.find((a) => a.action === 'workflows_on')?.actor).toBe(users.admin);
  });

  it('Send an SMS sends through the one send path and outputs the MessageId and the number of recipients', async () => {
    const before = await submits();
    const { delivered, ended } = await run('send_sms', {
      recipients: TWO,
      message: 'Your appointment is tomorrow at 10:00',
      user: users.alice,
    });
    expect(ended.state).toBe('completed');
    const row = (await h.store.outbox.recent(1))[0]!;
    expect(row).toMatchObject({
      slackUser: users.alice,
      sender: 'SMSOPS',
      recipients: ['905321234567', '905332223344'],
      state: 'submitted',
    });
    expect(ended.outputs).toEqual({ message_id: row.messageId, recipients: 2 });
    // The person it ran for has the delivery card in their DM.
    const card = await h.fake.state.waitForMessage(
      (m) => m.text.startsWith('SMS batch ') && m.channel === 'D0ALICE',
    );
    expect(card.text).toContain(String(row.messageId));
    expect(await submits()).toBe(before + 1);
    // Completed with the run's own token (the event's bot_access_token), as Bolt does.
    const completion = h.fake.state.calls('functions.completeSuccess').at(-1)!;
    expect(completion).toMatchObject({ auth: 'workflow', status: 200 });
    expect(completion.args.function_execution_id).toBe(delivered.execution.id);
    const entry = (await h.store.audit.recent(10)).find(
      (a) => a.action === 'workflow_step' && a.target === delivered.execution.workflowExecutionId,
    );
    expect(entry).toMatchObject({ actor: users.alice });
    expect(entry?.details).toMatchObject({
      step: 'send_sms',
      workflow: delivered.execution.workflowExecutionId,
      user: users.alice,
      outcome: 'sent',
      messageId: Number(row.messageId),
    });

    // Slack delivering the same run again sends nothing more; the run stays as it ended.
    const after = h.fake.state.journal.seq;
    await h.driver.redeliver(delivered, 1, 'http_timeout');
    await h.fake.state.waitForCall('functions.completeSuccess', () => true, { after });
    const second = h.fake.state.calls('functions.completeSuccess').at(-1)!;
    expect(second.result).toMatchObject({ ok: false, error: 'execution_not_in_running_state' });
    expect(await submits()).toBe(before + 1);
    expect(h.fake.state.functions.get(delivered.execution.id)?.outputs).toEqual(ended.outputs);
  });

  it('uses the sender the step names, when it is one of the account’s', async () => {
    const { ended } = await run('send_sms', {
      recipients: '0532 123 45 67',
      message: 'From ACME',
      sender: 'ACME',
      user: users.admin,
    });
    expect(ended.state).toBe('completed');
    expect((await h.store.outbox.recent(1))[0]).toMatchObject({ sender: 'ACME', slackUser: users.admin });
  });

  it('refuses, with a message the workflow author can act on: no sender role, over the cap, bad input', async () => {
    const before = await submits();
    const viewer = await run('send_sms', { recipients: TWO, message: 'Hello', user: users.bob });
    expect(viewer.ended).toMatchObject({ state: 'failed' });
    expect(viewer.ended.error).toContain(`<@${users.bob}>`);
    expect(viewer.ended.error).toContain('needs the sender role');

    const eleven = Array.from({ length: 11 }, (_, i) => `0532 000 00 ${String(10 + i)}`).join('\n');
    const over = await run('send_sms', { recipients: eleven, message: 'Hello', user: users.alice });
    expect(over.ended.state).toBe('failed');
    expect(over.ended.error).toContain('11 recipients');
    expect(over.ended.error).toContain('at most 10 (WORKFLOW_MAX_RECIPIENTS)');

    const bad = await run('send_sms', {
      recipients: '12, 0532 123 45 67',
      message: 'Hello',
      user: users.alice,
    });
    expect(bad.ended.state).toBe('failed');
    expect(bad.ended.error).toMatch(/Recipients: Line 1: “12”/);

    const sender = await run('send_sms', {
      recipients: TWO,
      message: 'Hello',
      sender: 'NOPE',
      user: users.alice,
    });
    expect(sender.ended.error).toContain('“NOPE” is not a sender name of this account');
    expect(await submits()).toBe(before);

    const refusals = (await h.store.audit.recent(20)).filter(
      (a) => a.action === 'workflow_step' && (a.details as { outcome?: string }).outcome === 'refused',
    );
    expect(refusals.map((a) => a.target)).toEqual(
      expect.arrayContaining([
        viewer.delivered.execution.workflowExecutionId,
        over.delivered.execution.workflowExecutionId,
      ]),
    );
  });

  it('Get SMS balance outputs usable credit, main and limit', async () => {
    const { balance } = await h.control.state();
    const { ended } = await run('get_sms_balance', {});
    expect(ended.state).toBe('completed');
    expect(ended.outputs).toEqual({
      usable: balance.main + balance.limit,
      main: balance.main,
      limit: balance.limit,
    });
  });

  it('/sms workflows says whether they are on, and refuses a word other than on or off, changing nothing', async () => {
    await h.sms('workflows', users.admin);
    await h.ephemeral(users.admin, /Workflow Builder steps are \*on\* \(by <@U0ADMIN>/);
    await h.sms('workflows maybe', users.admin);
    await h.ephemeral(users.admin, /“maybe” is neither on nor off\. Usage: `\/sms workflows \[on\|off\]`/);
    expect((await h.store.appSettings.get('workflows'))?.value).toBe('on');
  });

  it('a redelivery while the first run’s gateway call is in flight leaves the step to that run: it completes, sent once', async () => {
    await h.sms('workflows on', users.admin);
    const before = await submits();
    await h.control.fault({ operation: 'Submit', kind: 'trickle', delayMs: 1_500, times: 1 });
    const delivered = await h.driver.functionExecuted({
      callbackId: 'send_sms',
      inputs: { recipients: TWO, message: 'Held reply', user: users.alice },
    });
    const key = `workflow:${delivered.execution.id}`;
    await vi.waitFor(
      async () => {
        const row = (await h.store.outbox.recent(5)).find((r) => r.idempotencyKey === key);
        expect(row?.state).toBe('pending');
      },
      { timeout: 5_000, interval: 50 },
    );
    // Slack redelivers the same execution (its ack was lost) while the gateway still holds the reply.
    const again = await h.driver.redeliver(delivered, 1);
    expect(again.status).toBe(200);
    const ended = await delivered.ended(10_000);
    expect(ended.state).toBe('completed');
    expect(await submits()).toBe(before + 1);
  });

  it('stop again with /sms workflows off', async () => {
    await h.sms('workflows off', users.admin);
    await h.ephemeral(users.admin, /Workflow Builder steps are \*off\*/);
    const { ended } = await run('get_sms_balance', {});
    expect(ended.state).toBe('failed');
  });
});
