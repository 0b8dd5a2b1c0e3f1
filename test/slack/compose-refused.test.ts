import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ViewOutput } from '../../workspace/index.js';
import { ephemeralText, type Harness, startHarness, users } from '../support/slack-harness.js';

/**
 * `/sms send` with more than the compose modal can hold, or a modal Slack refuses for any reason: the
 * user is told what to do instead (a shorter text, a saved list), never "Something went wrong".
 */

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const GENERIC = /Something went wrong/;

describe('a compose modal that cannot be opened', () => {
  it('/sms send with 100 KB of text answers what to do instead, and opens no modal', async () => {
    const after = h.fake.state.journal.seq;
    await h.sms(`send 0532 123 45 67 ${'Kampanya! '.repeat(10_000)}`);
    const answer = ephemeralText(await h.ephemeral(users.admin, /Nothing was sent/));
    expect(answer).toContain('Your text is 99,999 characters long');
    expect(answer).toContain('a field of the compose modal takes at most 3,000');
    expect(answer).toContain('send a shorter text');
    expect(answer).not.toMatch(GENERIC);
    const viewCalls = h.fake.state.journal
      .entries('call')
      .filter((e) => e.seq > after && e.value.method.startsWith('views.'));
    expect(viewCalls).toEqual([]);
  });

  it('hundreds of numbers typed after /sms send are pointed to the file upload and list import', async () => {
    const numbers = Array.from({ length: 400 }, (_, i) => `0532${1_000_000 + i}`).join(' ');
    await h.sms(`send ${numbers} Hello`);
    const answer = ephemeralText(await h.ephemeral(users.admin, /Nothing was sent/));
    expect(answer).toContain('Those numbers take 4,799 characters');
    expect(answer).toContain('upload it in the composer');
    expect(answer).toContain('/sms lists import <name>');
    expect(answer).not.toMatch(GENERIC);
  });

  it('a modal Slack refuses for any other reason gets a clear message, in the modal and as an ephemeral', async () => {
    h.fake.injectFault({ method: 'views.update', status: 500 });
    await h.sms('send 0532 123 45 67 Hello');
    const answer = ephemeralText(await h.ephemeral(users.admin, /compose modal/));
    expect(answer).toContain('Slack failed to open the compose modal. Nothing was sent.');
    expect(answer).not.toMatch(GENERIC);
    // The loading view that did open is not left spinning: it says the same.
    const modal = await h.fake.state.waitFor('view', (e) =>
      JSON.stringify((e.view as ViewOutput).blocks).includes('Slack failed to open the compose modal'),
    );
    expect(modal.action).toBe('updated');
  });
});
