import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crossSiteReason, foreignHostReason, isLoopbackAddress } from '../http/same-site.js';
import { readStateFile, StateFileWriter } from '../json-state-file.js';
import { type Logger, silentLogger } from '../log.js';
import { isTimeZone } from '../time-zones.js';
import { authenticate } from './auth.js';
import { GatewayError, STATUS_CODES } from './codes.js';
import { addInbound, advance, ControlError, parseFault } from './control.js';
import { DEFAULT_TIMEOUT_HOLD_MS, type Fault, FaultQueue, TRICKLE_EVERY_MS } from './faults.js';
import { HeldReplies } from './holds.js';
import { gatewayReply, readBody, sendHtml, sendJson, TOO_LARGE } from './http-io.js';
import { handlers, type Members } from './operations.js';
import { requestSchemas } from './requests.js';
import { parseSavedSimulator } from './saved-state.js';
import { type StateSnapshot, snapshotOf } from './snapshot.js';
import { SimulatorState } from './state.js';
import { OPERATIONS, type OperationName } from './types.js';

export interface SimulatorOptions {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  username?: string;
  password?: string;
  /** IANA zone in which the simulator writes and reads zone-less timestamps. */
  timeZone?: string;
  now?: () => Date;
  logger?: Logger;
  pricePerSegment?: number;
  initialBalance?: number;
  /**
   * A JSON file that keeps the account and traffic across restarts: read at start (absent: a fresh account;
   * unreadable: a fresh account and one warning line), written a second after changes and on close. Unset: in
   * memory only. With it, reset keeps counting ids, so a client never sees a MessageId twice.
   */
  statePath?: string;
  /** The lowest MessageId and inbound Id to hand out, e.g. above every id a client's records hold. */
  firstIds?: { batch?: number; inbound?: number };
}

export interface SimulatorStateSnapshot extends StateSnapshot {
  faults: Fault[];
  callCounts: Record<OperationName, number>;
}

export interface SimulatorHandle {
  /** Base URL without a trailing slash; operations live at `${url}/json/syncreply/<Operation>`. */
  url: string;
  port: number;
  close(): Promise<void>;
  state(): SimulatorStateSnapshot;
}

export const DEFAULT_SIMULATOR_PORT = 4010;
export const DEFAULT_INITIAL_BALANCE = 1250;
export const DEFAULT_PRICE_PER_SEGMENT = 0.05;

/** The operations that change the account or traffic (the rest only read). */
const CHANGING = new Set<OperationName>(['Submit', 'SubmitMulti', 'Cancel']);

const OPERATION_PATH = /^\/json\/syncreply\/([^/]+)\/?$/;

