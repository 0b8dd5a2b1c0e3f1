import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectOk, manualClock, startTestSimulator, type TestSimulator } from './helpers.js';

const GATEWAY_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{7}$/;

describe('simulator operations: success shapes', () => {
  const clock = manualClock('2024-05-15T10:00:00.000Z');
  let t: TestSimulator;

  beforeEach(async () => {
    clock.set('2024-05-15T10:00:00.000Z');
    t = await startTestSimulator({ now: clock.now, timeZone: 'Europe/Istanbul' });
  });
  afterEach(() => t.sim.close());

  it('answers every success with Status 200 OK inside Response, as JSON', async () => {
    const res = await t.raw(
      'GetBalance',
      JSON.stringify({ Credential: { Username: 'demo', Password: 'demo' } }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({
      Response: { Balance: { Limit: 0, Main: 1250 }, Status: { Code: 200, Description: 'OK' } },
    });
  });

  it('GetSenders lists the senders directly, one default', async () => {
    const reply = await t.call('GetSenders');
    expectOk(reply);
    expect(reply.Response.Senders).toEqual([
      { Value: 'SMSOPS', Default: true },
      { Value: 'ACME', Default: false },
      { Value: 'INFO', Default: false },
    ]);
  });

  it('Submit returns increasing MessageIds from 100001', async () => {
    const first = await t.call('Submit', {
      DataCoding: 'Default',
      Header: { From: 'SMSOPS', ValidityPeriod: 0 },
      Message: 'Hello',
      To: ['905321234567'],
    });
    const second = await t.call('Submit', { Message: 'Hello again', To: ['905321234567'] });
    expect(first.Response).toEqual({ MessageId: 100001, Status: { Code: 200, Description: 'OK' } });
    expect(second.Response.MessageId).toBe(100002);
  });

  it('SubmitMulti sends each envelope its own text under one MessageId', async () => {
    const reply = await t.call('SubmitMulti', {
      Header: { From: 'ACME' },
      DataCoding: 'UCS2',
      Envelopes: [
        { To: '905321234567', Message: 'Sayın Ayşe, siparişiniz yolda' },
        { To: '905441234567', Message: 'Sayın Mehmet, siparişiniz yolda' },
      ],
    });
    expectOk(reply);
    const report = await t.call('QueryMulti', { MessageId: reply.Response.MessageId });
    expect(report.Response.Report.List[0]).toMatchObject({
      Id: reply.Response.MessageId,
      Message: 'Sayın Ayşe, siparişiniz yolda',
      Coding: 'UCS2',
      Sender: 'ACME',
      Count: 2,
    });
    const state = t.sim.state();
    expect(state.batches[0]!.recipients.map((r) => [r.to, r.text])).toEqual([
      ['905321234567', 'Sayın Ayşe, siparişiniz yolda'],
      ['905441234567', 'Sayın Mehmet, siparişiniz yolda'],
    ]);
  });

  it('QueryMulti reports one entry per batch with every documented field', async () => {
    const sent = await t.call('Submit', {
      Header: { From: 'INFO' },
      Message: 'Maintenance tonight',
      To: ['905321234567', '905441234567', '905551234567'],
    });
    const reply = await t.call('QueryMulti', { MessageId: sent.Response.MessageId, Range: {} });
    expectOk(reply);
    expect(reply.Response.Report.List).toEqual([
      {
        Id: 100001,
        // 10:00Z is 13:00 in Istanbul: timestamps are written in the configured zone.
        Received: '2024-05-15T13:00:00.0000000',
        Sent: '2024-05-15T13:00:00.0000000',
        State: 'Queued',
        Sender: 'INFO',
        Cost: 0.15,
        Message: 'Maintenance tonight',
        Coding: 'Default',
        DeliveredCount: 0,
        UndeliveredCount: 0,
        Count: 3,
      },
    ]);
    expect(reply.Response.Report.TotalCount).toBe(1);
  });

  it('QueryMulti without a MessageId lists the batches received in the Range, paged on request', async () => {
    for (const hour of ['10', '11', '12']) {
      clock.set(`2024-05-15T${hour}:00:00.000Z`);
      expectOk(await t.call('Submit', { Message: `at ${hour}`, To: ['905321234567'] }));
    }
    const inRange = await t.call('QueryMulti', {
      MessageId: 0,
      Range: { Begin: '2024-05-15T14:00:00', End: '2024-05-15T15:00:00.0000000' },
    });
    expect(inRange.Response.Report.List.map((r: { Id: number }) => r.Id)).toEqual([100002, 100003]);

    const all = await t.call('QueryMulti', { Range: { Begin: null, End: null } });
    expect(all.Response.Report.List).toHaveLength(3);

    const page = await t.call('QueryMulti', { MessageId: 0, Range: {}, PageIndex: 1, PageSize: 2 });
    expect(page.Response.Report.List.map((r: { Id: number }) => r.Id)).toEqual([100003]);
    expect(page.Response.Report.TotalCount).toBe(3);
  });

  it('Cancel answers with Status only', async () => {
    const sent = await t.call('Submit', { Message: 'x', To: ['905321234567'] });
    const reply = await t.call('Cancel', { MessageId: sent.Response.MessageId });
    expect(reply).toEqual({ Response: { Status: { Code: 200, Description: 'OK' } } });
  });

  it('Receive returns inbound messages with every documented field', async () => {
    await t.control('/_sim/inbound', { MSISDN: '905321234567', Text: 'stop please' });
    const reply = await t.call('Receive', { Range: {}, State: 'All', Recipient: '' });
    expectOk(reply);
    expect(reply.Response.Message.List).toEqual([
      {
        Id: 500001,
        Received: '2024-05-15T13:00:00.0000000',
        Network: 1,
        MSISDN: '905321234567',
        Recipient: '4440123',
        Keyword: 'STOP',
        Text: 'stop please',
        Price: 0,
        Xser: '',
      },
    ]);
  });

  it('GetBalanceLog returns about 60 days of seeded history in gateway timestamps', async () => {
    const reply = await t.call('GetBalanceLog', { DateRange: {} });
    expectOk(reply);
    const list = reply.Response.BalanceLogs.List as Array<Record<string, unknown>>;
    expect(list.length).toBeGreaterThan(55);
    for (const entry of list) {
      expect(Object.keys(entry).sort()).toEqual(
        ['Balance', 'Cost', 'CurrentBalance', 'Explanation', 'Id', 'Timestamp', 'Type'].sort(),
      );
      expect(entry.Timestamp).toMatch(GATEWAY_TIME);
      expect(['Credit', 'Debit']).toContain(entry.Type);
    }
    expect(list.at(-1)!.CurrentBalance).toBe(1250);
    expect(list.some((e) => e.Type === 'Credit' && String(e.Explanation).startsWith('Top-up'))).toBe(true);
  });

  it('QueryStats covers the current month and the eleven before it', async () => {
    const reply = await t.call('QueryStats');
    expectOk(reply);
    const list = reply.Response.Report.List as Array<{ Year: number; Month: number; Count: number }>;
    expect(list).toHaveLength(12);
    expect(list[0]).toMatchObject({ Year: 2023, Month: 6 });
    expect(list.at(-1)).toMatchObject({ Year: 2024, Month: 5 });
    for (const month of list) {
      expect(Object.keys(month).sort()).toEqual(['Count', 'Delivered', 'Month', 'Undelivered', 'Year']);
      expect(month.Count).toBeGreaterThan(0);
    }
  });

  it('GetSurveys and GetSurveyAnswers return the seeded surveys', async () => {
    const surveys = await t.call('GetSurveys');
    expectOk(surveys);
    expect(surveys.Response.SurveyDetail.List).toEqual([
      {
        Id: 301,
        Name: 'Customer satisfaction',
        TotalQuestion: 2,
        Subscriber: 1200,
        Answered: 222,
        Delivered: 1164,
        MessageId: 98734,
      },
      {
        Id: 302,
        Name: 'Loyalty programme opt-in',
        TotalQuestion: 1,
        Subscriber: 800,
        Answered: 264,
        Delivered: 779,
        MessageId: 99102,
      },
    ]);
    const answers = await t.call('GetSurveyAnswers', { SurveyId: 302 });
    expect(answers.Response.AnswerDetail.List).toEqual([
      { SurveyId: 302, QuestionNo: 1, Answer: 'EVET', Count: 203 },
      { SurveyId: 302, QuestionNo: 1, Answer: 'HAYIR', Count: 61 },
    ]);
  });

  it('accepts operation names case-insensitively and ignores unknown members', async () => {
    const reply = await t.call('getbalance', { Extra: { Nested: true } });
    expectOk(reply);
  });
});
