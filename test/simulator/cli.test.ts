import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('npm run simulator (cli.ts)', () => {
  let child: ChildProcess | undefined;

  afterEach(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'prints its URL, serves, and stops cleanly on %s',
    async (signal) => {
      child = spawn(process.execPath, ['--import', 'tsx', 'src/simulator/cli.ts'], {
        cwd: root,
        env: {
          ...process.env,
          SIMULATOR_PORT: '0',
          SIMULATOR_USERNAME: 'ops',
          SIMULATOR_PASSWORD: 'p4ss-word',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stderr!.on('data', (chunk) => {
        output += String(chunk);
      });
      const url = await new Promise<string>((resolve, reject) => {
        child!.stdout!.on('data', (chunk) => {
          output += String(chunk);
          const match = /listening on (http:\/\/\S+)/.exec(output);
          if (match) resolve(match[1]!);
        });
        child!.once('exit', () => reject(new Error(`exited before listening:\n${output}`)));
      });

      const res = await fetch(`${url}/json/syncreply/GetBalance`, {
        method: 'POST',
        body: JSON.stringify({ Credential: { Username: 'ops', Password: 'p4ss-word' } }),
      });
      expect(((await res.json()) as { Response: { Status: { Code: number } } }).Response.Status.Code).toBe(
        200,
      );

      const exited = once(child, 'exit');
      child.kill(signal);
      const [code] = await exited;
      expect(code).toBe(0);
      expect(output).toContain('username "ops"');
      expect(output).not.toContain('p4ss-word');
    },
  );
});
