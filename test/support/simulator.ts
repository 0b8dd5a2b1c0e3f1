import { type SimulatorHandle, startSimulator } from '../../src/simulator/server.js';
import type { StateSnapshot } from '../../src/simulator/snapshot.js';

/** Control calls to a running simulator, over HTTP as tests and demos make them. */
export class SimulatorControl {
  constructor(readonly sim: Pick<SimulatorHandle, 'url'>) {}

  async post<T = unknown>(path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.sim.url}/_sim/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`/_sim/${path}: HTTP ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }

  inbound(messages: unknown) {
    return this.post<{ ids: number[] }>('inbound', messages);
  }
  advance(body: { deliver?: number; share?: number } = {}) {
    return this.post('advance', body);
  }
  fault(body: {
    operation?: string;
    kind: string;
    code?: number;
    times?: number;
    delayMs?: number;
    echo?: boolean;
  }) {
    return this.post('fault', body);
  }
  reset() {
    return this.post('reset');
  }
  /** GET /_sim/state: balances, batches with their recipients, inbound, call counts. */
  async state(): Promise<StateSnapshot & { callCounts: Record<string, number> }> {
    const res = await fetch(`${this.sim.url}/_sim/state`);
    return (await res.json()) as StateSnapshot & { callCounts: Record<string, number> };
  }
  async callCount(operation: string): Promise<number> {
    return (await this.state()).callCounts[operation] ?? 0;
  }
}

export async function startTestSimulator(options: Parameters<typeof startSimulator>[0] = {}) {
  const sim = await startSimulator({ port: 0, ...options });
  return { sim, control: new SimulatorControl(sim) };
}
