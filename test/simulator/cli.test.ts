import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

describe('npm run simulator -- --state <file>', () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  });

  async function run(args: string[]): Promise<{ url: string; stop: () => Promise<void> }> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/simulator/cli.ts', ...args], {
      cwd: root,
      env: { ...process.env, SIMULATOR_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stderr!.on('data', (chunk) => {
      output += String(chunk);
    });
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (chunk) => {
        output += String(chunk);
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match) resolve(match[1]!);
      });
      child.once('exit', () => reject(new Error(`exited before listening:\n${output}`)));
    });
    return {
      url,
      stop: async () => {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        expect((await exited)[0]).toBe(0);
      },
    };
  }

  const submit = async (url: string) => {
    const res = await fetch(`${url}/json/syncreply/Submit`, {
      method: 'POST',
      body: JSON.stringify({
        Credential: { Username: 'demo', Password: 'demo' },
        DataCoding: 'Default',
        Header: { From: 'SMSOPS' },
        Message: 'Kept',
        To: ['905321234567'],
      }),
    });
    return ((await res.json()) as { Response: { MessageId: number } }).Response.MessageId;
  };

  it('keeps the batches and counts MessageIds on after a restart; without the flag it forgets', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'smsops-sim-state-'));
    try {
      const file = join(dir, 'simulator.json');
      const first = await run(['--state', file]);
      const id = await submit(first.url);
      await first.stop();

      const second = await run(['--state', file]);
      const state = (await (await fetch(`${second.url}/_sim/state`)).json()) as { batches: { id: number }[] };
      expect(state.batches.map((b) => b.id)).toEqual([id]);
      expect(await submit(second.url)).toBe(id + 1);
      await second.stop();

      const inMemory = await run([]);
      expect(await submit(inMemory.url)).toBe(100_001);
      await inMemory.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
