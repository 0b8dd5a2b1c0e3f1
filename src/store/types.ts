import type { Logger } from '../log.js';
import type { PackedNumbers } from '../sms/packed-numbers.js';

export type StoreKind = 'sqlite' | 'postgres';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export interface StoreOptions {
  logger?: Logger;
  /** PostgreSQL only: the schema holding every table (created if missing). Default: the connection's current schema. */
  schema?: string;
  /** PostgreSQL only: shown in pg_stat_activity so operators can tell instances apart. */
  applicationName?: string;
  /** PostgreSQL only: pool size. */
  poolSize?: number;
  /** How long a failing connection is retried before an operation gives up. */
  retry?: RetryOptions;
}

export interface RetryOptions {
  /** Attempts after the first one. */
  retries?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
}

export interface Health {
  ok: boolean;
  detail?: string;
}

// ---- outbox ----

/**
 * `scheduled`: waits for its time (due_at); `held`: its time passed while nothing ran, longer ago than the
 * grace, and it waits for its author to send it now or cancel it. Both become `pending` when claimed.
 */
export type OutboxState = 'scheduled' | 'held' | 'pending' | 'submitted' | 'failed' | 'unknown' | 'cancelled';

/** What a scheduled send carries into the send: what is really sent, as the checks at sending left it. */
export interface ScheduledClaim {
  /** `scheduled` for the job; `scheduled` and `held` for a person pressing Send now. */
  from: readonly ('scheduled' | 'held')[];
  /** Only a send due by then (the job); unset: whenever it is due (Send now). */
  dueBy?: Date;
  /**
   * Only if the row is as it was read (its `updatedAt`): an edit saved between the read and the claim wins,
   * and the send built from the old content is not made.
   */
  unchangedSince?: Date;
  at: Date;
  owner: string | null;
  leaseUntil: Date | null;
  recipients: string[];
  segments: number;
  estimatedCost: number | null;
  payload: JsonValue;
}

/** What an edit of a scheduled send changes; it becomes `scheduled` again (a held one too). */
export interface ScheduledUpdate {
  sender: string | null;
  recipients: string[];
  text: string;
  segments: number;
  encoding: string;
  estimatedCost: number | null;
  payload: JsonValue;
  dueAt: Date;
  at: Date;
}

export interface SendIntent {
  idempotencyKey: string;
  slackUser: string;
  /** Where the request came from and where the delivery card goes. */
  channel?: string | null;
  sender?: string | null;
  recipients: string[];
  text: string;
  segments: number;
  encoding: string;
  estimatedCost?: number | null;
  /** Anything else the card needs (template, schedule…). */
  payload?: JsonValue;
  at?: Date;
  /** The instance about to call the gateway, and until when its claim on this pending send holds. */
  owner?: string | null;
  leaseUntil?: Date | null;
  /** A chunk of a campaign: which one, and its number (from 0). */
  campaign?: { id: number; chunk: number } | null;
}

export interface DeliveryProgress {
  delivered: number;
  undelivered: number;
  count: number;
  /** The gateway's own status word, shown on the card. */
  state: string | null;
  final: boolean;
  lastPolledAt: Date | null;
  nextPollAt: Date | null;
}

export interface OutboxRow {
  id: number;
  idempotencyKey: string;
  slackUser: string;
  channel: string | null;
  messageTs: string | null;
  sender: string | null;
  recipients: string[];
  recipientCount: number;
  text: string;
  segments: number;
  encoding: string;
  estimatedCost: number | null;
  payload: JsonValue | null;
  state: OutboxState;
  /** The gateway MessageId, a 64-bit integer kept exact as decimal text. */
  messageId: string | null;
  reason: string | null;
  createdAt: Date;
  updatedAt: Date;
  submittedAt: Date | null;
  delivery: DeliveryProgress;
  cancelledAt: Date | null;
  cancelledBy: string | null;
  /** When texts or numbers were taken out (retention purge, `/sms forget`); null while all are kept. */
  redactedAt: Date | null;
  /** While pending: the instance whose gateway call is in flight, and until when it last said it is alive. */
  owner: string | null;
  leaseUntil: Date | null;
  /** A scheduled send: when it is due (kept once sent, for its card). */
  dueAt: Date | null;
  /** A chunk of a campaign: the campaign's id and the chunk's number (from 0); null for an ordinary send. */
  campaignId: number | null;
  campaignChunk: number | null;
}

