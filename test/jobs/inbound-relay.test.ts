import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { backoffSeconds } from '../../src/jobs/inbound-relay.js';
import { captureLogger } from '../support/logs.js';
import { channels, type InboundRig, number, postCounts, startInboundRig, users } from './inbound-support.js';

let rig: InboundRig;
beforeEach(async () => {
  rig = await startInboundRig();
});
afterEach(() => rig.close());

const sectionText = (p: { message: { blocks?: unknown[] } }, id: number) =>
  (p.message.blocks as Array<{ block_id?: string; text?: { text: string } }>).find(
    (b) => b.block_id === `inbound_${id}`,
  )!.text!.text;

describe('inbound relay: posting', () => {
  it('posts each inbound SMS once in INBOUND_CHANNEL, with its facts, and never again', async () => {
    const ids = await rig.inject([
      { MSISDN: number(1), Text: 'Hello there', Recipient: '4440123' },
      { MSISDN: number(2), Text: 'Second one' },
    ]);
    const relay = rig.relay();
    const first = await relay.pollOnce();
    expect(first).toMatchObject({ ok: true, posted: 2, posts: 2, pending: 0 });
    const posted = rig.posted();
    expect(posted.map((p) => [p.id, p.channel])).toEqual([
      [ids[0], channels.smsOps],
      [ids[1], channels.smsOps],
    ]);
    const text = sectionText(posted[0]!, ids[0]!);
    expect(text).toContain('*+90 532 000 00 01*');
    expect(text).toContain('4440123');
    expect(text).toContain('keyword *HELLO*');
    // The gateway's Network code and a zero Price mean nothing to a person in the channel.
    expect(text).not.toContain('network');
    expect(text).not.toContain('price');
    expect(text).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d/);
    expect(text).toContain('>Hello there');
    expect(JSON.stringify(posted[0]!.message.blocks)).toContain('Simulated gateway');
    expect(relay.lastSuccessfulPoll).toBeInstanceOf(Date);

    // The overlap window reads them again; the claims say they are done.
    const again = await rig.relay().pollOnce();
    expect(again).toMatchObject({ ok: true, received: 2, posted: 0, posts: 0, pending: 0 });
    expect(await relay.pollOnce()).toMatchObject({ posted: 0, posts: 0 });
    expect(rig.posted()).toHaveLength(2);
  });

  it('escapes the text, so an SMS cannot ping a channel, mention a user or forge a link', async () => {
    const texts = ['<!channel> urgent', 'hi <@U123>', 'see <https://x|y>', 'Fish &amp; chips <!here>'];
    const ids = await rig.inject(texts.map((Text, i) => ({ MSISDN: number(10 + i), Text })));
    await rig.relay().pollOnce();
    const posted = rig.posted();
    expect(posted).toHaveLength(4);
    const everything = JSON.stringify(posted.map((p) => [p.message.text, p.message.blocks]));
    for (const raw of ['<!channel>', '<@U123>', '<https://x|y>', '<!here>'])
      expect(everything).not.toContain(raw);
    expect(sectionText(posted[0]!, ids[0]!)).toContain('&lt;!channel&gt; urgent');
    expect(sectionText(posted[1]!, ids[1]!)).toContain('hi &lt;@U123&gt;');
    expect(sectionText(posted[2]!, ids[2]!)).toContain('see &lt;https://x|y&gt;');
    expect(sectionText(posted[3]!, ids[3]!)).toContain('Fish &amp;amp; chips &lt;!here&gt;');
    // The notification text is escaped the same way.
    expect(posted[0]!.message.text).toContain('&lt;!channel&gt;');
  });

  it('routes by keyword and recipient, once per channel, Turkish casing included', async () => {
    await rig.store.subscriptions.add(channels.alerts, { kind: 'inbound', keyword: 'anket' }, users.admin);
    await rig.store.subscriptions.add(channels.general, { kind: 'inbound', recipient: 'ACME' }, users.admin);
    await rig.store.subscriptions.add(channels.general, { kind: 'inbound', keyword: 'indirim' }, users.admin);
    // Same channel as INBOUND_CHANNEL: still one post there.
    await rig.store.subscriptions.add(channels.smsOps, { kind: 'inbound', keyword: 'ANKET' }, users.admin);
    const [survey, acme, discount, other] = await rig.inject([
      { MSISDN: number(1), Text: 'ANKET 5' },
      { MSISDN: number(2), Text: 'hello', Recipient: 'ACME' },
      { MSISDN: number(3), Text: 'İNDİRİM %20 nerede?' },
      { MSISDN: number(4), Text: 'nothing special', Recipient: 'INFO' },
    ]);
    await rig.relay().pollOnce();
    expect(postCounts(rig)).toEqual({
      [channels.smsOps]: { [survey!]: 1, [acme!]: 1, [discount!]: 1, [other!]: 1 },
      [channels.alerts]: { [survey!]: 1 },
      [channels.general]: { [acme!]: 1, [discount!]: 1 },
    });
  });

  it('does not hand a new subscription what the overlap window reads again', async () => {
    const relay = rig.relay();
    const [early] = await rig.inject([{ MSISDN: number(1), Text: 'before the subscription' }]);
    await relay.pollOnce();
    // Made two minutes after that message arrived; the next poll reads the message again.
    const later = new Date(Date.now() + 120_000);
    await rig.store.subscriptions.add(channels.alerts, { kind: 'inbound' }, users.admin, later);
    expect(await relay.pollOnce()).toMatchObject({ received: 1, posted: 0 });
    expect(postCounts(rig)).toEqual({ [channels.smsOps]: { [early!]: 1 } });
  });

  it('skips (and logs) what no subscription takes, but still honours its stop word', async () => {
    const { logger, lines } = captureLogger();
    const [id] = await rig.inject([{ MSISDN: number(5), Text: 'STOP' }]);
    for (const sub of await rig.store.subscriptions.list()) await rig.store.subscriptions.remove(sub.id);
    const relay = rig.relay({ logger });
    expect(await relay.pollOnce()).toMatchObject({ ok: true, skipped: 1, posted: 0 });
    expect(rig.posted()).toEqual([]);
    expect(await rig.store.optOuts.has(number(5))).toBe(true);
    expect(lines.some((l) => l.msg.includes('matched no subscription'))).toBe(true);
    // Skipped is done: the cursor moved past it.
    expect(await rig.store.inbound.getCursor('inbound')).toBeDefined();
    expect(await relay.pollOnce()).toMatchObject({ skipped: 0 });
    expect(id).toBeGreaterThan(0);
  });
});

