import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SEEDED } from '../../workspace/index.js';
import { channels, ephemeralText, type Harness, startHarness, users } from '../support/slack-harness.js';

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

  /** A workflow reaches the step; `startedBy`: the person who started it (unset: a scheduled workflow). */
  async function run(callbackId: string, inputs: Record<string, unknown>, startedBy?: string) {
    const delivered = await h.driver.functionExecuted({
      callbackId,
      inputs,
      ...(startedBy ? { startedBy } : {}),
    });
    expect(delivered.status).toBe(200);
    expect(delivered.late).toBe(false);
    return { delivered, ended: await delivered.ended() };
  }

  it('are off until an admin turns them on: the step ends in error and sends nothing', async () => {
    const before = await submits();
    const { ended } = await run('send_sms', { recipients: TWO, message: 'Hello' }, users.alice);
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
    const { delivered, ended } = await run(
      'send_sms',
      { recipients: TWO, message: 'Your appointment is tomorrow at 10:00' },
      users.alice,
    );
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
    const { ended } = await run(
      'send_sms',
      { recipients: '0532 123 45 67', message: 'From ACME', sender: 'ACME' },
      users.admin,
    );
    expect(ended.state).toBe('completed');
    expect((await h.store.outbox.recent(1))[0]).toMatchObject({ sender: 'ACME', slackUser: users.admin });
  });

  it('refuses, with a message the workflow author can act on: no sender role, over the cap, bad input', async () => {
    const before = await submits();
    const viewer = await run('send_sms', { recipients: TWO, message: 'Hello' }, users.bob);
    expect(viewer.ended).toMatchObject({ state: 'failed' });
    expect(viewer.ended.error).toContain(`<@${users.bob}>`);
    expect(viewer.ended.error).toContain('needs the sender role');

    const eleven = Array.from({ length: 11 }, (_, i) => `0532 000 00 ${String(10 + i)}`).join('\n');
    const over = await run('send_sms', { recipients: eleven, message: 'Hello' }, users.alice);
    expect(over.ended.state).toBe('failed');
    expect(over.ended.error).toContain('11 recipients');
    expect(over.ended.error).toContain('at most 10 (WORKFLOW_MAX_RECIPIENTS)');

    const bad = await run('send_sms', { recipients: '12, 0532 123 45 67', message: 'Hello' }, users.alice);
    expect(bad.ended.state).toBe('failed');
    expect(bad.ended.error).toMatch(/Recipients: Line 1: “12”/);

    const sender = await run('send_sms', { recipients: TWO, message: 'Hello', sender: 'NOPE' }, users.alice);
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
    await h.ephemeral(users.admin, /“maybe” is neither on nor off\. Usage: `\/sms workflows \[on\|off\|/);
    expect((await h.store.appSettings.get('workflows'))?.value).toBe('on');
  });

  it('a redelivery while the first run’s gateway call is in flight leaves the step to that run: it completes, sent once', async () => {
    await h.sms('workflows on', users.admin);
    const before = await submits();
    await h.control.fault({ operation: 'Submit', kind: 'trickle', delayMs: 1_500, times: 1 });
    const delivered = await h.driver.functionExecuted({
      callbackId: 'send_sms',
      inputs: { recipients: TWO, message: 'Held reply' },
      startedBy: users.alice,
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

  it('send with the rights of the person who started the workflow, never of a user the step’s inputs name', async () => {
    await h.sms('workflows on', users.admin);
    const before = await submits();
    // An input naming an admin (as the old "On behalf of" did) gives a viewer no right to send.
    const viewer = await run(
      'send_sms',
      { recipients: TWO, message: 'As the admin', user: users.admin },
      users.bob,
    );
    expect(viewer.ended.state).toBe('failed');
    expect(viewer.ended.error).toContain(`<@${users.bob}> (who started this workflow)`);
    // Nor does it give a step nobody started anything.
    const nobody = await run('send_sms', { recipients: TWO, message: 'As the admin', user: users.admin });
    expect(nobody.ended.state).toBe('failed');
    expect(nobody.ended.error).toContain('Nobody started this workflow');
    expect(await submits()).toBe(before);
    const refusals = (await h.store.audit.recent(5)).filter((a) => a.action === 'workflow_step');
    expect(refusals.slice(0, 2).map((a) => a.actor)).toEqual(['workflow', users.bob]);

    // A sender who starts it sends as themself, whoever the input names: the audit says so.
    const sent = await run(
      'send_sms',
      { recipients: TWO, message: 'As Alice', user: users.admin },
      users.alice,
    );
    expect(sent.ended.state).toBe('completed');
    expect((await h.store.outbox.recent(1))[0]).toMatchObject({ slackUser: users.alice });
    const entry = (await h.store.audit.recent(5)).find(
      (a) => a.target === sent.delivered.execution.workflowExecutionId,
    );
    expect(entry).toMatchObject({ actor: users.alice, details: { user: users.alice, outcome: 'sent' } });
  });

  it('post a delivery card that keeps working after the step has ended: bot token, not the run’s', async () => {
    const { delivered, ended } = await run(
      'send_sms',
      { recipients: '0532 123 45 67', message: 'Cancel me later' },
      users.alice,
    );
    expect(ended.state).toBe('completed');
    const row = (await h.store.outbox.recent(1))[0]!;
    const card = await h.fake.state.waitForMessage(
      (m) => m.channel === 'D0ALICE' && m.text.includes(String(row.messageId)),
    );
    const posted = h.fake.state
      .calls('chat.postMessage')
      .find((c) => (c.result as { ts?: string }).ts === card.ts);
    expect(posted?.auth).toBe('bot');
    // The run is over, so its token is too; Alice cancels the rest of her batch from the card.
    expect(h.fake.state.functions.get(delivered.execution.id)?.state).toBe('completed');
    const cancels = await h.control.callCount('Cancel');
    const clicked = h.fake.state.journal.seq;
    h.mark();
    await h.driver.blockAction({ userId: users.alice, message: card, actionId: 'card_cancel' });
    // Told once the click's work is done, the card's update included.
    await h.ephemeral(users.alice, new RegExp(`Batch ${row.messageId} cancelled`));
    expect(await h.control.callCount('Cancel')).toBe(cancels + 1);
    const since = h.fake.state.calls().filter((c) => c.seq > clicked);
    expect(since.filter((c) => c.result.ok !== true).map((c) => [c.method, c.result.error])).toEqual([]);
    expect(since.some((c) => c.method === 'chat.update' && c.args.ts === card.ts)).toBe(true);
  });

  it('with nobody behind them, send only once an admin allowed it: within the daily cap, each card in the allowance’s channel', async () => {
    const before = await submits();
    await h.sms('workflows unattended on 2', users.alice, channels.smsOps);
    await h.ephemeral(users.alice, /admin/);
    expect(await h.store.appSettings.get('workflows_unattended')).toBeUndefined();

    await h.store.permissions.grant(users.bob, 'admin', users.admin);
    await h.sms('workflows unattended on 2', users.bob, channels.smsOps);
    await h.ephemeral(
      users.bob,
      /may send, on the authority of you .* at most 2 SMS a day \(one per recipient\), each send's card in <#C0SMSOPS>/,
    );
    const first = await run('send_sms', { recipients: '0532 123 45 67', message: 'Nightly reminder 1' });
    expect(first.ended.state).toBe('completed');
    const row = (await h.store.outbox.recent(1))[0]!;
    expect(row).toMatchObject({ slackUser: users.bob, channel: channels.smsOps });
    await h.fake.state.waitForMessage(
      (m) => m.channel === channels.smsOps && m.text.includes(String(row.messageId)),
    );
    const entry = (await h.store.audit.recent(5)).find(
      (a) => a.target === first.delivered.execution.workflowExecutionId,
    );
    expect(entry).toMatchObject({ actor: 'workflow', details: { user: null, allowedBy: users.bob } });
    // Slack delivering the same run again takes no second place in the cap.
    await h.driver.redeliver(first.delivered, 1);
    expect(
      (await run('send_sms', { recipients: '0532 123 45 67', message: 'Nightly reminder 2' })).ended.state,
    ).toBe('completed');
    const third = await run('send_sms', { recipients: '0532 123 45 67', message: 'Nightly reminder 3' });
    expect(third.ended.error).toContain('have sent 2 of their daily cap of 2 SMS today');
    expect(await submits()).toBe(before + 2);

    // The allowance is only as good as the admin who gave it.
    await h.store.permissions.grant(users.bob, 'viewer', users.admin);
    const lapsed = await run('send_sms', { recipients: '0532 123 45 67', message: 'Nightly reminder 4' });
    expect(lapsed.ended.error).toContain(`allowed by <@${users.bob}>, who is no longer an smsops admin`);

    await h.sms('workflows unattended off', users.admin, channels.smsOps);
    await h.ephemeral(users.admin, /steps with nobody behind them are refused/);
    const off = await run('send_sms', { recipients: '0532 123 45 67', message: 'Nightly reminder 5' });
    expect(off.ended.error).toContain('Nobody started this workflow');
    expect(await submits()).toBe(before + 2);
    expect((await h.store.audit.recent(20)).map((a) => a.action)).toEqual(
      expect.arrayContaining(['workflows_unattended_on', 'workflows_unattended_off']),
    );
  });

  /** SMS sent today by steps with nobody behind them (earlier tests of this file count too). */
  async function unattendedToday(): Promise<number> {
    const day = new Date().toISOString().slice(0, 10);
    const runs = await h.store.jobRuns.runs('workflow_unattended_send', 10_000);
    return runs.filter((r) => r.slot.startsWith(`${day}:`)).length;
  }

  it('with nobody behind them, are allowed only from a channel the bot can post in: not a DM, not a private channel it is not in', async () => {
    const before = await h.store.appSettings.get('workflows_unattended');
    const bot = h.fake.state.identity.botUserId;
    await h.sms('workflows unattended on 5', users.admin, SEEDED.ims.admin);
    const inDm = await h.ephemeral(users.admin, /./);
    expect(await h.store.appSettings.get('workflows_unattended')).toEqual(before);
    expect(ephemeralText(inDm)).toMatch(
      /Run `\/sms workflows unattended on` in the channel that should see every send/,
    );
    // A group DM the bot is in: it could post there, but it is not a channel the team watches.
    h.fake.state.directory.addChannel({
      id: 'G0GROUPDM',
      name: 'mpdm-admin--alice--smsops-1',
      kind: 'mpim',
      members: [users.admin, users.alice, bot],
      createdSec: 0,
    });
    await h.sms('workflows unattended on 5', users.admin, 'G0GROUPDM');
    const inGroupDm = await h.ephemeral(users.admin, /./);
    expect(await h.store.appSettings.get('workflows_unattended')).toEqual(before);
    expect(ephemeralText(inGroupDm)).toMatch(/a direct message or a group DM is not a channel/);
    await h.sms('workflows unattended on 5', users.admin, channels.finance);
    const notIn = await h.ephemeral(users.admin, /./);
    expect(await h.store.appSettings.get('workflows_unattended')).toEqual(before);
    expect(ephemeralText(notIn)).toMatch(/I cannot post in this conversation/);

    // Invited, the bot takes the allowance there; removed again, a step is refused rather than shown elsewhere.
    h.fake.state.directory.join(channels.finance, bot);
    await h.sms('workflows unattended on 5', users.admin, channels.finance);
    await h.ephemeral(users.admin, /may send, on the authority of you .*<#G0FINANCE>/);
    h.fake.state.directory.leave(channels.finance, bot);
    const sends = await submits();
    const posted = h.fake.state.journal.seq;
    const step = await run('send_sms', { recipients: '0532 123 45 67', message: 'Into the void' });
    expect(await submits()).toBe(sends);
    const cards = h.fake.state
      .calls('chat.postMessage')
      .filter((c) => c.seq > posted && c.result.ok === true);
    expect(cards).toEqual([]);
    expect(step.ended.state).toBe('failed');
    expect(step.ended.error).toContain('smsops cannot post there');
    expect(step.ended.error).toContain('<#G0FINANCE>');
  });

  it('with nobody behind them, count SMS against the daily cap: one per recipient, all of a step or none', async () => {
    const used = await unattendedToday();
    await h.sms(`workflows unattended on ${used + 4}`, users.admin, channels.smsOps);
    await h.ephemeral(users.admin, /may send, on the authority of you/);
    const sends = await submits();
    const two = await run('send_sms', { recipients: TWO, message: 'Two of them' });
    expect(two.ended.state).toBe('completed');
    const three = await run('send_sms', {
      recipients: `${TWO}, 0534 333 44 55`,
      message: 'Three would pass the cap',
    });
    expect(three.ended.state).toBe('failed');
    expect(await submits()).toBe(sends + 1);
    expect(three.ended.error).toContain(
      `This step would send 3 SMS, and steps with nobody behind them have sent ${used + 2} of their daily cap of ${used + 4} SMS today`,
    );
    const rest = await run('send_sms', { recipients: TWO, message: 'The last two' });
    expect(rest.ended.state).toBe('completed');
    expect(await unattendedToday()).toBe(used + 4);
    expect(await submits()).toBe(sends + 2);
  });

  it('with nobody behind them, give back the places of a send the gateway refused, and keep those of one that may have gone', async () => {
    const used = await unattendedToday();
    await h.sms(`workflows unattended on ${used + 2}`, users.admin, channels.smsOps);
    await h.ephemeral(users.admin, /may send, on the authority of you/);
    const calls = await submits();
    await h.control.fault({ operation: 'Submit', kind: 'status', code: 402 });
    const refused = await run('send_sms', { recipients: TWO, message: 'Refused by the gateway' });
    expect(refused.ended.state).toBe('failed');
    expect(refused.ended.error).toContain('Simulated fault');
    expect(await submits()).toBe(calls + 1);
    expect(await unattendedToday()).toBe(used);
    // Slack delivering the refused run again: nothing is sent, and no place is kept for it either.
    const redelivered = h.fake.state.journal.seq;
    await h.driver.redeliver(refused.delivered, 1);
    await h.fake.state.waitForCall(
      'functions.completeError',
      (c) => c.args.function_execution_id === refused.delivered.execution.id,
      { after: redelivered },
    );
    expect(await submits()).toBe(calls + 1);
    expect(await unattendedToday()).toBe(used);
    // A timeout after the request left: the gateway may have taken it, so its places count.
    await h.control.fault({ operation: 'Submit', kind: 'timeout', delayMs: 10_000 });
    const maybe = await run('send_sms', { recipients: TWO, message: 'Maybe sent' });
    expect(maybe.ended.state).toBe('failed');
    expect(await submits()).toBe(calls + 2);
    expect(await unattendedToday()).toBe(used + 2);
    const over = await run('send_sms', { recipients: '0532 123 45 67', message: 'Over the cap now' });
    expect(over.ended.error).toContain(`daily cap of ${used + 2} SMS`);
  });

  it('once the daily cap is reached, a refused step asks the store once, however high the cap', async () => {
    const cap = (await unattendedToday()) + 1;
    await h.sms(`workflows unattended on ${cap}`, users.admin, channels.smsOps);
    await h.ephemeral(users.admin, /may send, on the authority of you/);
    const last = await run('send_sms', { recipients: '0532 123 45 67', message: 'The last one today' });
    expect(last.ended.state).toBe('completed');
    const jobRuns = h.store.jobRuns as unknown as Record<string, (...args: unknown[]) => unknown>;
    const spies = Object.keys(jobRuns).map((name) => vi.spyOn(jobRuns, name));
    try {
      const refused = await run('send_sms', { recipients: '0532 123 45 67', message: 'Over the cap' });
      expect(refused.ended.state).toBe('failed');
      expect(spies.reduce((calls, spy) => calls + spy.mock.calls.length, 0)).toBe(1);
      expect(refused.ended.error).toContain(`daily cap of ${cap} SMS`);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    await h.sms('workflows unattended off', users.admin, channels.smsOps);
  });

  it('stop again with /sms workflows off', async () => {
    await h.sms('workflows off', users.admin);
    await h.ephemeral(users.admin, /Workflow Builder steps are \*off\*/);
    const { ended } = await run('get_sms_balance', {});
    expect(ended.state).toBe('failed');
  });
});
