import { getEventListeners } from 'node:events';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GatewayClient, GatewayRejected, GatewayUnavailable } from '../../src/gateway/index.js';
import { failure } from '../support/failure.js';
import { closedPort, type RawServer, startRawServer } from '../support/raw-server.js';

const PASSWORD = 'pa55-w0rd-never-shown';
let server: RawServer | undefined;
let client: GatewayClient | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

function clientFor(url: string, timeoutMs = 2_000) {
  client = new GatewayClient({
    baseUrl: url,
    username: 'acme',
    password: PASSWORD,
    timeoutMs,
    retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 20 },
  });
  return client;
}

async function replying(status: number, body: string, contentType = 'application/json') {
  server = await startRawServer((_req, res) => {
    res.writeHead(status, { 'content-type': contentType });
    res.end(body);
  });
  return clientFor(server.url);
}

function expectNoPassword(error: Error) {
  expect(error.message).not.toContain(PASSWORD);
  expect(inspect(error, { depth: 10 })).not.toContain(PASSWORD);
  expect(JSON.stringify(error)).not.toContain(PASSWORD);
}

describe('gateway client: replies that are not what the spec promises', () => {
  it('an HTML error page is GatewayUnavailable(not-json) with a clear message', async () => {
    const gateway = await replying(200, '<html><body>Bad Gateway</body></html>', 'text/html');
    const error = await failure(gateway.getBalance());
    expect(error).toBeInstanceOf(GatewayUnavailable);
    expect(error).toMatchObject({ reason: 'not-json', sentMaybe: true });
    expect(error.message).toBe('GetBalance: the gateway answered with an HTML page instead of JSON');
    expectNoPassword(error);
  });

  it('truncated JSON is GatewayUnavailable(not-json)', async () => {
    const gateway = await replying(200, '{"Response":{"Balance":{"Main":1');
    const error = await failure(gateway.getBalance());
    expect(error).toMatchObject({ reason: 'not-json' });
    expect(error.message).toContain('text that is not JSON');
  });

  it('a body without the Response member names what is missing', async () => {
    const gateway = await replying(200, '{"Result":{}}');
    const error = await failure(gateway.getBalance());
    expect(error).toMatchObject({ reason: 'malformed' });
    expect(error.message).toMatch(/^GetBalance: malformed reply at Response/);
  });

  it('wrong types are reported with their path', async () => {
    const gateway = await replying(
      200,
      '{"Response":{"Balance":{"Main":"lots","Limit":0},"Status":{"Code":200,"Description":"OK"}}}',
    );
    const error = await failure(gateway.getBalance());
    expect(error.message).toMatch(/malformed reply at Response\.Balance\.Main/);
  });

  it('a Submit reply with a MessageId beyond 2^53 is refused, never rounded, and may have been sent', async () => {
    const gateway = await replying(
      200,
      '{"Response":{"MessageId":9007199254740993,"Status":{"Code":200,"Description":"OK"}}}',
    );
    const error = await failure(gateway.submit({ from: 'ACME', to: ['905321234567'], message: 'hi' }));
    expect(error).toBeInstanceOf(GatewayUnavailable);
    expect(error).toMatchObject({ reason: 'malformed', sentMaybe: true });
    expect(error.message).toContain('9007199254740993 is beyond 2^53');
    // Exactly one request: a send whose reply was unreadable is never repeated.
    expect(server!.requests).toHaveLength(1);
  });

  it('accepts numeric strings, unknown fields and states, and fewer fractional digits', async () => {
    const gateway = await replying(
      200,
      JSON.stringify({
        Response: {
          Report: {
            List: [
              {
                Id: '42',
                Received: '2024-01-02T03:04:05.12',
                Sent: null,
                State: 'Teslim Edildi',
                Cost: '1.50',
                DeliveredCount: 3,
                Count: '5',
                UndeliveredCount: 1,
                Extra: { nested: true },
              },
            ],
            TotalCount: 1,
            PageIndex: 0,
          },
          Status: { Code: '200', Description: 'OK' },
          Surprise: 'ignored',
        },
      }),
    );
    const { reports, totalCount } = await gateway.queryMulti({ messageId: 42 });
    expect(totalCount).toBe(1);
    expect(reports).toEqual([
      {
        id: 42,
        received: new Date('2024-01-02T03:04:05.120Z'),
        sent: undefined,
        state: 'Teslim Edildi',
        sender: '',
        cost: 1.5,
        message: '',
        coding: '',
        deliveredCount: 3,
        undeliveredCount: 1,
        count: 5,
      },
    ]);
  });

  it('a failure Status with no other members is GatewayRejected with code and description', async () => {
    const gateway = await replying(
      200,
      '{"Response":{"Status":{"Code":401,"Description":"Invalid credentials"}}}',
    );
    const error = await failure(gateway.getBalance());
    expect(error).toBeInstanceOf(GatewayRejected);
    expect(error).toMatchObject({ code: 401, description: 'Invalid credentials', sentMaybe: false });
    expect(error.message).toBe('GetBalance rejected by the gateway: Invalid credentials (code 401)');
  });

  it('a ServiceStack error body on HTTP 400 keeps its message and says nothing was sent', async () => {
    const gateway = await replying(
      400,
      '{"ResponseStatus":{"ErrorCode":"SerializationException","Message":"bad To"}}',
    );
    const error = await failure(gateway.submit({ from: 'ACME', to: ['1'], message: 'x' }));
    expect(error).toMatchObject({ reason: 'http-status', httpStatus: 400, sentMaybe: false });
    expect(error.message).toContain('HTTP 400');
    expect(error.message).toContain('bad To');
    expect(server!.requests).toHaveLength(1);
  });
});

