import { describe, expect, it } from 'vitest';
import { formatGatewayTime, parseGatewayTime } from '../../src/simulator/time.js';

describe('gateway timestamps', () => {
  it('writes seven fractional digits, no zone, in the given zone', () => {
    const at = new Date('2024-01-02T03:04:05.678Z');
    expect(formatGatewayTime(at, 'UTC')).toBe('2024-01-02T03:04:05.6780000');
    expect(formatGatewayTime(at, 'Europe/Istanbul')).toBe('2024-01-02T06:04:05.6780000');
    expect(formatGatewayTime(at, 'America/New_York')).toBe('2024-01-01T22:04:05.6780000');
  });

  it('reads 0 to 7 fractional digits, cutting beyond milliseconds', () => {
    const read = (s: string) => parseGatewayTime(s, 'UTC')?.toISOString();
    expect(read('2024-01-02T03:04:05')).toBe('2024-01-02T03:04:05.000Z');
    expect(read('2024-01-02T03:04:05.6')).toBe('2024-01-02T03:04:05.600Z');
    expect(read('2024-01-02T03:04:05.6789999')).toBe('2024-01-02T03:04:05.678Z');
    expect(read('2024-01-02T03:04')).toBe('2024-01-02T03:04:00.000Z');
    expect(read('2024-01-02')).toBe('2024-01-02T00:00:00.000Z');
  });

  it('reads zone-less values in the gateway zone and honours Z or an offset', () => {
    expect(parseGatewayTime('2024-07-01T12:00:00', 'Europe/Istanbul')?.toISOString()).toBe(
      '2024-07-01T09:00:00.000Z',
    );
    expect(parseGatewayTime('2024-07-01T12:00:00Z', 'Europe/Istanbul')?.toISOString()).toBe(
      '2024-07-01T12:00:00.000Z',
    );
    expect(parseGatewayTime('2024-07-01T12:00:00.5+0200', 'UTC')?.toISOString()).toBe(
      '2024-07-01T10:00:00.500Z',
    );
    expect(parseGatewayTime('2024-07-01T12:00:00-05:30', 'UTC')?.toISOString()).toBe(
      '2024-07-01T17:30:00.000Z',
    );
  });

  it('round-trips what it writes', () => {
    const at = new Date('2024-03-31T01:30:00.123Z');
    for (const zone of ['UTC', 'Europe/Istanbul', 'Europe/Berlin', 'Asia/Kolkata']) {
      expect(parseGatewayTime(formatGatewayTime(at, zone), zone)?.getTime()).toBe(at.getTime());
    }
  });

  it('refuses what is not a timestamp', () => {
    for (const bad of [
      '',
      'yesterday',
      '2024-02-30T00:00:00',
      '2024-13-01T00:00:00',
      '2024-01-01T24:00:00',
      '2024-01-01T00:00:00.12345678',
    ]) {
      expect(parseGatewayTime(bad, 'UTC')).toBeUndefined();
    }
  });
});
