import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/store/index.js';
import { ephemeralText, type Harness, startHarness, users } from '../support/slack-harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(async () => {
  // Each test states the roles it needs; nobody keeps one from an earlier test.
  for (const user of [users.alice, users.bob]) await h.store.permissions.revoke(user);
});

interface Reply {
  text: string;
  blocks: Array<{ type: string; text?: { text: string } }>;
  /** Text and blocks as one string, as a person reads them. */
  all: string;
}

/** `/sms <text>` as `user`, and the ephemeral answer to exactly this command. */
async function run(text: string, user: string = users.admin): Promise<Reply> {
  const after = h.fake.state.journal.seq;
  const ack = await h.sms(text, user);
  expect(ack.status).toBe(200);
  const event = await h.fake.state.waitFor(
    'ephemeral',
    (e) => e.action !== 'deleted' && e.message.recipient === user,
    { after },
  );
  const message = event.message as unknown as { text?: string; blocks?: Reply['blocks'] };
  const all = ephemeralText(message);
  // The router turns any failure, a message Slack refused included, into this line.
  expect(all).not.toContain(':boom:');
  return { text: message.text ?? '', blocks: message.blocks ?? [], all };
}

async function auditCount(): Promise<number> {
  return (await h.store.audit.recent(10_000)).length;
}

async function lastAudit(): Promise<AuditEntry> {
  const [entry] = await h.store.audit.recent(1);
  return entry!;
}

function withinSlackLimits(reply: Reply): void {
  expect(reply.blocks.length).toBeLessThanOrEqual(50);
  for (const block of reply.blocks) {
    if (block.type === 'section' && block.text) expect(block.text.text.length).toBeLessThanOrEqual(3000);
  }
  expect(reply.text.length).toBeGreaterThan(0);
}

