import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectOk, manualClock, startTestSimulator, type TestSimulator } from './helpers.js';

interface Inbound {
  Id: number;
  Received: string;
  MSISDN: string;
  Recipient: string;
  Keyword: string;
  Text: string;
  Network: number;
}

describe('simulator inbound messages and surveys', () => {
  const clock = manualClock();
  let t: TestSimulator;

  beforeEach(async () => {
    clock.set('2024-05-15T10:00:00.000Z');
    t = await startTestSimulator({ now: clock.now });
  });
  afterEach(() => t.sim.close());

  async function inject(body: unknown): Promise<number[]> {
    const { status, body: reply } = await t.control<{ ids: number[] }>('/_sim/inbound', body);
    expect(status).toBe(200);
    return reply.ids;
  }

  async function receive(body: Record<string, unknown> = {}): Promise<Inbound[]> {
    const reply = await t.call('Receive', { State: 'All', ...body });
    expectOk(reply);
    return reply.Response.Message.List;
  }

  it('injects one message or an array and answers with increasing ids', async () => {
    expect(await inject({ MSISDN: '905321234567', Text: 'hello' })).toEqual([500001]);
    expect(
      await inject([
        { MSISDN: '905441234567', Text: 'two' },
        { MSISDN: '+90 555 123 45 67', Text: 'three', Recipient: 'ACME', Keyword: 'Promo', Network: 7 },
      ]),
    ).toEqual([500002, 500003]);
    const list = await receive();
    expect(list.map((m) => [m.Id, m.MSISDN, m.Recipient, m.Keyword, m.Network])).toEqual([
      [500001, '905321234567', '4440123', 'HELLO', 1],
      [500002, '905441234567', '4440123', 'TWO', 2],
      // A typed number is normalised to gateway form; given Keyword and Network are kept.
      [500003, '905551234567', 'ACME', 'Promo', 7],
    ]);
  });

  it('filters by Range with both ends inclusive, in the gateway zone', async () => {
    const at = ['2024-05-15T10:00:00.000Z', '2024-05-15T10:00:01.500Z', '2024-05-15T10:00:03.000Z'];
    for (const [i, iso] of at.entries()) {
      clock.set(iso);
      await inject({ MSISDN: '905321234567', Text: `m${i}` });
    }
    const texts = async (range: Record<string, unknown>) =>
      (await receive({ Range: range })).map((m) => m.Text);

    expect(await texts({ Begin: '2024-05-15T10:00:00.0000000', End: '2024-05-15T10:00:01.5000000' })).toEqual(
      ['m0', 'm1'],
    );
    // Fewer fractional digits, no fraction, a Z or an offset all mean the same instants.
    expect(await texts({ Begin: '2024-05-15T10:00:01.5', End: '2024-05-15T10:00:03' })).toEqual(['m1', 'm2']);
    expect(await texts({ Begin: '2024-05-15T10:00:01.500Z' })).toEqual(['m1', 'm2']);
    expect(await texts({ End: '2024-05-15T13:00:00+03:00' })).toEqual(['m0']);
    expect(await texts({ Begin: null, End: null })).toEqual(['m0', 'm1', 'm2']);
    expect(await texts({ Begin: '2024-05-15T10:00:03.0000001' })).toEqual(['m2']);
    expect(await texts({ Begin: '2024-05-15T10:00:03.001' })).toEqual([]);
  });

  it('echoing a Received timestamp back as Begin includes that message (tolerant polling)', async () => {
    await inject({ MSISDN: '905321234567', Text: 'first' });
    clock.advance(1);
    await inject({ MSISDN: '905321234567', Text: 'second' });
    const [first] = await receive();
    expect((await receive({ Range: { Begin: first!.Received } })).map((m) => m.Text)).toEqual([
      'first',
      'second',
    ]);
  });

  it('reads zone-less timestamps in the configured zone', async () => {
    const ist = await startTestSimulator({ now: clock.now, timeZone: 'Europe/Istanbul' });
    try {
      await ist.control('/_sim/inbound', { MSISDN: '905321234567', Text: 'x' });
      const reply = await ist.call('Receive', {
        Range: { Begin: '2024-05-15T13:00:00', End: '2024-05-15T13:00:00' },
      });
      expect(reply.Response.Message.List.map((m: Inbound) => m.Received)).toEqual([
        '2024-05-15T13:00:00.0000000',
      ]);
    } finally {
      await ist.sim.close();
    }
  });

  it('filters by Recipient; empty or absent means all', async () => {
    await inject([
      { MSISDN: '905321234567', Text: 'a', Recipient: '4440123' },
      { MSISDN: '905321234567', Text: 'b', Recipient: 'ACME' },
      { MSISDN: '905321234567', Text: 'c' },
    ]);
    expect((await receive({ Recipient: 'ACME' })).map((m) => m.Text)).toEqual(['b']);
    expect((await receive({ Recipient: '4440123' })).map((m) => m.Text)).toEqual(['a', 'c']);
    expect(await receive({ Recipient: '' })).toHaveLength(3);
    expect(await receive()).toHaveLength(3);
    expect(await receive({ Recipient: 'nobody' })).toEqual([]);
  });

  it('orders by Received then Id', async () => {
    clock.set('2024-05-15T11:00:00Z');
    await inject({ MSISDN: '905321234567', Text: 'later' });
    clock.set('2024-05-15T09:00:00Z');
    await inject([
      { MSISDN: '905321234567', Text: 'early 1' },
      { MSISDN: '905321234567', Text: 'early 2' },
    ]);
    expect((await receive()).map((m) => m.Text)).toEqual(['early 1', 'early 2', 'later']);
  });

  it('rejects bad inbound input with a clear 400', async () => {
    const cases: Array<[unknown, string]> = [
      [{ Text: 'x' }, 'MSISDN is required'],
      [{ MSISDN: '12', Text: 'x' }, 'MSISDN must be 10-15 digits with the country code'],
      [{ MSISDN: '905321234567' }, 'Text is required'],
      [{ MSISDN: '905321234567', Text: '  ' }, 'Text must not be empty'],
      [
        [
          { MSISDN: '905321234567', Text: 'ok' },
          { MSISDN: 905321234567, Text: 'x' },
        ],
        '[1].MSISDN must be a string of digits',
      ],
      ['hello', 'body must be an object with MSISDN and Text'],
    ];
    for (const [body, error] of cases) {
      const res = await t.control<{ error: string }>('/_sim/inbound', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toContain(error);
    }
    expect(t.sim.state().inbound).toEqual([]);
  });

  describe('surveys', () => {
    async function answers(surveyId: number) {
      const reply = await t.call('GetSurveyAnswers', { SurveyId: surveyId });
      expectOk(reply);
      return reply.Response.AnswerDetail.List as Array<{ QuestionNo: number; Answer: string; Count: number }>;
    }
    async function answered(surveyId: number): Promise<number> {
      const list = (await t.call('GetSurveys')).Response.SurveyDetail.List as Array<{
        Id: number;
        Answered: number;
      }>;
      return list.find((s) => s.Id === surveyId)!.Answered;
    }
    const count = (list: Array<{ QuestionNo: number; Answer: string; Count: number }>, answer: string) =>
      list.find((a) => a.QuestionNo === 1 && a.Answer === answer)?.Count;

    it('an inbound SMS starting with the keyword adds its answer to question 1', async () => {
      await inject([
        { MSISDN: '905321234567', Text: 'KATIL evet' },
        { MSISDN: '905321234568', Text: 'katıl Hayır' },
        { MSISDN: '905321234569', Text: 'Katil EVET' },
      ]);
      const list = await answers(302);
      expect(count(list, 'EVET')).toBe(205);
      expect(count(list, 'HAYIR')).toBe(62);
      expect(await answered(302)).toBe(267);
    });

    it('an explicit Keyword matches too; a new answer value gets its own row', async () => {
      await inject({ MSISDN: '905321234567', Text: '4', Keyword: 'anket' });
      await inject({ MSISDN: '905321234567', Text: 'ANKET 6' });
      const list = await answers(301);
      expect(count(list, '4')).toBe(88);
      expect(count(list, '6')).toBe(1);
      expect(await answered(301)).toBe(224);
      // Question 2 is untouched.
      expect(list.filter((a) => a.QuestionNo === 2).map((a) => a.Count)).toEqual([151, 58]);
    });

    it('messages that match no survey, or carry no answer, change nothing', async () => {
      await inject([
        { MSISDN: '905321234567', Text: 'hello there' },
        { MSISDN: '905321234567', Text: 'KATIL' },
      ]);
      expect(await answered(301)).toBe(222);
      expect(await answered(302)).toBe(264);
    });
  });
});
