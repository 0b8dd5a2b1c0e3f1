import { describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/simulator/server.js';
import { captureLogger } from '../support/logs.js';

describe('simulator logging', () => {
  it('logs one debug line per request and never the password', async () => {
    const { logger, lines: entries, written } = captureLogger();
    const sim = await startSimulator({
      port: 0,
      username: 'acme',
      password: 'hunter2-secret',
      logger,
    });
    try {
      for (const op of ['GetBalance', 'Submit']) {
        await fetch(`${sim.url}/json/syncreply/${op}`, {
          method: 'POST',
          body: JSON.stringify({
            Credential: { Username: 'acme', Password: 'hunter2-secret' },
            To: [],
            Message: 'x',
          }),
        });
      }
      await fetch(`${sim.url}/_sim/state`);
    } finally {
      await sim.close();
    }
    expect(entries).toHaveLength(3);
    expect(entries.map((e) => [e.level, e.operation, e.http])).toEqual([
      ['debug', 'GetBalance', 200],
      ['debug', 'Submit', 200],
      ['debug', undefined, 200],
    ]);
    expect(written.join('')).not.toContain('hunter2');
  });
});
