import { describe, expect, it } from 'vitest';
import { registerSecret } from '../src/secrets.js';
import { captureLogger } from './support/logs.js';

describe('logs', () => {
  it('are JSON lines; an error shows its message and code, never its stack trace', () => {
    const { written: lines, logger } = captureLogger();
    logger.error({ err: Object.assign(new Error('gateway down'), { code: 'ECONNREFUSED' }) }, 'poll failed');
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({
      level: 'error',
      msg: 'poll failed',
      err: { message: 'gateway down', code: 'ECONNREFUSED' },
    });
    expect(lines[0]).not.toContain('at ');
    expect(lines[0]).not.toMatch(/\.ts:\d+/);
  });

  it('mask passwords, tokens and credentials wherever they sit', () => {
    const { written: lines, logger } = captureLogger();
    logger.warn(
      { Credential: { Username: 'acme', Password: 'pw-1' }, request: { password: 'pw-2', token: 'xoxb-3' } },
      'careless',
    );
    for (const secret of ['pw-1', 'pw-2', 'xoxb-3']) expect(lines[0]).not.toContain(secret);
  });

  it('mask every registered secret wherever it appears: inside prose, an error text, a quoted request', () => {
    const password = 'Pw"log\\9#quoted';
    const token = 'xoxb-log-test-0a1b2c';
    registerSecret(password, token, 'signing0123secret');
    const quoted = JSON.stringify({ Credential: { Username: 'acme', Password: password } });
    for (const readable of [false, true]) {
      const { written: lines, logger } = captureLogger({ readable });
      logger.warn({ err: new Error(`HTTP 500: could not process request ${quoted}`) }, 'gateway failed');
      logger.info(`token ${token} and signing0123secret in a message`);
      logger.child({ component: 'x' }).error({ reason: { nested: [quoted] } }, 'deep');
      const all = lines.join('');
      expect(lines).toHaveLength(3);
      for (const spelling of [password, JSON.stringify(password).slice(1, -1), token, 'signing0123secret']) {
        expect(all).not.toContain(spelling);
      }
      expect(all).toContain('[redacted]');
    }
  });
});
