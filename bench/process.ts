// Child processes for the benches: the real bot, the simulator on its own, a bare floor server.
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';

export interface Spawned {
  child: ChildProcess;
  startedAt: number;
  output(): string;
  exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
  stop(graceMs?: number): Promise<number | null>;
}

export function spawnNode(
  args: string[],
  env: Record<string, string>,
  options: {
    stdin?: boolean;
    /**
     * A file all of its output (stdout and stderr, chunks as they come) is appended to, beyond the start that
     * output() keeps: opened before the child starts, so a path that cannot be written fails here.
     */
    outputFile?: string;
  } = {},
): Spawned {
  let output = '';
  const outputFd = options.outputFile === undefined ? undefined : openSync(options.outputFile, 'a');
  const startedAt = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: new URL('..', import.meta.url).pathname,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: [options.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  const keep = (d: Buffer) => {
    if (outputFd !== undefined) writeSync(outputFd, d);
    // Only the start of the output matters (start-up lines, errors); a chatty child must not grow us.
    if (output.length < 200_000) output += d;
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  // After the output's last chunk (streams closed), not at 'exit'.
  if (outputFd !== undefined) child.once('close', () => closeSync(outputFd));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    startedAt,
    output: () => output,
    exited,
    stop: async (graceMs = 10_000) => {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

export async function waitForOutput(
  p: Spawned,
  pattern: RegExp,
  timeoutMs = 30_000,
): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = p.output().match(pattern);
    if (match) return match;
    if (p.child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`never printed ${pattern}:\n${p.output().slice(0, 2_000)}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Milliseconds from spawn until GET /healthz answers 200, polled every 10 ms. */
export async function untilHealthy(p: Spawned, port: number, timeoutMs = 30_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      await res.arrayBuffer();
      if (res.status === 200) return performance.now() - p.startedAt;
    } catch {
      // Not listening yet.
    }
    if (p.child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`/healthz never answered 200 on port ${port}:\n${p.output().slice(0, 2_000)}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Resident set size of a process, in MiB, from /proc/<pid>/status (VmRSS). */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1]);
  if (!Number.isFinite(kb)) throw new Error(`no VmRSS for ${pid}`);
  return kb / 1024;
}

/** The gateway simulator in a process of its own (`src/simulator/cli.ts`), credentials demo/demo. */
export async function spawnSimulator(): Promise<{ url: string; process: Spawned }> {
  const p = spawnNode(['--import', 'tsx', 'src/simulator/cli.ts'], {
    SIMULATOR_PORT: '0',
    LOG_LEVEL: 'warn',
  });
  const [, url] = await waitForOutput(p, /listening on (http:\/\/\S+)/);
  return { url: url!, process: p };
}

/** A burst of inbound SMS from `count` different numbers, injected into a simulator; their gateway ids. */
export async function injectInboundBurst(
  simulatorUrl: string,
  count: number,
  prefix: string,
): Promise<number[]> {
  const messages = Array.from({ length: count }, (_, i) => ({
    MSISDN: `${prefix}${String(i).padStart(7, '0')}`,
    Text: `Reply ${i}: yes, please call me back`,
  }));
  const res = await fetch(`${simulatorUrl}/_sim/inbound`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(messages),
  });
  return ((await res.json()) as { ids: number[] }).ids;
}
