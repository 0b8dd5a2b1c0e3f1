import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness, textBlockOf } from '../support/slack-harness.js';

/** Text the gateway cannot carry gets a field error naming where it is, and nothing is sent. */

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.control.reset());

function errorsOf(outcome: unknown): Record<string, string> {
  expect((outcome as { kind: string }).kind).toBe('errors');
  return (outcome as { errors: Record<string, string> }).errors;
}

describe('characters no SMS can carry', () => {
  it('an unpaired surrogate gets a field error naming its position; nothing is sent', async () => {
    const view = await h.openCompose();
    // Half of 😀 (U+D83D U+DE00): what is left when an emoji is cut in two.
    const result = await h.submitCompose(view, {
      recipients: '0532 123 45 67',
      text: 'Merhaba \uD83D dünya',
    });
    const error = errorsOf(result.outcome)[textBlockOf(view)];
    expect(error).toContain('SMS cannot carry this character');
    expect(error).toContain('Character 9 is half of a character (an unpaired surrogate');
    expect(error).toContain('(U+D83D)');
    expect(await h.store.outbox.recent(10)).toEqual([]);
    expect(await h.control.callCount('Submit')).toBe(0);
  });

  it('NUL and control characters in a personalised CSV are named by line and character', async () => {
    const view = await h.openCompose();
    const personal = await h.chooseInCompose(view, 'mode', 'personalised');
    const result = await h.submitCompose(personal, {
      csv: 'number,name\n05321234567,Ayşe\n05331234567,Bo\u0000b\u0007',
      text: 'Hello {{name}}',
    });
    const error = errorsOf(result.outcome).csv!;
    expect(error).toContain('SMS cannot carry these characters');
    expect(error).toContain('Line 3, character 15 is a NUL character (U+0000).');
    expect(error).toContain('Line 3, character 17 is a control character (U+0007).');
    expect(await h.control.callCount('SubmitMulti')).toBe(0);
  });

  it('a valid surrogate pair (an emoji) is sent as UCS-2, as before', async () => {
    const view = await h.openCompose();
    const after = h.fake.state.journal.seq;
    const result = await h.submitCompose(view, { recipients: '0532 123 45 67', text: 'Merhaba 😀' });
    expect(result.outcome.kind).toBe('updated');
    await h.fake.state.waitFor('view', (e) => JSON.stringify(e.view.blocks).includes('Sent.'), { after });
    const { batches } = await h.control.state();
    expect(batches[0]).toMatchObject({ coding: 'UCS2', recipients: [{ text: 'Merhaba 😀' }] });
  });
});
