import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/log.js';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logger: createLogger({ destination }) };
}

describe('logs', () => {
  it('are JSON lines; an error shows its message and code, never its stack trace', () => {
    const { lines, logger } = capture();
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
    const { lines, logger } = capture();
    logger.warn(
      { Credential: { Username: 'acme', Password: 'pw-1' }, request: { password: 'pw-2', token: 'xoxb-3' } },
      'careless',
    );
    for (const secret of ['pw-1', 'pw-2', 'xoxb-3']) expect(lines[0]).not.toContain(secret);
  });
});