interface Reply {
  code: number;
  description: string;
  members: Members;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<SimulatorHandle> {
  const timeZone = options.timeZone ?? 'UTC';
  if (!isTimeZone(timeZone))
    throw new Error(`Unknown time zone ${JSON.stringify(timeZone)}: use an IANA name`);
  const logger = options.logger ?? silentLogger;
  const credentials = { username: options.username ?? 'demo', password: options.password ?? 'demo' };
  const state = new SimulatorState({
    now: options.now ?? (() => new Date()),
    timeZone,
    pricePerSegment: options.pricePerSegment ?? DEFAULT_PRICE_PER_SEGMENT,
    initialBalance: options.initialBalance ?? DEFAULT_INITIAL_BALANCE,
    firstIds: options.firstIds,
    keepIdsOnReset: options.statePath !== undefined,
  });
  const stateFile = options.statePath;
  const saver = stateFile
    ? new StateFileWriter({ path: stateFile, snapshot: () => state.saved(), logger })
    : undefined;
  if (stateFile) {
    const saved = readStateFile(
      stateFile,
      parseSavedSimulator,
      logger,
      'the simulator starts a fresh account',
    );
    if (saved) state.restore(saved);
  }
  const schemas = requestSchemas(timeZone);
  const faults = new FaultQueue();
  const held = new HeldReplies();
  let callCounts = zeroCounts();

  const snapshot = (): SimulatorStateSnapshot => ({
    ...snapshotOf(state),
    faults: faults.list(),
    callCounts: { ...callCounts },
  });

  function run(operation: OperationName, bodyText: string): Reply {
    try {
      let body: unknown;
      try {
        body = JSON.parse(bodyText);
      } catch (error) {
        const reason = bodyText.trim() === '' ? 'the body is empty' : (error as Error).message;
        throw new GatewayError('BadRequest', `Malformed request: body is not JSON (${reason})`);
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new GatewayError('BadRequest', 'Malformed request: body must be a JSON object');
      }
      const record = body as Record<string, unknown>;
      authenticate(record, credentials);
      const members = handlers[operation]({ state, schemas, body: record });
      if (CHANGING.has(operation)) saver?.changed();
      return { code: STATUS_CODES.OK.code, description: 'OK', members };
    } catch (error) {
      if (error instanceof GatewayError) return { code: error.code, description: error.message, members: {} };
      logger.error({ err: error, operation }, 'simulator operation failed');
      return { code: 500, description: 'Internal simulator error', members: {} };
    }
  }

  async function serveOperation(req: IncomingMessage, res: ServerResponse, name: string): Promise<void> {
    const operation = OPERATIONS.find((op) => op.toLowerCase() === name.toLowerCase());
    if (!operation) {
      const description = `Unknown operation ${JSON.stringify(name)}: use one of ${OPERATIONS.join(', ')}`;
      sendJson(res, 404, gatewayReply({}, STATUS_CODES.NotFound.code, description));
      return;
    }
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      const description = `Method ${req.method} not allowed: operations take POST with a JSON body`;
      sendJson(res, 405, gatewayReply({}, STATUS_CODES.MethodNotAllowed.code, description));
      return;
    }
    const bodyText = await readBody(req);
    if (bodyText === TOO_LARGE) {
      const description = 'Request body too large: at most 5 MB';
      sendJson(res, 413, gatewayReply({}, STATUS_CODES.BodyTooLarge.code, description));
      return;
    }
    callCounts[operation]++;
    const fault = faults.take(operation);
    const processed = fault?.kind === 'timeout' || fault?.kind === 'trickle';
    if (fault && !processed) {
      if (fault.delayMs && (await held.hold(res, fault.delayMs)) === 'gone') return;
      sendFault(res, fault, bodyText);
      return;
    }
    // A timeout or trickle fault still does the work: the dangerous real case is a send that happened
    // while the client gave up waiting.
    const reply = run(operation, bodyText);
    if (fault?.kind === 'trickle') {
      await trickle(res, gatewayReply(reply.members, reply.code, reply.description), fault.delayMs);
      return;
    }
    if (fault) {
      if ((await held.hold(res, fault.delayMs ?? DEFAULT_TIMEOUT_HOLD_MS)) === 'gone') return;
    }
    sendJson(res, 200, gatewayReply(reply.members, reply.code, reply.description));
  }

  /**
   * Headers at once, then the body a byte at a time (leading white space, which JSON allows) for `ms`,
   * then the reply itself: slow but steady, so no single read of a client ever waits long.
   */
  async function trickle(res: ServerResponse, body: unknown, ms = DEFAULT_TIMEOUT_HOLD_MS): Promise<void> {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    const until = Date.now() + ms;
    while (Date.now() < until) {
      res.write(' ');
      if ((await held.hold(res, Math.min(TRICKLE_EVERY_MS, until - Date.now()))) === 'gone') {
        res.destroy();
        return;
      }
    }
    res.end(JSON.stringify(body));
  }

  async function serveControl(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const endpoint = `${req.method} ${path}`;
    if (endpoint === 'GET /_sim/state') {
      sendJson(res, 200, snapshot());
      return;
    }
    const known = ['/_sim/inbound', '/_sim/advance', '/_sim/fault', '/_sim/reset'];
    if (!known.includes(path)) {
      sendJson(res, path === '/_sim/state' ? 405 : 404, {
        error:
          path === '/_sim/state'
            ? 'GET /_sim/state only'
            : `Unknown control endpoint ${path}: use /_sim/inbound, /_sim/advance, /_sim/fault, /_sim/reset, /_sim/state`,
      });
      return;
    }
    if (req.method !== 'POST') {
      sendJson(res, 405, { error: `${path} takes POST` });
      return;
    }
    const bodyText = await readBody(req);
    if (bodyText === TOO_LARGE) {
      sendJson(res, 413, { error: 'Request body too large: at most 5 MB' });
      return;
    }
    let body: unknown;
    try {
      body = bodyText.trim() === '' ? undefined : JSON.parse(bodyText);
    } catch (error) {
      throw new ControlError(400, `body is not JSON (${(error as Error).message})`);
    }
    // Even a refused control call is counted as a change: a write too many costs nothing.
    saver?.changed();
    switch (endpoint) {
      case 'POST /_sim/inbound':
        sendJson(res, 200, addInbound(state, body));
        return;
      case 'POST /_sim/advance':
        sendJson(res, 200, advance(state, body));
        return;
      case 'POST /_sim/fault': {
        const fault = parseFault(body);
        faults.add(fault);
        sendJson(res, 200, { ok: true, faults: faults.list() });
        return;
      }
      case 'POST /_sim/reset':
        state.reset();
        faults.clear();
        callCounts = zeroCounts();
        sendJson(res, 200, { ok: true });
    }
  }

