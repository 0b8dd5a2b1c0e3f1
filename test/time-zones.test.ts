import { describe, expect, it } from 'vitest';
import { isTimeZone, isUtcZone, UTC_ZONE_NAMES } from '../src/time-zones.js';

const offsetShown = (timeZone: string, at: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(new Date(at))
    .find((p) => p.type === 'timeZoneName')?.value;

describe('time zone names', () => {
  it('knows canonical zones, aliases and any letter case, as Intl does, and refuses the rest', () => {
    for (const zone of [
      'Europe/Istanbul',
      'America/New_York',
      'Asia/Calcutta',
      'US/Eastern',
      'europe/istanbul',
    ]) {
      expect({ zone, known: isTimeZone(zone) }).toEqual({ zone, known: true });
    }
    for (const zone of ['', 'Mars/Olympus', 'Europe/Istanbull', 'UTC+3', 'Istanbul']) {
      expect({ zone, known: isTimeZone(zone) }).toEqual({ zone, known: false });
    }
  });

  it('takes as UTC, without Intl, only names whose offset Intl shows as zero all year, in any letter case', () => {
    for (const zone of UTC_ZONE_NAMES.flatMap((name) => [name, name.toLowerCase()])) {
      expect(isUtcZone(zone)).toBe(true);
      expect(isTimeZone(zone)).toBe(true);
      for (const at of ['2026-01-15T12:00:00Z', '2026-07-15T12:00:00Z']) {
        expect(offsetShown(zone, at), `${zone} at ${at}`).toMatch(/^GMT(\+00:00)?$/);
      }
    }
    // Zero in winter is not enough: London is an hour ahead in summer.
    expect(isUtcZone('Europe/London')).toBe(false);
    expect(isUtcZone('Africa/Abidjan')).toBe(false);
    expect(isUtcZone('Etc/GMT+1')).toBe(false);
  });
});
