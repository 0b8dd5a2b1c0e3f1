import { describe, expect, it } from 'vitest';
import { DEFAULT_STOP_WORDS, isStopWord } from '../../src/sms/index.js';

describe('isStopWord', () => {
  it.each([
    'STOP',
    'stop',
    'Stop',
    '  stop  ',
    'Stop.',
    'STOP!',
    'stop please',
    'STOP\nthanks',
    'UNSUBSCRIBE',
    'unsubscribe',
    'İptal',
    'iptal',
    'IPTAL',
    'İPTAL',
    'ıptal',
    // İ written as I + combining dot, as some keyboards send it.
    'I\u0307ptal',
    'DUR',
    'dur',
    'Dur lütfen',
    '"iptal"',
    'ＳＴＯＰ',
  ])('treats %j as a stop request', (text) => {
    expect(isStopWord(text)).toBe(true);
  });

  it.each([
    '',
    '   ',
    'stopped',
    'STOPS',
    'durum',
    'DURUM nedir',
    'please stop',
    'iptaller',
    'non-stop',
    'st op',
  ])('does not treat %j as a stop request', (text) => {
    expect(isStopWord(text)).toBe(false);
  });

  it('uses the word list it is given, with the same Turkish casing rules', () => {
    expect(isStopWord('hayır', ['HAYIR'])).toBe(true);
    expect(isStopWord('HAYIR', ['hayır'])).toBe(true);
    expect(isStopWord('STOP', ['HAYIR'])).toBe(false);
    expect(isStopWord('stop', [])).toBe(false);
  });

  it('defaults to STOP, UNSUBSCRIBE, IPTAL and DUR', () => {
    expect([...DEFAULT_STOP_WORDS]).toEqual(['STOP', 'UNSUBSCRIBE', 'IPTAL', 'DUR']);
  });
});
