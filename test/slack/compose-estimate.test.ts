import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ViewOutput } from '../../workspace/index.js';
import { type Harness, startHarness, textBlockOf, users } from '../support/slack-harness.js';

/**
 * The estimate under the compose modal's text, as it updates while a person types. An attached file is read only
 * when the modal is submitted, so until then its recipients are not known: the estimate must not say
 * "0 recipients · 0 segments · est. cost 0,00 ₺", and a template's {{…}} braces are no part of any message.
 */

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

function attach(filename: string): string {
  const bytes = Buffer.from('telefon,Ad\n05321234567,Ayşe\n05331234567,Ali\n');
  return h.fake.state.files.addUpload({ filename, bytes, uploader: users.admin }).id;
}

/** Types `text` in the modal (with these other values in its state) and returns the estimate the bot showed. */
async function estimateAfterTyping(
  view: ViewOutput,
  text: string,
  values: Record<string, Record<string, string | string[]>> = {},
): Promise<string> {
  const textBlock = textBlockOf(view);
  const after = h.fake.state.journal.seq;
  await h.driver.blockAction({
    userId: users.admin,
    view,
    actionId: 'text',
    blockId: textBlock,
    value: text,
    values: { ...values, [textBlock]: { text } },
  });
  const updated = await h.fake.state.waitFor(
    'view',
    (e) => e.view.id === view.id && JSON.stringify(e.view.blocks).includes('"block_id":"estimate"'),
    { after, timeoutMs: 5_000 },
  );
  const estimate = (
    updated.view.blocks as Array<{ block_id?: string; elements?: Array<{ text?: string }> }>
  ).find((b) => b.block_id === 'estimate');
  return estimate?.elements?.map((e) => e.text ?? '').join('\n') ?? '';
}

describe('the compose estimate', () => {
  it('with a file attached to a personalised send: the template’s own text, and the totals at the review', async () => {
    const personal = await h.chooseInCompose(await h.openCompose(), 'mode', 'personalised');
    const file = attach('randevu.csv');
    const estimate = await estimateAfterTyping(personal, '{{Ad}} için randevu', { file: { file: [file] } });
    // " için randevu": 13 characters, the braces not counted (four escapes, eight septets, would be).
    expect(estimate).toContain('13 characters without the {{…}} values');
    expect(estimate).toContain('1 segment per message');
    expect(estimate).toContain(
      'the recipients of “randevu.csv”, their segments and the cost are counted at the review',
    );
    expect(estimate).not.toMatch(/0 recipients|0 segments in all|est\. cost/);
  });

  it('with a file attached to a same-text send: the numbers typed, and the file’s at the review', async () => {
    const view = await h.openCompose();
    const file = attach('liste.csv');
    const estimate = await estimateAfterTyping(view, 'Yarın kapalıyız', {
      recipients: { recipients: '05321234567\n05331234567' },
      file: { file: [file] },
    });
    expect(estimate).toContain('2 recipients typed; the recipients of “liste.csv”');
    expect(estimate).not.toContain('est. cost');
  });

  it('a personalised template with no rows yet counts its own text, not its braces', async () => {
    const personal = await h.chooseInCompose(await h.openCompose(), 'mode', 'personalised');
    const estimate = await estimateAfterTyping(personal, 'Merhaba {{Ad}}');
    expect(estimate).toMatch(
      /^\*GSM-7\* · 8 characters without the \{\{…\}\} values · 1 segment per message/,
    );
    expect(estimate).toContain('each row adds its values');
  });
});
