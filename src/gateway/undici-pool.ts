// undici's index loads all of undici (fetch, WebSocket, EventSource, caches, mocks, interceptors: 1 MB of the
// bundle, evaluated at start and kept in memory); the gateway client needs only a Pool and its request().
// So: the Pool module, and the request API put on Dispatcher's prototype, exactly as undici's index does it
// (the same assignment, so loading both is harmless). Deep paths are stable within a major version; undici is
// pinned by package-lock.json, and test/gateway/client.test.ts exercises every call through it.
import type { Pool as UndiciPool } from 'undici';
// @ts-expect-error undici ships types for its index only
import api from 'undici/lib/api/index.js';
// @ts-expect-error undici ships types for its index only
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
// @ts-expect-error undici ships types for its index only
import PoolModule from 'undici/lib/dispatcher/pool.js';

Object.assign((Dispatcher as { prototype: object }).prototype, api);

export const Pool = PoolModule as typeof UndiciPool;
export type Pool = UndiciPool;
