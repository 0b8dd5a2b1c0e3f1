import { type SimulatorHandle, type SimulatorOptions, startSimulator } from '../../src/simulator/server.js';

export const CREDENTIAL = { Username: 'demo', Password: 'demo' };

/** A clock the test moves by hand, so Range filters and timestamps are exact. */
export function manualClock(start = '2024-05-15T10:00:00.000Z') {
  let current = new Date(start);
  return {
    now: () => new Date(current.getTime()),
    set(iso: string) {
      current = new Date(iso);
    },
    advance(ms: number) {
      current = new Date(current.getTime() + ms);
    },
  };
}

export interface GatewayStatus {
  Code: number;
  Description: string;
}

// biome-ignore lint/suspicious/noExplicitAny: replies are asserted field by field in the tests
export type Reply = { Response: Record<string, any> & { Status: GatewayStatus } };

export interface TestSimulator {
  sim: SimulatorHandle;
  /** An operation with the demo Credential merged in (pass `Credential` to override it). */
  call(operation: string, body?: Record<string, unknown>): Promise<Reply>;
  /** Raw text body, no Credential added: for malformed-request tests. */
  raw(operation: string, body: string, init?: RequestInit): Promise<Response>;
  control<T = unknown>(path: string, body?: unknown): Promise<{ status: number; body: T }>;
}

export async function startTestSimulator(options: SimulatorOptions = {}): Promise<TestSimulator> {
  const sim = await startSimulator({ port: 0, ...options });
  const post = (url: string, body: string, init: RequestInit = {}) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body, ...init });
  return {
    sim,
    async call(operation, body = {}) {
      const res = await post(
        `${sim.url}/json/syncreply/${operation}`,
        JSON.stringify({ Credential: CREDENTIAL, ...body }),
      );
      return (await res.json()) as Reply;
    },
    raw(operation, body, init) {
      return post(`${sim.url}/json/syncreply/${operation}`, body, init);
    },
    async control<T>(path: string, body?: unknown) {
      const res =
        body === undefined && path === '/_sim/state'
          ? await fetch(`${sim.url}${path}`)
          : await post(`${sim.url}${path}`, body === undefined ? '' : JSON.stringify(body));
      return { status: res.status, body: (await res.json()) as T };
    },
  };
}

export function expectOk(reply: Reply): void {
  if (reply.Response.Status.Code !== 200) {
    throw new Error(
      `expected Status 200, got ${reply.Response.Status.Code}: ${reply.Response.Status.Description}`,
    );
  }
}
