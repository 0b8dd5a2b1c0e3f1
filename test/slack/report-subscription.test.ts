import { TZDate } from '@date-fns/tz';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MonthlyReports } from '../../src/jobs/monthly-report.js';
import { monthlyReportPoster } from '../../src/slack/report-runner.js';
import { openWithOpenpyxl, recordsOf } from '../reports/open-xlsx.js';
import { channels, type Harness, startHarness, users } from '../support/slack-harness.js';

const ZONE = 'Europe/Istanbul';
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ env: { REPORT_TIMEZONE: ZONE } });
});
afterAll(() => h.close());

describe('/sms subscribe report', () => {
  it("posts last month's .xlsx on the first day of the month, once across two instances", async () => {
    const start = h.fake.state.journal.seq;
    await h.sms('subscribe report');
    await h.fake.state.waitForMessage(
      (m) =>
        m.channel === channels.smsOps && /subscribed this channel to the monthly SMS report/.test(m.text),
      { after: start },
    );
    const view = await h.openCompose('send');
    await h.submitCompose(view, { recipients: '905321231234', text: 'sent this month' });
    await h.fake.state.waitForMessage((m) => /^SMS batch \d+:/.test(m.text), { after: start });

    // The first day of next month in the report zone, an hour in: this month is then "last month".
    const here = new TZDate(Date.now(), ZONE);
    const firstOfNext = new TZDate(here.getFullYear(), here.getMonth() + 1, 1, 1, 0, 0, ZONE);
    const slug = `${here.getFullYear()}-${String(here.getMonth() + 1).padStart(2, '0')}`;
    const other = new MonthlyReports({
      store: h.store,
      poster: monthlyReportPoster(h.deps, h.slackClient),
      logger: h.deps.logger,
      instanceId: 'another-instance',
    });
    const at = new Date(firstOfNext.getTime());
    const [mine, theirs] = await Promise.all([h.bot.monthlyReports.tick(at), other.tick(at)]);
    expect([...mine, ...theirs].map((p) => p.month)).toEqual([slug]);
    // Later ticks of the day, on either instance, post nothing more.
    expect(await h.bot.monthlyReports.tick(new Date(at.getTime() + 3_600_000))).toEqual([]);
    expect(await other.tick(new Date(at.getTime() + 3_600_000))).toEqual([]);

    const files = h.fake.state.files.all().filter((f) => f.name === `sms-report-${slug}.xlsx`);
    expect(files).toHaveLength(1);
    expect(files[0]!.channels).toEqual([channels.smsOps]);
    const rows = recordsOf((await openWithOpenpyxl(files[0]!.bytes))[0]!);
    expect(rows.length).toBeGreaterThan(0);
    // Counts only, as subscribed without with-texts.
    expect(JSON.stringify(rows)).not.toContain('sent this month');

    // The second day is too late for this month, and nothing is posted.
    expect(await h.bot.monthlyReports.tick(new Date(at.getTime() + 24 * 3_600_000))).toEqual([]);
  });

  it('is listed with the subscriptions and stopped by /sms unsubscribe report', async () => {
    const start = h.fake.state.journal.seq;
    await h.sms('subscriptions');
    await h.ephemeral(users.admin, /Monthly SMS report/);
    await h.sms('unsubscribe report');
    await h.fake.state.waitForMessage((m) => /stopped the monthly SMS report/.test(m.text), { after: start });
    expect(await h.store.subscriptions.listByKind('report')).toEqual([]);
  });
});
