import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { compileSchedule, InvalidScheduleError } from '../../src/digests/schedule.js';
import { describeCron, parseScheduleWords } from '../../src/digests/schedule-forms.js';
import { atMostEvery, describeInterval } from '../../src/digests/schedule-interval.js';
import { addDays, dayClock, localDate, ZoneDayClocks } from '../../src/digests/schedule-tz.js';
import { DigestScheduler, digestJob } from '../../src/jobs/digest-scheduler.js';
import { silentLogger } from '../../src/log.js';
import type { Store } from '../../src/store/index.js';
import { FakeGateway, RecordingPoster, tempStore } from './digest-fakes.js';

const iso = (d: Date | undefined) => d?.toISOString();

/** Every slot in [from, to), found by walking nextAfter, as the scheduler's timer would. */
function slotsBetween(cron: string, zone: string, from: string, to: string): string[] {
  const schedule = compileSchedule(cron, zone);
  const out: string[] = [];
  let t = new Date(new Date(from).getTime() - 1);
  const end = new Date(to).getTime();
  for (;;) {
    const next = schedule.nextAfter(t);
    if (!next || next.getTime() >= end) return out;
    out.push(next.toISOString());
    t = next;
  }
}

describe('schedule forms', () => {
  it.each([
    [['daily', '09:00'], '0 9 * * *', 'daily at 09:00'],
    [['weekdays', '8:30'], '30 8 * * 1-5', 'weekdays at 08:30'],
    [['weekly', 'Mon', '09:00'], '0 9 * * 1', 'weekly on Monday at 09:00'],
    [['weekly', 'sunday', '18:45'], '45 18 * * 0', 'weekly on Sunday at 18:45'],
    [['monthly', '1', '09:00'], '0 9 1 * *', 'monthly on day 1 at 09:00'],
    [['monthly', 'last', '18:00'], '0 18 L * *', 'monthly on the last day at 18:00'],
    [['cron', '0 9 * * 1-5'], '0 9 * * 1-5', 'weekdays at 09:00'],
    [['cron', '*/15', '9-17', '*', '*', '*'], '*/15 9-17 * * *', 'cron "*/15 9-17 * * *"'],
    [[], '0 9 * * *', 'daily at 09:00'],
  ])('%j → %s', (words, cron, description) => {
    expect(parseScheduleWords(words, 'Europe/Berlin')).toEqual({ cron, description });
    expect(describeCron(cron)).toBe(description);
  });

  it.each([
    [['daily'], /a time is missing.*daily 09:00/],
    [['daily', '25:00'], /“25:00” is not a time.*HH:MM/],
    [['daily', '9am'], /“9am” is not a time/],
    [['weekly', 'funday', '09:00'], /not a day of the week.*weekly monday 09:00/],
    [['monthly', '31', '09:00'], /1 to 28.*last/],
    [['hourly'], /not a schedule: use daily HH:MM/],
    [['cron', '0 25 * * *'], /not a cron expression I can use.*cron "0 9 \* \* 1-5"/],
    [['cron', '0 9 * *'], /5 fields/],
    [['daily', '09:00', 'please'], /did not understand “please”/],
  ])('%j is refused with an example', (words, message) => {
    expect(() => parseScheduleWords(words, 'UTC')).toThrow(InvalidScheduleError);
    expect(() => parseScheduleWords(words, 'UTC')).toThrow(message);
  });
});

