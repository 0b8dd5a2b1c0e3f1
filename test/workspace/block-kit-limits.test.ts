import { describe, expect, it } from 'vitest';
import { checkBlocks, checkMessageContent, checkView, SlackApiError } from '../../src/workspace/index.js';

const option = (n: number) => ({ text: { type: 'plain_text', text: `o${n}` }, value: `v${n}` });
const field = { type: 'mrkdwn', text: 'f' };

describe('Block Kit limits, function by function', () => {
  it.each([
    ['section with 11 fields', [{ type: 'section', fields: Array(11).fill(field) }], '/b/0/fields'],
    ['section with neither text nor fields', [{ type: 'section' }], '/b/0'],
    [
      'overflow with 6 options',
      [
        {
          type: 'actions',
          elements: [{ type: 'overflow', action_id: 'o', options: [1, 2, 3, 4, 5, 6].map(option) }],
        },
      ],
      '/b/0/elements/0/options',
    ],
    [
      'select with 101 options',
      [
        {
          type: 'section',
          text: field,
          accessory: {
            type: 'static_select',
            action_id: 's',
            options: Array.from({ length: 101 }, (_, i) => option(i)),
          },
        },
      ],
      '/b/0/accessory/options',
    ],
    [
      'unknown element type',
      [{ type: 'actions', elements: [{ type: 'slider', action_id: 'x' }] }],
      '/b/0/elements/0/type',
    ],
    ['image without alt_text', [{ type: 'image', image_url: 'https://x/y.png' }], '/b/0/alt_text'],
    ['input without element', [{ type: 'input', label: { type: 'plain_text', text: 'L' } }], '/b/0/element'],
    ['block_id over 255', [{ type: 'divider', block_id: 'b'.repeat(256) }], '/b/0/block_id'],
  ])('flags %s', (_name, blocks, pointer) => {
    const problems = checkBlocks(blocks, 'message', '/b');
    expect(problems.join('\n')).toContain(`[json-pointer:${pointer}]`);
  });

  it('passes well-formed blocks', () => {
    const blocks = [
      { type: 'header', text: { type: 'plain_text', text: 'Delivery report', emoji: true } },
      { type: 'section', text: { type: 'mrkdwn', text: '*3* sent' }, fields: [field, field] },
      { type: 'context', elements: [{ type: 'mrkdwn', text: 'today' }] },
      { type: 'divider' },
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: 'retry',
            text: { type: 'plain_text', text: 'Retry' },
            style: 'primary',
          },
          { type: 'overflow', action_id: 'more', options: [option(1), option(2)] },
        ],
      },
    ];
    expect(checkBlocks(blocks, 'message', '/blocks')).toEqual([]);
  });

  it('tells no_text from msg_too_long from invalid_blocks', () => {
    const errorOf = (args: Record<string, unknown>) => {
      try {
        checkMessageContent(args);
        return 'ok';
      } catch (error) {
        return (error as SlackApiError).error;
      }
    };
    expect(errorOf({})).toBe('no_text');
    expect(errorOf({ text: 'x'.repeat(40_000) })).toBe('ok');
    expect(errorOf({ text: 'x'.repeat(40_001) })).toBe('msg_too_long');
    expect(errorOf({ attachments: [{ text: 'a' }] })).toBe('ok');
    expect(errorOf({ text: 'x', blocks: [{ type: 'nope' }] })).toBe('invalid_blocks');
  });

  it('checks modal chrome: close and submit labels are limited to 24 characters too', () => {
    const view = {
      type: 'modal',
      title: { type: 'plain_text', text: 'Fine' },
      close: { type: 'plain_text', text: 'c'.repeat(25) },
      blocks: [],
    };
    expect(() => checkView(view, 'modal')).toThrow(SlackApiError);
    expect(() => checkView({ ...view, close: undefined }, 'modal')).not.toThrow();
  });
});
