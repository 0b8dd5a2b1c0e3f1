import { describe, expect, it } from 'vitest';
import { SEEDED, WorkspaceState } from '../../workspace/index.js';

const post = (state: WorkspaceState, text: string) =>
  state.messages.post({ channel: SEEDED.channels.general, team: 'T0LOCAL', text });

describe('waiting on the workspace journal', () => {
  it('resolves at once for something that already happened', async () => {
    const state = new WorkspaceState();
    post(state, 'early');
    await expect(state.waitForMessage((m) => m.text === 'early')).resolves.toMatchObject({ text: 'early' });
  });

  it('resolves when a matching event arrives later, ignoring others', async () => {
    const state = new WorkspaceState();
    const waiting = state.waitForMessage((m) => m.text === 'wanted');
    post(state, 'other');
    post(state, 'wanted');
    await expect(waiting).resolves.toMatchObject({ text: 'wanted' });
  });

  it('waits only for what comes after a mark', async () => {
    const state = new WorkspaceState();
    post(state, 'same text');
    const mark = state.journal.seq;
    const waiting = state.waitForMessage((m) => m.text === 'same text', { after: mark });
    const second = post(state, 'same text');
    await expect(waiting).resolves.toMatchObject({ ts: second.ts });
  });

  it('times out with a list of what it saw instead', async () => {
    const state = new WorkspaceState();
    post(state, 'not it');
    await expect(state.waitForMessage((m) => m.text === 'never', { timeoutMs: 20 })).rejects.toThrow(
      /not it/,
    );
  });

  it('sees edits as messages in their new shape', async () => {
    const state = new WorkspaceState();
    const original = post(state, 'v1');
    const waiting = state.waitForMessage((m) => m.text === 'v2');
    state.messages.update(original.channel, original.ts, { text: 'v2' }, 'U0SMSBOT');
    await expect(waiting).resolves.toMatchObject({ ts: original.ts, edited: { user: 'U0SMSBOT' } });
  });
});