describe('slots from a cron expression and a zone', () => {
  it('names the latest due slot and the next one, in the zone', () => {
    const s = compileSchedule('0 9 * * 1-5', 'Europe/Istanbul');
    // Sunday 22 November 2026, noon UTC: the latest weekday 09:00 was Friday's (06:00 UTC).
    expect(iso(s.latestAtOrBefore(new Date('2026-11-22T12:00:00Z')))).toBe('2026-11-20T06:00:00.000Z');
    expect(iso(s.nextAfter(new Date('2026-11-22T12:00:00Z')))).toBe('2026-11-23T06:00:00.000Z');
    // A slot is due at its own instant, and the next one starts after it.
    expect(iso(s.latestAtOrBefore(new Date('2026-11-23T06:00:00Z')))).toBe('2026-11-23T06:00:00.000Z');
    expect(iso(s.nextAfter(new Date('2026-11-23T06:00:00Z')))).toBe('2026-11-24T06:00:00.000Z');
  });

  it('handles seconds, last-day and nth-weekday expressions and far-apart slots', () => {
    expect(
      iso(compileSchedule('*/10 * * * * *', 'UTC').latestAtOrBefore(new Date('2026-11-22T12:00:07Z'))),
    ).toBe('2026-11-22T12:00:00.000Z');
    expect(iso(compileSchedule('0 18 L * *', 'UTC').nextAfter(new Date('2026-02-01T00:00:00Z')))).toBe(
      '2026-02-28T18:00:00.000Z',
    );
    expect(iso(compileSchedule('0 9 * * 1#1', 'UTC').nextAfter(new Date('2026-11-22T00:00:00Z')))).toBe(
      '2026-12-07T09:00:00.000Z',
    );
    expect(iso(compileSchedule('0 9 29 2 *', 'UTC').nextAfter(new Date('2026-11-22T00:00:00Z')))).toBe(
      '2028-02-29T09:00:00.000Z',
    );
  });

  it('refuses what is not a 5- or 6-field expression or not a zone', () => {
    expect(() => compileSchedule('0 9 * *', 'UTC')).toThrow(/5 fields/);
    expect(() => compileSchedule('0 9 * * * * *', 'UTC')).toThrow(/5 fields/);
    expect(() => compileSchedule('61 9 * * *', 'UTC')).toThrow(InvalidScheduleError);
    expect(() => compileSchedule('0 9 * * *', 'Mars/Olympus')).toThrow(/time zone/);
  });

  describe('daylight saving', () => {
    it('Europe/Berlin spring forward: 02:30 does not exist on 29 March 2026, the digest comes at 03:00, once', () => {
      expect(
        slotsBetween('30 2 * * *', 'Europe/Berlin', '2026-03-28T00:00:00Z', '2026-03-31T00:00:00Z'),
      ).toEqual([
        '2026-03-28T01:30:00.000Z', // 02:30 CET
        '2026-03-29T01:00:00.000Z', // the jump: 02:00 CET became 03:00 CEST
        '2026-03-30T00:30:00.000Z', // 02:30 CEST
      ]);
    });

    it('Europe/Berlin fall back: 02:30 happens twice on 25 October 2026, the digest comes the first time only', () => {
      expect(
        slotsBetween('30 2 * * *', 'Europe/Berlin', '2026-10-24T12:00:00Z', '2026-10-26T12:00:00Z'),
      ).toEqual([
        '2026-10-25T00:30:00.000Z', // 02:30 CEST; 01:30 UTC is 02:30 CET again and does not fire
        '2026-10-26T01:30:00.000Z',
      ]);
    });

    it('America/New_York fall back: 01:30 happens twice on 1 November 2026, fires once', () => {
      expect(
        slotsBetween('30 1 * * *', 'America/New_York', '2026-10-31T12:00:00Z', '2026-11-02T12:00:00Z'),
      ).toEqual([
        '2026-11-01T05:30:00.000Z', // 01:30 EDT; 06:30 UTC (01:30 EST) does not fire
        '2026-11-02T06:30:00.000Z',
      ]);
    });

    it('America/New_York spring forward: 02:30 does not exist on 8 March 2026, fires at 03:00 EDT', () => {
      expect(
        slotsBetween('30 2 * * *', 'America/New_York', '2026-03-07T12:00:00Z', '2026-03-09T12:00:00Z'),
      ).toEqual(['2026-03-08T07:00:00.000Z', '2026-03-09T06:30:00.000Z']);
    });

    it('several times in the skipped hour collapse into one slot at the jump', () => {
      expect(
        slotsBetween('*/15 2 * * *', 'Europe/Berlin', '2026-03-29T00:00:00Z', '2026-03-29T12:00:00Z'),
      ).toEqual(['2026-03-29T01:00:00.000Z']);
    });

    it('an every-hour schedule keeps real time: nothing extra at the jump, both passes of the repeated hour', () => {
      const spring = slotsBetween(
        '30 * * * *',
        'America/New_York',
        '2026-03-08T05:00:00Z',
        '2026-03-08T09:00:00Z',
      );
      expect(spring).toEqual([
        '2026-03-08T05:30:00.000Z',
        '2026-03-08T06:30:00.000Z',
        '2026-03-08T07:30:00.000Z',
        '2026-03-08T08:30:00.000Z',
      ]);
      const fall = slotsBetween(
        '30 * * * *',
        'America/New_York',
        '2026-11-01T04:00:00Z',
        '2026-11-01T08:00:00Z',
      );
      expect(fall).toEqual([
        '2026-11-01T04:30:00.000Z',
        '2026-11-01T05:30:00.000Z',
        '2026-11-01T06:30:00.000Z',
        '2026-11-01T07:30:00.000Z',
      ]);
    });

    it('latestAtOrBefore agrees with nextAfter around the jump', () => {
      const s = compileSchedule('30 2 * * *', 'Europe/Berlin');
      expect(iso(s.latestAtOrBefore(new Date('2026-03-29T00:59:59Z')))).toBe('2026-03-28T01:30:00.000Z');
      expect(iso(s.latestAtOrBefore(new Date('2026-03-29T01:00:00Z')))).toBe('2026-03-29T01:00:00.000Z');
      const ny = compileSchedule('30 1 * * *', 'America/New_York');
      expect(iso(ny.latestAtOrBefore(new Date('2026-11-01T06:45:00Z')))).toBe('2026-11-01T05:30:00.000Z');
    });
  });
});