describe('/sms grant, revoke, who', () => {
  it('grant writes the role and the audit entry, and the role works at once', async () => {
    const reply = await run('grant <@U0ALICE|alice> sender');
    expect(reply.text).toBe('<@U0ALICE> is now a sender (was: no role)');
    expect(await h.store.permissions.get(users.alice)).toMatchObject({
      role: 'sender',
      grantedBy: users.admin,
    });
    expect(await lastAudit()).toMatchObject({
      actor: users.admin,
      action: 'grant',
      target: users.alice,
      details: { role: 'sender', previous: null },
    });

    // optout list needs the sender role and no gateway.
    expect((await run('optout list', users.alice)).all).toContain('Opted-out numbers');
    await h.sms('optout list', users.bob);
    const denial = await h.ephemeral(users.bob, /You need the \*sender\* role/);
    expect(ephemeralText(denial)).toContain('you have no smsops role yet');

    // A mention without the name part, as some clients send it.
    const lowered = await run('grant <@U0ALICE> viewer');
    expect(lowered.text).toBe('<@U0ALICE> is now a viewer (was: sender)');
    expect((await lastAudit()).details).toEqual({ role: 'viewer', previous: 'sender' });
    const after = h.fake.state.journal.seq;
    await h.sms('optout list', users.alice);
    const aliceDenied = await h.fake.state.waitFor('ephemeral', (e) => e.message.recipient === users.alice, {
      after,
    });
    expect(ephemeralText(aliceDenied.message)).toContain('your role is *viewer*');
  });

  it('granting the role someone already has changes nothing', async () => {
    await h.store.permissions.grant(users.alice, 'sender', users.admin);
    const before = await auditCount();
    const reply = await run('grant <@U0ALICE|alice> SENDER');
    expect(reply.all).toContain('is already a *sender*');
    expect(reply.all).toContain('nothing changed');
    expect(await auditCount()).toBe(before);
  });

  it('revoke removes the role and audits it; a second revoke says there is nothing to revoke', async () => {
    await h.store.permissions.grant(users.bob, 'viewer', users.admin);
    const reply = await run('revoke <@U0BOB|bob>');
    expect(reply.text).toBe('<@U0BOB> no longer has an smsops role (was: viewer)');
    expect(await h.store.permissions.get(users.bob)).toBeUndefined();
    expect(await lastAudit()).toMatchObject({
      actor: users.admin,
      action: 'revoke',
      target: users.bob,
      details: { previous: 'viewer' },
    });
    const before = await auditCount();
    expect((await run('revoke <@U0BOB|bob>')).all).toContain('has no smsops role; nothing to revoke');
    expect(await auditCount()).toBe(before);
  });

  it('ADMIN_USER_IDS admins can be neither granted nor revoked', async () => {
    const before = await auditCount();
    const granted = await run('grant <@U0ADMIN|admin> viewer');
    expect(granted.all).toContain('is an *admin* by configuration');
    expect(granted.all).toContain('granting a role changes nothing');
    const revoked = await run('revoke <@U0ADMIN|admin>');
    expect(revoked.all).toContain('cannot be revoked here');
    expect(revoked.all).toContain('edit `ADMIN_USER_IDS`');
    expect(await h.store.permissions.get(users.admin)).toBeUndefined();
    expect(await auditCount()).toBe(before);
  });

  it('an admin by grant cannot change their own role', async () => {
    await h.store.permissions.grant(users.alice, 'admin', users.admin);
    const after = h.fake.state.journal.seq;
    await h.sms('revoke <@U0ALICE|alice>', users.alice);
    const reply = await h.fake.state.waitFor('ephemeral', (e) => e.message.recipient === users.alice, {
      after,
    });
    expect(ephemeralText(reply.message)).toContain('You cannot change your own role');
    expect(await h.store.permissions.getRole(users.alice)).toBe('admin');
  });

  it('who lists everyone by role, with who granted it and when', async () => {
    await h.store.permissions.grant(users.bob, 'viewer', users.admin, new Date('2030-01-02T10:00:00Z'));
    await run('grant <@U0ALICE|alice> sender');
    const reply = await run('who');
    expect(reply.all).toContain('<@U0ADMIN> (from ADMIN_USER_IDS)');
    expect(reply.all).toMatch(/<@U0ALICE> — granted by <@U0ADMIN>, \d{4}-\d\d-\d\d \d\d:\d\d/);
    // Shown in REPORT_TIMEZONE (Europe/Istanbul, UTC+3).
    expect(reply.all).toContain('<@U0BOB> — granted by <@U0ADMIN>, 2030-01-02 13:00');
    const admins = reply.all.indexOf('*Admins*');
    const senders = reply.all.indexOf('*Senders*');
    const viewers = reply.all.indexOf('*Viewers*');
    expect(admins).toBeGreaterThanOrEqual(0);
    expect(senders).toBeGreaterThan(admins);
    expect(viewers).toBeGreaterThan(senders);
    expect(reply.all.indexOf('<@U0ALICE>')).toBeGreaterThan(senders);
    expect(reply.all.indexOf('<@U0BOB>')).toBeGreaterThan(viewers);
    expect(reply.text).toBe('3 people with an smsops role');
  });

  it('non-admins get the role message for grant, revoke, who and audit', async () => {
    await h.store.permissions.grant(users.alice, 'sender', users.admin);
    for (const command of ['grant <@U0BOB|bob> sender', 'revoke <@U0BOB|bob>', 'who', 'audit']) {
      const after = h.fake.state.journal.seq;
      await h.sms(command, users.alice);
      const reply = await h.fake.state.waitFor('ephemeral', (e) => e.message.recipient === users.alice, {
        after,
      });
      expect(ephemeralText(reply.message)).toContain(
        'You need the *admin* role to do this; your role is *sender*',
      );
    }
    expect(await h.store.permissions.get(users.bob)).toBeUndefined();
  });

  it('bad mentions and bad roles get their own message and change nothing', async () => {
    const roles = await h.store.permissions.list();
    const before = await auditCount();
    for (const typed of [
      'grant @alice sender',
      'grant alice sender',
      'grant <#C0GENERAL|general> sender',
      'revoke @alice',
    ]) {
      const reply = await run(typed);
      expect(reply.all).toContain("pick the user from Slack's autocomplete list");
      expect(reply.all).toMatch(/e\.g\. `\/sms (grant @alice sender|revoke @alice)`/);
    }
    expect((await run('grant @alice sender')).all).toContain('“@alice” is not a person Slack identified');

    const badRole = await run('grant <@U0ALICE|alice> superuser');
    expect(badRole.all).toContain('“superuser” is not a role');
    for (const role of ['*viewer*', '*sender*', '*admin*']) expect(badRole.all).toContain(role);

    expect((await run('grant <@U0ALICE|alice>')).all).toContain('Which role for <@U0ALICE>?');
    expect((await run('grant sender <@U0ALICE|alice>')).all).toContain('Put the user first');
    expect((await run('grant')).all).toContain('Usage: `/sms grant @user sender|admin|viewer`');
    expect((await run('grant <@U0ALICE|alice> sender now')).all).toContain('One user and one role at a time');

    // Whatever was typed is shown inert.
    const forged = await run('grant <!channel> sender');
    expect(forged.all).not.toContain('<!channel>');

    expect(await h.store.permissions.list()).toEqual(roles);
    expect(await auditCount()).toBe(before);
  });
});

