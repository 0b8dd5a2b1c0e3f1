import { describe, expect, it } from 'vitest';
import type { InboundMessage } from '../../src/gateway/index.js';
import type { RelayItem } from '../../src/jobs/inbound-poster.js';
import {
  escapeWithin,
  INBOUND_POST_CAPACITY,
  inboundItemSize,
  inboundItemText,
  inboundPost,
  parseReplyValue,
  replyValue,
} from '../../src/slack/ui/inbound-post.js';
import { checkBlocks, checkMessageContent } from '../../workspace/index.js';

function item(overrides: Partial<InboundMessage> = {}, extra: Partial<RelayItem> = {}): RelayItem {
  return {
    message: {
      id: 500001,
      received: new Date('2024-05-15T10:00:00Z'),
      network: 2,
      msisdn: '905321234567',
      recipient: '4440123',
      keyword: 'ANKET',
      text: 'ANKET 5',
      price: 0.25,
      xser: '',
      ...overrides,
    },
    optedOut: false,
    ...extra,
  };
}

const view = { timeZone: 'Europe/Istanbul', simulated: false };

describe('inbound post', () => {
  it('shows number, recipient, keyword, a price charged and time in REPORT_TIMEZONE', () => {
    const text = inboundItemText(item(), 'Europe/Istanbul');
    expect(text.split('\n')[0]).toBe(
      ':incoming_envelope: *+90 532 123 45 67* → 4440123 · keyword *ANKET* · price 0,25 ₺ · 2024-05-15 13:00',
    );
    expect(text.split('\n')[1]).toBe('>ANKET 5');
    expect(inboundItemText(item({ price: 0, keyword: '«ANKET»!' }), 'UTC').split('\n')[0]).toBe(
      ':incoming_envelope: *+90 532 123 45 67* → 4440123 · keyword *ANKET* · 2024-05-15 10:00',
    );
  });

  it('escapes everything from outside, the recipient and keyword too', () => {
    const text = inboundItemText(
      item({ text: '<!channel> & <@U123>\n<https://x|y>', keyword: 'X<!here>X', recipient: '<@U9>' }),
      'UTC',
    );
    expect(text).not.toMatch(/<[!@h]/);
    expect(text).toContain('&lt;!channel&gt; &amp; &lt;@U123&gt;\n>&lt;https://x|y&gt;');
    expect(text).toContain('keyword *X&lt;!here&gt;X*');
    expect(text).toContain('→ &lt;@U9&gt;');
  });

  it('keeps a section within 3,000 characters even when every character needs escaping', () => {
    const text = inboundItemText(item({ text: '&'.repeat(1530) }), 'UTC');
    expect(text.length).toBeLessThanOrEqual(3000);
    expect(text).toMatch(/(&amp;)+…/);
    expect(escapeWithin('a&b', 6)).toBe('a…');
    expect(escapeWithin('a&b', 7)).toBe('a&amp;b');
  });

  it('says when the number opted out and which survey it answers', () => {
    const text = inboundItemText(
      item({}, { optedOut: true, survey: { id: 301, name: 'Customer <b>' } }),
      'UTC',
    );
    expect(text).toContain('*Opted out*');
    expect(text).toContain('Answers survey *Customer &lt;b&gt;* (301).');
  });

  it('fills a post to capacity within Slack’s block and text limits, its total for blocks included', () => {
    // As long as the relay's planner lets them be: 48 items whose sizes add up to the capacity.
    const items = Array.from({ length: INBOUND_POST_CAPACITY.items }, (_, i) =>
      item({ id: 500001 + i, msisdn: `90532${1_000_000 + i}`, text: 'é'.repeat(20) }),
    );
    const sizes = items.reduce((sum, it) => sum + inboundItemSize(it, 'UTC'), 0);
    expect(sizes).toBeLessThanOrEqual(INBOUND_POST_CAPACITY.size);
    const post = inboundPost({ items, shared: true }, { ...view, simulated: true });
    expect(post.blocks).toHaveLength(50);
    expect(checkBlocks(post.blocks, 'message', '/blocks')).toEqual([]);
    expect(() => checkMessageContent({ text: post.text, blocks: post.blocks })).not.toThrow();
    expect(post.text).toBe('48 inbound SMS from 48 numbers');
    expect(JSON.stringify(post.blocks)).toContain('share this post');
  });

  it('writes a notification line a phone can show, escaped', () => {
    expect(inboundPost({ items: [item({ text: 'Hi <!everyone>' })], shared: false }, view).text).toBe(
      'SMS from +90 532 123 45 67: Hi &lt;!everyone&gt;',
    );
    const two = [item(), item({ id: 2 }, { optedOut: true })];
    expect(inboundPost({ items: two, shared: false }, view).text).toBe(
      '2 SMS from +90 532 123 45 67 (1 opt-out)',
    );
  });

  it('gives each SMS a Reply button that carries the number and the recipient', () => {
    const post = inboundPost({ items: [item({ recipient: 'ACME' })], shared: false }, view);
    const block = post.blocks[0] as { block_id: string; accessory: { action_id: string; value: string } };
    expect(block.block_id).toBe('inbound_500001');
    expect(block.accessory.action_id).toBe('inbound_reply');
    expect(parseReplyValue(block.accessory.value)).toEqual({ msisdn: '905321234567', recipient: 'ACME' });
    expect(parseReplyValue(replyValue(item({ msisdn: 'not a number' })))).toBeUndefined();
    expect(parseReplyValue('{')).toBeUndefined();
  });
});