/**
 * When a pending send counts as abandoned: its owner's lease ran out before `now`, or, for a row written
 * before sends carried a lease, it was created before `unleasedBefore`.
 */
export interface AbandonedTest {
  now: Date;
  unleasedBefore: Date;
}

/** What `forgetNumber` took out of the outbox. */
export interface ForgottenSends {
  /** Sends that had the number among their recipients. */
  sends: number;
  /** Of those, sends to that number alone, whose text went too. */
  texts: number;
}

export interface ProgressUpdate {
  delivered: number;
  undelivered: number;
  count: number;
  state: string | null;
  final: boolean;
  nextPollAt: Date | null;
  lastPolledAt: Date;
}

export interface OutboxRepo {
  /** Idempotent on the key: a repeated intent returns the first row with created=false. */
  createPending(intent: SendIntent): Promise<{ row: OutboxRow; created: boolean }>;
  /** A send to be made at `dueAt`: state `scheduled`. Idempotent on the key, as createPending. */
  createScheduled(intent: SendIntent & { dueAt: Date }): Promise<{ row: OutboxRow; created: boolean }>;
  /**
   * The one claim of a scheduled send: `scheduled` (or `held`) to `pending`, with the lease of the instance
   * that sends it, in one conditional update. Exactly one caller gets the row back; the others undefined.
   */
  claimScheduled(id: number, claim: ScheduledClaim): Promise<OutboxRow | undefined>;
  /** `scheduled` to `held`, only when it was due before `lateBefore`; true when this call made the change. */
  holdLate(id: number, lateBefore: Date, reason: string, at: Date): Promise<boolean>;
  /** An edit: from `scheduled` or `held` back to `scheduled` with the new content and time. */
  reschedule(id: number, update: ScheduledUpdate): Promise<boolean>;
  /** From `scheduled` or `held` to `cancelled` (final); true when this call made the change. */
  cancelScheduled(id: number, by: string, at: Date): Promise<boolean>;
  /** Sends still `scheduled` and due by `now`, soonest first. A plain read: the claim decides. */
  dueScheduled(now: Date, limit: number): Promise<OutboxRow[]>;
  /** Sends waiting to go (`scheduled` or `held`), soonest first. */
  waitingScheduled(limit: number): Promise<OutboxRow[]>;
  /** From `pending` only; true when this call made the change. nextPollAt defaults to `at` (poll at once). */
  markSubmitted(
    id: number,
    messageId: string | bigint,
    options?: { at?: Date; nextPollAt?: Date },
  ): Promise<boolean>;
  /** From `pending` only. */
  markFailed(id: number, reason: string, at?: Date): Promise<boolean>;
  /** From `pending` only. */
  markUnknown(id: number, reason: string, at?: Date): Promise<boolean>;
  /** Pushes the lease of a send still `pending` and owned by `owner`; false once it is not. */
  renewLease(id: number, owner: string, until: Date): Promise<boolean>;
  /** Pending sends that count as abandoned (see AbandonedTest), oldest first. */
  abandonedPending(test: AbandonedTest, limit: number): Promise<OutboxRow[]>;
  /** `pending` to `unknown`, only while the send still counts as abandoned: a lease renewed meanwhile wins. */
  markAbandoned(id: number, reason: string, test: AbandonedTest): Promise<boolean>;
  /**
   * `pending` back to `held` (owner and lease given back), only while it still counts as abandoned: for a claim
   * that never calls the gateway itself (a scheduled send that goes as a campaign), which the user may send now.
   */
  holdAbandoned(id: number, reason: string, test: AbandonedTest): Promise<boolean>;
  /**
   * A MessageId for a send with none yet that was `unknown` (or marked not sent): it becomes `submitted`
   * and is polled. `note` says how it was resolved. True when this call made the change.
   */
  resolveSubmitted(
    id: number,
    messageId: string | bigint,
    options: { note: string; at?: Date; nextPollAt?: Date },
  ): Promise<boolean>;
  /** `unknown` to `failed`: a person established that it was not sent. True when this call made the change. */
  resolveNotSent(id: number, reason: string, at?: Date): Promise<boolean>;
  /**
   * From `pending` or a `submitted` send not yet final; true when this call made the change. A batch with a
   * MessageId is due for one more poll at once (what the gateway delivered and cancelled), then final.
   */
  markCancelled(id: number, by: string, at?: Date): Promise<boolean>;
  /**
   * A scheduled send whose campaign exists, closed (`cancelled`, final: its chunks are the sends), from its claim
   * (`pending`) or from `held` (the tracker took the claim back while the campaign was being created).
   */
  closeAsCampaign(id: number, by: string, at?: Date): Promise<boolean>;
  get(id: number): Promise<OutboxRow | undefined>;
  getByKey(idempotencyKey: string): Promise<OutboxRow | undefined>;
  /** The newest send with this MessageId. */
  getByMessageId(messageId: string | bigint): Promise<OutboxRow | undefined>;
  setCardMessage(id: number, channel: string, ts: string): Promise<boolean>;
  /**
   * Submitted (or cancelled, awaiting its last report), not final, next poll due, soonest first. A plain read:
   * several instances may see the same rows.
   */
  dueForPoll(now: Date, limit: number): Promise<OutboxRow[]>;
  /** Like dueForPoll, but pushes each returned row's next poll to leaseUntil in the same statement, so
   *  concurrent instances never get the same row. */
  claimDueForPoll(now: Date, limit: number, leaseUntil: Date): Promise<OutboxRow[]>;
  /** Ignored (false) once the send is final, so a late poll never overwrites a final result. */
  recordProgress(id: number, progress: ProgressUpdate): Promise<boolean>;
  recent(limit: number): Promise<OutboxRow[]>;
  sentSince(since: Date): Promise<OutboxRow[]>;
  /** How many sends are in each state; `final` splits submitted batches still tracked from finished ones. */
  countByState(): Promise<Array<{ state: OutboxState; final: boolean; count: number }>>;
  /**
   * Retention: empties the text, the recipients and any personalised envelopes of every send created
   * before `before` that is no longer in flight (pending, or submitted and not final, keep theirs).
   * Recipient counts, segments, cost, states, ids and delivery figures stay. Returns how many changed.
   */
  purgeContentBefore(before: Date, at?: Date): Promise<number>;
  /**
   * Takes one number out of every send: out of its recipients and personalised envelopes, and the text
   * of a send that went to that number alone. Recipient counts stay.
   */
  forgetNumber(msisdn: string, at?: Date): Promise<ForgottenSends>;
}

