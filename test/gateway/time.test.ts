import { describe, expect, it } from 'vitest';
import { formatGatewayTime, parseGatewayTime } from '../../src/gateway/time.js';

describe('gateway timestamps', () => {
  it('reads zero to seven fractional digits in the configured zone', () => {
    expect(parseGatewayTime('2024-01-02T03:04:05.1234567', 'UTC')?.toISOString()).toBe(
      '2024-01-02T03:04:05.123Z',
    );
    expect(parseGatewayTime('2024-01-02T03:04:05', 'UTC')?.toISOString()).toBe('2024-01-02T03:04:05.000Z');
    expect(parseGatewayTime('2024-01-02T03:04:05.5', 'UTC')?.toISOString()).toBe('2024-01-02T03:04:05.500Z');
    expect(parseGatewayTime('2024-07-02T12:00:00.0000000', 'Europe/Istanbul')?.toISOString()).toBe(
      '2024-07-02T09:00:00.000Z',
    );
    expect(parseGatewayTime('2024-01-15T12:00:00', 'America/New_York')?.toISOString()).toBe(
      '2024-01-15T17:00:00.000Z',
    );
  });

  it('honours an explicit zone when a deployment sends one', () => {
    expect(parseGatewayTime('2024-01-02T03:04:05.12Z', 'Europe/Istanbul')?.toISOString()).toBe(
      '2024-01-02T03:04:05.120Z',
    );
    expect(parseGatewayTime('2024-01-02T03:04:05+03:00', 'UTC')?.toISOString()).toBe(
      '2024-01-02T00:04:05.000Z',
    );
  });

  it('rejects what is not a timestamp, and impossible dates', () => {
    for (const bad of [
      '',
      'yesterday',
      '2024-13-01T00:00:00',
      '2024-02-30T00:00:00',
      '2024-01-02T03:04:05.12345678',
    ]) {
      expect(parseGatewayTime(bad, 'UTC'), bad).toBeUndefined();
    }
  });

  it('writes the gateway form: seven digits, no zone, in the gateway zone', () => {
    const date = new Date('2024-07-02T09:00:00.123Z');
    expect(formatGatewayTime(date, 'UTC')).toBe('2024-07-02T09:00:00.1230000');
    expect(formatGatewayTime(date, 'Europe/Istanbul')).toBe('2024-07-02T12:00:00.1230000');
    expect(parseGatewayTime(formatGatewayTime(date, 'America/New_York'), 'America/New_York')).toEqual(date);
  });

  it('reads and writes UTC, the default zone, as any zone at offset zero', () => {
    // Africa/Abidjan is UTC+0 all year and goes through the zone-aware path; UTC takes a shorter one.
    const texts = [
      '2024-01-02T03:04:05.1234567',
      '2024-02-29T23:59:59.9',
      '2023-12-31T00:00:00',
      '2024-06-30T12:30',
    ];
    for (const text of texts) {
      expect(parseGatewayTime(text, 'UTC')).toEqual(parseGatewayTime(text, 'Africa/Abidjan'));
    }
    for (const bad of ['2023-02-29T00:00:00', '2024-04-31T10:00:00', '2024-02-30T00:00:00']) {
      expect(parseGatewayTime(bad, 'UTC'), bad).toBeUndefined();
      expect(parseGatewayTime(bad, 'Africa/Abidjan'), bad).toBeUndefined();
    }
    for (const iso of ['2024-07-02T09:00:00.123Z', '1999-12-31T23:59:59.999Z', '2030-01-01T00:00:00.000Z']) {
      const date = new Date(iso);
      expect(formatGatewayTime(date, 'UTC')).toBe(formatGatewayTime(date, 'Africa/Abidjan'));
      expect(parseGatewayTime(formatGatewayTime(date, 'UTC'), 'UTC')).toEqual(date);
    }
    // Years toISOString writes otherwise (+010000-…) and an invalid date go the zone-aware way, as before.
    expect(formatGatewayTime(new Date('0999-06-01T00:00:00Z'), 'UTC')).toBe('999-06-01T00:00:00.0000000');
    expect(formatGatewayTime(new Date('+010000-01-01T00:00:00Z'), 'UTC')).toBe(
      '10000-01-01T00:00:00.0000000',
    );
    expect(() => formatGatewayTime(new Date(Number.NaN), 'UTC')).not.toThrow();
  });
});
