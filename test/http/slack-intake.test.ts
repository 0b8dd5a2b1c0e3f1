import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slackSignature } from '../../workspace/driver/signing.js';
import { rawRequest, within } from '../support/raw-client.js';
import { channels, type Harness, SIGNING_SECRET, startHarness, users } from '../support/slack-harness.js';

/**
 * What an outsider can make the bot do on POST /slack/events without the signing secret: as little as
 * possible, and nothing that costs memory or time. Through our real server and Bolt app on loopback.
 */

const MiB = 1024 * 1024;
/** Our body deadline, shortened for the test from 5 s. */
const BODY_DEADLINE_MS = 2_000;
/** An answer that comes at once, not after a timeout. */
const PROMPTLY_MS = 1_500;

let h: Harness;
let port: number;

beforeAll(async () => {
  h = await startHarness({ slackLimits: { bodyDeadlineMs: BODY_DEADLINE_MS } });
  port = Number(new URL(h.botUrl).port);
});
afterAll(async () => {
  await h?.close();
});

const nowSec = () => Math.floor(Date.now() / 1000);

/** Headers that look signed: a fresh timestamp and a well-formed signature no secret made. */
function forgedHeaders(timestampSec = nowSec()): string[] {
  return [
    `X-Slack-Request-Timestamp: ${timestampSec}`,
    `X-Slack-Signature: v0=${randomBytes(32).toString('hex')}`,
  ];
}

function post(headers: string[], contentLength?: number): string[] {
  return [
    'POST /slack/events HTTP/1.1',
    'Content-Type: application/x-www-form-urlencoded',
    ...(contentLength === undefined ? ['Transfer-Encoding: chunked'] : [`Content-Length: ${contentLength}`]),
    ...headers,
  ];
}

function chunk(data: Buffer | string): Buffer {
  const bytes = Buffer.from(data);
  return Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]);
}

describe('POST /slack/events before the signature check', () => {
  it('refuses a request without signature headers with 401 before its body arrives', async () => {
    // The headers promise 4 MB; the body never comes. The answer must not wait for it.
    const unsigned = rawRequest(port, post([], 4_000_000));
    expect(await within(PROMPTLY_MS, unsigned.status, 'answer')).toBe(401);
    await within(PROMPTLY_MS, unsigned.closed, 'close');
  });

  it('refuses timestamps more than 5 minutes away, past or future, before the body', async () => {
    for (const skew of [-6 * 60, 6 * 60]) {
      const stale = rawRequest(port, post(forgedHeaders(nowSec() + skew), 100_000));
      expect(await within(PROMPTLY_MS, stale.status, `answer for a skew of ${skew} s`)).toBe(401);
      await within(PROMPTLY_MS, stale.closed, 'close');
    }
  });

  it('a correctly signed request from 6 minutes in the future runs nothing', async () => {
    const body = new URLSearchParams({ command: '/sms', text: 'help', user_id: users.admin }).toString();
    const future = nowSec() + 6 * 60;
    const res = await fetch(h.botUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-slack-request-timestamp': String(future),
        'x-slack-signature': slackSignature(SIGNING_SECRET, future, body),
      },
      body,
    });
    expect(res.status).toBe(401);
  });

  it('refuses a declared body over 1 MiB with 413 before reading it', async () => {
    const big = rawRequest(port, post(forgedHeaders(), MiB + 1));
    expect(await within(PROMPTLY_MS, big.status, 'answer')).toBe(413);
    await within(PROMPTLY_MS, big.closed, 'close');
  });

  it('cuts off an undeclared (chunked) body once it passes 1 MiB, and reads no further', async () => {
    const stream = rawRequest(port, post(forgedHeaders()));
    const piece = chunk(Buffer.alloc(64 * 1024, 'a'));
    // 2 MiB then the end: the old receiver read all of it (4 MB limit) and answered 401.
    for (let sent = 0; sent < 2 * MiB; sent += 64 * 1024) stream.send(piece);
    stream.send('0\r\n\r\n');
    expect(await within(PROMPTLY_MS, stream.status, 'answer')).toBe(413);
    await within(PROMPTLY_MS, stream.closed, 'close');
  });

  it('answers 405 to other methods', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await fetch(h.botUrl, { method });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });

  it('cuts off a client that stalls in the middle of its body', async () => {
    const stalled = rawRequest(port, post(forgedHeaders(), 10_000), 'payload=%7B');
    const started = Date.now();
    expect(await within(BODY_DEADLINE_MS + PROMPTLY_MS, stalled.status, 'answer')).toBe(408);
    expect(Date.now() - started).toBeGreaterThanOrEqual(BODY_DEADLINE_MS - 100);
    await within(PROMPTLY_MS, stalled.closed, 'close');
  });

  it('bodies read at once share 8 MiB; past that a sender gets 503, while a signed command still runs', async () => {
    // Each holds almost 1 MiB and never finishes: together more than the shared 8 MiB.
    const holders = Array.from({ length: 20 }, () => {
      const holder = rawRequest(port, post(forgedHeaders(), MiB));
      holder.send(Buffer.alloc(MiB - 1, 'a'));
      return holder;
    });
    const answers = holders.map((x) =>
      within(BODY_DEADLINE_MS + PROMPTLY_MS, x.status, 'answer').catch((error: Error) => error.message),
    );
    let turnedAway = 0;
    const full = new Promise<void>((resolve) => {
      for (const answer of answers) {
        void answer.then((status) => {
          if (status === 503 && ++turnedAway === 2) resolve();
        });
      }
    });
    await within(BODY_DEADLINE_MS, full, 'two senders turned away');
    // The shared bytes are spent and the others still hold theirs: a command fits in its own allowance.
    const ack = await h.sms('help', users.admin, channels.smsOps);
    expect(ack.status).toBe(200);
    expect(ack.late).toBe(false);
    const settled = await Promise.all(answers);
    expect(settled.filter((a) => a !== 503).every((a) => a === 408)).toBe(true);
    await h.ephemeral(users.admin, /\/sms send/);
  });

  it('a signed command still acks after all of the above', async () => {
    const ack = await h.sms('help');
    expect(ack.status).toBe(200);
    expect(ack.late).toBe(false);
    await h.ephemeral(users.admin, /\/sms send/);
  });
});