// ---- inbound ----

export interface PostedAt {
  channel: string;
  ts: string;
  threadTs?: string | null;
}

export interface InboundRow {
  gatewayId: string;
  claimedBy: string;
  claimedAt: Date;
  posted: boolean;
  channel: string | null;
  ts: string | null;
  threadTs: string | null;
  postedAt: Date | null;
}

export interface InboundRepo {
  /** True for exactly one caller per gateway id. With leaseMs, a claim older than that which never got
   *  posted can be taken over (its holder is presumed dead). */
  claim(
    gatewayId: string | bigint,
    instanceId: string,
    options?: { leaseMs?: number; at?: Date },
  ): Promise<boolean>;
  /** claim() for a batch from one gateway poll, in as few statements as the batch needs: the Ids won. */
  claimMany(gatewayIds: Iterable<string | bigint>, instanceId: string, at?: Date): Promise<Set<string>>;
  markPosted(gatewayId: string | bigint, where: PostedAt, at?: Date): Promise<boolean>;
  /** Gives up a claim that was not posted, so it can be claimed again. */
  release(gatewayId: string | bigint): Promise<boolean>;
  isPosted(gatewayId: string | bigint): Promise<boolean>;
  get(gatewayId: string | bigint): Promise<InboundRow | undefined>;
  getCursor(name: string): Promise<string | undefined>;
  setCursor(name: string, value: string, at?: Date): Promise<void>;
  /** The thread used for this number in this channel, if it was active at or after `since`. */
  findThread(channel: string, msisdn: string, since: Date): Promise<string | undefined>;
  saveThread(channel: string, msisdn: string, threadTs: string, at: Date): Promise<void>;
  /** The numbers whose current conversation in `channel` is the thread `threadTs` (several for a shared post). */
  numbersInThread(channel: string, threadTs: string): Promise<string[]>;
  recent(limit: number): Promise<InboundRow[]>;
  /** Retention: forgets conversation threads (number → Slack thread) last active before `before`. */
  purgeThreadsBefore(before: Date): Promise<number>;
  /** Forgets every conversation thread of this number, in every channel; returns how many. */
  forgetNumber(msisdn: string): Promise<number>;
}

