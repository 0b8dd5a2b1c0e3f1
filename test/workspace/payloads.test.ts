import { describe, expect, it } from 'vitest';
import { buildStateValues } from '../../workspace/block-kit/state-values.js';
import { elementAction, findElement } from '../../workspace/driver/payloads.js';
import { slackSignature } from '../../workspace/driver/signing.js';
import type { ViewOutput } from '../../workspace/index.js';

const options = [
  { text: { type: 'plain_text', text: 'Primary' }, value: 'primary' },
  { text: { type: 'plain_text', text: 'Backup' }, value: 'backup' },
];
const blocks = [
  {
    type: 'section',
    block_id: 's',
    text: { type: 'mrkdwn', text: 'x' },
    accessory: { type: 'static_select', action_id: 'route', options },
  },
  {
    type: 'input',
    block_id: 'to',
    label: { type: 'plain_text', text: 'To' },
    element: { type: 'plain_text_input', action_id: 'n' },
  },
  {
    type: 'input',
    block_id: 'when',
    label: { type: 'plain_text', text: 'When' },
    element: { type: 'datepicker', action_id: 'd' },
  },
];

describe('payload pieces', () => {
  it('builds a select action with the option as defined on the element', () => {
    const { block, element } = findElement(blocks, 'route', undefined);
    const action = elementAction(block, element, { selectedOption: { value: 'backup' } }, '1.000001');
    expect(action).toEqual({
      type: 'static_select',
      block_id: 's',
      action_id: 'route',
      action_ts: '1.000001',
      selected_option: options[1],
    });
  });

  it('expands shorthand state values by element type and fills empty inputs with null', () => {
    const view = { id: 'V1', blocks } as unknown as ViewOutput;
    expect(buildStateValues(view, { to: { n: '+447700900123' } })).toEqual({
      to: { n: { type: 'plain_text_input', value: '+447700900123' } },
      when: { d: { type: 'datepicker', selected_date: null } },
    });
    expect(() => buildStateValues(view, { nope: { x: 'y' } })).toThrow(/no input nope\/x/);
  });

  it('submits no more than a text input’s max_length, as no user can type or paste more into Slack', () => {
    const limited = structuredClone(blocks);
    (limited[1]!.element as Record<string, unknown>).max_length = 5;
    const view = { id: 'V1', blocks: limited } as unknown as ViewOutput;
    expect(buildStateValues(view, { to: { n: '12345' } }).to).toEqual({
      n: { type: 'plain_text_input', value: '12345' },
    });
    expect(() => buildStateValues(view, { to: { n: '123456' } })).toThrow(/at most 5 characters/);
  });

  it('signs like Slack’s documented example', () => {
    // https://api.slack.com/authentication/verifying-requests-from-slack: the worked example's secret and body.
    const body =
      'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
    expect(slackSignature('8f742231b10e8888abcd99yyyzzz85a5', 1531420618, body)).toBe(
      'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
    );
  });
});