  // Bound to this machine, the controls answer only to its own names: a rebound name (DNS rebinding) is refused.
  // Bound wider (SIMULATOR_HOST), the operator chose who may call; other sites' pages are still refused.
  const checkHost = isLoopbackAddress(options.host ?? '127.0.0.1') || options.host === 'localhost';

  async function route(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const match = OPERATION_PATH.exec(path);
    if (match) return serveOperation(req, res, match[1]!);
    if (path.startsWith('/_sim/')) {
      const refused = crossSiteReason(req) ?? (checkHost ? foreignHostReason(req) : undefined);
      if (refused) throw new ControlError(403, refused);
      return serveControl(req, res, path.replace(/\/$/, ''));
    }
    const description = `No such path ${path}: operations are POST /json/syncreply/<Operation>`;
    sendJson(res, 404, gatewayReply({}, STATUS_CODES.NotFound.code, description));
  }

  const server = createServer((req, res) => {
    const started = performance.now();
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://simulator').pathname);
    } catch {
      sendJson(
        res,
        400,
        gatewayReply({}, STATUS_CODES.BadRequest.code, 'Malformed request: the path cannot be decoded'),
      );
      return;
    }
    // 'close' rather than 'finish' so a request whose client hung up during a held reply is logged too.
    res.on('close', () => {
      logger.debug(
        {
          method: req.method,
          path,
          operation: OPERATION_PATH.exec(path)?.[1],
          http: res.statusCode,
          answered: res.writableFinished,
          ms: Math.round(performance.now() - started),
        },
        'simulator request',
      );
    });
    route(req, res, path).catch((error: unknown) => {
      if (error instanceof ControlError) {
        sendJson(res, error.httpStatus, { error: error.message });
        return;
      }
      logger.error({ err: error, path }, 'simulator request failed');
      sendJson(res, 500, { error: 'Internal simulator error' });
    });
  });
  server.on('clientError', (_error, socket) => socket.destroy());

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_SIMULATOR_PORT, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;

  return {
    url: `http://${urlHost(host)}:${port}`,
    port,
    state: snapshot,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        held.releaseAll();
        server.closeAllConnections();
      }).then(() => saver?.flush());
      return closing;
    },
  };
}

/** What an `echo` fault quotes: the request as it came, the way ServiceStack error replies often do. */
function quoted(fault: Fault, bodyText: string): string {
  return fault.echo ? `: could not process request ${bodyText}` : '';
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function sendFault(res: ServerResponse, fault: Fault, bodyText: string): void {
  switch (fault.kind) {
    case 'http500':
      if (fault.echo) {
        sendJson(res, 500, {
          ResponseStatus: {
            ErrorCode: 'SerializationException',
            Message: `Internal Server Error${quoted(fault, bodyText)}`,
            Errors: [],
          },
        });
        return;
      }
      sendHtml(
        res,
        500,
        '<html><head><title>500 Internal Server Error</title></head><body><h1>Internal Server Error</h1></body></html>',
      );
      return;
    case 'notjson':
      sendHtml(
        res,
        200,
        `<html><head><title>Service Unavailable</title></head><body><h1>The service is temporarily unavailable</h1>${
          fault.echo ? `<pre>${escapeHtml(bodyText)}</pre>` : ''
        }</body></html>`,
      );
      return;
    default:
      sendJson(
        res,
        200,
        gatewayReply(
          {},
          fault.code ?? STATUS_CODES.SimulatedFault.code,
          `Simulated fault${quoted(fault, bodyText)}`,
        ),
      );
  }
}

function zeroCounts(): Record<OperationName, number> {
  return Object.fromEntries(OPERATIONS.map((op) => [op, 0])) as Record<OperationName, number>;
}

/** A wildcard bind is reachable on loopback; an IPv6 literal needs brackets in a URL. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