// ---- campaigns ----

/**
 * `running`: chunks are being submitted; `stopped`: a chunk was refused or its fate is unknown, the rest
 * waits for a person; `cancelled`: by a person; `done`: every chunk went through the send path.
 */
export type CampaignState = 'running' | 'stopped' | 'cancelled' | 'done';

export interface CampaignIntent {
  idempotencyKey: string;
  slackUser: string;
  channel: string;
  threadTs?: string | null;
  sender: string;
  text: string;
  /** The validated send plan, as the send path takes it. */
  plan: JsonValue;
  recipientCount: number;
  segments: number;
  estimatedCost?: number | null;
  chunkSize: number;
  at?: Date;
}

export interface Campaign {
  id: number;
  idempotencyKey: string;
  slackUser: string;
  actingUser: string;
  channel: string;
  threadTs: string | null;
  messageTs: string | null;
  sender: string;
  text: string;
  recipientCount: number;
  segments: number;
  estimatedCost: number | null;
  chunkSize: number;
  chunkCount: number;
  /** 0, then one more each time a person sends the rest. */
  round: number;
  /** The chunk to submit next in this round; chunkCount once every chunk went. */
  cursor: number;
  state: CampaignState;
  stopReason: string | null;
  /** The next chunk goes no earlier than this (the pace). */
  nextAt: Date;
  owner: string | null;
  leaseUntil: Date | null;
  cancelledBy: string | null;
  cancelledAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  redactedAt: Date | null;
}

/** What the card and the runner need of one chunk's outbox row, without its numbers. */
export interface CampaignChunkRow {
  outboxId: number;
  chunk: number;
  idempotencyKey: string;
  state: OutboxState;
  messageId: string | null;
  recipientCount: number;
  delivered: number;
  undelivered: number;
  deliveryCount: number;
  final: boolean;
  reason: string | null;
}

export interface CampaignsRepo {
  /** Idempotent on the key: a repeated intent returns the first campaign with created=false. */
  create(intent: CampaignIntent): Promise<{ campaign: Campaign; created: boolean }>;
  get(id: number): Promise<Campaign | undefined>;
  /** The campaign created under this idempotency key, if any. */
  byKey(idempotencyKey: string): Promise<Campaign | undefined>;
  /** The stored plan, as given to create(); undefined once purged or for an unknown id. */
  plan(id: number): Promise<JsonValue | undefined>;
  /** Running campaigns due at `now` that `owner` may claim: unowned, its own, or whose lease ran out. */
  due(now: Date, owner: string, limit: number): Promise<Campaign[]>;
  /**
   * The claim of chunk `chunk` (the cursor) of a running campaign, due at `now`, for `owner` until `leaseUntil`:
   * true for exactly one caller while the claim holds. Unowned, owned by `owner`, or lease run out.
   */
  claimChunk(id: number, chunk: number, owner: string, now: Date, leaseUntil: Date): Promise<boolean>;
  /** Keeps the claim while a chunk's gateway call is in flight; false once `owner` no longer holds it. */
  renewLease(id: number, owner: string, until: Date): Promise<boolean>;
  /** Past chunk `chunk`: the cursor moves on (only from that chunk) and the claim is given back. */
  advance(id: number, chunk: number, owner: string, nextAt: Date): Promise<boolean>;
  /** Gives back a claim without moving (a chunk still in flight elsewhere, a stop of this instance). */
  release(id: number, owner: string): Promise<boolean>;
  /** `running` to `done` once the cursor passed the last chunk. */
  finish(id: number, at?: Date): Promise<boolean>;
  /** `running` to `stopped`, with the reason. */
  stop(id: number, reason: string, at?: Date): Promise<boolean>;
  /** `stopped` or `cancelled` to `running` for one more round from the first chunk, sent as `by`; false otherwise. */
  resume(id: number, by: string, at?: Date): Promise<boolean>;
  /** Any state but `cancelled` to `cancelled`; false when it already was. */
  cancel(id: number, by: string, at?: Date): Promise<boolean>;
  setCardMessage(id: number, channel: string, ts: string): Promise<boolean>;
  /** Every chunk row of the campaign (several for a chunk sent again in a later round), by id. */
  chunks(id: number): Promise<CampaignChunkRow[]>;
  /** Retention: campaigns no longer running, created before `before`, lose their plan and text. */
  purgeContentBefore(before: Date, at?: Date): Promise<number>;
  /**
   * `/sms forget`: the number (and its personalised text) is blanked in every campaign's plan, in place, so
   * the chunks keep their positions; a chunk sends to the numbers left. Returns how many campaigns held it.
   */
  forgetNumber(msisdn: string, at?: Date): Promise<number>;
}

