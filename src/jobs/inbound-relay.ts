import type { Gateway, InboundMessage } from '../gateway/index.js';
import type { Logger } from '../log.js';
import { DEFAULT_STOP_WORDS, isStopWord } from '../sms/index.js';
import type { Store } from '../store/index.js';
import { claimDeliveries, deliveryKey } from './inbound-claims.js';
import { ChannelPacer, type Sleep, sleep } from './inbound-pacer.js';
import { type PlannedPost, planPosts } from './inbound-plan.js';
import {
  ChannelUnavailable,
  type InboundPoster,
  PostRateLimited,
  PostRefused,
  type RelayItem,
} from './inbound-poster.js';
import { channelsFor } from './inbound-routing.js';
import { SurveyMatcher } from './inbound-surveys.js';
import { JobLoop, type JobObserver } from './loop.js';

export interface InboundRelaySettings {
  /**
   * Unique among live processes yet stable across restarts (the bot uses host:port): a claim held by
   * this id and not posted is taken for a leftover of our own, also one left by this process's
   * predecessor when it died.
   */
  instanceId: string;
  /** INBOUND_POLL_SECONDS. */
  pollSeconds: number;
  /** How far before the cursor each Receive starts, for messages the gateway files late. Default 10 min. */
  overlapMs?: number;
  /** CONVERSATION_HOURS: a number's messages within this gap share one thread per channel. Default 24. */
  conversationHours?: number;
  /** STOP_WORDS. Default STOP, UNSUBSCRIBE, IPTAL, DUR. */
  stopWords?: readonly string[];
  /** SURVEY_KEYWORDS, parsed: keyword → survey id. */
  surveyKeywords?: Readonly<Record<string, number>>;
  /** A claim older than this that was never posted is presumed dead and taken over. Default 5 min. */
  claimLeaseMs?: number;
  /** Spacing of posts to one channel. Default 1000 (Slack: about one post per second per channel). */
  postIntervalMs?: number;
  /** A channel's backlog should be visible within about this long; beyond it, messages are grouped. Default 30. */
  burstTargetSeconds?: number;
  /** Name of the cursor in the store. Default 'inbound'. */
  cursorName?: string;
}

export interface InboundRelayOptions {
  gateway: Pick<Gateway, 'receive' | 'getSurveys'>;
  store: Pick<Store, 'inbound' | 'subscriptions' | 'optOuts' | 'audit'>;
  poster: InboundPoster;
  logger: Logger;
  now?: () => Date;
  settings: InboundRelaySettings;
  /** For tests: how waits are made. */
  sleep?: Sleep;
  /** Told how many deliveries each Slack post carried (the metrics, when METRICS_PORT is set). */
  onPosted?: (deliveries: number) => void;
  /** Told of every pass of the loop (the metrics, when METRICS_PORT is set). */
  jobObserver?: JobObserver;
}

/** What one poll did; deliveries are (message, channel) pairs. */
export interface PollResult {
  ok: boolean;
  /** Messages the gateway returned (the overlap window included). */
  received: number;
  /** Deliveries posted by this poll. */
  posted: number;
  /** Slack posts made. */
  posts: number;
  /** Deliveries given up on purpose (no route, or a channel we cannot post in); logged. */
  skipped: number;
  /** Deliveries left for a later poll: failed, out of time, or being posted by another instance. */
  pending: number;
  /** 429 answers received (each waited out). */
  rateLimited: number;
  /** Work was left only for lack of time: poll again at once. */
  more: boolean;
  error?: string;
}

interface Delivery {
  key: string;
  channel: string;
  item: RelayItem;
  receivedMs: number;
}

type ResolvedSettings = Required<InboundRelaySettings>;

interface Outage {
  since: Date;
  failures: number;
}

const MAX_BACKOFF_SECONDS = 300;
/** 429s in a row on one post before it is left for the next poll. */
const MAX_RATE_LIMITED_TRIES = 10;

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** After n failed polls in a row: pollSeconds doubled n times, at most 5 minutes (or pollSeconds if longer). */
export function backoffSeconds(pollSeconds: number, failures: number): number {
  if (failures <= 0) return pollSeconds;
  return Math.min(pollSeconds * 2 ** failures, Math.max(pollSeconds, MAX_BACKOFF_SECONDS));
}