describe('/sms audit', () => {
  it('shows the newest entries first, 20 by default, and between 1 and 100 on request', async () => {
    for (let i = 1; i <= 25; i++) {
      await h.store.audit.append({ actor: users.bob, action: `probe_${i}`, target: `t${i}`, details: { i } });
    }
    const two = await run('audit 2');
    expect(two.all).toContain('*probe_25* t25 — i: 25');
    expect(two.all).toContain('*probe_24*');
    expect(two.all).not.toContain('probe_23');
    expect(two.all.indexOf('probe_25')).toBeLessThan(two.all.indexOf('probe_24'));
    expect(two.all).toContain('<@U0BOB>');

    const byDefault = await run('audit');
    expect(byDefault.all).toContain('the last 20');
    expect(byDefault.all).toContain('probe_6');
    expect(byDefault.all).not.toContain('probe_5*');

    withinSlackLimits(await run('audit 100'));
    await run('audit 1');

    for (const bad of ['0', '101', 'abc', '-5', '2.5', '99999']) {
      const reply = await run(`audit ${bad}`);
      expect(reply.all).toContain(`“${bad}” is not a count from 1 to 100`);
    }
  });

  it('escapes what the details hold and keeps a hundred long entries within Slack limits', async () => {
    await h.store.audit.append({
      actor: users.alice,
      action: 'probe_escape',
      target: '<!here>',
      details: { note: '<!channel> & <@U0BOB>' },
    });
    const reply = await run('audit 1');
    expect(reply.all).toContain('&lt;!here&gt;');
    expect(reply.all).toContain('note: &lt;!channel&gt; &amp; &lt;@U0BOB&gt;');
    expect(reply.all).not.toContain('<!channel>');

    for (let i = 0; i < 100; i++) {
      await h.store.audit.append({
        actor: users.admin,
        action: 'probe_long',
        target: 'x'.repeat(200),
        details: { text: '&'.repeat(500) },
      });
    }
    withinSlackLimits(await run('audit 100'));
  });
});