// ---- subscriptions ----

export type DigestKind = 'balance' | 'stats' | 'surveys';

export type SubscriptionSpec =
  | { kind: 'inbound'; keyword?: string | null; recipient?: string | null }
  | { kind: 'digest'; digest: DigestKind; cron: string; timezone: string }
  | { kind: 'low_balance'; threshold: number }
  /** Last month's report, posted on the first day of each month in `timezone`; counts, or texts and numbers too. */
  | { kind: 'report'; detail: 'counts' | 'full'; timezone: string };

export type SubscriptionKind = SubscriptionSpec['kind'];

export interface SubscriptionMeta {
  id: number;
  channel: string;
  createdBy: string;
  createdAt: Date;
  alertState: string | null;
  /** Low-balance alerts: when the alert was last posted. */
  alertedAt: Date | null;
}

export type Subscription = SubscriptionMeta & SubscriptionSpec;

export interface SubscriptionsRepo {
  /** Idempotent: the same channel and spec give the same subscription, created=false after the first. */
  add(
    channel: string,
    spec: SubscriptionSpec,
    createdBy: string,
    at?: Date,
  ): Promise<{ subscription: Subscription; created: boolean }>;
  remove(id: number): Promise<boolean>;
  get(id: number): Promise<Subscription | undefined>;
  list(): Promise<Subscription[]>;
  listByChannel(channel: string): Promise<Subscription[]>;
  listByKind<K extends SubscriptionKind>(
    kind: K,
  ): Promise<Array<SubscriptionMeta & Extract<SubscriptionSpec, { kind: K }>>>;
  /** Moves the alert state from `from` to `to` and sets alertedAt to `at`; true for the one caller that
   *  made the move. */
  setAlertState(id: number, change: { from: string | null; to: string; at: Date | null }): Promise<boolean>;
}

// ---- job runs ----

export interface JobRun {
  job: string;
  slot: string;
  instanceId: string;
  claimedAt: Date;
}

export interface JobRunsRepo {
  /** True for exactly one caller per (job, slot). A Date slot is stored as its ISO string. */
  claim(job: string, slot: Date | string, instanceId: string, at?: Date): Promise<boolean>;
  lastRun(job: string): Promise<JobRun | undefined>;
  /** Newest first. */
  runs(job: string, limit: number): Promise<JobRun[]>;
  get(job: string, slot: Date | string): Promise<JobRun | undefined>;
  /**
   * Takes `count` of the numbered slots `<series>:1` … `<series>:<limit>` of a job for one owner, all or none,
   * atomically across instances, in a fixed number of queries (not one per slot). `claimed` when taken, or when
   * the owner already holds slots of the series (a retry of the same owner takes nothing more); not when fewer
   * than `count` are left. `taken`: how many of the series' slots are taken, this claim's included.
   */
  claimNumbered(
    job: string,
    series: string,
    count: number,
    limit: number,
    instanceId: string,
    at?: Date,
  ): Promise<{ claimed: boolean; taken: number }>;
  /**
   * Gives back the numbered slots of a series that one owner holds (what it claimed for work that then did not
   * happen), for others to take; returns how many.
   */
  releaseNumbered(job: string, series: string, instanceId: string): Promise<number>;
  /** Forgets claims made before `before`, except each job's latest (what lastRun answers); returns how many. */
  pruneBefore(before: Date): Promise<number>;
}

// ---- permissions ----

export type Role = 'admin' | 'sender' | 'viewer';

export interface Permission {
  slackUser: string;
  role: Role;
  grantedBy: string;
  grantedAt: Date;
}

export interface PermissionsRepo {
  /** Sets the role, replacing any earlier one. */
  grant(slackUser: string, role: Role, grantedBy: string, at?: Date): Promise<Permission>;
  revoke(slackUser: string): Promise<boolean>;
  getRole(slackUser: string): Promise<Role | undefined>;
  get(slackUser: string): Promise<Permission | undefined>;
  list(): Promise<Permission[]>;
}

