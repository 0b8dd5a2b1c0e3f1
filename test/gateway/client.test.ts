import { inspect } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GatewayClient, GatewayRejected, GatewayUnavailable } from '../../src/gateway/index.js';
import { failure } from '../support/failure.js';
import { captureLogger } from '../support/logs.js';
import { type SimulatorControl, startTestSimulator } from '../support/simulator.js';

const PASSWORD = 's1mulat0r-pass';
let control: SimulatorControl;
let close: () => Promise<void>;
let gateway: GatewayClient;
let url: string;

beforeAll(async () => {
  const started = await startTestSimulator({
    username: 'acme',
    password: PASSWORD,
    timeZone: 'Europe/Istanbul',
  });
  control = started.control;
  close = started.sim.close;
  url = started.sim.url;
  gateway = new GatewayClient({
    baseUrl: url,
    username: 'acme',
    password: PASSWORD,
    timeZone: 'Europe/Istanbul',
    timeoutMs: 1_000,
    retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 20 },
  });
});

afterAll(async () => {
  await gateway.close();
  await close();
});

beforeEach(async () => {
  await control.reset();
});

describe('gateway client against the simulator: every operation', () => {
  it('GetSenders lists the sender names with the default marked', async () => {
    const senders = await gateway.getSenders();
    expect(senders.map((s) => s.name)).toEqual(['SMSOPS', 'ACME', 'INFO']);
    expect(senders.filter((s) => s.isDefault).map((s) => s.name)).toEqual(['SMSOPS']);
  });

  it('Submit debits recipients x segments, shows in the balance log, and QueryMulti reports it', async () => {
    const before = await gateway.getBalance();
    const { messageId } = await gateway.submit({
      from: 'ACME',
      to: ['905321234567', '905331234567'],
      message: 'x'.repeat(161),
      validityMinutes: 60,
    });
    expect(Number.isSafeInteger(messageId)).toBe(true);
    const after = await gateway.getBalance();
    // 161 GSM characters are 2 segments; 2 recipients; 0.05 per segment.
    expect(before.main - after.main).toBeCloseTo(0.2, 6);
    expect(after.usable).toBeCloseTo(after.main + after.limit, 6);

    const { reports } = await gateway.queryMulti({ messageId });
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({
      id: messageId,
      state: 'Queued',
      sender: 'ACME',
      count: 2,
      deliveredCount: 0,
    });
    expect(reports[0]!.received).toBeInstanceOf(Date);
    expect(Math.abs(reports[0]!.received!.getTime() - Date.now())).toBeLessThan(60_000);

    const log = await gateway.getBalanceLog({ begin: new Date(Date.now() - 60_000) });
    const debit = log.find((e) => e.explanation.includes(String(messageId)));
    expect(debit).toMatchObject({ type: 'Debit' });
    expect(debit!.amount).toBeCloseTo(0.2, 6);
    expect(debit!.balanceAfter).toBeCloseTo(after.main, 6);
    // The log's times are in the gateway's zone (Istanbul, UTC+3): read in another, the debit would be hours off.
    expect(Math.abs(debit!.timestamp!.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('SubmitMulti sends each envelope its own text and delivery counts follow /_sim/advance', async () => {
    const { messageId } = await gateway.submitMulti({
      from: 'SMSOPS',
      envelopes: [
        { to: '905321234567', message: 'Merhaba Ayşe' },
        { to: '905331234567', message: 'Merhaba Ali' },
        { to: '905341234567', message: 'Merhaba Can' },
        { to: '905351234567', message: 'Merhaba Efe' },
      ],
      dataCoding: 'TurkishSingleShift',
    });
    await control.advance({ deliver: 0.5 });
    const { reports } = await gateway.queryMulti({ messageId });
    expect(reports[0]).toMatchObject({
      deliveredCount: 2,
      undeliveredCount: 2,
      count: 4,
      state: 'PartiallyDelivered',
    });
  });

  it('Cancel stops what is not delivered and refunds it; a second Cancel is rejected', async () => {
    const { messageId } = await gateway.submit({
      from: 'INFO',
      to: ['905321234567', '905331234567'],
      message: 'hi',
    });
    const charged = await gateway.getBalance();
    await gateway.cancel(messageId);
    const refunded = await gateway.getBalance();
    expect(refunded.main - charged.main).toBeCloseTo(0.1, 6);
    const { reports } = await gateway.queryMulti({ messageId });
    expect(reports[0]!.state).toBe('Cancelled');
    const again = await failure(gateway.cancel(messageId));
    expect(again).toBeInstanceOf(GatewayRejected);
    expect(again).toMatchObject({ code: 409, sentMaybe: false });
  });

  it('Receive returns injected inbound SMS, filtered by Range and Recipient', async () => {
    const since = new Date(Date.now() - 1_000);
    const { ids } = await control.inbound([
      { MSISDN: '905321234567', Text: 'Hello there' },
      { MSISDN: '905331234567', Text: 'STOP', Recipient: 'ACME' },
    ]);
    const all = await gateway.receive({ range: { begin: since } });
    expect(all.map((m) => m.id)).toEqual(ids);
    expect(all[0]).toMatchObject({ msisdn: '905321234567', text: 'Hello there', keyword: 'HELLO' });
    expect(all[0]!.received).toBeInstanceOf(Date);
    const toAcme = await gateway.receive({ range: { begin: since }, recipient: 'ACME' });
    expect(toAcme.map((m) => m.text)).toEqual(['STOP']);
    const future = await gateway.receive({ range: { begin: new Date(Date.now() + 3_600_000) } });
    expect(future).toEqual([]);
  });

  it('QueryStats gives twelve months with consistent counts', async () => {
    const stats = await gateway.queryStats();
    expect(stats).toHaveLength(12);
    for (const month of stats) {
      expect(month.month).toBeGreaterThanOrEqual(1);
      expect(month.month).toBeLessThanOrEqual(12);
      expect(month.delivered + month.undelivered).toBeLessThanOrEqual(month.count);
    }
  });

  it('GetSurveys and GetSurveyAnswers: answers grow with a matching inbound reply', async () => {
    const surveys = await gateway.getSurveys();
    expect(surveys.length).toBeGreaterThan(0);
    const survey = surveys.find((s) => s.name === 'Loyalty programme opt-in')!;
    const countYes = async () =>
      (await gateway.getSurveyAnswers(survey.id)).find((a) => a.answer === 'EVET' && a.questionNo === 1)
        ?.count ?? 0;
    const before = await countYes();
    await control.inbound({ MSISDN: '905321234567', Text: 'KATIL evet' });
    expect(await countYes()).toBe(before + 1);
    const unknown = await failure(gateway.getSurveyAnswers(999_999));
    expect(unknown).toMatchObject({ name: 'GatewayRejected', code: 404 });
  });
});

describe('gateway client against the simulator: rejections', () => {
  it.each([
    ['an unknown sender', { from: 'NOPE', to: ['905321234567'], message: 'x' }, 421],
    ['an empty To', { from: 'ACME', to: [], message: 'x' }, 423],
    ['a malformed number', { from: 'ACME', to: ['+90 532'], message: 'x' }, 422],
    ['an empty message', { from: 'ACME', to: ['905321234567'], message: '  ' }, 424],
    ['a text too long', { from: 'ACME', to: ['905321234567'], message: 'x'.repeat(2000) }, 425],
  ])('%s is GatewayRejected with the gateway description', async (_name, request, code) => {
    const error = await failure(gateway.submit(request));
    expect(error).toBeInstanceOf(GatewayRejected);
    expect(error).toMatchObject({ code, sentMaybe: false });
    expect((error as GatewayRejected).description.length).toBeGreaterThan(5);
  });

  it('insufficient credit is rejected and nothing is debited', async () => {
    const to = Array.from({ length: 10_000 }, (_, i) => `90532${String(1_000_000 + i)}`);
    const before = await gateway.getBalance();
    const error = await failure(gateway.submit({ from: 'ACME', to, message: 'x'.repeat(1000) }));
    expect(error).toMatchObject({ name: 'GatewayRejected', code: 402 });
    expect((await gateway.getBalance()).main).toBe(before.main);
  });

  it('an unknown MessageId is rejected; one beyond 2^53 is refused before any call', async () => {
    expect(await failure(gateway.queryMulti({ messageId: 424242 }))).toMatchObject({ code: 404 });
    const calls = await control.callCount('QueryMulti');
    const huge = await failure(gateway.queryMulti({ messageId: 2 ** 53 + 2 }));
    expect(huge.message).toMatch(/MessageId must be a positive whole number up to 2\^53/);
    expect(await control.callCount('QueryMulti')).toBe(calls);
  });

  it('wrong credentials are GatewayRejected, and the password appears nowhere', async () => {
    const wrong = new GatewayClient({
      baseUrl: url,
      username: 'acme',
      password: 'wrong-Pa55',
      timeoutMs: 1_000,
    });
    const error = await failure(wrong.getBalance());
    await wrong.close();
    expect(error).toMatchObject({ name: 'GatewayRejected', code: 401 });
    for (const text of [
      error.message,
      inspect(error, { depth: 10 }),
      JSON.stringify(error),
      inspect(wrong),
    ]) {
      expect(text).not.toContain('wrong-Pa55');
    }
  });
});

describe('gateway client: error replies that quote the request, credential included', () => {
  it.each([
    ['an HTTP 500 with a ServiceStack error body', 'http500', 'GatewayUnavailable'],
    ['a refusal whose Status description quotes it', 'status', 'GatewayRejected'],
    ['an HTML page that quotes it', 'notjson', 'GatewayUnavailable'],
  ] as const)('%s: neither the username nor the password comes through', async (_name, kind, type) => {
    const logged = captureLogger();
    await control.fault({ operation: 'Submit', kind, echo: true });
    const error = await failure(gateway.submit({ from: 'SMSOPS', to: ['905321234567'], message: 'Hello' }));
    expect(error.name).toBe(type);
    // What callers do with a failure: show its message, log it, keep its description.
    logged.logger.warn({ err: error, reason: error.message }, 'send failed');
    const texts = [
      error.message,
      String((error as { description?: string }).description ?? ''),
      inspect(error, { depth: 10 }),
      JSON.stringify(error),
      logged.written.join(''),
    ];
    for (const text of texts) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain('"acme"');
    }
    if (kind !== 'notjson') expect(error.message).toMatch(/could not process request .*\[redacted\]/);
  });

  it('util.inspect and JSON of the client show where it points, never its credential', () => {
    for (const text of [
      inspect(gateway, { depth: 10 }),
      JSON.stringify(gateway),
      JSON.stringify({ gateway }),
    ]) {
      expect(text).toContain(url);
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain('acme');
    }
  });
});

describe('gateway client against the simulator: faults, retries and sends that are never repeated', () => {
  it('a read retries through an HTTP 500 and a non-JSON page and succeeds', async () => {
    await control.fault({ operation: 'GetBalance', kind: 'http500' });
    await control.fault({ operation: 'GetBalance', kind: 'notjson' });
    const balance = await gateway.getBalance();
    expect(balance.main).toBeGreaterThan(0);
    expect(await control.callCount('GetBalance')).toBe(3);
  });

  it('a read gives up after the bounded number of attempts', async () => {
    await control.fault({ operation: 'GetSenders', kind: 'http500', times: 10 });
    const error = await failure(gateway.getSenders());
    expect(error).toBeInstanceOf(GatewayUnavailable);
    expect(error).toMatchObject({ reason: 'http-status', httpStatus: 500 });
    expect(await control.callCount('GetSenders')).toBe(3);
  });

  it('a read times out, retries, and the retry succeeds', async () => {
    await control.fault({ operation: 'QueryStats', kind: 'timeout', delayMs: 5_000 });
    expect(await gateway.queryStats()).toHaveLength(12);
    expect(await control.callCount('QueryStats')).toBe(2);
  });

  it('a Submit whose reply times out is not repeated: one batch, sentMaybe true', async () => {
    await control.fault({ operation: 'Submit', kind: 'timeout', delayMs: 5_000 });
    const error = await failure(gateway.submit({ from: 'ACME', to: ['905321234567'], message: 'once only' }));
    expect(error).toMatchObject({ name: 'GatewayUnavailable', reason: 'timeout', sentMaybe: true });
    expect(await control.callCount('Submit')).toBe(1);
    // The gateway did act on it: the batch exists, which is why the caller must reconcile, not resend.
    const { reports } = await gateway.queryMulti({
      messageId: 0,
      range: { begin: new Date(Date.now() - 60_000) },
    });
    expect(reports.map((r) => r.message)).toEqual(['once only']);
  });

  it.each(['http500', 'notjson'])('a SubmitMulti answered with %s is not repeated', async (kind) => {
    await control.fault({ operation: 'SubmitMulti', kind });
    const error = await failure(
      gateway.submitMulti({ from: 'ACME', envelopes: [{ to: '905321234567', message: 'x' }] }),
    );
    expect(error).toMatchObject({ name: 'GatewayUnavailable', sentMaybe: true });
    expect(await control.callCount('SubmitMulti')).toBe(1);
  });

  it('a Cancel answered with HTTP 500 is not repeated', async () => {
    const { messageId } = await gateway.submit({ from: 'ACME', to: ['905321234567'], message: 'x' });
    await control.fault({ operation: 'Cancel', kind: 'http500' });
    expect(await failure(gateway.cancel(messageId))).toMatchObject({ sentMaybe: true });
    expect(await control.callCount('Cancel')).toBe(1);
  });

  it('a Status fault is GatewayRejected and not retried, even for reads', async () => {
    await control.fault({ operation: 'GetBalance', kind: 'status', code: 503 });
    const error = await failure(gateway.getBalance());
    expect(error).toMatchObject({ name: 'GatewayRejected', code: 503, description: 'Simulated fault' });
    expect(await control.callCount('GetBalance')).toBe(1);
  });
});
