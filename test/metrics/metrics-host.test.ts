import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startTestBot } from '../support/bot.js';

/**
 * Linux routes all of 127.0.0.0/8 to the loopback interface: a listener on every interface answers 127.0.0.2,
 * one bound to 127.0.0.1 refuses it. That tells "this machine only" from "every interface" without a second host.
 */
async function reachable(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}

describe('the /metrics listener', () => {
  it('listens on loopback only when the bot listens on every interface (HTTP mode)', async () => {
    const { bot, close } = await startTestBot({ METRICS_PORT: '9464' }, { host: '0.0.0.0' });
    try {
      const port = bot.metrics!.port;
      expect(await reachable(`http://127.0.0.1:${port}/metrics`)).toBe(true);
      expect(await reachable(`http://127.0.0.2:${port}/metrics`)).toBe(false);
      // The Slack listener itself is still on every interface: only /metrics stays inside.
      expect(await reachable(`http://127.0.0.2:${new URL(bot.http.url).port}/healthz`)).toBe(true);
    } finally {
      await close();
    }
  });

  it('listens where METRICS_HOST says', async () => {
    const { bot, close } = await startTestBot({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' });
    try {
      expect(await reachable(`http://127.0.0.2:${bot.metrics!.port}/metrics`)).toBe(true);
    } finally {
      await close();
    }
  });

  it('METRICS_HOST defaults to 127.0.0.1 and must be an address', () => {
    expect(loadConfig({}).metricsHost).toBe('127.0.0.1');
    expect(loadConfig({ METRICS_HOST: '[::1]' }).metricsHost).toBe('::1');
    expect(() => loadConfig({ METRICS_HOST: 'http://10.0.0.5' })).toThrow(
      /METRICS_HOST: expected an address/,
    );
  });
});
