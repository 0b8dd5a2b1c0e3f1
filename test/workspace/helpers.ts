import { webApi } from '@slack/bolt';
import { afterEach } from 'vitest';
import { type FakeSlack, type FakeSlackOptions, startFakeSlack } from '../../workspace/index.js';

export const { WebClient, WebClientEvent, LogLevel, ErrorCode } = webApi;
export type WebClient = webApi.WebClient;

const started: FakeSlack[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((fake) => fake.close()));
});

/** A fake Slack closed automatically after the test. */
export async function fakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const fake = await startFakeSlack(options);
  started.push(fake);
  return fake;
}

/** WebClient logs Slack's response_metadata messages at error level; refusals are expected here. */
export const quietLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  setLevel() {},
  getLevel: () => LogLevel.ERROR,
  setName() {},
};

/**
 * A real WebClient pointed at the fake. No retries by default, so a refusal surfaces at once instead of after
 * web-api's default ten retries over half an hour.
 */
export function clientFor(fake: FakeSlack, options: webApi.WebClientOptions = {}): WebClient {
  return new WebClient(fake.botToken, {
    slackApiUrl: fake.apiUrl,
    logger: quietLogger,
    retryConfig: { retries: 0 },
    ...options,
  });
}

/** The Slack error name of a failed call (WebAPIPlatformError keeps Slack's body in `data`). */
export async function slackError(call: Promise<unknown>): Promise<{ error: string; messages: string[] }> {
  try {
    await call;
  } catch (error) {
    const e = error as {
      code?: string;
      data?: { error: string; response_metadata?: { messages?: string[] } };
    };
    if (e.code !== ErrorCode.PlatformError || !e.data) throw error;
    return { error: e.data.error, messages: e.data.response_metadata?.messages ?? [] };
  }
  throw new Error('expected the call to fail');
}

/** A clock the test moves by hand, so expiry and rate windows are tested without sleeping. */
export function manualClock(start = 1_732_270_000_000) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}
