import { describe, expect, it } from 'vitest';
import { splitWords } from '../../src/slack/commands/arguments.js';
import { fromSlack } from '../../src/slack/commands/slack-text.js';
import { auditMessage, detailsSummary } from '../../src/slack/ui/admin-audit.js';
import { type AdminMessage, pageOf } from '../../src/slack/ui/admin-common.js';
import { listShowMessage, listsOverviewMessage } from '../../src/slack/ui/admin-lists.js';
import { OPT_OUTS_PER_PAGE, optOutListMessage } from '../../src/slack/ui/admin-optouts.js';
import { whoMessage } from '../../src/slack/ui/admin-roles.js';
import { templateShowMessage, templatesOverviewMessage } from '../../src/slack/ui/admin-templates.js';
import type { AuditEntry, OptOut, Permission, RecipientList, Template } from '../../src/store/index.js';

const TZ = 'Europe/Istanbul';
const at = new Date('2030-01-02T10:00:00Z');

function expectWithinLimits(message: AdminMessage): void {
  expect(message.blocks.length).toBeLessThanOrEqual(50);
  expect(message.text.length).toBeGreaterThan(0);
  for (const block of message.blocks) {
    if (block.type === 'section' && block.text) expect(block.text.text.length).toBeLessThanOrEqual(3000);
    if (block.type === 'header') expect(block.text.text.length).toBeLessThanOrEqual(150);
    if (block.type === 'context') {
      for (const element of block.elements) {
        if (element.type === 'mrkdwn') expect(element.text.length).toBeLessThanOrEqual(2000);
      }
    }
  }
}

function textOf(message: AdminMessage): string {
  return JSON.stringify(message.blocks);
}

describe('admin messages stay within Slack limits whatever they hold', () => {
  it('who with thousands of people summarises the rest', () => {
    const grants: Permission[] = Array.from({ length: 5000 }, (_, i) => ({
      slackUser: `U0P${i}`,
      role: i % 3 === 0 ? 'admin' : i % 3 === 1 ? 'sender' : 'viewer',
      grantedBy: 'U0ADMIN',
      grantedAt: at,
    }));
    const message = whoMessage({ configuredAdmins: ['U0ADMIN'], grants, timeZone: TZ });
    expectWithinLimits(message);
    expect(textOf(message)).toMatch(/…and [\d,]+ more/);
    expect(message.text).toBe('5,001 people with an smsops role');
  });

  it('a store id that is not a user id is shown inert, not as a mention', () => {
    const message = whoMessage({
      configuredAdmins: [],
      grants: [{ slackUser: '<!channel>', role: 'viewer', grantedBy: 'U0ADMIN', grantedAt: at }],
      timeZone: TZ,
    });
    expect(textOf(message)).toContain('&lt;!channel&gt;');
    expect(textOf(message)).not.toContain('<!channel>');
  });

  it('a hundred audit entries with long, hostile details', () => {
    const entries: AuditEntry[] = Array.from({ length: 100 }, (_, i) => ({
      id: i,
      at,
      actor: 'U0ADMIN',
      action: `act_${'&'.repeat(100)}`,
      target: '<'.repeat(500),
      details: { text: '&'.repeat(1000), nested: { list: [1, 2, 3] } },
    }));
    expectWithinLimits(auditMessage(entries, 100, TZ));
    expect(detailsSummary({ a: null, b: true, c: [1] })).toBe('a: none, b: true, c: [1]');
    expect(detailsSummary(null)).toBe('');
  });

  it('opt-outs, lists and templates pages', () => {
    const optOuts: OptOut[] = Array.from({ length: 5000 }, (_, i) => ({
      msisdn: `90532${String(i).padStart(7, '0')}`,
      since: at,
      source: i % 2 ? 'stop_word' : 'manual',
      by: i % 2 ? null : 'U0ALICE',
    }));
    const page = pageOf(optOuts, 3, OPT_OUTS_PER_PAGE);
    const optOutMessage = optOutListMessage(page, TZ);
    expectWithinLimits(optOutMessage);
    expect(textOf(optOutMessage)).toContain('Page 3 of 100 · next: `/sms optout list 4`');

    const members = optOuts.map((o) => o.msisdn);
    const list: RecipientList = {
      id: 1,
      name: 'big',
      owner: 'U0ALICE',
      members,
      createdAt: at,
      updatedAt: at,
    };
    expectWithinLimits(listShowMessage(list, pageOf(members, 50, 100), new Set(members), TZ));
    const lists = Array.from({ length: 3000 }, (_, i) => ({ ...list, name: `list-${i}` }));
    expectWithinLimits(listsOverviewMessage(lists));

    const template: Template = {
      id: 1,
      name: 'amp',
      owner: 'U0ALICE',
      content: `${'&<>'.repeat(700)}\n`.repeat(3),
      createdAt: at,
      updatedAt: at,
    };
    const shown = templateShowMessage(template, [], TZ);
    expectWithinLimits(shown);
    expect(textOf(shown)).not.toMatch(/&(?!amp;|lt;|gt;)/);
    expectWithinLimits(
      templatesOverviewMessage(Array.from({ length: 2000 }, () => ({ template, placeholders: ['a', 'b'] }))),
    );
  });

  it('pages are clamped to what exists', () => {
    expect(pageOf([1, 2, 3], 9, 2)).toMatchObject({ items: [3], page: 2, pages: 2, total: 3, first: 3 });
    expect(pageOf([], 1, 2)).toMatchObject({ items: [], page: 1, pages: 1, total: 0 });
  });
});

describe('reading command text', () => {
  it('turns Slack markup and entities back into what was typed', () => {
    expect(fromSlack('Fish &amp; chips &lt;3 &gt; 2')).toBe('Fish & chips <3 > 2');
    expect(fromSlack('see <https://example.com/a?b=1|example.com/a?b=1> or <https://x.test>')).toBe(
      'see example.com/a?b=1 or https://x.test',
    );
    expect(fromSlack('<mailto:a@b.test|a@b.test> <tel:+905321234567>')).toBe('a@b.test +905321234567');
    expect(fromSlack('hi <@U0ALICE|alice> in <#C0GENERAL|general>, <!here>')).toBe(
      'hi @alice in #general, @here',
    );
    expect(fromSlack('<!subteam^S0TEAM|@ops>')).toBe('@ops');
    // Not Slack markup: such text can only arrive unescaped from elsewhere, and is kept.
    expect(fromSlack('<b>bold</b>')).toBe('<b>bold</b>');
  });

  it('splits the leading words and keeps the rest as typed', () => {
    expect(splitWords('add  ready   Hello  {{name}}\n  bye  ', 2)).toEqual({
      words: ['add', 'ready'],
      rest: 'Hello  {{name}}\n  bye',
    });
    expect(splitWords('show "my list" 2', 2)).toEqual({ words: ['show', 'my list'], rest: '2' });
    expect(splitWords('  ', 1)).toEqual({ words: [], rest: '' });
  });
});