/**
 * One loop relays inbound SMS to every matching channel, once each. The cursor (the last Received time
 * everything up to which is done) moves only past messages posted or deliberately skipped; each
 * (message, channel) delivery is claimed in the store before it is posted and marked after, so restarts
 * and several instances neither lose nor repeat a post. A crash between a post and its mark can repeat
 * that one post once.
 */
export class InboundRelay {
  readonly #o: InboundRelayOptions;
  readonly #s: ResolvedSettings;
  readonly #now: () => Date;
  readonly #pacer: ChannelPacer;
  readonly #surveys: SurveyMatcher;
  /** Delivery keys known to be posted or skipped, with the message's Received time for pruning. */
  readonly #done = new Map<string, number>();
  readonly #slackFailing = new Map<string, Date>();
  readonly #loop: JobLoop;
  #cycle: Promise<PollResult> | undefined;
  /** What the loop's last poll did: it decides how soon the next one runs. */
  #lastLoopResult: PollResult | undefined;
  #outage: Outage | undefined;
  #lastCycleError: string | undefined;
  #lastSuccessfulPoll: Date | undefined;
  #oldestUnposted: Date | undefined;

  constructor(options: InboundRelayOptions) {
    this.#o = options;
    const s = options.settings;
    this.#s = {
      overlapMs: 10 * 60_000,
      conversationHours: 24,
      stopWords: DEFAULT_STOP_WORDS,
      surveyKeywords: {},
      claimLeaseMs: 5 * 60_000,
      postIntervalMs: 1000,
      burstTargetSeconds: 30,
      cursorName: 'inbound',
      ...Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined)),
    } as ResolvedSettings;
    this.#now = options.now ?? (() => new Date());
    const clock = () => this.#now().getTime();
    this.#pacer = new ChannelPacer(this.#s.postIntervalMs, clock, options.sleep ?? sleep);
    this.#surveys = new SurveyMatcher(options.gateway, this.#s.surveyKeywords, clock);
    this.#loop = new JobLoop({
      name: 'inbound relay poll',
      logger: options.logger,
      observer: options.jobObserver,
      run: async () => {
        this.#lastLoopResult = await this.pollOnce();
        return this.#lastLoopResult;
      },
      failed: (result) => !(result as PollResult).ok,
      nextDelayMs: () => this.#nextDelayMs(),
      fallbackDelayMs: this.#s.pollSeconds * 1000,
    });
  }

  /**
   * The Received time of the oldest SMS the last completed poll saw and has not posted (or deliberately
   * skipped) yet; undefined when everything seen is done. Lag is now minus this.
   */
  get oldestUnposted(): Date | undefined {
    return this.#oldestUnposted;
  }

  /** When Receive last answered (for /healthz). */
  get lastSuccessfulPoll(): Date | undefined {
    return this.#lastSuccessfulPoll;
  }

  start(): void {
    this.#loop.start();
  }

  /** Lets the post in flight finish and be recorded, gives back the claims not yet posted, then resolves. */
  async stop(): Promise<void> {
    // The loop's stop aborts its signal (a Receive or a pacer's wait in progress ends) before it waits.
    await this.#loop.stop();
    // A poll started by pollOnce() rather than by the loop is waited for too.
    await this.#cycle;
  }

  /** One poll; a poll already running is joined rather than run twice. Never throws. */
  pollOnce(): Promise<PollResult> {
    this.#cycle ??= this.#run().finally(() => {
      this.#cycle = undefined;
    });
    return this.#cycle;
  }

  /** At once when a poll ran out of time with work left; otherwise the poll interval, backed off in an outage. */
  #nextDelayMs(): number {
    if (this.#lastLoopResult?.more) return 0;
    return backoffSeconds(this.#s.pollSeconds, this.#outage?.failures ?? 0) * 1000;
  }

  async #run(): Promise<PollResult> {
    const result: PollResult = {
      ok: true,
      received: 0,
      posted: 0,
      posts: 0,
      skipped: 0,
      pending: 0,
      rateLimited: 0,
      more: false,
    };
    try {
      await this.#poll(result);
      this.#lastCycleError = undefined;
    } catch (error) {
      // The store retries and reports its own outages; one line per distinct problem is enough here.
      const text = errorText(error);
      if (text !== this.#lastCycleError) this.#o.logger.warn({ err: text }, 'inbound relay poll failed');
      this.#lastCycleError = text;
      result.ok = false;
      result.error ??= text;
    }
    return result;
  }

  async #poll(result: PollResult): Promise<void> {
    const { store } = this.#o;
    const end = this.#now();
    const cursor = await store.inbound.getCursor(this.#s.cursorName);
    const from = cursor ? Date.parse(cursor) : end.getTime();
    const begin = new Date(from - this.#s.overlapMs);
    let messages: InboundMessage[];
    try {
      // A stop does not wait out a Receive the gateway holds (up to its timeout, and a retry after it).
      messages = await this.#o.gateway.receive(
        { range: { begin, end }, state: 'All' },
        { signal: this.#loop.signal },
      );
    } catch (error) {
      if (this.#loop.stopping) {
        result.ok = false;
        result.error = 'stopped while waiting for Receive';
        return;
      }
      this.#gatewayFailed(error, end);
      result.ok = false;
      result.error = errorText(error);
      return;
    }
    this.#gatewayAnswered(end);
    result.received = messages.length;
    const receivedMs = (m: InboundMessage) => m.received?.getTime() ?? end.getTime();
    messages.sort((a, b) => receivedMs(a) - receivedMs(b) || a.id - b.id);

    const keysOf = new Map<InboundMessage, string[]>();
    const deliveries: Delivery[] = [];
    const routes = await store.subscriptions.listByKind('inbound');
    const unrouted: number[] = [];
    for (const message of messages) {
      const channels = channelsFor(routes, message);
      const keys = channels.map((c) => deliveryKey(message.id, c));
      keysOf.set(message, keys);
      if (channels.length === 0) {
        if (this.#done.has(String(message.id))) continue;
        // Opt-outs are kept whatever the routing: the number asked, whether or not a channel watches.
        await this.#optOut(message);
        unrouted.push(message.id);
        this.#done.set(String(message.id), receivedMs(message));
        continue;
      }
      const open = channels.filter((_, i) => !this.#done.has(keys[i]!));
      if (open.length === 0) continue;
      const item = await this.#describe(message);
      for (const channel of open) {
        deliveries.push({
          key: deliveryKey(message.id, channel),
          channel,
          item,
          receivedMs: receivedMs(message),
        });
      }
    }
    if (unrouted.length > 0) {
      result.skipped += unrouted.length;
      this.#o.logger.info(
        { count: unrouted.length, ids: unrouted.slice(0, 20) },
        'inbound SMS matched no subscription; not posted',
      );
    }

    const owned = await claimDeliveries(
      store.inbound,
      deliveries.map((d) => d.key),
      { instanceId: this.#s.instanceId, at: end, leaseMs: this.#s.claimLeaseMs },
    );
    for (const d of deliveries) if (owned.posted.has(d.key)) this.#done.set(d.key, d.receivedMs);
    result.pending += owned.elsewhere.size;
    const byChannel = new Map<string, Delivery[]>();
    for (const d of deliveries) {
      if (!owned.mine.has(d.key)) continue;
      const list = byChannel.get(d.channel) ?? [];
      list.push(d);
      byChannel.set(d.channel, list);
    }
    // Our claims must be posted or given back well before another instance may take them over.
    const deadline = end.getTime() + this.#s.claimLeaseMs / 2;
    await Promise.all([...byChannel].map(([channel, list]) => this.#drain(channel, list, deadline, result)));
    await this.#advanceCursor(messages, keysOf, cursor);
  }

  /** Opt-out and survey facts, worked out once per message and poll. */
  async #describe(message: InboundMessage): Promise<RelayItem> {
    const optedOut = await this.#optOut(message);
    // With the loop's signal: a GetSurveys queued behind held gateway calls must not hold the relay's stop.
    const survey = await this.#surveys.surveyFor(message, this.#loop.signal);
    return { message, optedOut, ...(survey ? { survey } : {}) };
  }

  /** True when the text is a stop word; the number is then on the opt-out list (it may have been already). */
  async #optOut(message: InboundMessage): Promise<boolean> {
    if (!isStopWord(message.text, this.#s.stopWords)) return false;
    const added = await this.#o.store.optOuts.add(message.msisdn, {
      source: 'stop_word',
      at: message.received ?? this.#now(),
    });
    if (added) {
      await this.#o.store.audit.append({
        actor: 'sms',
        action: 'optout_add',
        target: message.msisdn,
        details: { source: 'stop_word', gatewayId: String(message.id) },
        at: this.#now(),
      });
      this.#o.logger.info({ gatewayId: message.id }, 'number opted out by a stop word');
    }
    return true;
  }

  async #drain(channel: string, list: Delivery[], deadline: number, result: PollResult): Promise<void> {
    const { store, poster } = this.#o;
    const hours = this.#s.conversationHours * 3_600_000;
    const threads = new Map<string, string | undefined>();
    for (const d of list) {
      const msisdn = d.item.message.msisdn;
      if (threads.has(msisdn)) continue;
      threads.set(msisdn, await store.inbound.findThread(channel, msisdn, new Date(d.receivedMs - hours)));
    }
    const plan = planPosts(
      list.map((d) => ({
        msisdn: d.item.message.msisdn,
        threadTs: threads.get(d.item.message.msisdn),
        size: poster.size(d.item),
        value: d,
      })),
      {
        maxItems: poster.capacity.items,
        maxSize: poster.capacity.size,
        budget: Math.max(1, Math.floor((this.#s.burstTargetSeconds * 1000) / this.#s.postIntervalMs)),
      },
    );
    const tsOf: string[] = [];
    for (const [index, post] of plan.entries()) {
      const rest = () => plan.slice(index).flatMap((p) => p.entries.map((e) => e.value));
      if (this.#loop.stopping || this.#now().getTime() > deadline) {
        if (!this.#loop.stopping) result.more = true;
        await this.#giveBack(rest(), result);
        return;
      }
      const threadTs =
        post.thread.kind === 'existing'
          ? post.thread.ts
          : post.thread.kind === 'follow'
            ? tsOf[post.thread.post]
            : undefined;
      const outcome = await this.#send(channel, threadTs, post, result);
      if (outcome.kind === 'posted') {
        tsOf[index] = outcome.ts;
        // A restarted thread is recorded as new: the number's next messages reply in it.
        await this.#record(channel, post, outcome.ts, outcome.threadRestarted ? undefined : threadTs, result);
        continue;
      }
      if (outcome.kind === 'unavailable') {
        const skipped = rest();
        for (const d of skipped) this.#done.set(d.key, d.receivedMs);
        result.skipped += skipped.length;
        this.#o.logger.warn(
          {
            channel,
            reason: outcome.reason,
            count: skipped.length,
            ids: skipped.slice(0, 20).map((d) => d.item.message.id),
          },
          'cannot post in this channel; its inbound SMS are skipped (they stay in /sms inbox)',
        );
        await Promise.all(skipped.map((d) => store.inbound.release(d.key).catch(() => false)));
        return;
      }
      if (outcome.kind === 'refused') {
        // Final for this post only: its messages are done with here, and the channel's other posts go on.
        const refused = post.entries.map((e) => e.value);
        for (const d of refused) this.#done.set(d.key, d.receivedMs);
        result.skipped += refused.length;
        this.#o.logger.warn(
          { channel, reason: outcome.reason, ids: refused.map((d) => d.item.message.id) },
          'Slack refused an inbound post for good; its SMS are skipped here (they stay in /sms inbox)',
        );
        await Promise.all(refused.map((d) => store.inbound.release(d.key).catch(() => false)));
        continue;
      }
      await this.#giveBack(rest(), result);
      return;
    }
  }

  async #send(
    channel: string,
    threadTs: string | undefined,
    post: PlannedPost<Delivery>,
    result: PollResult,
  ): Promise<
    | { kind: 'posted'; ts: string; threadRestarted?: boolean }
    | { kind: 'unavailable' | 'refused'; reason: string }
    | { kind: 'failed' | 'stopped' }
  > {
    const request = { items: post.entries.map((e) => e.value.item), shared: post.shared };
    for (let attempt = 1; ; attempt++) {
      try {
        await this.#pacer.turn(channel, this.#loop.signal);
      } catch {
        return { kind: 'stopped' };
      }
      try {
        const { ts, threadRestarted } = await this.#o.poster.post(
          { channel, ...(threadTs ? { threadTs } : {}) },
          request,
        );
        result.posts++;
        const failingSince = this.#slackFailing.get(channel);
        if (failingSince) {
          this.#slackFailing.delete(channel);
          this.#o.logger.info(
            { channel, downMs: this.#now().getTime() - failingSince.getTime() },
            'posting inbound SMS works again',
          );
        }
        return { kind: 'posted', ts, ...(threadRestarted ? { threadRestarted } : {}) };
      } catch (error) {
        if (error instanceof PostRateLimited && attempt < MAX_RATE_LIMITED_TRIES) {
          result.rateLimited++;
          this.#pacer.holdOff(channel, Math.max(error.retryAfterMs, this.#s.postIntervalMs));
          continue;
        }
        if (error instanceof ChannelUnavailable) return { kind: 'unavailable', reason: error.reason };
        if (error instanceof PostRefused) return { kind: 'refused', reason: error.reason };
        if (!this.#slackFailing.has(channel)) {
          this.#slackFailing.set(channel, this.#now());
          this.#o.logger.warn(
            { channel, err: errorText(error) },
            'posting inbound SMS failed; they stay unposted and are tried again next poll',
          );
        }
        return { kind: 'failed' };
      }
    }
  }

  async #record(
    channel: string,
    post: PlannedPost<Delivery>,
    ts: string,
    threadTs: string | undefined,
    result: PollResult,
  ): Promise<void> {
    const { inbound } = this.#o.store;
    const deliveries = post.entries.map((e) => e.value);
    for (const d of deliveries) this.#done.set(d.key, d.receivedMs);
    result.posted += deliveries.length;
    this.#o.onPosted?.(deliveries.length);
    const latest = new Map<string, number>();
    for (const d of deliveries) {
      const msisdn = d.item.message.msisdn;
      latest.set(msisdn, Math.max(latest.get(msisdn) ?? 0, d.receivedMs));
    }
    try {
      await Promise.all(
        deliveries.map((d) => inbound.markPosted(d.key, { channel, ts, threadTs: threadTs ?? null })),
      );
      await Promise.all(
        [...latest].map(([msisdn, at]) => inbound.saveThread(channel, msisdn, threadTs ?? ts, new Date(at))),
      );
    } catch (error) {
      // Posted but maybe not recorded: this process remembers, a restart may post these once more.
      this.#o.logger.error(
        { channel, ts, ids: deliveries.map((d) => d.item.message.id), err: errorText(error) },
        'inbound SMS posted but not recorded',
      );
    }
  }

  /** Unposted claims go back at once, so another instance (or our next poll) can post them. */
  async #giveBack(deliveries: Delivery[], result: PollResult): Promise<void> {
    result.pending += deliveries.length;
    await Promise.all(deliveries.map((d) => this.#o.store.inbound.release(d.key).catch(() => false)));
  }

  async #advanceCursor(
    messages: InboundMessage[],
    keysOf: Map<InboundMessage, string[]>,
    previous: string | undefined,
  ): Promise<void> {
    let to: number | undefined;
    let oldestUnposted: Date | undefined;
    for (const message of messages) {
      const keys = keysOf.get(message) ?? [];
      const done =
        keys.length === 0 ? this.#done.has(String(message.id)) : keys.every((k) => this.#done.has(k));
      if (!done) {
        // Sorted by Received: the first one not done is the oldest waiting.
        oldestUnposted = message.received ?? this.#now();
        break;
      }
      if (message.received) to = message.received.getTime();
    }
    this.#oldestUnposted = oldestUnposted;
    if (to === undefined || (previous !== undefined && to <= Date.parse(previous))) return;
    const { inbound } = this.#o.store;
    // Another instance may have moved it further meanwhile; the larger value is true for both.
    const stored = await inbound.getCursor(this.#s.cursorName);
    if (stored === undefined || to > Date.parse(stored)) {
      await inbound.setCursor(this.#s.cursorName, new Date(to).toISOString(), this.#now());
    }
    const keepFrom = Math.max(to, stored ? Date.parse(stored) : 0) - this.#s.overlapMs - 60_000;
    for (const [key, at] of this.#done) if (at < keepFrom) this.#done.delete(key);
  }

  #gatewayFailed(error: unknown, at: Date): void {
    if (this.#outage) {
      this.#outage.failures++;
      this.#o.logger.debug({ err: errorText(error) }, 'inbound poll: gateway still unavailable');
      return;
    }
    this.#outage = { since: at, failures: 1 };
    this.#o.logger.warn(
      { err: errorText(error) },
      'inbound poll: gateway unavailable; backing off, and catching up once it answers',
    );
  }

  #gatewayAnswered(at: Date): void {
    this.#lastSuccessfulPoll = at;
    if (!this.#outage) return;
    this.#o.logger.info(
      {
        downSeconds: Math.round((at.getTime() - this.#outage.since.getTime()) / 1000),
        failedPolls: this.#outage.failures,
      },
      'inbound poll: gateway answers again; catching up',
    );
    this.#outage = undefined;
  }
}
