import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureNoticeFor } from '../../src/slack/errors.js';
import { openStore, StoreUnavailableError } from '../../src/store/index.js';
import { withStoreFaults } from '../support/faulty-store.js';
import {
  askForRejectedRows,
  channels,
  type Harness,
  reviewOfFile,
  startHarness,
  textBlockOf,
  users,
} from '../support/slack-harness.js';

/**
 * A button whose handler fails after Slack's ack (the database goes away between two steps) used to leave the
 * click looking ignored: on a Cancel, the worst answer. The user who clicked is now told, privately, that it may
 * not have been done; the rest of the channel sees nothing.
 */

describe('a button that fails after the ack', () => {
  let h: Harness;
  const failing = new Set<string>();
  const dir = mkdtempSync(join(tmpdir(), 'smsops-click-failure-'));

  beforeAll(async () => {
    const store = await openStore(`sqlite:${join(dir, 'bot.db')}`);
    h = await startHarness({
      store: withStoreFaults(store, (method) =>
        failing.has(method) ? new StoreUnavailableError('database unreachable after 3 attempts') : undefined,
      ),
    });
  });
  afterAll(async () => {
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function sentCard(text: string) {
    const start = h.fake.state.journal.seq;
    const view = await h.openCompose();
    await h.driver.viewSubmission({
      userId: users.admin,
      view,
      values: { recipients: { recipients: '0532 123 45 67' }, [textBlockOf(view)]: { text } },
    });
    return h.fake.state.waitForMessage(
      (m) => m.channel === channels.smsOps && /SMS batch \d+:/.test(m.text),
      {
        after: start,
      },
    );
  }

  it('tells the user who clicked Cancel, and only them, when the database fails before anything was done', async () => {
    const card = await sentCard('cancel during the outage');
    const cancelsBefore = await h.control.callCount('Cancel');
    failing.add('outbox.get');
    try {
      const clicked = h.fake.state.journal.seq;
      h.mark();
      await h.driver.blockAction({ userId: users.admin, message: card, actionId: 'card_cancel' });
      const told = await h.ephemeral(users.admin, /could not reach its database just now/);
      expect(told.text).toMatch(
        /may not have been done, or done without the card showing it yet: press Refresh on the card/,
      );
      // Nothing of the failure's own text, and nothing said to anyone else or in the channel.
      expect(told.text).not.toContain('attempts');
      const journal = h.fake.state.journal;
      const ephemerals = journal.entries('ephemeral').filter((e) => e.seq > clicked);
      expect(ephemerals.map((e) => e.value.message.recipient)).toEqual([users.admin]);
      const posted = journal.entries('message').filter((e) => e.seq > clicked);
      expect(posted.map((e) => JSON.stringify(e.value.message))).not.toContainEqual(
        expect.stringContaining('could not reach'),
      );
      expect(await h.control.callCount('Cancel')).toBe(cancelsBefore);
    } finally {
      failing.delete('outbox.get');
    }
    // Once the database is back, the same button works.
    h.mark();
    await h.driver.blockAction({ userId: users.admin, message: card, actionId: 'card_cancel' });
    await h.ephemeral(users.admin, /cancel/i);
    expect(await h.control.callCount('Cancel')).toBe(cancelsBefore + 1);
  });

  it('a button in a modal (no channel to answer in) says so in the modal itself', async () => {
    const file = { filename: 'list.csv', bytes: Buffer.from('Telefon\n0532 111 11 11\n12\n') };
    const review = await reviewOfFile(h, file, 'Merhaba');
    failing.add('drafts.get');
    try {
      const clicked = await askForRejectedRows(h, review);
      await h.fake.state.waitFor(
        'view',
        (e) => JSON.stringify(e.view.blocks).includes('Something went wrong'),
        {
          after: clicked,
        },
      );
    } finally {
      failing.delete('drafts.get');
    }
  });

  it('does not say nothing happened when the failure came after the gateway had cancelled', async () => {
    const card = await sentCard('cancelled, then the audit write fails');
    const cancelsBefore = await h.control.callCount('Cancel');
    failing.add('audit.append');
    try {
      h.mark();
      await h.driver.blockAction({ userId: users.admin, message: card, actionId: 'card_cancel' });
      const told = await h.ephemeral(users.admin, /could not reach its database just now/);
      expect(told.text).toMatch(/may not have been done/);
      expect(await h.control.callCount('Cancel')).toBe(cancelsBefore + 1);
    } finally {
      failing.delete('audit.append');
    }
  });
});

describe('which failures are told', () => {
  it('tells nothing of Slack refusing the answer itself, and unwraps what Bolt wrapped', () => {
    // A response_url that refused the last answer of a click that worked: calling it a failure would mislead.
    expect(
      failureNoticeFor(Object.assign(new Error('respond failed'), { code: 'slack_bolt_respond_error' })),
    ).toBeUndefined();
    expect(
      failureNoticeFor(Object.assign(new Error('ratelimited'), { code: 'slack_webapi_platform_error' })),
    ).toBeUndefined();
    const wrapped = Object.assign(new Error('database unreachable'), {
      code: 'slack_bolt_unknown_error',
      original: new StoreUnavailableError('database unreachable'),
    });
    expect(failureNoticeFor(wrapped)).toMatch(/could not reach its database/);
    expect(failureNoticeFor(new TypeError('x is undefined'))).toMatch(
      /^:boom: Something went wrong on our side/,
    );
  });
});