describe('the shortest time between two runs of a schedule', () => {
  const FROM = new Date('2026-01-01T00:00:00Z');
  const gap = (cron: string, zone = 'UTC') => {
    const ms = compileSchedule(cron, zone).shortestGapMs(FROM);
    return ms === undefined ? undefined : describeInterval(ms);
  };

  it.each([
    ['* * * * * *', '1 second'],
    ['*/20 * * * * *', '20 seconds'],
    ['0,30 * * * * *', '30 seconds'],
    ['0 * * * * *', '1 minute'],
    ['* * * * *', '1 minute'],
    ['*/5 * * * *', '5 minutes'],
    // A list: two runs a minute apart, however rare the pair.
    ['0,1 9 * * *', '1 minute'],
    ['0 9,10 * * 1', '1 hour'],
    // A step that does not divide the hour: 56 past, then on the hour.
    ['*/14 * * * *', '4 minutes'],
    // A range of hours: the last run of one day and the first of the next are 16 hours apart.
    ['0 9-17 * * *', '1 hour'],
    ['0 23 * * *', '1 day'],
    ['30 8 * * 1-5', '1 day'],
    ['0 9 * * 1', '7 days'],
    ['0 18 L * *', '28 days'],
    ['0 9 1 1,7 *', '181 days'],
  ])('%s: %s apart at the closest', (cron, expected) => {
    expect(gap(cron)).toBe(expected);
  });

  it('counts real time across daylight saving, in the zone', () => {
    // 01:59 and 03:00 are a minute apart on 29 March 2026 in Berlin, 61 minutes apart on every other day.
    expect(gap('0,59 1,3 * * *', 'Europe/Berlin')).toBe('1 minute');
    expect(gap('0,59 1,3 * * *', 'UTC')).toBe('59 minutes');
    expect(gap('59 1 * * *', 'Europe/Berlin')).toBe('23 hours');
    expect(gap('0 9 * * *', 'Europe/Berlin')).toBe('23 hours');
    expect(gap('0 9 * * *', 'Europe/Istanbul')).toBe('1 day');
  });

  it('finds the day clocks of four years from the offset changes alone, as asking for every day would', () => {
    // Zones with changes twice a year, half-hour offsets and shifts, a Ramadan pause, none at all, and UTC.
    for (const zone of [
      'Europe/Berlin',
      'America/New_York',
      'Australia/Lord_Howe',
      'Africa/Casablanca',
      'Asia/Gaza',
      'America/Santiago',
      'Europe/Istanbul',
      'UTC',
    ]) {
      const first = localDate(FROM.getTime(), zone);
      const last = addDays(first, 4 * 366 + 1);
      const clocks = new ZoneDayClocks(zone, first, last);
      const changes = new Set<number>();
      for (let date = first; date.year <= last.year; date = addDays(date, 1)) {
        const expected = dayClock(date, zone);
        if (expected.transition !== undefined) changes.add(expected.transition);
        expect(clocks.dayClock(date), `${zone} ${JSON.stringify(date)}`).toEqual(expected);
        if (date.year === last.year && date.month === last.month && date.day === last.day) break;
      }
      // The walk did meet changes: Berlin's clocks go forward and back each of the four years.
      if (zone === 'Europe/Berlin') expect(changes.size).toBe(8);
    }
  });

  it('refuses a zone it does not know at once rather than stepping through four years a millisecond at a time', () => {
    const day = { year: 2026, month: 1, day: 1 };
    expect(() => new ZoneDayClocks('Mars/Olympus', day, addDays(day, 4 * 366))).toThrow(/unknown time zone/);
  });

  it('answers an every-day schedule in a zone without changes at once, as the walk over its days would', () => {
    // `1-30,L` is every day too, written so that the walk over four years of days is taken.
    for (const time of ['0 9', '0,1 9', '0 9-17', '*/14 *', '0 23', '30 0,23', '15 3 1,2', '59 23 0']) {
      const words = time.split(' ');
      const seconds = words.length === 3 ? `${words.shift()} ` : '';
      const [minute, hour] = words;
      for (const zone of ['UTC', 'Asia/Tokyo']) {
        const fast = compileSchedule(`${seconds}${minute} ${hour} * * *`, zone).shortestGapMs(FROM);
        const walked = compileSchedule(`${seconds}${minute} ${hour} 1-30,L * *`, zone).shortestGapMs(FROM);
        expect({ time, zone, gap: fast }).toEqual({ time, zone, gap: walked });
      }
    }
  });

  it('is undefined for a schedule that runs at most once in four years', () => {
    expect(compileSchedule('0 9 29 2 *', 'UTC').shortestGapMs(new Date('2028-03-01T00:00:00Z'))).toBe(
      undefined,
    );
  });

  it('a slowed schedule runs at the end of each 15-minute window that held a run, never early', () => {
    const slowed = atMostEvery(compileSchedule('0,1 9 * * *', 'UTC'), 15 * 60_000);
    expect(iso(slowed.nextAfter(new Date('2026-11-20T08:50:00Z')))).toBe('2026-11-20T09:00:00.000Z');
    expect(iso(slowed.nextAfter(new Date('2026-11-20T09:00:00Z')))).toBe('2026-11-20T09:15:00.000Z');
    expect(iso(slowed.nextAfter(new Date('2026-11-20T09:15:00Z')))).toBe('2026-11-21T09:00:00.000Z');
    expect(iso(slowed.latestAtOrBefore(new Date('2026-11-20T09:14:59Z')))).toBe('2026-11-20T09:00:00.000Z');
    expect(iso(slowed.latestAtOrBefore(new Date('2026-11-20T12:00:00Z')))).toBe('2026-11-20T09:15:00.000Z');
  });
});

