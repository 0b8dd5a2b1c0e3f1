import { describe, expect, it } from 'vitest';
import { checkBlocks, checkMessageContent, checkView, SlackApiError } from '../../workspace/index.js';

const option = (n: number) => ({ text: { type: 'plain_text', text: `o${n}` }, value: `v${n}` });
const field = { type: 'mrkdwn', text: 'f' };

const plainText = (text: string) => ({ type: 'plain_text', text });
const mrkdwn = (text: string) => ({ type: 'mrkdwn', text });
const confirmAt = (rest: string) => `/b/0/elements/0/confirm/${rest}`;

/** A button whose confirm dialog is valid but for the given fields. */
function actionsWith(confirm: Record<string, unknown>) {
  const dialog = {
    title: plainText('Cancel this batch?'),
    text: plainText('Messages not yet delivered will not be sent.'),
    confirm: plainText('Cancel batch'),
    deny: plainText('Keep sending'),
    style: 'danger',
    ...confirm,
  };
  return {
    type: 'actions',
    elements: [{ type: 'button', action_id: 'b', text: plainText('Cancel'), confirm: dialog }],
  };
}

function selectWith(extra: Record<string, unknown>) {
  const accessory = { type: 'static_select', action_id: 's', options: [1, 2, 3].map(option), ...extra };
  return { type: 'section', text: field, accessory };
}

function numberWith(extra: Record<string, unknown>) {
  const element = {
    type: 'number_input',
    action_id: 'n',
    is_decimal_allowed: false,
    min_value: '1',
    max_value: '10',
    initial_value: '5',
    ...extra,
  };
  return { type: 'input', label: plainText('How many'), element };
}

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
    [
      'confirm text in mrkdwn (Slack documents plain_text)',
      [actionsWith({ text: mrkdwn('Sure?') })],
      confirmAt('text/type'),
    ],
    ['confirm text over 300', [actionsWith({ text: plainText('t'.repeat(301)) })], confirmAt('text/text')],
    ['confirm title over 100', [actionsWith({ title: plainText('t'.repeat(101)) })], confirmAt('title/text')],
    [
      'confirm button over 30',
      [actionsWith({ confirm: plainText('c'.repeat(31)) })],
      confirmAt('confirm/text'),
    ],
    ['confirm without deny', [actionsWith({ deny: undefined })], confirmAt('deny')],
    [
      'initial_option not among the options',
      [selectWith({ initial_option: option(7) })],
      '/b/0/accessory/initial_option',
    ],
    [
      'initial_option whose text differs from its option',
      [selectWith({ initial_option: { ...option(1), text: plainText('other') } })],
      '/b/0/accessory/initial_option',
    ],
    [
      'number input starting above its range',
      [numberWith({ initial_value: '11' })],
      '/b/0/element/initial_value',
    ],
    ['number input with min above max', [numberWith({ min_value: '20' })], '/b/0/element/min_value'],
    [
      'whole-number input starting at 1.5',
      [numberWith({ initial_value: '1.5' })],
      '/b/0/element/initial_value',
    ],
    [
      'number input without is_decimal_allowed',
      [numberWith({ is_decimal_allowed: undefined })],
      '/b/0/element/is_decimal_allowed',
    ],
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
    const valid = [actionsWith({}), selectWith({ initial_option: option(2) }), numberWith({})];
    expect(checkBlocks(valid, 'modal', '/blocks')).toEqual([]);
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
