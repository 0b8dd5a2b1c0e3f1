import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { startSimulator } from '../../src/simulator/server.js';

describe('simulator logging', () => {
  it('logs one debug line per request and never the password', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const sim = await startSimulator({
      port: 0,
      username: 'acme',
      password: 'hunter2-secret',
      logger: createLogger({ level: 'debug', destination }),
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
    expect(lines).toHaveLength(3);
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.map((e) => [e.level, e.operation, e.http])).toEqual([
      ['debug', 'GetBalance', 200],
      ['debug', 'Submit', 200],
      ['debug', undefined, 200],
    ]);
    expect(lines.join('\n')).not.toContain('hunter2');
  });
});
