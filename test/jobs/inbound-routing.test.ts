import { describe, expect, it } from 'vitest';
import type { InboundMessage, Survey } from '../../src/gateway/index.js';
import { channelsFor, keywordOf, sameRecipient, sameWord } from '../../src/jobs/inbound-routing.js';
import { parseSurveyKeywords, SurveyMatcher } from '../../src/jobs/inbound-surveys.js';

function sms(overrides: Partial<InboundMessage> = {}): InboundMessage {
  return {
    id: 1,
    received: new Date('2024-05-15T10:00:00Z'),
    network: 1,
    msisdn: '905321234567',
    recipient: '4440123',
    keyword: '',
    text: 'hello',
    price: 0,
    xser: '',
    ...overrides,
  };
}

describe('routing', () => {
  it('files an SMS under its keyword, or the first word of its text when the gateway gives none', () => {
    expect(keywordOf(sms({ keyword: 'ANKET', text: 'whatever' }))).toBe('ANKET');
    expect(keywordOf(sms({ keyword: ' ', text: '  katıl evet' }))).toBe('katıl');
    expect(keywordOf(sms({ keyword: '', text: '' }))).toBe('');
  });

  it('compares keywords in any case with Turkish I folded, and recipients without spacing or +', () => {
    expect(sameWord('indirim', 'İNDİRİM')).toBe(true);
    expect(sameWord('KATIL', 'katıl')).toBe(true);
    expect(sameWord('ANKET', 'anket!')).toBe(true);
    expect(sameWord('ANKET', 'ANKETS')).toBe(false);
    expect(sameWord('', '')).toBe(false);
    expect(sameRecipient('444 01 23', '4440123')).toBe(true);
    expect(sameRecipient('+905321234567', '00905321234567')).toBe(true);
    expect(sameRecipient('acme', 'ACME')).toBe(true);
    expect(sameRecipient('ACME', 'INFO')).toBe(false);
  });

  it('sends an SMS to every channel with a matching route, once each, an unfiltered route taking all', () => {
    // C0 is as INBOUND_CHANNEL's subscription: made first at start-up, with no filter.
    const routes = [
      { channel: 'C0' },
      { channel: 'C1', keyword: 'ANKET' },
      { channel: 'C2', recipient: 'ACME' },
      { channel: 'C2', keyword: 'ANKET', recipient: 'ACME' },
      { channel: 'C3', keyword: 'KATIL', recipient: '4440123' },
      { channel: 'C0' },
    ];
    expect(channelsFor(routes, sms({ keyword: 'anket', recipient: 'ACME' }))).toEqual(['C0', 'C1', 'C2']);
    expect(channelsFor(routes, sms({ keyword: 'KATIL' }))).toEqual(['C0', 'C3']);
    expect(channelsFor(routes, sms({ keyword: 'KATIL', recipient: 'INFO' }))).toEqual(['C0']);
    expect(channelsFor([{ channel: 'C1', keyword: 'X' }], sms())).toEqual([]);
  });

  it('gives a subscription what arrived from its creation on, with a minute’s grace for clock skew', () => {
    const at = (iso: string) => sms({ received: new Date(iso) });
    const routes = [{ channel: 'C1', createdAt: new Date('2024-05-15T10:00:00Z') }];
    expect(channelsFor(routes, at('2024-05-15T09:58:59Z'))).toEqual([]);
    expect(channelsFor(routes, at('2024-05-15T09:59:30Z'))).toEqual(['C1']);
    expect(channelsFor(routes, at('2024-05-15T11:00:00Z'))).toEqual(['C1']);
  });
});

describe('surveys', () => {
  const surveys: Survey[] = [
    {
      id: 301,
      name: 'Customer satisfaction',
      totalQuestions: 2,
      subscribers: 0,
      answered: 0,
      delivered: 0,
      messageId: 0,
    },
    {
      id: 302,
      name: 'Katıl kampanyası',
      totalQuestions: 1,
      subscribers: 0,
      answered: 0,
      delivered: 0,
      messageId: 0,
    },
  ];
  const gateway = (list = surveys) => {
    let calls = 0;
    return {
      get calls() {
        return calls;
      },
      getSurveys: async () => {
        calls++;
        return list;
      },
    };
  };

  it('reads SURVEY_KEYWORDS pairs and refuses anything else', () => {
    expect(parseSurveyKeywords('ANKET=301, KATIL = 302')).toEqual({ ANKET: 301, KATIL: 302 });
    expect(parseSurveyKeywords(undefined)).toEqual({});
    expect(() => parseSurveyKeywords('ANKET:301')).toThrow(/KEYWORD=surveyId/);
  });

  it('matches the keywords SURVEY_KEYWORDS names, and only those', async () => {
    const matcher = new SurveyMatcher(gateway(), { ANKET: 301 }, () => 0);
    expect(await matcher.surveyFor(sms({ keyword: 'anket' }))).toEqual({
      id: 301,
      name: 'Customer satisfaction',
    });
    expect(await matcher.surveyFor(sms({ keyword: 'KATIL' }))).toBeUndefined();
  });

  it('without SURVEY_KEYWORDS, matches the first word of a survey’s name', async () => {
    const matcher = new SurveyMatcher(gateway(), {}, () => 0);
    expect(await matcher.surveyFor(sms({ keyword: 'KATIL' }))).toEqual({ id: 302, name: 'Katıl kampanyası' });
    expect(await matcher.surveyFor(sms({ keyword: 'ANKET' }))).toBeUndefined();
  });

  it('reads GetSurveys at most every ten minutes, and a failure only loses the name', async () => {
    let now = 0;
    const g = gateway();
    const matcher = new SurveyMatcher(g, { ANKET: 301 }, () => now);
    await matcher.surveyFor(sms({ keyword: 'ANKET' }));
    now += 9 * 60_000;
    await matcher.surveyFor(sms({ keyword: 'ANKET' }));
    expect(g.calls).toBe(1);
    now += 2 * 60_000;
    await matcher.surveyFor(sms({ keyword: 'ANKET' }));
    expect(g.calls).toBe(2);
    const down = new SurveyMatcher(
      { getSurveys: () => Promise.reject(new Error('down')) },
      { ANKET: 301 },
      () => 0,
    );
    expect(await down.surveyFor(sms({ keyword: 'ANKET' }))).toEqual({ id: 301, name: undefined });
  });

  it('hands GetSurveys the signal it is given, so that a relay’s stop ends a call the gateway holds', async () => {
    const held = new SurveyMatcher(
      {
        getSurveys: (options) =>
          new Promise((_, reject) =>
            options?.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
          ),
      },
      { ANKET: 301 },
      () => 0,
    );
    const controller = new AbortController();
    const answer = held.surveyFor(sms({ keyword: 'ANKET' }), controller.signal);
    controller.abort();
    expect(await answer).toEqual({ id: 301, name: undefined });
  });
});
