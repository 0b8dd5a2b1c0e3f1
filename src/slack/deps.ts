import type { CountryCode } from 'libphonenumber-js';
import type { Config } from '../config.js';
import type { Gateway } from '../gateway/index.js';
import type { Logger } from '../log.js';
import type { SendLease } from '../sending/lease.js';
import type { SendObserver } from '../sending/send.js';
import type { SendsInFlight } from '../sends-in-flight.js';
import type { Store } from '../store/index.js';
import type { TableReader } from '../tables/worker/pool.js';
import type { UserZones } from './user-zones.js';

/** Limits and defaults of sending; each has an environment variable (see config.ts). */
export interface SendingSettings {
  maxSegments: number;
  maxRecipients: number;
  confirmRecipients: number;
  /** Estimated cost above which a confirmation is asked; undefined: only the recipient count asks. */
  confirmCost?: number;
  pricePerSegment: number;
  defaultValidityMinutes: number;
  /** SUBMIT_CHUNK_SIZE: a send to more recipients is a campaign of chunks of this size. */
  submitChunkSize: number;
  /** SUBMIT_CHUNK_INTERVAL_MS: the pace of a campaign's chunks, said when a large send is confirmed. */
  chunkIntervalMs?: number;
}

/** The sending settings of a config; a send is valid for 24 hours, the gateway's own default (gateway-notes.md). */
export function sendingSettingsOf(sending: Config['sending']): SendingSettings {
  return { ...sending, defaultValidityMinutes: 1440 };
}

export interface SlackSettings {
  adminUserIds: readonly string[];
  defaultCountry: CountryCode;
  reportTimeZone: string;
  /** True when the gateway is the built-in simulator: every view says so. */
  simulated: boolean;
  sending: SendingSettings;
  /** DIGEST_MIN_INTERVAL_SECONDS; default DEFAULT_MIN_INTERVAL_SECONDS. */
  digestMinIntervalSeconds?: number;
  /** WORKFLOW_MAX_RECIPIENTS; default DEFAULT_WORKFLOW_MAX_RECIPIENTS (src/slack/events/workflow-steps.ts). */
  workflowMaxRecipients?: number;
  /** SCHEDULE_GRACE_MINUTES; default 15. */
  scheduleGraceMinutes?: number;
  /** RETENTION_DAYS: reports show what is older as purged, the gateway's inbound SMS too. */
  retentionDays?: number;
}

/** What every listener receives: built once in main.ts. */
export interface SlackDeps {
  gateway: Gateway;
  store: Store;
  logger: Logger;
  settings: SlackSettings;
  now: () => Date;
  /** Asks the delivery tracker to poll a batch soon (after a send, a refresh, a cancel). */
  nudgeTracker: (outboxId: number) => void;
  /** Asks the campaign runner to look at running campaigns now (after a start or Send the rest). */
  nudgeCampaigns?: () => void;
  /** How this instance claims a send while its gateway call is in flight (default: see defaultSendLease). */
  sendLease?: SendLease;
  /** Told of every send's outcome (the metrics, when METRICS_PORT is set). */
  sendObserver?: SendObserver;
  /** The sends started and not finished, which shutdown waits for. */
  sendsInFlight?: SendsInFlight;
  /** Each user's Slack time zone (users.info), cached; scheduled sends are picked and shown in it. */
  userZones?: UserZones;
  /** Reads uploaded files in threads of their own (src/tables/worker/): never on the thread that acks. */
  tableReader: TableReader;
}