// ---- audit ----

export interface AuditInput {
  actor: string;
  action: string;
  target?: string | null;
  details?: JsonValue;
  at?: Date;
}

export interface AuditEntry {
  id: number;
  at: Date;
  actor: string;
  action: string;
  target: string | null;
  details: JsonValue | null;
}

/** Append-only by design: there is no way to change or remove an entry. */
export interface AuditRepo {
  append(entry: AuditInput): Promise<AuditEntry>;
  /** Newest first. */
  recent(limit: number): Promise<AuditEntry[]>;
}

// ---- opt-outs ----

export type OptOutSource = 'stop_word' | 'manual';

export interface OptOut {
  msisdn: string;
  since: Date;
  source: OptOutSource;
  by: string | null;
}

export interface OptOutsRepo {
  /** Idempotent: true only when the number was not opted out yet (the first record is kept). */
  add(msisdn: string, entry: { source: OptOutSource; by?: string | null; at?: Date }): Promise<boolean>;
  remove(msisdn: string): Promise<boolean>;
  has(msisdn: string): Promise<boolean>;
  /** The subset of `msisdns` that opted out. */
  hasMany(msisdns: Iterable<string>): Promise<Set<string>>;
  /** The same for a long list kept packed (a file's numbers), without making a string of each. */
  hasManyPacked(numbers: PackedNumbers): Promise<Set<string>>;
  list(): Promise<OptOut[]>;
}

// ---- recipient lists and templates ----

export interface RecipientList {
  id: number;
  name: string;
  owner: string;
  members: string[];
  createdAt: Date;
  updatedAt: Date;
}

export interface Template {
  id: number;
  name: string;
  owner: string;
  content: string;
  createdAt: Date;
  updatedAt: Date;
}

/** Named things with one owner and a body; names are unique. */
export interface NamedRepo<T, C> {
  /** created=false (and the existing row) when the name is taken. */
  create(input: { name: string; owner: string; at?: Date } & C): Promise<{ row: T; created: boolean }>;
  get(name: string): Promise<T | undefined>;
  list(): Promise<T[]>;
  update(name: string, change: C, at?: Date): Promise<boolean>;
  delete(name: string): Promise<boolean>;
}

export type RecipientListsRepo = NamedRepo<RecipientList, { members: string[] }> & {
  /** Takes this number out of every saved list (a list may end up empty); the names of the lists changed. */
  removeMember(msisdn: string, at?: Date): Promise<string[]>;
};
export type TemplatesRepo = NamedRepo<Template, { content: string }>;

// ---- drafts ----

export interface Draft {
  key: string;
  owner: string;
  payload: JsonValue;
  /** The long list of numbers kept beside the payload, as it was put (absent when none was). */
  numbers?: string;
  expiresAt: Date;
  createdAt: Date;
}

/** State kept between two interactions, which another instance may serve; it expires on its own. */
export interface DraftsRepo {
  /**
   * Stores or replaces the draft under `key`. `numbers`: a long list of numbers (a comma between them) kept
   * beside the JSON as the one ASCII string it is, not written into the JSON; found by forgetNumber too.
   */
  put(key: string, owner: string, payload: JsonValue, expiresAt: Date, numbers?: string): Promise<void>;
  /** The draft, unless it is missing or expired at `now`. */
  get(key: string, now: Date): Promise<Draft | undefined>;
  /** Removes and returns an unexpired draft in one statement: of two confirm clicks, only one gets it. */
  take(key: string, now: Date): Promise<Draft | undefined>;
  delete(key: string): Promise<boolean>;
  /** Forgets drafts expired at `now`; returns how many. */
  pruneExpired(now: Date): Promise<number>;
  /** Retention: forgets drafts created before `before`, expired or not; returns how many. */
  purgeCreatedBefore(before: Date): Promise<number>;
  /** Forgets every draft that holds this number; returns how many. */
  forgetNumber(msisdn: string): Promise<number>;
}

// ---- digest memory ----

// ---- app settings ----

export interface AppSetting {
  value: string;
  updatedBy: string;
  updatedAt: Date;
}

