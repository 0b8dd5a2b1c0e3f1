import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STATUS_CODES } from '../../src/simulator/codes.js';
import { startTestSimulator, type TestSimulator } from './helpers.js';

describe('simulator errors', () => {
  let t: TestSimulator;

  beforeAll(async () => {
    t = await startTestSimulator({ initialBalance: 1 });
  });
  beforeEach(() => t.control('/_sim/reset'));
  afterAll(() => t.sim.close());

  async function status(operation: string, body: Record<string, unknown>) {
    return (await t.call(operation, body)).Response.Status;
  }

  describe('credentials', () => {
    it('refuses a wrong password and a wrong username with 401, on every operation', async () => {
      for (const op of ['GetBalance', 'Submit', 'QueryStats', 'GetSurveys']) {
        expect(await status(op, { Credential: { Username: 'demo', Password: 'nope' } })).toEqual({
          Code: 401,
          Description: 'Authentication failed: wrong Username or Password',
        });
        expect((await status(op, { Credential: { Username: 'other', Password: 'demo' } })).Code).toBe(401);
      }
    });

    it('refuses a missing Credential with 401 and a malformed one with 400', async () => {
      const res = await t.raw('GetBalance', '{}');
      expect(res.status).toBe(200);
      expect(((await res.json()) as { Response: { Status: unknown } }).Response.Status).toEqual({
        Code: 401,
        Description: 'Authentication failed: Credential is missing from the request body',
      });
      expect(await status('GetBalance', { Credential: 'demo:demo' })).toMatchObject({ Code: 400 });
      expect(await status('GetBalance', { Credential: { Username: 'demo', Password: 1 } })).toMatchObject({
        Code: 400,
        Description: expect.stringContaining('Credential.Username and Credential.Password must be strings'),
      });
    });

    it('does not process a send with wrong credentials', async () => {
      await status('Submit', {
        Credential: { Username: 'demo', Password: 'x' },
        Message: 'x',
        To: ['905321234567'],
      });
      expect(t.sim.state().batches).toHaveLength(0);
    });

    it('takes the credentials given at start', async () => {
      const other = await startTestSimulator({ username: 'acme', password: 's3cret' });
      try {
        expect((await other.call('GetBalance')).Response.Status.Code).toBe(401);
        const ok = await other.call('GetBalance', { Credential: { Username: 'acme', Password: 's3cret' } });
        expect(ok.Response.Status.Code).toBe(200);
      } finally {
        await other.sim.close();
      }
    });
  });

  describe('malformed requests (HTTP 200, Status 400)', () => {
    it('body not JSON', async () => {
      const res = await t.raw('GetBalance', '{"Credential": ');
      expect(res.status).toBe(200);
      const body = (await res.json()) as { Response: { Status: { Code: number; Description: string } } };
      expect(body.Response.Status.Code).toBe(400);
      expect(body.Response.Status.Description).toMatch(/^Malformed request: body is not JSON/);
    });

    it('empty body and a body that is not an object', async () => {
      const empty = (await (await t.raw('GetBalance', '')).json()) as {
        Response: { Status: { Description: string } };
      };
      expect(empty.Response.Status.Description).toBe(
        'Malformed request: body is not JSON (the body is empty)',
      );
      const array = (await (await t.raw('GetBalance', '[1]')).json()) as { Response: { Status: unknown } };
      expect(array.Response.Status).toEqual({
        Code: 400,
        Description: 'Malformed request: body must be a JSON object',
      });
    });

    it.each([
      ['Submit', { To: '905321234567', Message: 'x' }, 'To must be an array of number strings'],
      ['Submit', { To: [905321234567], Message: 'x' }, 'To[0] must be a string'],
      ['Submit', { To: ['905321234567'], Message: 5 }, 'Message must be a string'],
      [
        'Submit',
        { To: ['905321234567'], Message: 'x', Header: { ValidityPeriod: 'long' } },
        'Header.ValidityPeriod must be a whole number',
      ],
      ['SubmitMulti', { Envelopes: [{ Message: 'x' }] }, 'Envelopes[0].To is required'],
      ['QueryMulti', { MessageId: 'abc' }, 'MessageId must be a whole number'],
      ['QueryMulti', { MessageId: 1.5 }, 'MessageId must be a whole number'],
      [
        'QueryMulti',
        { Range: { Begin: 'yesterday' } },
        'Range.Begin must be a timestamp like 2024-01-02T03:04:05.1234567, got "yesterday"',
      ],
      ['QueryMulti', { Range: { Begin: '2024-02-30T00:00:00' } }, 'Range.Begin must be a timestamp'],
      ['QueryMulti', { Range: [], PageSize: 1 }, 'Range must be an object with Begin and End'],
      ['QueryMulti', { PageSize: 0 }, 'PageSize must be at least 1'],
      ['Cancel', {}, 'MessageId is required'],
      ['Receive', { State: 'Unread' }, 'State "Unread" is not supported: use All'],
      ['Receive', { Recipient: 4440123 }, 'Recipient must be a string'],
      ['GetBalanceLog', { DateRange: { End: 20240101 } }, 'DateRange.End must be a timestamp string'],
      ['GetSurveyAnswers', {}, 'SurveyId is required'],
    ])('%s %j → 400 naming the member', async (op, body, description) => {
      const s = await status(op, body);
      expect(s.Code).toBe(400);
      expect(s.Description).toContain(`Malformed request: ${description}`);
    });
  });

  describe('send validation', () => {
    const send = (body: Record<string, unknown>) =>
      status('Submit', { Message: 'Hello', To: ['905321234567'], ...body });

    it('421 unknown sender, naming the senders', async () => {
      expect(await send({ Header: { From: 'BANK' } })).toEqual({
        Code: 421,
        Description: 'Unknown sender "BANK" in Header.From: this account\'s senders are SMSOPS, ACME, INFO',
      });
    });

    it('422 malformed number, naming it and its position', async () => {
      for (const bad of ['+905321234567', '0532 123 45 67', '5321234', '9053212345671234', 'abc']) {
        const s = await send({ To: ['905321234567', bad] });
        expect(s.Code).toBe(422);
        expect(s.Description).toContain(`${JSON.stringify(bad)} at To[1]`);
      }
      const multi = await status('SubmitMulti', { Envelopes: [{ To: '+905321234567', Message: 'x' }] });
      expect(multi).toMatchObject({ Code: 422, Description: expect.stringContaining('Envelopes[0].To') });
    });

    it('423 no recipients', async () => {
      expect(await send({ To: [] })).toEqual({
        Code: 423,
        Description: 'To is empty: give at least one recipient number',
      });
      expect((await status('SubmitMulti', { Envelopes: [] })).Code).toBe(423);
      expect((await status('Submit', { Message: 'x' })).Code).toBe(423);
    });

    it('424 empty message', async () => {
      expect(await send({ Message: '   ' })).toEqual({
        Code: 424,
        Description: 'Message is empty: give the text to send',
      });
      expect((await send({ Message: undefined })).Code).toBe(424);
      const multi = await status('SubmitMulti', {
        Envelopes: [
          { To: '905321234567', Message: 'ok' },
          { To: '905321234568', Message: '' },
        ],
      });
      expect(multi).toEqual({
        Code: 424,
        Description: 'Envelopes[1].Message is empty: give the text to send',
      });
    });

    it('425 more than 10 segments; exactly 10 is accepted', async () => {
      // Concatenated GSM-7 segments carry 153 characters each.
      expect((await send({ Message: 'a'.repeat(153 * 10) })).Code).toBe(200);
      expect(await send({ Message: 'a'.repeat(153 * 10 + 1) })).toEqual({
        Code: 425,
        Description: 'Message is too long: 11 segments in Default, at most 10',
      });
    });

    it('426 unknown DataCoding; 427 text the coding cannot carry', async () => {
      expect(await send({ DataCoding: 'Latin1' })).toEqual({
        Code: 426,
        Description: 'DataCoding "Latin1" is not supported: use Default, TurkishSingleShift, UCS2',
      });
      expect(await send({ DataCoding: 'Default', Message: 'Şimdi 😀' })).toMatchObject({
        Code: 427,
        Description: expect.stringMatching(
          /^Message has characters that DataCoding Default cannot carry \("Ş", "😀"\)/,
        ),
      });
      expect((await send({ DataCoding: 'TurkishSingleShift', Message: 'Şimdi ğüzel' })).Code).toBe(200);
    });

    it('428 more than 10,000 recipients', async () => {
      const to = Array.from({ length: 10_001 }, (_, i) => String(905_000_000_000 + i));
      expect((await send({ To: to })).Code).toBe(428);
    });

    it('402 insufficient credit, and nothing is debited', async () => {
      // initialBalance 1 buys 20 segments at 0.05.
      const to = Array.from({ length: 21 }, (_, i) => String(905_000_000_000 + i));
      expect(await send({ To: to })).toEqual({
        Code: 402,
        Description:
          'Insufficient credit: this send costs 1.05 (21 recipients, 21 segments), the account has 1 available',
      });
      expect(t.sim.state().balance.main).toBe(1);
      expect((await send({ To: to.slice(0, 20) })).Code).toBe(200);
      expect(t.sim.state().balance.main).toBe(0);
    });
  });

  describe('unknown ids and final batches', () => {
    it('404 unknown MessageId on QueryMulti and Cancel, unknown SurveyId', async () => {
      expect(await status('QueryMulti', { MessageId: 999 })).toEqual({
        Code: 404,
        Description: 'Unknown MessageId 999: no batch with this id',
      });
      expect((await status('Cancel', { MessageId: 999 })).Code).toBe(404);
      expect(await status('GetSurveyAnswers', { SurveyId: 1 })).toEqual({
        Code: 404,
        Description: 'Unknown SurveyId 1: no survey with this id',
      });
    });

    it('409 cancelling a batch that is entirely final', async () => {
      const id = (await t.call('Submit', { Message: 'x', To: ['905321234567'] })).Response.MessageId;
      await t.control('/_sim/advance', {});
      expect(await status('Cancel', { MessageId: id })).toEqual({
        Code: 409,
        Description: `Batch ${id} cannot be cancelled: all 1 recipients are final already (Delivered)`,
      });
    });
  });

  describe('HTTP-level refusals', () => {
    it('unknown operation path → HTTP 404 with a Status body', async () => {
      const res = await t.raw('SendFax', '{}');
      expect(res.status).toBe(404);
      const body = (await res.json()) as { Response: { Status: { Code: number; Description: string } } };
      expect(body.Response.Status.Code).toBe(404);
      expect(body.Response.Status.Description).toContain('Unknown operation "SendFax"');
      const elsewhere = await fetch(`${t.sim.url}/nothing/here`);
      expect(elsewhere.status).toBe(404);
    });

    it('a path that cannot be decoded → 400, and the server keeps serving', async () => {
      const res = await fetch(`${t.sim.url}/json/syncreply/%E0%A4%A`, { method: 'POST', body: '{}' });
      expect(res.status).toBe(400);
      expect((await t.call('GetBalance')).Response.Status.Code).toBe(200);
    });

    it('GET on an operation → HTTP 405 with a Status body', async () => {
      const res = await fetch(`${t.sim.url}/json/syncreply/GetBalance`);
      expect(res.status).toBe(405);
      expect(((await res.json()) as { Response: { Status: { Code: number } } }).Response.Status.Code).toBe(
        405,
      );
    });

    it('a body over 5 MB → HTTP 413, not processed', async () => {
      const res = await t.raw(
        'Submit',
        JSON.stringify({ Message: 'x'.repeat(5 * 1024 * 1024), To: ['905321234567'] }),
      );
      expect(res.status).toBe(413);
      expect(((await res.json()) as { Response: { Status: { Code: number } } }).Response.Status.Code).toBe(
        413,
      );
      expect(t.sim.state().batches).toHaveLength(0);
    });
  });

  it('the exported table holds every code the tests above met', () => {
    const codes = Object.values(STATUS_CODES).map((c) => c.code);
    for (const code of [
      200, 400, 401, 402, 404, 405, 409, 413, 421, 422, 423, 424, 425, 426, 427, 428, 500,
    ]) {
      expect(codes).toContain(code);
    }
    expect(new Set(codes).size).toBe(codes.length);
  });
});
