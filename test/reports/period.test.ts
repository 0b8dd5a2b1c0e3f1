import { describe, expect, it } from 'vitest';
import { lastMonth, PeriodError, parsePeriod, wallClock } from '../../src/reports/period.js';

const ZONE = 'Europe/Istanbul';
const now = new Date('2026-03-10T12:00:00Z');

describe('report periods', () => {
  it('reads the month, last month and a month by number from midnight to midnight of REPORT_TIMEZONE', () => {
    expect(parsePeriod([], now, ZONE)).toMatchObject({
      from: new Date('2026-02-28T21:00:00Z'),
      to: new Date('2026-03-31T21:00:00Z'),
      label: 'March 2026',
      slug: '2026-03',
    });
    expect(parsePeriod(['last-month'], now, ZONE)).toMatchObject({ label: 'February 2026' });
    expect(lastMonth(new Date('2026-01-01T00:30:00+03:00'), ZONE)).toMatchObject({ slug: '2025-12' });
    expect(parsePeriod(['2025-12'], now, ZONE)).toMatchObject({ to: new Date('2025-12-31T21:00:00Z') });
  });

  it('takes two days, both included, across a change of the clocks', () => {
    const p = parsePeriod(['2026-03-28', '2026-03-29'], now, 'Europe/Berlin');
    expect(p.from).toEqual(new Date('2026-03-27T23:00:00Z'));
    // The 29th is 23 hours long in Berlin: the period ends at its midnight, 22:00 UTC.
    expect(p.to).toEqual(new Date('2026-03-29T22:00:00Z'));
    expect(p.slug).toBe('2026-03-28_2026-03-29');
  });

  it.each([
    [['2026-02-30', '2026-03-01'], /not a period I know/],
    [['2026-13'], /not a month/],
    [['2026-03-05'], /needs its last day/],
    [['2026-03-05', '2026-03-01'], /comes before/],
    [['2024-01-01', '2026-01-01'], /more than 366 days/],
    [['yesterday'], /not a period I know/],
  ])('refuses %j saying why', (words, why) => {
    expect(() => parsePeriod(words, now, ZONE)).toThrow(PeriodError);
    expect(() => parsePeriod(words, now, ZONE)).toThrow(why);
  });

  it('shows an instant as the wall clock of the zone, for a zone-less Excel date', () => {
    expect(wallClock(new Date('2026-03-10T21:30:00Z'), ZONE)).toEqual(new Date('2026-03-11T00:30:00Z'));
  });
});
