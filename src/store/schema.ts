import type { Generated } from 'kysely';

// Column conventions shared by both dialects so one query path serves both:
// times are epoch milliseconds (bigint), flags are 0/1 integers, structured values are JSON text,
// and gateway ids (64-bit) are decimal text so they stay exact.

export interface OutboxTable {
  id: Generated<number>;
  idempotency_key: string;
  create_token: string;
  slack_user: string;
  channel: string | null;
  message_ts: string | null;
  sender: string | null;
  recipients: string;
  recipient_count: number;
  body: string;
  segments: number;
  encoding: string;
  estimated_cost: number | null;
  payload: string | null;
  state: string;
  message_id: string | null;
  reason: string | null;
  created_at: number;
  updated_at: number;
  submitted_at: number | null;
  delivered: number;
  undelivered: number;
  delivery_count: number;
  delivery_state: string | null;
  final: number;
  last_polled_at: number | null;
  next_poll_at: number | null;
  cancelled_at: number | null;
  cancelled_by: string | null;
  /** When texts or numbers were taken out (retention purge, `/sms forget`); null while all are kept. */
  redacted_at: number | null;
  owner: string | null;
  lease_until: number | null;
  /** A scheduled (or held) send: when it is due. */
  due_at: number | null;
  /** A chunk of a campaign: the campaign and the chunk's number (from 0); null for an ordinary send. */
  campaign_id: number | null;
  campaign_chunk: number | null;
}

/** A send larger than one gateway call: the plan, and the cursor of the chunk to submit next. */
export interface CampaignsTable {
  id: Generated<number>;
  idempotency_key: string;
  create_token: string;
  slack_user: string;
  /** Who the next chunks are sent as: the author, or whoever pressed Send the rest. */
  acting_user: string;
  channel: string;
  thread_ts: string | null;
  message_ts: string | null;
  sender: string;
  body: string;
  /** '' since 0011: the plan is in campaign_plans, so that updates of this row stay small (but see 0011). */
  plan: string;
  recipient_count: number;
  segments: number;
  estimated_cost: number | null;
  chunk_size: number;
  chunk_count: number;
  round: number;
  cursor: number;
  state: string;
  stop_reason: string | null;
  next_at: number;
  owner: string | null;
  lease_until: number | null;
  cancelled_by: string | null;
  cancelled_at: number | null;
  created_at: number;
  updated_at: number;
  redacted_at: number | null;
}

export interface InboundMessagesTable {
  gateway_id: string;
  claim_token: string;
  claimed_by: string;
  claimed_at: number;
  channel: string | null;
  ts: string | null;
  thread_ts: string | null;
  posted_at: number | null;
}

export interface RelayCursorsTable {
  name: string;
  value: string;
  updated_at: number;
}

export interface InboundThreadsTable {
  channel: string;
  msisdn: string;
  thread_ts: string;
  last_at: number;
}

export interface SubscriptionsTable {
  id: Generated<number>;
  channel: string;
  kind: string;
  filter_key: string;
  config: string;
  alert_state: string | null;
  alerted_at: number | null;
  created_by: string;
  created_at: number;
}

export interface JobRunsTable {
  job: string;
  slot: string;
  instance_id: string;
  claim_token: string;
  claimed_at: number;
}

export interface PermissionsTable {
  slack_user: string;
  role: string;
  granted_by: string;
  granted_at: number;
}

export interface AuditLogTable {
  id: Generated<number>;
  entry_token: string;
  at: number;
  actor: string;
  action: string;
  target: string | null;
  details: string | null;
}

export interface OptOutsTable {
  msisdn: string;
  since: number;
  source: string;
  added_by: string | null;
}

export interface RecipientListsTable {
  id: Generated<number>;
  name: string;
  owner: string;
  /** JSON array of numbers. */
  content: string;
  created_at: number;
  updated_at: number;
}

export interface TemplatesTable {
  id: Generated<number>;
  name: string;
  owner: string;
  content: string;
  created_at: number;
  updated_at: number;
}

/** Short-lived state between two Slack interactions (e.g. a send awaiting confirmation). */
export interface DraftsTable {
  key: string;
  owner: string;
  payload: string;
  /** A long list of numbers beside the payload, a comma between them (migration 0010); null for most drafts. */
  numbers: string | null;
  expires_at: number;
  created_at: number;
}

/** What a digest subscription remembers of its last posted digest (JSON written by the digest domain). */
export interface DigestMemoryTable {
  subscription_id: number;
  memory: string;
  updated_at: number;
}

export interface AppSettingsTable {
  name: string;
  value: string;
  updated_by: string;
  updated_at: number;
}

export interface ForgottenNumbersTable {
  /** HMAC-SHA256 of the number (gateway form) under the install's key, hex. */
  hash: string;
  forgotten_at: number;
}

/** A campaign's plan, written with it and kept apart from its often-updated row (migration 0011). */
export interface CampaignPlansTable {
  campaign_id: number;
  /** The validated send plan as JSON; '' once purged. */
  plan: string;
}

export interface Database {
  outbox: OutboxTable;
  campaigns: CampaignsTable;
  campaign_plans: CampaignPlansTable;
  inbound_messages: InboundMessagesTable;
  relay_cursors: RelayCursorsTable;
  inbound_threads: InboundThreadsTable;
  subscriptions: SubscriptionsTable;
  job_runs: JobRunsTable;
  permissions: PermissionsTable;
  audit_log: AuditLogTable;
  opt_outs: OptOutsTable;
  recipient_lists: RecipientListsTable;
  templates: TemplatesTable;
  drafts: DraftsTable;
  digest_memory: DigestMemoryTable;
  app_settings: AppSettingsTable;
  forgotten_numbers: ForgottenNumbersTable;
}
