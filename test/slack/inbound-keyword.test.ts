import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channels, type Harness, startHarness, users } from '../support/slack-harness.js';

/**
 * The inbound post as a person reads it: the gateway reports the message's first word as its keyword, as it was
 * typed ("MERHABA,"), and a Network code and a Price of 0 that say nothing to anyone in the channel.
 */

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  await h.store.subscriptions.add(channels.smsOps, { kind: 'inbound' }, users.admin);
});
afterAll(() => h.close());

async function postOf(text: string): Promise<string> {
  const [id] = (await h.control.inbound([{ MSISDN: '905321234567', Text: text, Recipient: 'ACME' }])).ids as [
    number,
  ];
  await h.bot.relay.pollOnce();
  const post = await h.fake.state.waitForMessage((m) =>
    JSON.stringify(m.blocks ?? []).includes(`inbound_${id}`),
  );
  return JSON.stringify(post.blocks);
}

describe('the inbound post', () => {
  it('shows the keyword without the message’s punctuation, and no network or zero price', async () => {
    const post = await postOf('Merhaba, siparişim nerede?');
    expect(post).toContain('keyword *MERHABA*');
    expect(post).not.toContain('MERHABA,');
    expect(post).not.toMatch(/network \d/);
    expect(post).not.toContain('price');
    expect(post).toContain('Merhaba, siparişim nerede?');
  });

  it('keeps punctuation inside a word, and shows no keyword made only of punctuation', async () => {
    expect(await postOf('E-POSTA: ali@example.com')).toContain('keyword *E-POSTA*');
    const post = await postOf('?? ne zaman');
    expect(post).not.toContain('keyword');
  });
});

describe('/sms inbox', () => {
  it('shows the keyword as the inbound post does: without the message’s punctuation', async () => {
    const start = h.fake.state.journal.seq;
    await h.control.inbound([
      { MSISDN: '905321234567', Text: 'Merhaba, siparişim nerede?', Recipient: 'ACME' },
      { MSISDN: '905329876543', Text: '?? ne zaman', Recipient: 'ACME' },
    ]);
    await h.sms('inbox');
    const { message } = await h.fake.state.waitFor(
      'ephemeral',
      (e) =>
        e.action !== 'deleted' &&
        e.message.recipient === users.admin &&
        /Inbound SMS/.test(JSON.stringify(e.message.blocks)),
      { after: start },
    );
    const shown = JSON.stringify(message.blocks);
    expect(shown).toContain('keyword *MERHABA*');
    expect(shown).not.toContain('MERHABA,');
    // A keyword made only of punctuation is no keyword at all.
    expect(shown).not.toMatch(/\+90 532 987 65 43\*[^\\]*keyword/);
  });
});