describe('inbound relay: conversations', () => {
  it('puts one number’s messages in one thread per channel; other numbers get their own', async () => {
    const relay = rig.relay();
    const [a1, b1] = await rig.inject([
      { MSISDN: number(1), Text: 'first from A' },
      { MSISDN: number(2), Text: 'first from B' },
    ]);
    await relay.pollOnce();
    const [a2] = await rig.inject([{ MSISDN: number(1), Text: 'second from A' }]);
    await relay.pollOnce();
    const [a3, b2] = await rig.inject([
      { MSISDN: number(1), Text: 'third from A' },
      { MSISDN: number(2), Text: 'second from B' },
    ]);
    await relay.pollOnce();
    const at = new Map(rig.posted().map((p) => [p.id, p]));
    expect(at.get(a1!)!.threadTs).toBeUndefined();
    expect(at.get(b1!)!.threadTs).toBeUndefined();
    expect(at.get(a2!)!.threadTs).toBe(at.get(a1!)!.ts);
    expect(at.get(a3!)!.threadTs).toBe(at.get(a1!)!.ts);
    expect(at.get(b2!)!.threadTs).toBe(at.get(b1!)!.ts);
    expect(rig.fake.state.messages.thread(channels.smsOps, at.get(a1!)!.ts)).toHaveLength(3);
  });

  it('starts a new thread, and says so, when the conversation’s thread parent was deleted', async () => {
    const relay = rig.relay();
    const [first] = await rig.inject([{ MSISDN: number(1), Text: 'first' }]);
    await relay.pollOnce();
    const parent = rig.posted().find((p) => p.id === first)!;
    // Someone deletes the post: a reply to it would never show in Slack.
    rig.fake.state.messages.delete(channels.smsOps, parent.ts);
    const [second] = await rig.inject([{ MSISDN: number(1), Text: 'second' }]);
    await relay.pollOnce();
    const restarted = rig.posted().find((p) => p.id === second)!;
    expect(restarted.threadTs).toBeUndefined();
    expect(rig.fake.state.messages.history(channels.smsOps).map((m) => m.ts)).toContain(restarted.ts);
    expect(JSON.stringify(restarted.message.blocks)).toContain('earlier thread');
    const [third] = await rig.inject([{ MSISDN: number(1), Text: 'third' }]);
    await relay.pollOnce();
    expect(rig.posted().find((p) => p.id === third)!.threadTs).toBe(restarted.ts);
  });

  it('starts a new thread once the number was quiet for longer than CONVERSATION_HOURS', async () => {
    const relay = rig.relay({ settings: { conversationHours: 24 } });
    const [first] = await rig.inject([{ MSISDN: number(1), Text: 'yesterday' }]);
    await relay.pollOnce();
    const old = rig.posted()[0]!;
    // The conversation's last message, moved back 25 hours.
    await rig.store.inbound.saveThread(
      channels.smsOps,
      number(1),
      old.ts,
      new Date(Date.now() - 25 * 3_600_000),
    );
    const [later] = await rig.inject([{ MSISDN: number(1), Text: 'today' }]);
    await relay.pollOnce();
    const now = rig.posted().find((p) => p.id === later)!;
    expect(first).not.toBe(later);
    expect(now.threadTs).toBeUndefined();
    expect(now.ts).not.toBe(old.ts);
  });
});

