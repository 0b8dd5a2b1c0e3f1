import { setTimeout as sleep } from 'node:timers/promises';
import { inspect } from 'node:util';
import type { z } from 'zod';
import { type Logger, silentLogger } from '../log.js';
import { scrubUpstreamText } from '../secrets.js';
import { SendsInFlight } from '../sends-in-flight.js';
import { GatewayRejected, GatewayRequestInvalid, GatewayUnavailable } from './errors.js';
import { FAST_REPLIES } from './fast-replies.js';
import { formatGatewayTime } from './time.js';
import type {
  Balance,
  BalanceLogEntry,
  CallOptions,
  CloseOptions,
  Gateway,
  GatewayObserver,
  InboundMessage,
  MessageReport,
  MonthlyStats,
  Sender,
  SubmitMultiRequest,
  SubmitRequest,
  Survey,
  SurveyAnswer,
  TimeRange,
} from './types.js';
import { Pool } from './undici-pool.js';
import { describeZodError, ID_FIELDS, type Operation, type Schemas, schemas, statusOnly } from './wire.js';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** No retry starts once this much time has passed since the first attempt. */
  maxTotalMs: number;
}

export interface GatewayClientOptions {
  baseUrl: string;
  username: string;
  password: string;
  /** IANA zone of the gateway's zone-less timestamps. */
  timeZone?: string;
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  connections?: number;
  logger?: Logger;
  /** Told of each HTTP exchange (operation, outcome, seconds): the composition's metrics. */
  observer?: GatewayObserver;
  /** How long close() waits for the sends in flight before it drops the connections, unless told otherwise. */
  closeGraceMs?: number;
}

type Kind = 'read' | 'send';

const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 250, maxDelayMs: 4_000, maxTotalMs: 30_000 };
const DEFAULT_VALIDITY_MINUTES = 1440;
/** What close() gives the sends in flight when its caller does not say (bot.ts shares one budget with its drain). */
const DEFAULT_CLOSE_GRACE_MS = 5_000;
/** The same headers on every request: one object, not one per call. */
const HEADERS = { 'content-type': 'application/json', accept: 'application/json' } as const;
const EMPTY: Record<string, unknown> = Object.freeze({});

/** Errors that prove the request never left this machine: nothing was written to a socket. */
const NEVER_CONNECTED = new Map<string, 'refused' | 'dns' | 'connect-timeout'>([
  ['ECONNREFUSED', 'refused'],
  ['ENOTFOUND', 'dns'],
  ['EAI_AGAIN', 'dns'],
  ['UND_ERR_CONNECT_TIMEOUT', 'connect-timeout'],
]);

function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    const nested = (current as { errors?: unknown[] }).errors;
    if (Array.isArray(nested)) codes.push(...nested.flatMap(errorCodes));
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

function validMessageId(operation: string, messageId: number): number {
  if (!Number.isSafeInteger(messageId) || messageId <= 0) {
    throw new GatewayRequestInvalid(
      operation,
      `${operation}: MessageId must be a positive whole number up to 2^53 (got ${String(messageId)})`,
    );
  }
  return messageId;
}

/** The gateway over HTTP: one undici Pool with keep-alive, a timeout per request, zod at the boundary. */
export class GatewayClient implements Gateway {
  readonly #pool: Pool;
  readonly #basePath: string;
  readonly #credential: { Username: string; Password: string };
  readonly #schemas: Schemas;
  readonly #timeZone: string;
  readonly #timeoutMs: number;
  readonly #retry: RetryPolicy;
  readonly #logger: Logger;
  readonly #observer: GatewayObserver | undefined;
  readonly #closeGraceMs: number;
  /** Sends (Submit, SubmitMulti, Cancel) between their first attempt and their outcome: close() waits for them. */
  readonly #sends = new SendsInFlight();
  /** From the moment close() begins: no new attempt starts. */
  #closing: Promise<void> | undefined;
  /** Once close() drops the connections: what was still waiting ended with them. */
  #dropped = false;
  /** Per operation: its path, and the whole body of a call with no members (GetBalance, GetSenders …). */
  readonly #paths = new Map<Operation, string>();
  readonly #bareBodies = new Map<Operation, string>();
  /** The base URL without user info, safe to show. */
  readonly target: string;

