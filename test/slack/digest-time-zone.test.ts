import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channels, ephemeralText, type Harness, startHarness, users } from '../support/slack-harness.js';

let h: Harness;
/** A member whose Slack profile has no time zone: users.info gives none. */
const NO_ZONE = 'U0NOZONE';

beforeAll(async () => {
  h = await startHarness();
  h.fake.state.directory.addUser({
    id: NO_ZONE,
    name: 'nozone',
    realName: 'Nil Zone',
    isAdmin: false,
    isBot: false,
    tz: '',
  });
  await h.store.permissions.grant(NO_ZONE, 'admin', users.admin);
});
afterAll(() => h.close());

function posted(channel: string, match: RegExp, after: number) {
  return h.fake.state.waitForMessage((m) => m.channel === channel && match.test(ephemeralText(m)), { after });
}

/** The wall-clock time of `date` in `timeZone`. */
function clockIn(date: Date, timeZone: string): string {
  return format(new TZDate(date.getTime(), timeZone), 'HH:mm');
}

describe('digest schedules are read in the time zone of the person who sets them', () => {
  it('“daily 09:00” from a person in London runs at 09:00 London time, and both answers say so', async () => {
    const after = h.fake.state.journal.seq;
    await h.sms('subscribe digest balance daily 09:00', users.admin, channels.alerts);
    // The seeded admin's Slack profile says Europe/London; REPORT_TIMEZONE is Europe/Istanbul.
    const said = await posted(channels.alerts, /subscribed this channel/, after);
    expect(said.text).toContain(`daily at 09:00 (Europe/London, <@${users.admin}>’s Slack time zone)`);
    const [sub] = await h.store.subscriptions.listByChannel(channels.alerts);
    expect(sub).toMatchObject({ kind: 'digest', timezone: 'Europe/London' });
    const next = h.bot.digests
      .scheduleOf(sub as Parameters<typeof h.bot.digests.scheduleOf>[0])!
      .nextAfter(new Date())!;
    expect(clockIn(next, 'Europe/London')).toBe('09:00');

    await h.sms('subscriptions', users.admin, channels.alerts);
    const list = ephemeralText(await h.ephemeral(users.admin, /This channel’s subscriptions/));
    expect(list).toMatch(
      /Balance digest\* · daily at 09:00 \(Europe\/London\) · next \*\d{4}-\d\d-\d\d 09:00\*/,
    );
  });

  it('a subscription stored before keeps its zone, and the list says which', async () => {
    await h.store.subscriptions.add(
      channels.general,
      { kind: 'digest', digest: 'stats', cron: '0 9 * * *', timezone: 'Europe/Istanbul' },
      users.admin,
      new Date(),
    );
    await h.sms('subscriptions', users.admin, channels.general);
    const list = ephemeralText(await h.ephemeral(users.admin, /This channel’s subscriptions/));
    expect(list).toMatch(
      /Monthly statistics digest\* · daily at 09:00 \(Europe\/Istanbul\) · next \*\d{4}-\d\d-\d\d 09:00\*/,
    );
  });

  it('when Slack gives no time zone, REPORT_TIMEZONE is used and the answer says so', async () => {
    const after = h.fake.state.journal.seq;
    await h.sms('subscribe digest surveys weekdays 08:30', NO_ZONE, channels.smsOps);
    const said = await posted(channels.smsOps, /subscribed this channel/, after);
    expect(said.text).toContain(
      `weekdays at 08:30 (Europe/Istanbul, REPORT_TIMEZONE: Slack did not give <@${NO_ZONE}>’s time zone)`,
    );
    const subs = await h.store.subscriptions.listByChannel(channels.smsOps);
    expect(subs).toEqual([expect.objectContaining({ digest: 'surveys', timezone: 'Europe/Istanbul' })]);
  });
});