describe('inbound relay: opt-outs and surveys', () => {
  it('puts a number that sends a stop word on the opt-out list and says so', async () => {
    const ids = await rig.inject([
      { MSISDN: number(1), Text: 'Stop' },
      { MSISDN: number(2), Text: 'iptal' },
      { MSISDN: number(3), Text: 'İPTAL.' },
      { MSISDN: number(4), Text: 'durum nedir' },
      { MSISDN: number(5), Text: 'cancel please' },
    ]);
    await rig.relay({ settings: { stopWords: ['STOP', 'IPTAL', 'DUR', 'CANCEL'] } }).pollOnce();
    const optedOut = await rig.store.optOuts.list();
    expect(optedOut.map((o) => [o.msisdn, o.source]).sort()).toEqual(
      [number(1), number(2), number(3), number(5)].map((n) => [n, 'stop_word']).sort(),
    );
    const posted = rig.posted();
    for (const [i, id] of ids.entries()) {
      const text = sectionText(posted.find((p) => p.id === id)!, id);
      if (i === 3) expect(text).not.toContain('Opted out');
      else expect(text).toContain('*Opted out*');
    }
    const audit = await rig.store.audit.recent(10);
    expect(audit.filter((a) => a.action === 'optout_add')).toHaveLength(4);
  });

  it('says which survey an answer belongs to', async () => {
    const [answer, plain] = await rig.inject([
      { MSISDN: number(1), Text: 'ANKET 5' },
      { MSISDN: number(2), Text: 'Merhaba' },
    ]);
    await rig.relay({ settings: { surveyKeywords: { ANKET: 301, KATIL: 302 } } }).pollOnce();
    const posted = rig.posted();
    expect(sectionText(posted.find((p) => p.id === answer)!, answer!)).toContain(
      'Answers survey *Customer satisfaction* (301)',
    );
    expect(sectionText(posted.find((p) => p.id === plain)!, plain!)).not.toContain('survey');
  });
});