describe('/sms optout', () => {
  it('adds a number however it is typed, once, and removes it', async () => {
    await h.store.permissions.grant(users.alice, 'sender', users.admin);
    const added = await run('optout add 0532 123 45 67', users.alice);
    expect(added.text).toBe('+90 532 123 45 67 is opted out');
    expect(await h.store.optOuts.has('905321234567')).toBe(true);
    expect(await lastAudit()).toMatchObject({
      actor: users.alice,
      action: 'optout_add',
      target: '905321234567',
    });

    const before = await auditCount();
    const again = await run('optout add +90 532 123 45 67', users.alice);
    expect(again.all).toMatch(/already opted out \(since \d{4}-\d\d-\d\d \d\d:\d\d, manual by <@U0ALICE>\)/);
    expect(await auditCount()).toBe(before);

    await h.store.optOuts.add('905331234567', { source: 'stop_word' });
    const list = await run('optout list', users.alice);
    expect(list.all).toContain('*+90 532 123 45 67* — since');
    expect(list.all).toContain('manual by <@U0ALICE>');
    expect(list.all).toMatch(/\+90 533 123 45 67\* — since [^"]*STOP word/);

    const removed = await run('optout remove +90 532 123 45 67', users.alice);
    expect(removed.text).toBe('+90 532 123 45 67 can receive SMS again');
    expect(await h.store.optOuts.has('905321234567')).toBe(false);
    expect(await lastAudit()).toMatchObject({
      actor: users.alice,
      action: 'optout_remove',
      target: '905321234567',
      details: { source: 'manual' },
    });
    expect((await run('optout remove 05321234567', users.alice)).all).toContain('is not opted out');

    const stop = await run('optout remove 0533 123 45 67');
    expect(stop.all).toContain('texting a STOP word');
  });

  it('refuses what is not a usable number, with the reason', async () => {
    await h.store.permissions.grant(users.alice, 'sender', users.admin);
    const before = await h.store.optOuts.list();
    expect((await run('optout add 0532 123', users.alice)).all).toContain(
      '“0532 123” is not a number smsops can send to: too short',
    );
    expect((await run('optout add hello', users.alice)).all).toContain('not a phone number');
    expect((await run('optout add 0212 123 45 67', users.alice)).all).toContain('not a mobile number');
    expect((await run('optout add', users.alice)).all).toContain('Which number?');
    const unknown = await run('optout frobnicate', users.alice);
    expect(unknown.all).toContain('“frobnicate” is not something `/sms optout` can do');
    expect(unknown.all).toContain('Usage: `/sms optout add|remove|list [number]`');
    expect(await h.store.optOuts.list()).toEqual(before);
  });

  it('pages a long list', async () => {
    const numbers = Array.from({ length: 120 }, (_, i) => `90532100${String(i).padStart(4, '0')}`);
    for (const n of numbers) await h.store.optOuts.add(n, { source: 'manual', by: users.admin });
    try {
      const first = await run('optout list');
      expect(first.all).toContain('Page 1 of 3 · next: `/sms optout list 2`');
      withinSlackLimits(first);
      const last = await run('optout list 3');
      expect(last.all).toContain('Page 3 of 3');
      expect((await run('optout list 4')).all).toContain('There are only 3 pages');
      expect((await run('optout list x')).all).toContain('“x” is not a page number');
    } finally {
      for (const n of numbers) await h.store.optOuts.remove(n);
    }
  });
});

describe('/sms lists', () => {
  it('refuses a list with an invalid entry, naming it, and stores nothing', async () => {
    await h.store.permissions.grant(users.alice, 'sender', users.admin);
    const before = await auditCount();
    const reply = await run('lists add couriers 0532 123 45 67, 12345, hello', users.alice);
    expect(reply.all).toContain('2 entries are not usable numbers, so nothing was saved');
    expect(reply.all).toContain('“12345” (line 1, position 17): too short');
    expect(reply.all).toContain('“hello” (line 1, position 24): not a phone number');
    expect(await h.store.recipientLists.get('couriers')).toBeUndefined();
    expect(await auditCount()).toBe(before);
  });

  it('stores a valid list, shows it, and refuses a taken name', async () => {
    await h.store.permissions.grant(users.alice, 'sender', users.admin);
    const reply = await run(
      'lists add drivers 0532 123 45 67, +90 533 123 45 67\n905341234567 05321234567',
      users.alice,
    );
    expect(reply.text).toBe('Saved list drivers with 3 numbers');
    expect(reply.all).toContain('1 number appeared more than once and is kept once');
    const stored = await h.store.recipientLists.get('drivers');
    expect(stored).toMatchObject({
      owner: users.alice,
      members: ['905321234567', '905331234567', '905341234567'],
    });
    expect(await lastAudit()).toMatchObject({
      actor: users.alice,
      action: 'list_create',
      target: 'drivers',
      details: { size: 3 },
    });

    expect((await run('lists', users.alice)).all).toContain('*drivers* — 3 numbers, owner <@U0ALICE>');
    const shown = await run('lists show drivers', users.alice);
    expect(shown.all).toContain('1. +90 532 123 45 67');
    expect(shown.all).toContain('3. +90 534 123 45 67');

    for (const name of ['drivers', 'DRIVERS']) {
      const taken = await run(`lists add ${name} 0535 123 45 67`, users.alice);
      expect(taken.all).toContain('A list named *drivers* already exists');
      expect(taken.all).toContain('`/sms lists delete drivers`');
    }
    expect((await h.store.recipientLists.get('drivers'))?.members).toHaveLength(3);
  });

  it('lets only the owner or an admin delete a list', async () => {
    await h.store.permissions.grant(users.alice, 'sender', users.admin);
    await h.store.permissions.grant(users.bob, 'sender', users.admin);
    await run('lists add alices 0532 123 45 67', users.alice);
    await run('lists add alices2 0532 123 45 67', users.alice);

    const refused = await run('lists delete alices', users.bob);
    expect(refused.all).toContain('List *alices* belongs to <@U0ALICE>: only they or an admin may delete it');
    expect(await h.store.recipientLists.get('alices')).toBeDefined();

    expect((await run('lists delete alices')).text).toBe('Deleted list alices');
    expect(await h.store.recipientLists.get('alices')).toBeUndefined();
    expect(await lastAudit()).toMatchObject({ actor: users.admin, action: 'list_delete', target: 'alices' });

    expect((await run('lists delete alices2', users.alice)).text).toBe('Deleted list alices2');
    expect(await h.store.recipientLists.get('alices2')).toBeUndefined();
    expect((await run('lists show alices2', users.alice)).all).toContain('There is no list named “alices2”');
  });

  it('escapes typed names and explains the unknown', async () => {
    await h.store.permissions.grant(users.alice, 'sender', users.admin);
    const raw = await run('lists add a<b&c 0532 123 45 67', users.alice);
    expect(raw.all).toContain('“a&lt;b&amp;c” cannot be a list name');
    expect(raw.all).not.toContain('a<b');
    // Slack sends &, < and > escaped: they must not come out escaped twice.
    const fromSlack = await run('lists add a&lt;b&amp;c 0532 123 45 67', users.alice);
    expect(fromSlack.all).toContain('“a&lt;b&amp;c” cannot be a list name');
    expect((await run('lists show <!channel>', users.alice)).all).toContain('no list named “@channel”');

    const unknown = await run('lists frobnicate', users.alice);
    expect(unknown.all).toContain('“frobnicate” is not something `/sms lists` can do');
    expect(unknown.all).toContain(
      'Usage: `/sms lists [add <name> <numbers…> | import <name> [append|replace] | show <name> | delete <name>]`',
    );
    expect((await run('lists add', users.alice)).all).toContain('Which list?');
    expect((await run('lists add solo', users.alice)).all).toContain('Which numbers go in list *solo*?');
    expect((await run(`lists add ${'x'.repeat(41)} 0532 123 45 67`, users.alice)).all).toContain(
      'cannot be a list name',
    );
  });

  it('pages a long list and marks opted-out members', async () => {
    const numbers = Array.from(
      { length: 150 },
      (_, i) =>
        `0532 200 ${String(i)
          .padStart(4, '0')
          .replace(/(\d\d)(\d\d)/, '$1 $2')}`,
    );
    const reply = await run(`lists add big ${numbers.join(', ')}`);
    expect(reply.text).toBe('Saved list big with 150 numbers');
    await h.store.optOuts.add('905322000101', { source: 'stop_word' });
    try {
      const first = await run('lists show big');
      expect(first.all).toContain('Page 1 of 2 · next: `/sms lists show big 2`');
      expect(first.all).toContain('100. +90 532 200 00 99');
      expect(first.all).not.toContain('101.');
      withinSlackLimits(first);
      const second = await run('lists show big 2');
      expect(second.all).toContain('101. +90 532 200 01 00');
      expect(second.all).toContain('102. +90 532 200 01 01 — :no_entry_sign: opted out');
      expect(second.all).toContain('150. +90 532 200 01 49');
    } finally {
      await h.store.optOuts.remove('905322000101');
    }
  });
});

describe('/sms templates', () => {
  it('saves the text as typed and shows its placeholders, escaped', async () => {
    await h.store.permissions.grant(users.alice, 'sender', users.admin);
    const text = 'Hello {{name}},  your order   {{ order }} is ready & waiting <b>\n  see you';
    const reply = await run(`templates add ready ${text}`, users.alice);
    expect(reply.text).toBe('Saved template ready');
    expect(reply.all).toContain('`{{name}}`, `{{order}}`');
    expect(reply.all).toContain('ready &amp; waiting &lt;b&gt;');
    expect(reply.all).not.toContain('<b>');
    expect(await h.store.templates.get('ready')).toMatchObject({ owner: users.alice, content: text });
    expect(await lastAudit()).toMatchObject({
      actor: users.alice,
      action: 'template_create',
      target: 'ready',
      details: { placeholders: ['name', 'order'] },
    });

    const shown = await run('templates show ready', users.alice);
    expect(shown.all).toContain('*Template ready* — owner <@U0ALICE>');
    expect(shown.all).toContain(
      '>Hello {{name}},  your order   {{ order }} is ready &amp; waiting &lt;b&gt;',
    );
    expect((await run('templates', users.alice)).all).toContain(
      '*ready* — owner <@U0ALICE>, uses {{name}} {{order}}',
    );

    // What Slack sends for the same typing: entities and a linked URL come back as typed.
    await run(
      'templates add link Fish &amp; chips at <https://example.com/menu|example.com/menu>',
      users.alice,
    );
    expect((await h.store.templates.get('link'))?.content).toBe('Fish & chips at example.com/menu');
    expect((await run('templates show link', users.alice)).all).toContain('No `{{placeholders}}`');

    const taken = await run('templates add ready Something else', users.alice);
    expect(taken.all).toContain('A template named *ready* already exists');
    expect(taken.all).toContain('`/sms templates delete ready`');
    expect((await h.store.templates.get('ready'))?.content).toBe(text);
  });

  it('lets only the owner or an admin delete a template', async () => {
    await h.store.permissions.grant(users.alice, 'sender', users.admin);
    await h.store.permissions.grant(users.bob, 'sender', users.admin);
    await run('templates add bye Goodbye {{name}}', users.alice);
    const refused = await run('templates delete bye', users.bob);
    expect(refused.all).toContain(
      'Template *bye* belongs to <@U0ALICE>: only they or an admin may delete it',
    );
    expect(await h.store.templates.get('bye')).toBeDefined();

    expect((await run('templates delete bye', users.alice)).text).toBe('Deleted template bye');
    expect(await h.store.templates.get('bye')).toBeUndefined();
    expect(await lastAudit()).toMatchObject({ actor: users.alice, action: 'template_delete', target: 'bye' });

    await run('templates add bye2 See you', users.alice);
    expect((await run('templates delete bye2')).text).toBe('Deleted template bye2');
    expect((await run('templates show bye2')).all).toContain('There is no template named “bye2”');
  });

  it('explains what is missing or unknown', async () => {
    await h.store.permissions.grant(users.alice, 'sender', users.admin);
    expect((await run('templates add empty', users.alice)).all).toContain(
      'What should template *empty* say?',
    );
    expect((await run('templates add <b> hi', users.alice)).all).toContain(
      '“&lt;b&gt;” cannot be a template name',
    );
    expect((await run(`templates add long ${'a'.repeat(2001)}`, users.alice)).all).toContain(
      'That template is 2001 characters long',
    );
    const unknown = await run('templates frobnicate', users.alice);
    expect(unknown.all).toContain(
      'Usage: `/sms templates [add <name> <text> | show <name> | delete <name>]`',
    );
    expect(await h.store.templates.get('empty')).toBeUndefined();
    expect(await h.store.templates.get('long')).toBeUndefined();
  });
});
