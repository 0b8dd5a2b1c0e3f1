import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GatewayClient } from '../../src/gateway/index.js';
import type { SimulatorStateSnapshot } from '../../src/simulator/server.js';
import {
  CREDENTIAL,
  expectOk,
  manualClock,
  type Reply,
  startTestSimulator,
  type TestSimulator,
} from './helpers.js';

/** A request with exactly the headers given (fetch will not send a Host of our choosing). */
function rawRequest(
  url: string,
  options: { method: string; headers: Record<string, string>; body?: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method, headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('simulator control endpoints and faults', () => {
  const clock = manualClock();
  let t: TestSimulator;

  beforeEach(async () => {
    t = await startTestSimulator({ initialBalance: 100, now: clock.now });
  });
  afterEach(() => t.sim.close());

  const fault = (body: Record<string, unknown>) =>
    t.control<{ ok: boolean; error?: string }>('/_sim/fault', body);
  const submitBody = JSON.stringify({ Credential: CREDENTIAL, Message: 'hello', To: ['905321234567'] });

  describe('faults', () => {
    it('timeout: the Submit IS processed (batch created, balance debited) while the reply is held', async () => {
      await fault({ operation: 'Submit', kind: 'timeout' });
      const abort = new AbortController();
      const pending = t.raw('Submit', submitBody, { signal: abort.signal });
      await vi.waitFor(() => expect(t.sim.state().batches).toHaveLength(1));
      abort.abort();
      await expect(pending).rejects.toThrow();

      const state = t.sim.state();
      expect(state.batches[0]).toMatchObject({ id: 100001, state: 'Queued', count: 1 });
      expect(state.balance.main).toBe(99.95);
      expect(state.faults).toEqual([]);
      expect(state.callCounts.Submit).toBe(1);
      // The next call is normal again.
      expect((await t.call('Submit', { Message: 'hello', To: ['905321234567'] })).Response.MessageId).toBe(
        100002,
      );
    });

    it('timeout with a short delayMs answers late with the real reply', async () => {
      await fault({ operation: 'Submit', kind: 'timeout', delayMs: 100 });
      const started = performance.now();
      const res = await t.raw('Submit', submitBody);
      expect(performance.now() - started).toBeGreaterThanOrEqual(90);
      expect(await res.json()).toEqual({
        Response: { MessageId: 100001, Status: { Code: 200, Description: 'OK' } },
      });
    });

    it('trickle: the Submit IS processed, headers come at once and the body drips in, so no per-read timeout fires', async () => {
      await fault({ operation: 'Submit', kind: 'trickle', delayMs: 1_200 });
      // Per-read timeouts of 400 ms, three times shorter than the whole reply takes.
      const client = new GatewayClient({
        baseUrl: t.sim.url,
        username: 'demo',
        password: 'demo',
        timeoutMs: 400,
      });
      try {
        const started = performance.now();
        const reply = client.submit({ from: 'SMSOPS', to: ['905321234567'], message: 'hello' });
        await vi.waitFor(() => expect(t.sim.state().batches).toHaveLength(1));
        expect(await reply).toEqual({ messageId: 100001 });
        expect(performance.now() - started).toBeGreaterThanOrEqual(1_100);
      } finally {
        await client.close();
      }
      expect(t.sim.state().faults).toEqual([]);

      await fault({ operation: 'Submit', kind: 'trickle', delayMs: 1_200 });
      const res = await t.raw('Submit', submitBody);
      expect(res.status).toBe(200);
      const chunks: number[] = [];
      for await (const chunk of res.body!) chunks.push(chunk.length);
      expect(chunks.length).toBeGreaterThan(2);
    });

    it('http500: HTTP 500 with an HTML body, not processed', async () => {
      await fault({ operation: 'Submit', kind: 'http500' });
      const res = await t.raw('Submit', submitBody);
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toContain('<html>');
      expect(t.sim.state().batches).toEqual([]);
      expect(t.sim.state().callCounts.Submit).toBe(1);
    });

    it('notjson: HTTP 200 with an HTML body, not processed', async () => {
      await fault({ operation: 'Submit', kind: 'notjson' });
      const res = await t.raw('Submit', submitBody);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      await expect(res.clone().json()).rejects.toThrow();
      expect(t.sim.state().batches).toEqual([]);
    });

    it('status: HTTP 200 with the given Status code (500 by default), not processed', async () => {
      await fault({ operation: 'Submit', kind: 'status', code: 503 });
      await fault({ operation: 'Submit', kind: 'status' });
      expect((await t.call('Submit', { Message: 'x', To: ['905321234567'] })).Response).toEqual({
        Status: { Code: 503, Description: 'Simulated fault' },
      });
      expect((await t.call('Submit', { Message: 'x', To: ['905321234567'] })).Response.Status.Code).toBe(500);
      expect(t.sim.state().batches).toEqual([]);
      expectOk(await t.call('Submit', { Message: 'x', To: ['905321234567'] }));
    });

    it('times counts matching calls; other operations pass untouched', async () => {
      await fault({ operation: 'GetBalance', kind: 'status', times: 2 });
      expectOk(await t.call('GetSenders'));
      expect((await t.call('GetBalance')).Response.Status.Code).toBe(500);
      expect(t.sim.state().faults).toEqual([{ operation: 'GetBalance', kind: 'status', times: 1 }]);
      expect((await t.call('GetBalance')).Response.Status.Code).toBe(500);
      expectOk(await t.call('GetBalance'));
    });

    it('a fault without an operation hits the next call of any operation', async () => {
      await fault({ kind: 'http500' });
      const res = await t.raw('GetSurveys', JSON.stringify({ Credential: CREDENTIAL }));
      expect(res.status).toBe(500);
      expectOk(await t.call('GetSurveys'));
    });

    it('delayMs on another kind makes a slow answer', async () => {
      await fault({ operation: 'GetBalance', kind: 'status', code: 502, delayMs: 100 });
      const started = performance.now();
      expect((await t.call('GetBalance')).Response.Status.Code).toBe(502);
      expect(performance.now() - started).toBeGreaterThanOrEqual(90);
    });

    it('rejects a malformed fault with a clear 400', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{}, 'kind is required'],
        [{ kind: 'explode' }, 'kind must be one of timeout, http500, notjson, status'],
        [{ kind: 'status', operation: 'SendFax' }, 'operation must be one of Submit, SubmitMulti'],
        [{ kind: 'status', times: 0 }, 'times must be from 1 to 1000'],
        [{ kind: 'status', times: 1001 }, 'times must be from 1 to 1000'],
        [{ kind: 'status', times: 1.5 }, 'times must be a whole number'],
        [{ kind: 'status', code: 'x' }, 'code must be a whole number'],
        [{ kind: 'timeout', delayMs: -1 }, 'delayMs must be from 0 to 600000'],
        [{ kind: 'timeout', delayMs: 600_001 }, 'delayMs must be from 0 to 600000'],
      ];
      for (const [body, error] of cases) {
        const res = await fault(body);
        expect(res.status).toBe(400);
        expect(res.body.error).toContain(error);
      }
      expect(t.sim.state().faults).toEqual([]);
    });

    it('echo: each faulty reply quotes the request body, Credential and all; not with timeout', async () => {
      const secretBody = JSON.stringify({ Credential: CREDENTIAL, Message: 'hello', To: ['905321234567'] });
      await fault({ operation: 'Submit', kind: 'http500', echo: true });
      const http500 = await t.raw('Submit', secretBody);
      expect(http500.status).toBe(500);
      const serviceStack = (await http500.json()) as {
        ResponseStatus: { ErrorCode: string; Message: string };
      };
      expect(serviceStack.ResponseStatus.Message).toBe(
        `Internal Server Error: could not process request ${secretBody}`,
      );
      await fault({ operation: 'Submit', kind: 'status', code: 421, echo: true });
      expect(((await (await t.raw('Submit', secretBody)).json()) as Reply).Response.Status).toEqual({
        Code: 421,
        Description: `Simulated fault: could not process request ${secretBody}`,
      });
      await fault({ operation: 'Submit', kind: 'notjson', echo: true });
      expect(await (await t.raw('Submit', secretBody)).text()).toContain('"Password":"demo"');
      expect(t.sim.state().batches).toEqual([]);
      const refused = await fault({ kind: 'timeout', echo: true });
      expect(refused).toEqual({
        status: 400,
        body: { error: 'echo applies to http500, notjson and status faults, not timeout' },
      });
    });

    it('close() ends held replies promptly', async () => {
      const other = await startTestSimulator();
      await other.control('/_sim/fault', { kind: 'timeout', delayMs: 600_000 });
      const pending = other.raw('GetBalance', JSON.stringify({ Credential: CREDENTIAL }));
      await vi.waitFor(() => expect(other.sim.state().callCounts.GetBalance).toBe(1));
      const started = performance.now();
      await other.sim.close();
      expect(performance.now() - started).toBeLessThan(2000);
      await expect(pending).rejects.toThrow();
    });
  });

  describe('advance validation', () => {
    it('rejects shares outside 0..1 and bodies that are not JSON', async () => {
      const bad = await t.control<{ error: string }>('/_sim/advance', { deliver: 1.5 });
      expect(bad).toEqual({ status: 400, body: { error: 'deliver must be from 0 to 1' } });
      const res = await fetch(`${t.sim.url}/_sim/advance`, { method: 'POST', body: '{nope' });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(/^body is not JSON/);
    });

    it('takes an empty body as deliver 1, share 1', async () => {
      expectOk(await t.call('Submit', { Message: 'x', To: ['905321234567', '905321234568'] }));
      const res = await fetch(`${t.sim.url}/_sim/advance`, { method: 'POST' });
      expect(await res.json()).toMatchObject({ delivered: 2, undelivered: 0 });
    });
  });

  describe('state and reset', () => {
    it('GET /_sim/state shows balances, batches with recipients, inbound, surveys, faults and call counts', async () => {
      expectOk(await t.call('Submit', { Message: 'x', To: ['905321234567', '905441234567'] }));
      await t.control('/_sim/advance', { share: 0.5 });
      await t.control('/_sim/inbound', { MSISDN: '905321234567', Text: 'KATIL EVET' });
      await fault({ operation: 'Cancel', kind: 'status', code: 418 });
      await t.call('GetBalance', { Credential: { Username: 'demo', Password: 'wrong' } });

      const { status, body } = await t.control<SimulatorStateSnapshot>('/_sim/state');
      expect(status).toBe(200);
      expect(body).toEqual(t.sim.state());
      expect(body.balance).toEqual({ main: 99.9, limit: 0 });
      expect(body.senders.map((s) => s.name)).toEqual(['SMSOPS', 'ACME', 'INFO']);
      expect(body.batches).toHaveLength(1);
      expect(body.batches[0]).toMatchObject({
        id: 100001,
        operation: 'Submit',
        sender: 'SMSOPS',
        coding: 'Default',
        validityMinutes: 1440,
        state: 'Sending',
        cost: 0.1,
        count: 2,
        delivered: 1,
        queued: 1,
      });
      expect(body.batches[0]!.recipients.map((r) => [r.to, r.state])).toEqual([
        ['905321234567', 'Delivered'],
        ['905441234567', 'Queued'],
      ]);
      expect(body.inbound).toMatchObject([{ id: 500001, msisdn: '905321234567', keyword: 'KATIL' }]);
      expect(body.surveys.find((s) => s.id === 302)!.answered).toBe(265);
      expect(body.faults).toEqual([{ operation: 'Cancel', kind: 'status', code: 418, times: 1 }]);
      expect(body.callCounts).toMatchObject({ Submit: 1, GetBalance: 1, Cancel: 0, Receive: 0 });
      expect(Object.keys(body.callCounts)).toHaveLength(11);
    });

    it('POST /_sim/reset returns to the seeded state and clears faults and counts', async () => {
      const seeded = t.sim.state();
      expectOk(await t.call('Submit', { Message: 'x', To: ['905321234567'] }));
      await t.control('/_sim/inbound', { MSISDN: '905321234567', Text: 'ANKET 5' });
      await fault({ kind: 'http500', times: 3 });

      const res = await t.control('/_sim/reset');
      expect(res).toEqual({ status: 200, body: { ok: true } });
      const after = t.sim.state();
      expect(after.balance).toEqual(seeded.balance);
      expect(after.batches).toEqual([]);
      expect(after.inbound).toEqual([]);
      expect(after.faults).toEqual([]);
      expect(after.surveys).toEqual(seeded.surveys);
      expect(Object.values(after.callCounts).every((n) => n === 0)).toBe(true);
      expect(after.balanceLog.length).toBe(seeded.balanceLog.length);
      expect((await t.call('Submit', { Message: 'x', To: ['905321234567'] })).Response.MessageId).toBe(
        100001,
      );
    });

    it('refuses other web sites and rebound host names (403), and nothing changes', async () => {
      const port = new URL(t.sim.url).port;
      const attempts: Array<{ path: string; headers: Record<string, string>; body?: string }> = [
        // A form on another site, posted by a browser on this machine.
        {
          path: '/_sim/inbound',
          headers: {
            origin: 'http://evil.example',
            'sec-fetch-site': 'cross-site',
            'content-type': 'text/plain',
          },
          body: JSON.stringify({ MSISDN: '905321234567', Text: 'pwned' }),
        },
        { path: '/_sim/fault', headers: { 'sec-fetch-site': 'cross-site' }, body: '{"kind":"http500"}' },
        { path: '/_sim/fault', headers: { 'sec-fetch-site': 'same-site' }, body: '{"kind":"http500"}' },
        { path: '/_sim/reset', headers: { origin: 'null' } },
        { path: '/_sim/advance', headers: { origin: `http://localhost:${Number(port) + 1}` } },
        // A page of evil.example whose name now resolves to 127.0.0.1 (DNS rebinding).
        { path: '/_sim/fault', headers: { host: `evil.example:${port}` }, body: '{"kind":"http500"}' },
        { path: '/_sim/state', headers: { host: `evil.example:${port}` } },
      ];
      expectOk(await t.call('Submit', { Message: 'x', To: ['905321234567'] }));
      const before = t.sim.state();
      for (const attempt of attempts) {
        const res = await rawRequest(`${t.sim.url}${attempt.path}`, {
          method: attempt.path === '/_sim/state' ? 'GET' : 'POST',
          headers: attempt.headers,
          body: attempt.body,
        });
        expect(res.status, `${attempt.path} ${JSON.stringify(attempt.headers)}`).toBe(403);
        expect(JSON.parse(res.body).error).toMatch(/refused|only http:\/\/localhost/);
      }
      expect(t.sim.state()).toEqual(before);
      // Programs (no Origin) and the simulator's own pages are answered, under localhost as well.
      const own = await rawRequest(`${t.sim.url}/_sim/state`, {
        method: 'GET',
        headers: {
          host: `localhost:${port}`,
          origin: `http://localhost:${port}`,
          'sec-fetch-site': 'same-origin',
        },
      });
      expect(own.status).toBe(200);
    });

    it('answers unknown control paths with 404 and wrong methods with 405', async () => {
      expect((await fetch(`${t.sim.url}/_sim/explode`, { method: 'POST' })).status).toBe(404);
      expect((await fetch(`${t.sim.url}/_sim/inbound`)).status).toBe(405);
      expect((await fetch(`${t.sim.url}/_sim/state`, { method: 'POST' })).status).toBe(405);
    });
  });
});