describe('gateway client: transport faults', () => {
  it('connection refused: reads retry, sends retry too (nothing left), and both end unavailable', async () => {
    const gateway = clientFor(`http://127.0.0.1:${await closedPort()}`);
    const read = await failure(gateway.getBalance());
    expect(read).toMatchObject({ reason: 'refused', sentMaybe: false });
    const send = await failure(gateway.submit({ from: 'ACME', to: ['905321234567'], message: 'x' }));
    expect(send).toMatchObject({ reason: 'refused', sentMaybe: false });
    expect(send.message).toMatch(/^Submit: connection refused at http:\/\/127\.0\.0\.1:\d+$/);
    expectNoPassword(send);
  });

  it('a gateway that never answers times out; a send is not repeated and may have been sent', async () => {
    server = await startRawServer(() => {
      /* never answers */
    });
    const gateway = clientFor(server.url, 300);
    const error = await failure(
      gateway.submitMulti({ from: 'ACME', envelopes: [{ to: '905321234567', message: 'x' }] }),
    );
    expect(error).toMatchObject({ reason: 'timeout', sentMaybe: true });
    expect(error.message).toBe(`SubmitMulti: no reply within 300 ms from ${server.url}`);
    expect(server.requests).toHaveLength(1);
  });

  it('a caller abort stops the call at once', async () => {
    server = await startRawServer(() => {});
    const gateway = clientFor(server.url, 10_000);
    const controller = new AbortController();
    const pending = failure(gateway.getBalance({ signal: controller.signal }));
    controller.abort();
    expect(await pending).toMatchObject({ reason: 'aborted' });
  });

  it('a caller abort ends a call still queued behind connections the gateway holds, and it is never sent', async () => {
    server = await startRawServer(() => {});
    const gateway = clientFor(server.url, 2_000);
    // Every connection (16) held by a call the gateway never answers (sends: never tried twice), so the next call
    // waits in undici's queue.
    const held = Array.from({ length: 16 }, () =>
      failure(gateway.submit({ from: 'ACME', to: ['905321234567'], message: 'x' })),
    );
    await vi.waitFor(() => expect(server!.requests).toHaveLength(16), { interval: 10 });
    const controller = new AbortController();
    const started = Date.now();
    const queued = failure(gateway.getSenders({ signal: controller.signal }));
    controller.abort();
    // Before 2026-11-27 undici only noted the abort, and the call waited until a connection freed (here 2 s).
    expect(await queued).toMatchObject({ reason: 'aborted' });
    expect(Date.now() - started).toBeLessThan(1_000);
    await Promise.all(held);
    expect(server.requests.filter((r) => r.path.includes('GetSenders'))).toEqual([]);
    expect(server.requests).toHaveLength(16);
  });

  it('with a caller signal, a gateway that never answers still times out, and the signal is left as it was', async () => {
    server = await startRawServer(() => {});
    const gateway = clientFor(server.url, 200);
    // A signal that outlives many calls, as the inbound relay's does for as long as it runs.
    const controller = new AbortController();
    for (let i = 0; i < 3; i++) {
      const error = await failure(gateway.getBalance({ signal: controller.signal }));
      expect(error).toMatchObject({ reason: 'timeout' });
    }
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('the client and its errors never show the password', async () => {
    const gateway = clientFor('http://user:urlsecret@127.0.0.1:9');
    expect(inspect(gateway, { depth: 10, showHidden: true })).not.toContain(PASSWORD);
    expect(inspect(gateway)).not.toContain('urlsecret');
    const error = await failure(gateway.getSenders());
    expectNoPassword(error);
    expect(error.message).not.toContain('urlsecret');
  });
});
