import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBCOMMANDS } from '../../src/slack/commands/catalogue.js';
import { escapeMrkdwn } from '../../src/slack/ui/format.js';
import { ephemeralText, type Harness, startHarness, users } from '../support/slack-harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** What a person reads: every text of the answer's blocks, in order. */
function shownText(blocks: unknown[] | undefined): string {
  const texts: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    if (node && typeof node === 'object') {
      const o = node as Record<string, unknown>;
      if (typeof o.text === 'string') texts.push(o.text);
      for (const [key, value] of Object.entries(o))
        if (key !== 'text' || typeof value !== 'string') walk(value);
    }
  };
  walk(blocks ?? []);
  return texts.join('\n');
}

describe('/sms with a mistyped subcommand', () => {
  it('answers with the likely subcommand and its usage first, in a few lines, not the whole help', async () => {
    await h.sms('stauts 100042', users.admin);
    const answer = await h.ephemeral(users.admin, /stauts/);
    const shown = shownText(answer.blocks);
    const lines = shown.split('\n');
    expect(lines[0]).toContain('`stauts` is not an /sms subcommand. Did you mean `/sms status`?');
    const status = SUBCOMMANDS.find((s) => s.name === 'status')!;
    expect(lines[1]).toContain(`/sms ${escapeMrkdwn(status.usage)}`);
    expect(shown).toContain(status.example);
    expect(shown).toContain('`/sms help`');
    // Nothing of the other subcommands' usage: the answer fits a glance.
    expect(shown).not.toContain(SUBCOMMANDS.find((s) => s.name === 'balance')!.summary);
    expect(lines.length).toBeLessThanOrEqual(5);
    expect(answer.text).toMatch(/Unknown subcommand stauts\. Did you mean \/sms status\?/);
  });

  it('without a close subcommand names them all on one line and points to /sms help', async () => {
    await h.sms('zzqqxx', users.admin);
    const answer = await h.ephemeral(users.admin, /zzqqxx/);
    const shown = shownText(answer.blocks);
    expect(shown).not.toContain('Did you mean');
    expect(shown).toMatch(/The subcommands are `send`, `status`, `cancel`/);
    expect(shown.length).toBeLessThan(600);
    expect(ephemeralText(answer)).toContain('/sms help');
  });
});