describe('the scheduler on a fake clock across DST days', () => {
  let store: Store;
  let close: () => Promise<void>;

  beforeEach(async () => {
    ({ store, close } = await tempStore());
  });
  afterEach(async () => {
    vi.useRealTimers();
    await close();
  });

  /** Moves the fake clock in steps, letting the store's I/O finish between them. */
  async function advance(ms: number, step = 5 * 60_000): Promise<void> {
    for (let done = 0; done < ms; done += step) {
      await vi.advanceTimersByTimeAsync(Math.min(step, ms - done));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  it.each([
    [
      'Europe/Berlin',
      '30 2 * * *',
      '2026-03-27T12:00:00Z',
      ['2026-03-28T01:30:00.000Z', '2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z'],
    ],
    [
      'Europe/Berlin',
      '30 2 * * *',
      '2026-10-23T12:00:00Z',
      ['2026-10-24T00:30:00.000Z', '2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z'],
    ],
    [
      'America/New_York',
      '30 1 * * *',
      '2026-10-30T12:00:00Z',
      ['2026-10-31T05:30:00.000Z', '2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z'],
    ],
    [
      'America/New_York',
      '30 2 * * *',
      '2026-03-06T12:00:00Z',
      ['2026-03-07T07:30:00.000Z', '2026-03-08T07:00:00.000Z', '2026-03-09T06:30:00.000Z'],
    ],
  ])(
    '%s %s: one post a day, at the slot',
    async (zone, cron, start, expected) => {
      vi.useFakeTimers({ now: new Date(start), toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      const { subscription } = await store.subscriptions.add(
        'C0DIGEST',
        { kind: 'digest', digest: 'balance', cron, timezone: zone },
        'U0ADMIN',
        new Date(start),
      );
      const poster = new RecordingPoster();
      const postedAt: string[] = [];
      const record = poster.postDigest.bind(poster);
      poster.postDigest = async (...args) => {
        postedAt.push(new Date().toISOString());
        await record(...args);
      };
      const scheduler = new DigestScheduler({
        gateway: new FakeGateway(),
        store,
        poster,
        logger: silentLogger,
        settings: { reportTimeZone: zone, simulated: false, instanceId: 'fake-clock', tickSeconds: 600 },
      });
      scheduler.start();
      await advance(3 * 86_400_000);
      await scheduler.stop();
      const runs = (await store.jobRuns.runs(digestJob(subscription.id), 10)).map((r) => r.slot).sort();
      expect(runs).toEqual(expected);
      expect(poster.posts).toHaveLength(3);
      // Each posted within a second of its slot: the timer sleeps until the next slot, not a whole tick.
      postedAt.forEach((at, i) => {
        const late = new Date(at).getTime() - new Date(expected[i]!).getTime();
        expect(late).toBeGreaterThanOrEqual(0);
        expect(late).toBeLessThan(1_000);
      });
    },
    60_000,
  );
});