/** Switches admins set from Slack (e.g. `workflows`), shared by every instance; no row means the default. */
export interface AppSettingsRepo {
  get(name: string): Promise<AppSetting | undefined>;
  /** Stores or replaces the setting. */
  set(name: string, value: string, by: string, at?: Date): Promise<void>;
}

/** What each digest subscription remembers of its last posted digest, shared by every instance. */
export interface DigestMemoryRepo {
  /** The memory as it was last written, or undefined before the subscription's first digest. */
  get(subscriptionId: number): Promise<string | undefined>;
  /** Stores or replaces the subscription's memory. */
  put(subscriptionId: number, memory: string, at?: Date): Promise<void>;
}

// ---- reports ----

/** A period of a report: [from, to). */
export interface ReportRange {
  from: Date;
  to: Date;
}

/** Where a page of sends ended: the next page starts after it (made at, then id). */
export interface ReportCursor {
  madeAt: number;
  id: number;
}

/** What a report says of a campaign beside its chunks. */
export interface ReportCampaign {
  id: number;
  sender: string;
  /** '' once purged. */
  text: string;
  chunkCount: number;
  recipientCount: number;
  state: string;
  redactedAt: Date | null;
}

/** The reads of `/sms report`: sends by the time they were made, in pages a large month never holds at once. */
export interface ReportsRepo {
  /**
   * Sends made in the range (Submit, else due, else written), by that time then id, after `after`. Sends still
   * waiting for their time are left out, and so is a scheduled send that went as a campaign (its chunks count).
   */
  sendsIn(
    range: ReportRange,
    after: ReportCursor | null,
    limit: number,
  ): Promise<Array<{ row: OutboxRow; cursor: ReportCursor }>>;
  countSendsIn(range: ReportRange): Promise<number>;
  /** Every chunk row of a campaign, by chunk (a chunk sent again in a later round has several). */
  sendsOfCampaign(campaignId: number): Promise<Array<{ row: OutboxRow; cursor: ReportCursor }>>;
  campaigns(ids: Iterable<number>): Promise<ReportCampaign[]>;
}

// ---- gateway ids ----

export interface GatewayIdsRepo {
  /**
   * The highest MessageId any send holds and the highest Id of an inbound SMS ever claimed: a simulated gateway
   * that lost its own state counts on from above them (an inbound Id seen again is taken as already posted).
   */
  highest(): Promise<{ messageId?: bigint; inboundId?: bigint }>;
}

// ---- forgotten numbers ----

/**
 * Numbers forgotten with `/sms forget`, held as a keyed hash (never the number), so that what the gateway still
 * lists from them (its Receive list) is left out of what smsops shows.
 */
export interface ForgottenNumbersRepo {
  /** Remembers that `msisdn` (gateway form) was forgotten; again is a no-op. */
  add(msisdn: string, at?: Date): Promise<void>;
  /** Those of `msisdns` (gateway form) that were forgotten. */
  forgottenAmong(msisdns: readonly string[]): Promise<Set<string>>;
}

// ---- the store ----

export interface Store {
  readonly kind: StoreKind;
  /** DATABASE_URL with any password masked, for log lines. */
  readonly target: string;
  readonly outbox: OutboxRepo;
  readonly campaigns: CampaignsRepo;
  readonly inbound: InboundRepo;
  readonly subscriptions: SubscriptionsRepo;
  readonly jobRuns: JobRunsRepo;
  readonly permissions: PermissionsRepo;
  readonly audit: AuditRepo;
  readonly optOuts: OptOutsRepo;
  readonly recipientLists: RecipientListsRepo;
  readonly templates: TemplatesRepo;
  readonly drafts: DraftsRepo;
  readonly digestMemory: DigestMemoryRepo;
  readonly appSettings: AppSettingsRepo;
  readonly gatewayIds: GatewayIdsRepo;
  readonly reports: ReportsRepo;
  readonly forgottenNumbers: ForgottenNumbersRepo;
  health(): Promise<Health>;
  /**
   * After `/sms forget` or a retention purge: takes what was erased off the disk too, not only out of queries.
   * SQLite: the WAL is checkpointed and truncated (secure_delete has zeroed the pages); false when a reader kept
   * part of it. PostgreSQL: nothing to do from here (dead rows go when the operator's VACUUM runs): true.
   */
  eraseResidue(): Promise<boolean>;
  close(): Promise<void>;
}
