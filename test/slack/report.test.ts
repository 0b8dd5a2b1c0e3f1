import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TZDate } from '@date-fns/tz';
import Papa from 'papaparse';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { executeSend, type SendPlan } from '../../src/sending/send.js';
import { sendPolicyOf } from '../../src/slack/permissions.js';
import { SEEDED } from '../../workspace/index.js';
import { formulaCells, openWithOpenpyxl, recordsOf } from '../reports/open-xlsx.js';
import {
  channels,
  ephemeralText,
  type Harness,
  openAppHome,
  startHarness,
  users,
} from '../support/slack-harness.js';

const ZONE = 'Europe/Istanbul';
/** LibreOffice (headless) and Debian's python3-openpyxl: an office reading the .csv as a Turkish user would. */
const soffice = ['/usr/bin/soffice', '/usr/local/bin/soffice'].find((p) => existsSync(p));
const hasOpenpyxl = (() => {
  try {
    execFileSync('/usr/bin/python3', ['-c', 'import openpyxl'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ env: { REPORT_TIMEZONE: ZONE } });
  await h.store.permissions.grant(users.alice, 'sender', users.admin);
  await h.store.permissions.grant(users.bob, 'viewer', users.admin);
});
afterAll(() => h.close());
let start = 0;
beforeEach(() => {
  start = h.fake.state.journal.seq;
});

const plan = (recipients: string[], text: string): SendPlan => ({
  sender: 'SMSOPS',
  recipients,
  text,
  encoding: 'GSM7',
  dataCoding: 'Default',
  validityMinutes: 60,
  totalSegments: recipients.length,
  estimatedCost: recipients.length * 0.05,
});

function send(key: string, user: string, recipients: string[], text: string) {
  return executeSend(
    { ...h.deps, policy: sendPolicyOf(h.deps) },
    { idempotencyKey: key, slackUser: user, channel: channels.smsOps, plan: plan(recipients, text) },
  );
}

/** Today in the report zone as YYYY-MM-DD, computed apart from the code under test. */
function today(): string {
  return dayOf(new Date());
}

function dayOf(at: Date): string {
  const z = new TZDate(at.getTime(), ZONE);
  return `${z.getFullYear()}-${String(z.getMonth() + 1).padStart(2, '0')}-${String(z.getDate()).padStart(2, '0')}`;
}

/** `/sms report …` as `user`, and the file the bot then shared in the channel. */
async function report(args: string, user: string = users.admin) {
  const after = h.fake.state.journal.seq;
  const ack = await h.sms(`report ${args}`, user);
  expect(ack.status).toBe(200);
  const shared = await h.fake.state.waitFor('file', (e) => e.action === 'shared', { after });
  return h.fake.state.files.get(shared.file.id)!;
}

describe('/sms report', () => {
  it('shares an .xlsx whose Sends rows match the store and the gateway, texts never formulas, times real dates', async () => {
    await send(
      'compose:view-1',
      users.admin,
      ['905321110001', '905321110002'],
      '=HYPERLINK("http://x.test","win")',
    );
    await send('mention:C1:1700000000.000100', users.alice, ['905321110003'], '+90 call us back');
    await send('workflow:Fx123', users.admin, ['905321110004'], '-5% today only');
    await send('compose:view-2', users.alice, ['905321110005'], '@everyone hello');
    await send('compose:view-3', users.bob, ['905321110006'], 'refused: bob is a viewer');
    await h.control.advance({ deliver: 0.5 });

    const queriesBefore = await h.control.callCount('QueryMulti');
    const file = await report(`${today()} ${today()}`);
    // One listing of the period answered every batch: the gateway was not asked once per send.
    expect((await h.control.callCount('QueryMulti')) - queriesBefore).toBe(1);
    expect(file.name).toBe(`sms-report-${today()}.xlsx`);
    // Texts and numbers: to the asker alone, in their DM with the app.
    expect(file.channels).toEqual([SEEDED.ims.admin]);
    const sheets = await openWithOpenpyxl(file.bytes);
    expect(sheets.map((s) => s.name)).toEqual(['Sends', 'Summary', 'Inbound']);
    expect(formulaCells(sheets)).toEqual([]);

    const rows = recordsOf(sheets[0]!);
    const stored = await h.store.outbox.recent(50);
    expect(rows).toHaveLength(stored.length);
    const gateway = await h.control.state();
    for (const row of stored) {
      const line = rows.find(
        (r) => r.MessageId!.v === (row.messageId ?? '') && r['Text or template']!.v === row.text,
      )!;
      expect(line, `row of outbox ${row.id}`).toBeDefined();
      expect(line['Text or template']!.t).toBe('s');
      expect(line.Recipients!.v).toBe(row.recipientCount);
      expect(line.Numbers!.v).toBe(row.recipients.join(', '));
      // A real date cell, showing the wall clock of REPORT_TIMEZONE.
      const time = line[`Time (${ZONE})`]!;
      expect(time.t).toBe('d');
      expect(time.f).toBe('dd.mm.yyyy hh:mm');
      const made = new TZDate((row.submittedAt ?? row.createdAt).getTime(), ZONE);
      expect(String(time.v).slice(0, 16)).toBe(
        `${made.getFullYear()}-${String(made.getMonth() + 1).padStart(2, '0')}-${String(made.getDate()).padStart(2, '0')}T${String(made.getHours()).padStart(2, '0')}:${String(made.getMinutes()).padStart(2, '0')}`,
      );
      if (row.messageId) {
        const batch = (gateway.batches as Array<{ id: number; recipients: Array<{ state: string }> }>).find(
          (b) => String(b.id) === row.messageId,
        )!;
        const delivered = batch.recipients.filter((r) => r.state === 'Delivered').length;
        expect(line.Delivered!.v).toBe(delivered);
        expect(line.State!.v).toBe('sent');
        expect(line['Delivery figures']!.v).toBe('gateway now');
      } else {
        expect(line.State!.v).toBe('refused');
      }
    }
    const from = (text: string) => rows.find((r) => r['Text or template']!.v === text)!.From!.v;
    expect(from('=HYPERLINK("http://x.test","win")')).toBe('modal');
    expect(from('+90 call us back')).toBe('thread answer');
    expect(from('-5% today only')).toBe('Workflow Builder step');
    expect(rows.reduce((n, r) => n + Number(r.Delivered!.v), 0)).toBeGreaterThan(0);

    // The progress message in the channel ends saying the file is there.
    const progress = await h.fake.state.waitForMessage(
      (m) => m.channel === SEEDED.ims.admin && /is ready: 5 sends/.test(m.text),
      { after: start },
    );
    expect(progress.text).toContain(`sms-report-${today()}.xlsx`);

    // Summary: the day's totals are the sends the gateway took; spend from the balance log beside them.
    const summary = sheets[1]!.rows.map((r) => r.map((c) => c.v));
    const dayHeader = summary.findIndex((r) => r[0] === 'Day');
    expect(summary[dayHeader]).toEqual([
      'Day',
      'Sends',
      'Recipients',
      'Segments',
      'Estimated cost',
      'Delivered',
      'Undelivered',
      'Not sent',
      'Spend (balance log)',
      'Spend − estimated',
    ]);
    const total = summary.find((r) => r[0] === 'Total')!;
    const sent = stored.filter((r) => r.messageId);
    expect(total.slice(1, 5)).toEqual([
      sent.length,
      sent.reduce((n, r) => n + r.recipientCount, 0),
      sent.reduce((n, r) => n + r.segments, 0),
      Math.round(sent.reduce((n, r) => n + (r.estimatedCost ?? 0), 0) * 10_000) / 10_000,
    ]);
    expect(total[7]).toBe(1);
    const debits = gateway.balanceLog
      .filter((e) => e.type === 'Debit' && dayOf(new Date(e.timestamp)) === today())
      .reduce((n, e) => n + Number(e.amount), 0);
    expect(total[8]).toBeCloseTo(debits, 4);
  });

  it('shares a .csv on request, a text that would start a formula prefixed with a quote', async () => {
    const file = await report(`${today()} ${today()} csv`);
    expect(file.name).toBe(`sms-report-${today()}.csv`);
    const csv = file.bytes.toString('utf8');
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv).toContain(`"'=HYPERLINK(""http://x.test"",""win"")"`);
    expect(csv).toContain(`"'@everyone hello"`);
    expect(csv).not.toMatch(/;"=/);
  });

  it('writes amounts in the .csv with a decimal comma, which a Turkish Excel or LibreOffice reads as numbers', async () => {
    await send('compose:view-cost-1', users.admin, ['905321120001'], 'costs one recipient');
    await send('compose:view-cost-2', users.admin, ['905321120002', '905321120003'], 'costs two recipients');
    const file = await report(`${today()} ${today()} csv`);
    const parsed = Papa.parse<Record<string, string>>(file.bytes.toString('utf8').replace(/^\uFEFF/, ''), {
      header: true,
      delimiter: ';',
      skipEmptyLines: true,
    }).data;
    const costOf = (text: string) => parsed.find((r) => r['Text or template'] === text)!['Estimated cost'];
    // 0.05 per recipient: the bytes say 0,05 and 0,1, never 0.05.
    expect(costOf('costs one recipient')).toBe('0,05');
    expect(costOf('costs two recipients')).toBe('0,1');
    const costs = parsed.map((r) => r['Estimated cost']!);
    expect(costs.filter((c) => c.includes('.'))).toEqual([]);
    if (!soffice || !hasOpenpyxl) return;
    const work = mkdtempSync(join(tmpdir(), 'report-csv-'));
    try {
      const csv = join(work, 'report.csv');
      writeFileSync(csv, file.bytes);
      // As a Turkish Excel opens it: semicolons, double quotes, UTF-8, language Turkish (LCID 1055).
      execFileSync(
        soffice,
        [
          `-env:UserInstallation=file://${join(work, 'profile')}`,
          '--headless',
          '--convert-to',
          'xlsx',
          '--infilter=CSV:59,34,76,1,,1055,false,true',
          '--outdir',
          work,
          csv,
        ],
        { stdio: 'ignore', timeout: 60_000 },
      );
      const sheets = await openWithOpenpyxl(readFileSync(join(work, 'report.xlsx')));
      const read = recordsOf(sheets[0]!).map((r) => r['Estimated cost']!);
      const shown = costs.filter((c) => c !== '');
      expect(read.filter((c) => c.v !== null).map((c) => [c.t, c.v])).toEqual(
        shown.map((c) => ['n', Number(c.replace(',', '.'))]),
      );
      expect(read.some((c) => c.v === 0.05)).toBe(true);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 90_000);

  it('gives a viewer counts only: no text and no number anywhere in the file', async () => {
    await send('compose:view-secret', users.admin, ['905329990001'], 'secret text for senders only');
    const file = await report(`${today()} ${today()}`, users.bob);
    expect(file.channels).toEqual([channels.smsOps]);
    const sheets = await openWithOpenpyxl(file.bytes);
    const header = sheets[0]!.rows[0]!.map((c) => c.v);
    expect(header).not.toContain('Text or template');
    expect(header).not.toContain('Numbers');
    const everything = JSON.stringify(sheets);
    expect(everything).not.toContain('secret text');
    expect(everything).not.toContain('905329990001');
    expect(recordsOf(sheets[0]!).length).toBeGreaterThan(0);
  });

  it('sends a report with texts and numbers to the asker alone, in their DM; the channel is told, and gets no file', async () => {
    await send('compose:view-private', users.alice, ['905328880001'], 'only for alice to see');
    const reportsInChannel = () =>
      h.fake.state.files
        .all()
        .filter((f) => f.channels.includes(channels.smsOps) && f.name.startsWith('sms-report-')).length;
    const sharedBefore = reportsInChannel();
    const after = h.fake.state.journal.seq;
    const file = await report(`${today()} ${today()}`, users.alice);
    expect(file.channels).toEqual([SEEDED.ims.alice]);
    expect(JSON.stringify(await openWithOpenpyxl(file.bytes))).toContain('only for alice to see');
    await h.ephemeral(users.alice, /in your direct messages with this app/);
    const note = await h.fake.state.waitForMessage(
      (m) => m.channel === channels.smsOps && /with texts and numbers: it is sent to them alone/.test(m.text),
      { after },
    );
    expect(note.text).toContain(`<@${users.alice}>`);
    await h.fake.state.waitForMessage((m) => m.channel === SEEDED.ims.alice && /is ready/.test(m.text), {
      after,
    });
    // Nothing of the report reached the channel beyond that note.
    expect(reportsInChannel()).toBe(sharedBefore);
  });

  it('shares a counts-only report in the channel when a sender asks for `counts`', async () => {
    const file = await report(`${today()} ${today()} counts`, users.alice);
    expect(file.channels).toEqual([channels.smsOps]);
    const header = (await openWithOpenpyxl(file.bytes))[0]!.rows[0]!.map((c) => c.v);
    expect(header).not.toContain('Text or template');
    expect(header).not.toContain('Numbers');
  });

  it('refuses a period it cannot read, saying what it takes, and shares nothing', async () => {
    const ack = await h.sms('report 2025-02-30 2025-03-01');
    expect(ack.status).toBe(200);
    const answer = await h.ephemeral(users.admin, /not a period I know|is not a day/);
    expect(answer.text).toContain('YYYY-MM-DD');
    expect(h.fake.state.files.all().filter((f) => f.name.startsWith('sms-report-2025-02'))).toEqual([]);
  });

  it('keeps inbound numbers and texts for an admin who asks', async () => {
    const ack = await h.sms(`report ${today()} ${today()} inbound-details`, users.alice);
    expect(ack.status).toBe(200);
    await h.ephemeral(users.alice, /only an admin/);
  });
});

describe('/sms report: personal data', () => {
  it('shows inbound numbers and texts only to an admin who asks for them; counts per day and keyword to all', async () => {
    await h.control.inbound([
      { MSISDN: '905551230001', Text: 'STOP please', Keyword: 'STOP' },
      { MSISDN: '905551230002', Text: '=1+1 hi', Keyword: 'INFO' },
      { MSISDN: '905551230003', Text: 'info again', Keyword: 'INFO' },
    ]);
    const counts = await openWithOpenpyxl((await report(`${today()} ${today()}`)).bytes);
    const inbound = counts[2]!.rows.map((r) => r.map((c) => c.v));
    expect(inbound).toContainEqual(['INFO', 2]);
    expect(inbound).toContainEqual(['STOP', 1]);
    expect(JSON.stringify(inbound)).not.toContain('905551230001');

    const details = await openWithOpenpyxl((await report(`${today()} ${today()} inbound-details`)).bytes);
    const rows = details[2]!.rows;
    const text = rows.flat().find((c) => c.v === '=1+1 hi')!;
    expect(text.t).toBe('s');
    expect(rows.flat().some((c) => c.v === '905551230002')).toBe(true);
    expect(formulaCells(details)).toEqual([]);
  });

  it('after /sms forget, the SMS the gateway still lists from that number are in no inbound details and not in /sms inbox', async () => {
    await h.control.inbound([
      { MSISDN: '+90 532 124 00 01', Text: 'please forget me', Keyword: 'INFO' },
      { MSISDN: '905321240002', Text: 'keep showing me', Keyword: 'INFO' },
    ]);
    const inboundOf = async () =>
      JSON.stringify(
        (await openWithOpenpyxl((await report(`${today()} ${today()} inbound-details`)).bytes))[2]!.rows,
      );
    expect(await inboundOf()).toContain('please forget me');

    let after = h.fake.state.journal.seq;
    await h.sms('forget 0532 124 00 01');
    await h.fake.state.waitFor(
      'ephemeral',
      (e) => e.message.recipient === users.admin && / forgotten$/.test(e.message.text ?? ''),
      { after },
    );
    const details = await inboundOf();
    expect(details).not.toContain('please forget me');
    expect(details).not.toContain('5321240001');
    expect(details).toContain('keep showing me');
    expect(details).toContain('905321240002');

    after = h.fake.state.journal.seq;
    await h.sms('inbox 50');
    const inbox = ephemeralText(
      (
        await h.fake.state.waitFor(
          'ephemeral',
          (e) => e.message.recipient === users.admin && /Inbound SMS/.test(ephemeralText(e.message)),
          { after },
        )
      ).message,
    );
    expect(inbox).toContain('keep showing me');
    expect(inbox).not.toContain('please forget me');
    expect(inbox).not.toContain('124 00 01');

    // The App Home's newest inbound SMS leave it out too.
    const home = (await openAppHome(h, users.admin)).text;
    expect(home).toContain('keep showing me');
    expect(home).not.toContain('please forget me');
    // Kept as a keyed hash of the gateway's form (the gateway wrote it as +90 532 124 00 01).
    expect(await h.store.forgottenNumbers.forgottenAmong(['905321240001', '905321240002'])).toEqual(
      new Set(['905321240001']),
    );
  });

  it('after /sms forget the number is gone from the sends, and after the retention purge texts and numbers show as purged', async () => {
    await send('compose:view-forget', users.admin, ['905327770001', '905327770002'], 'two of them');
    await h.store.outbox.forgetNumber('905327770001');
    let rows = recordsOf((await openWithOpenpyxl((await report(`${today()} ${today()}`)).bytes))[0]!);
    const forgotten = rows.find((r) => r['Text or template']!.v === 'two of them')!;
    expect(forgotten.Numbers!.v).toBe('905327770002 (+1 erased)');
    expect(forgotten.Recipients!.v).toBe(2);

    // Delivered and polled to the end: final, so the purge takes their texts and numbers (it keeps those in flight).
    await h.control.advance({ deliver: 1 });
    for (const row of await h.store.outbox.recent(100)) await h.tracker.pollNow(row.id);
    expect(await h.store.outbox.purgeContentBefore(new Date(Date.now() + 60_000))).toBeGreaterThan(0);
    rows = recordsOf((await openWithOpenpyxl((await report(`${today()} ${today()}`)).bytes))[0]!);
    const sent = rows.filter((r) => r.MessageId!.v);
    expect(sent.length).toBeGreaterThan(0);
    for (const r of sent) {
      expect(r['Text or template']!.v).toBe('(purged)');
      expect(r.Numbers!.v).toBe('(purged)');
    }
  });
});