describe('inbound relay: faults', () => {
  it('backs off while the gateway is down, logs once per outage, then catches up', async () => {
    const { logger, lines } = captureLogger();
    const relay = rig.relay({ logger });
    const [before] = await rig.inject([{ MSISDN: number(1), Text: 'before the outage' }]);
    expect(await relay.pollOnce()).toMatchObject({ ok: true, posted: 1 });
    // Each poll's Receive is tried twice by the client: six faults make three failed polls.
    await rig.control.fault({ operation: 'Receive', kind: 'http500', times: 6 });
    const during = await rig.inject([
      { MSISDN: number(2), Text: 'during 1' },
      { MSISDN: number(3), Text: 'during 2' },
    ]);
    for (let i = 0; i < 3; i++) expect(await relay.pollOnce()).toMatchObject({ ok: false, posted: 0 });
    const warnings = lines.filter((l) => l.level === 'warn' && l.msg.includes('gateway unavailable'));
    expect(warnings).toHaveLength(1);
    expect(await relay.pollOnce()).toMatchObject({ ok: true, posted: 2 });
    expect(lines.filter((l) => l.msg.includes('answers again'))).toHaveLength(1);
    expect(postCounts(rig)[channels.smsOps]).toEqual({ [before!]: 1, [during[0]!]: 1, [during[1]!]: 1 });
  });

  it('started, it polls on its own clock and waits longer after each failed poll, until stopped', async () => {
    const relay = rig.relay({ settings: { pollSeconds: 1 } });
    await rig.control.fault({ operation: 'Receive', kind: 'http500', times: 1000 });
    const receives = () => rig.control.callCount('Receive');
    const base = await receives();
    // Each poll's Receive is tried twice by the client; a poll is seen when both tries are in.
    const polled = async (polls: number) => {
      await vi.waitFor(async () => expect(await receives()).toBeGreaterThanOrEqual(base + 2 * polls), {
        timeout: 15_000,
        interval: 25,
      });
      return Date.now();
    };
    relay.start();
    try {
      const first = await polled(1);
      const second = await polled(2);
      const third = await polled(3);
      // One failure: 2 s before the next poll; two: 4 s (1 s apart while the gateway answers).
      expect(second - first).toBeGreaterThanOrEqual(1_900);
      expect(third - second).toBeGreaterThanOrEqual(3_900);
    } finally {
      await relay.stop();
    }
  });

  it('stopped while the gateway holds its Receive, it stops without waiting for it or trying it again', async () => {
    const { logger, lines } = captureLogger();
    const relay = rig.relay({ logger });
    await rig.control.fault({ operation: 'Receive', kind: 'timeout', delayMs: 60_000, times: 5 });
    const before = await rig.control.callCount('Receive');
    relay.start();
    await vi.waitFor(async () => expect(await rig.control.callCount('Receive')).toBe(before + 1), {
      timeout: 5_000,
      interval: 10,
    });

    await relay.stop();

    // The client's 2 s timeout would have ended the wait and tried Receive again before a stop that waited.
    expect(await rig.control.callCount('Receive')).toBe(before + 1);
    // Its own stop is no gateway outage.
    expect(lines.filter((l) => l.msg.includes('gateway unavailable'))).toEqual([]);
  });

  it('backs off exponentially, up to five minutes', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => backoffSeconds(15, n))).toEqual([15, 30, 60, 120, 240, 300, 300]);
    expect(backoffSeconds(600, 3)).toBe(600);
  });

  it('leaves a message unposted on a Slack error other than a rate limit, and posts it next poll', async () => {
    const [id] = await rig.inject([{ MSISDN: number(1), Text: 'try me' }]);
    rig.fake.injectFault({ method: 'chat.postMessage', status: 500 });
    const relay = rig.relay();
    expect(await relay.pollOnce()).toMatchObject({ ok: true, posted: 0, pending: 1 });
    expect(rig.posted()).toEqual([]);
    // The claim was given back, and the cursor did not pass the message.
    expect(await rig.store.inbound.get(`${id}@${channels.smsOps}`)).toBeUndefined();
    expect(await rig.store.inbound.getCursor('inbound')).toBeUndefined();
    expect(await relay.pollOnce()).toMatchObject({ posted: 1 });
    expect(postCounts(rig)).toEqual({ [channels.smsOps]: { [id!]: 1 } });
    expect((await rig.store.inbound.get(`${id}@${channels.smsOps}`))?.posted).toBe(true);
  });

  it('takes a refusal of the post itself as final: skips its SMS, tells the admins once, posts the rest', async () => {
    const ids = await rig.inject([
      { MSISDN: number(1), Text: 'one' },
      { MSISDN: number(2), Text: 'two' },
      { MSISDN: number(3), Text: 'three' },
    ]);
    rig.fake.injectFault({ method: 'chat.postMessage', status: 200, error: 'msg_blocks_too_long' });
    const relay = rig.relay();
    expect(await relay.pollOnce()).toMatchObject({ ok: true, posted: 2, skipped: 1, pending: 0 });
    const refusedCalls = rig.fake.state.calls('chat.postMessage').length;
    // The next polls read the same SMS again (the overlap window) and never rebuild the refused posts.
    expect(await relay.pollOnce()).toMatchObject({ ok: true, posted: 0, pending: 0 });
    expect(await relay.pollOnce()).toMatchObject({ ok: true, posted: 0, pending: 0 });
    expect(rig.fake.state.calls('chat.postMessage')).toHaveLength(refusedCalls);
    expect(Object.keys(postCounts(rig)[channels.smsOps] ?? {}).sort()).toEqual(
      [String(ids[1]), String(ids[2])].sort(),
    );
    const reports = rig.fake.state.messages.all().filter((m) => m.text.includes('Slack refused a post'));
    expect(reports.map((m) => m.channel)).toEqual([`D${users.admin.slice(1)}`]);
    expect(reports[0]!.text).toContain('msg_blocks_too_long');
    expect(await rig.store.inbound.getCursor('inbound')).toBeDefined();
  });

  it('takes a channel where posting is restricted as unavailable: admins told once, not retried', async () => {
    await rig.inject([{ MSISDN: number(1), Text: 'one' }]);
    rig.fake.injectFault({ method: 'chat.postMessage', status: 200, error: 'restricted_action' });
    const relay = rig.relay();
    expect(await relay.pollOnce()).toMatchObject({ ok: true, posted: 0, skipped: 1, pending: 0 });
    const calls = rig.fake.state.calls('chat.postMessage').length;
    expect(await relay.pollOnce()).toMatchObject({ posted: 0, pending: 0 });
    expect(rig.fake.state.calls('chat.postMessage')).toHaveLength(calls);
    const reports = rig.fake.state.messages.all().filter((m) => m.text.includes('limited to some members'));
    expect(reports).toHaveLength(1);
  });

  it('joins a public channel it is not in; for a private one it tells the admins once', async () => {
    await rig.store.subscriptions.add(channels.random, { kind: 'inbound' }, users.admin);
    await rig.store.subscriptions.add(channels.finance, { kind: 'inbound' }, users.admin);
    const { logger, lines } = captureLogger();
    const relay = rig.relay({ logger });
    const [one] = await rig.inject([{ MSISDN: number(1), Text: 'one' }]);
    expect(await relay.pollOnce()).toMatchObject({ ok: true, posted: 2, skipped: 1 });
    const [two] = await rig.inject([{ MSISDN: number(2), Text: 'two' }]);
    expect(await relay.pollOnce()).toMatchObject({ ok: true, posted: 2, skipped: 1 });
    expect(postCounts(rig)).toEqual({
      [channels.smsOps]: { [one!]: 1, [two!]: 1 },
      [channels.random]: { [one!]: 1, [two!]: 1 },
    });
    expect(rig.fake.state.calls('conversations.join')).toHaveLength(1);
    const reports = rig.fake.state.messages
      .all()
      .filter((m) => m.channel.startsWith('D') && m.text.includes('cannot post inbound SMS'));
    expect(reports).toHaveLength(1);
    expect(reports[0]!.text).toContain(`<#${channels.finance}>`);
    expect(lines.filter((l) => l.msg.includes('cannot post in this channel'))).toHaveLength(2);
  });
});
