import { type ChildProcess, fork } from 'node:child_process';

export interface Worker {
  child: ChildProcess;
  /** The next message of this type from the worker; an `error` message or an exit fails it. */
  expectMessage<T extends { type: string }>(type: string): Promise<T>;
  exited: Promise<number | null>;
}

/** A real Node process running a TypeScript worker that reports over IPC, for races between processes. */
export function startWorker(script: string, args: string[], name: string): Worker {
  const child = fork(script, args, {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const messages: Array<{ type: string }> = [];
  const waiters: Array<() => void> = [];
  child.on('message', (m: { type: string }) => {
    messages.push(m);
    for (const w of waiters.splice(0)) w();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  async function expectMessage<T extends { type: string }>(type: string): Promise<T> {
    for (;;) {
      const found = messages.find((m) => m.type === type || m.type === 'error');
      if (found) {
        messages.splice(messages.indexOf(found), 1);
        if (found.type === 'error') throw new Error(`${name}: ${JSON.stringify(found)}`);
        return found as T;
      }
      await Promise.race([
        new Promise<void>((resolve) => waiters.push(resolve)),
        exited.then((code) => {
          throw new Error(`${name} exited with ${code} while waiting for ${type}`);
        }),
      ]);
    }
  }
  return { child, expectMessage, exited };
}