  constructor(options: GatewayClientOptions) {
    const url = new URL(options.baseUrl);
    url.username = '';
    url.password = '';
    this.target = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
    this.#basePath = url.pathname.replace(/\/+$/, '');
    this.#pool = new Pool(url.origin, {
      connections: options.connections ?? 16,
      keepAliveTimeout: 4_000,
      keepAliveMaxTimeout: 30_000,
    });
    this.#credential = { Username: options.username, Password: options.password };
    this.#timeZone = options.timeZone ?? 'UTC';
    this.#schemas = schemas(this.#timeZone);
    this.#timeoutMs = options.timeoutMs ?? 15_000;
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
    this.#logger = (options.logger ?? silentLogger).child({ component: 'gateway' });
    this.#observer = options.observer;
    this.#closeGraceMs = options.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS;
  }

  // Logged or printed by mistake, the client shows where it points, never its credential.
  [inspect.custom](): string {
    return `GatewayClient { target: ${this.target} }`;
  }

  toJSON(): { target: string } {
    return { target: this.target };
  }

  /** Text the gateway wrote may quote our request, Credential and all (ServiceStack error bodies do). */
  #fromUpstream(text: string): string {
    return scrubUpstreamText(text, [this.#credential.Username, this.#credential.Password]);
  }

  async submit(request: SubmitRequest, options?: CallOptions): Promise<{ messageId: number }> {
    const reply = await this.#call(
      'Submit',
      {
        DataCoding: request.dataCoding ?? 'Default',
        Header: { From: request.from, ValidityPeriod: request.validityMinutes ?? DEFAULT_VALIDITY_MINUTES },
        Message: request.message,
        To: [...request.to],
      },
      'send',
      options,
    );
    return { messageId: reply.MessageId };
  }

  async submitMulti(request: SubmitMultiRequest, options?: CallOptions): Promise<{ messageId: number }> {
    const reply = await this.#call(
      'SubmitMulti',
      {
        Header: { From: request.from, ValidityPeriod: request.validityMinutes ?? DEFAULT_VALIDITY_MINUTES },
        Envelopes: request.envelopes.map((e) => ({ Message: e.message, To: e.to })),
        DataCoding: request.dataCoding ?? 'Default',
      },
      'send',
      options,
    );
    return { messageId: reply.MessageId };
  }

  async queryMulti(
    request: { messageId?: number; range?: TimeRange; pageIndex?: number; pageSize?: number },
    options?: CallOptions,
  ): Promise<{ reports: MessageReport[]; totalCount?: number }> {
    // MessageId 0 lists every batch received within the Range: how an unknown send is reconciled.
    const listing = request.messageId === undefined || request.messageId === 0;
    const body: Record<string, unknown> = {
      MessageId: listing ? 0 : validMessageId('QueryMulti', request.messageId!),
      Range: this.#range(request.range),
    };
    if (request.pageIndex !== undefined) body.PageIndex = request.pageIndex;
    if (request.pageSize !== undefined) body.PageSize = request.pageSize;
    const reply = await this.#call('QueryMulti', body, 'read', options);
    return {
      reports: reply.Report.items.map((r) => ({
        id: r.Id,
        received: r.Received,
        sent: r.Sent,
        state: r.State,
        sender: r.Sender,
        cost: r.Cost,
        message: r.Message,
        coding: r.Coding,
        deliveredCount: r.DeliveredCount,
        undeliveredCount: r.UndeliveredCount,
        count: r.Count,
      })),
      totalCount: reply.Report.totalCount,
    };
  }

  async cancel(messageId: number, options?: CallOptions): Promise<void> {
    await this.#call('Cancel', { MessageId: validMessageId('Cancel', messageId) }, 'send', options);
  }

  async receive(
    request: { range?: TimeRange; state?: string; recipient?: string } = {},
    options?: CallOptions,
  ): Promise<InboundMessage[]> {
    const reply = await this.#call(
      'Receive',
      {
        Range: this.#range(request.range),
        State: request.state ?? 'All',
        Recipient: request.recipient ?? '',
      },
      'read',
      options,
    );
    return reply.Message.items.map((m) => ({
      id: m.Id,
      received: m.Received,
      network: m.Network,
      msisdn: m.MSISDN,
      recipient: m.Recipient,
      keyword: m.Keyword,
      text: m.Text,
      price: m.Price,
      xser: m.Xser,
    }));
  }

  async getBalance(options?: CallOptions): Promise<Balance> {
    const { Balance: b } = await this.#call('GetBalance', EMPTY, 'read', options);
    return { main: b.Main, limit: b.Limit, usable: b.Main + b.Limit };
  }

  async getBalanceLog(range?: TimeRange, options?: CallOptions): Promise<BalanceLogEntry[]> {
    const reply = await this.#call('GetBalanceLog', { DateRange: this.#range(range) }, 'read', options);
    return reply.BalanceLogs.items.map((e) => ({
      id: e.Id,
      timestamp: e.Timestamp,
      type: e.Type,
      amount: e.Balance,
      balanceAfter: e.CurrentBalance,
      explanation: e.Explanation,
      cost: e.Cost,
    }));
  }

  async getSenders(options?: CallOptions): Promise<Sender[]> {
    const reply = await this.#call('GetSenders', EMPTY, 'read', options);
    return reply.Senders.map((s) => ({ name: s.Value, isDefault: s.Default }));
  }

  async queryStats(options?: CallOptions): Promise<MonthlyStats[]> {
    const reply = await this.#call('QueryStats', EMPTY, 'read', options);
    return reply.Report.items.map((r) => ({
      year: r.Year,
      month: r.Month,
      delivered: r.Delivered,
      undelivered: r.Undelivered,
      count: r.Count,
    }));
  }

  async getSurveys(options?: CallOptions): Promise<Survey[]> {
    const reply = await this.#call('GetSurveys', EMPTY, 'read', options);
    return reply.SurveyDetail.items.map((s) => ({
      id: s.Id,
      name: s.Name,
      totalQuestions: s.TotalQuestion,
      subscribers: s.Subscriber,
      answered: s.Answered,
      delivered: s.Delivered,
      messageId: s.MessageId,
    }));
  }

  async getSurveyAnswers(surveyId: number, options?: CallOptions): Promise<SurveyAnswer[]> {
    if (!Number.isSafeInteger(surveyId) || surveyId <= 0) {
      throw new GatewayRequestInvalid(
        'GetSurveyAnswers',
        `GetSurveyAnswers: SurveyId must be a positive whole number (got ${String(surveyId)})`,
      );
    }
    const reply = await this.#call('GetSurveyAnswers', { SurveyId: surveyId }, 'read', options);
    return reply.AnswerDetail.items.map((a) => ({
      surveyId: a.SurveyId,
      questionNo: a.QuestionNo,
      answer: a.Answer,
      count: a.Count,
    }));
  }

  /**
   * Waits for the sends in flight to end (at most `graceMs`, else closeGraceMs), then drops the connections. A
   * read still waiting (a balance, a lookup) is abandoned, not waited for: behind a slow gateway, a backlog of
   * them held a stopping process until main.ts' deadline killed it with the store still open. (bot.ts stops the
   * loops first, and they wait for their pass in progress: a poll is over by now, or still holds the stop.) A send cut off by
   * the grace ends with its fate unknown (sentMaybe), never resent. From the moment it is called no new attempt
   * starts (refused, surely not sent), a retry included. Called again, it returns the same close.
   */
  close(options: CloseOptions = {}): Promise<void> {
    this.#closing ??= this.#close(options.graceMs ?? this.#closeGraceMs);
    return this.#closing;
  }

  async #close(graceMs: number): Promise<void> {
    if (graceMs > 0) await this.#sends.settled(graceMs);
    this.#dropped = true;
    await this.#pool.destroy();
  }

  /** Drops the connections at once, calls in flight included (a start-up that failed: nothing was sent yet). */
  async destroy(): Promise<void> {
    this.#closing ??= Promise.resolve();
    this.#dropped = true;
    await this.#pool.destroy();
  }

  #path(operation: Operation): string {
    let path = this.#paths.get(operation);
    if (path === undefined) {
      path = `${this.#basePath}/json/syncreply/${operation}`;
      this.#paths.set(operation, path);
    }
    return path;
  }

  /** The request body; a call without members sends the same text every time, serialised once. */
  #body(operation: Operation, members: Record<string, unknown>): string {
    if (members !== EMPTY) return JSON.stringify({ Credential: this.#credential, ...members });
    let body = this.#bareBodies.get(operation);
    if (body === undefined) {
      body = JSON.stringify({ Credential: this.#credential });
      this.#bareBodies.set(operation, body);
    }
    return body;
  }

  #range(range?: TimeRange): Record<string, string> {
    const out: Record<string, string> = {};
    if (range?.begin) out.Begin = formatGatewayTime(range.begin, this.#timeZone);
    if (range?.end) out.End = formatGatewayTime(range.end, this.#timeZone);
    return out;
  }

  /**
   * Reads retry every transient failure; sends (and Cancel) retry only when the request provably
   * never left, because a repeated Submit after a lost reply sends every SMS twice.
   */
  async #call<O extends Operation>(
    operation: O,
    members: Record<string, unknown>,
    kind: Kind,
    options: CallOptions = {},
  ): Promise<z.output<Schemas[O]>['Response']> {
    const attempts = this.#attempts(operation, members, kind, options);
    return kind === 'send' ? this.#sends.track(attempts) : attempts;
  }

  async #attempts<O extends Operation>(
    operation: O,
    members: Record<string, unknown>,
    kind: Kind,
    options: CallOptions,
  ): Promise<z.output<Schemas[O]>['Response']> {
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      // Once closing, an attempt not yet begun never begins (and so surely never left).
      if (this.#closing) {
        throw new GatewayUnavailable(operation, 'closing', 'not sent: the client is closed', false);
      }
      try {
        return await this.#observed(operation, members, options);
      } catch (error) {
        if (!(error instanceof GatewayUnavailable)) throw error;
        const transient =
          error.reason !== 'aborted' &&
          error.reason !== 'closing' &&
          !(error.reason === 'http-status' && (error.httpStatus ?? 0) < 500);
        const retryable = kind === 'read' ? transient : !error.sentMaybe && transient;
        const delay =
          Math.min(this.#retry.maxDelayMs, this.#retry.baseDelayMs * 2 ** (attempt - 1)) *
          (0.5 + Math.random() / 2);
        if (
          !retryable ||
          attempt >= this.#retry.attempts ||
          Date.now() - started + delay > this.#retry.maxTotalMs
        ) {
          throw error;
        }
        this.#logger.debug(
          { operation, attempt, reason: error.reason, delayMs: Math.round(delay) },
          'gateway call retried',
        );
        try {
          await sleep(delay, undefined, { signal: options.signal });
        } catch {
          throw error;
        }
      }
    }
  }

  /** One exchange, timed and told to the observer (if any) with its outcome. */
  async #observed<O extends Operation>(
    operation: O,
    members: Record<string, unknown>,
    options: CallOptions,
  ): Promise<z.output<Schemas[O]>['Response']> {
    const observer = this.#observer;
    if (!observer) return this.#once(operation, members, options);
    const started = performance.now();
    try {
      const response = await this.#once(operation, members, options);
      observer.onCall(operation, 'ok', (performance.now() - started) / 1000);
      return response;
    } catch (error) {
      const seconds = (performance.now() - started) / 1000;
      if (error instanceof GatewayRejected) observer.onCall(operation, 'rejected', seconds, 'rejected');
      else if (error instanceof GatewayUnavailable)
        observer.onCall(operation, 'error', seconds, error.reason);
      throw error;
    }
  }

  async #once<O extends Operation>(
    operation: O,
    members: Record<string, unknown>,
    options: CallOptions,
  ): Promise<z.output<Schemas[O]>['Response']> {
    // Without a caller's signal, undici's own header and body timers bound the call: cheaper than a new
    // AbortSignal timer per request. A caller's signal is honoured on top of a whole-call timeout.
    const bound = options.signal ? boundBy(options.signal, this.#timeoutMs) : undefined;
    const unavailable = (
      reason: ConstructorParameters<typeof GatewayUnavailable>[1],
      message: string,
      sentMaybe: boolean,
      status?: number,
    ) => new GatewayUnavailable(operation, reason, message, sentMaybe, status);

    let statusCode: number;
    let text: string;
    try {
      const sent = this.#pool.request({
        method: 'POST',
        path: this.#path(operation),
        headers: HEADERS,
        body: this.#body(operation, members),
        signal: bound?.signal,
        headersTimeout: this.#timeoutMs,
        bodyTimeout: this.#timeoutMs,
      });
      const response = await (bound ? untilAborted(sent, bound.signal) : sent);
      statusCode = response.statusCode;
      text = await response.body.text();
    } catch (error) {
      const neverLeft = errorCodes(error)
        .map((c) => NEVER_CONNECTED.get(c))
        .find((r) => r !== undefined);
      if (neverLeft) {
        const what = {
          refused: 'connection refused',
          dns: 'host name not found',
          'connect-timeout': 'connection timed out',
        }[neverLeft];
        throw unavailable(neverLeft, `${what} at ${this.target}`, false);
      }
      const timedOut = errorCodes(error).some(
        (c) => c === 'UND_ERR_HEADERS_TIMEOUT' || c === 'UND_ERR_BODY_TIMEOUT',
      );
      if (timedOut || bound?.timedOut()) {
        throw unavailable('timeout', `no reply within ${this.#timeoutMs} ms from ${this.target}`, true);
      }
      if (options.signal?.aborted) throw unavailable('aborted', 'call aborted', true);
      if (this.#dropped) throw unavailable('closing', 'abandoned: the client was closed', true);
      const code = errorCodes(error)[0];
      throw unavailable(
        'network',
        `network error talking to ${this.target}${code ? ` (${code})` : ''}`,
        true,
      );
    } finally {
      bound?.release();
    }

    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const rejectedBy = (value: unknown) => {
      const status = statusOnly.safeParse(value);
      if (!status.success || status.data.Response.Status.Code === 200) return undefined;
      const { Code, Description } = status.data.Response.Status;
      return new GatewayRejected(operation, Code, this.#fromUpstream(Description));
    };
    const ok = statusCode >= 200 && statusCode <= 299;
    if (!ok) {
      const rejected = rejectedBy(json);
      if (rejected) throw rejected;
    }
    if (!ok) {
      const serviceMessage = (json as { ResponseStatus?: { Message?: unknown } } | undefined)?.ResponseStatus
        ?.Message;
      const detail =
        typeof serviceMessage === 'string' ? `: ${this.#fromUpstream(serviceMessage).slice(0, 200)}` : '';
      // A 4xx means the gateway (or a proxy in front of it) refused the request before acting on it.
      throw unavailable(
        'http-status',
        `HTTP ${statusCode} from ${this.target}${detail}`,
        statusCode >= 500,
        statusCode,
      );
    }
    if (json === undefined) {
      const looksLike = /^\s*</.test(text)
        ? 'an HTML page'
        : text.trim() === ''
          ? 'an empty body'
          : 'text that is not JSON';
      throw unavailable('not-json', `the gateway answered with ${looksLike} instead of JSON`, true);
    }
    // Cheap first look: no 16-digit run at all, no id beyond 2^53 (the scan below is the real check).
    if (/\d{16}/.test(text))
      for (const match of text.matchAll(ID_FIELDS)) {
        const [, field, digits] = match;
        if (BigInt(digits!) > BigInt(Number.MAX_SAFE_INTEGER)) {
          throw unavailable(
            'malformed',
            `${field} ${digits} is beyond 2^53 and cannot be kept exactly`,
            true,
          );
        }
      }
    // The common reply of the busiest operations, checked by hand; anything else goes through zod.
    const fast = (FAST_REPLIES[operation] as ((json: unknown, timeZone: string) => unknown) | undefined)?.(
      json,
      this.#timeZone,
    );
    if (fast !== undefined) return (fast as { Response: z.output<Schemas[O]>['Response'] }).Response;
    // One full parse on the common path; a failure reply lacks the other members, so it is read as a Status.
    const parsed = this.#schemas[operation].safeParse(json);
    if (!parsed.success) {
      throw (
        rejectedBy(json) ?? unavailable('malformed', this.#fromUpstream(describeZodError(parsed.error)), true)
      );
    }
    const response = (
      parsed.data as { Response: z.output<Schemas[O]>['Response'] & { Status: { Code: number } } }
    ).Response;
    if (response.Status.Code !== 200) throw rejectedBy(json)!;
    return response;
  }
}

/**
 * The request, or its signal's reason as soon as the signal aborts. undici only notes the abort of a request still
 * queued for a connection (all of them busy with calls the gateway holds) and rejects it once a connection frees:
 * a loop's stop waited on a Receive queued behind 16 held reads until main.ts' deadline ended the process
 * (2026-11-27). undici still drops the queued request, unsent, when its turn comes.
 */
function untilAborted<T>(request: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    request.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      request.catch(() => undefined);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    request.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * A signal that aborts when the caller's does or after `ms`, released when the call ends. Not AbortSignal.any:
 * on Node 20 every signal it makes stays in the caller's set of dependants for as long as the caller's signal
 * lives (nodejs/node#55351), ~60 bytes a call, and the inbound relay's lives as long as the relay runs.
 */
function boundBy(
  caller: AbortSignal,
  ms: number,
): { signal: AbortSignal; timedOut(): boolean; release(): void } {
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = () => controller.abort(caller.reason);
  if (caller.aborted) onAbort();
  else caller.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException('The gateway call timed out', 'TimeoutError'));
  }, ms);
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    release() {
      clearTimeout(timer);
      caller.removeEventListener('abort', onAbort);
    },
  };
}
