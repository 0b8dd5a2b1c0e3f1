import { type CountryCode, isSupportedCountry } from 'libphonenumber-js/max';
import { validate as isValidCron } from 'node-cron';
import * as z from 'zod';
import { compileSchedule } from './digests/schedule.js';
import { DEFAULT_MIN_INTERVAL_SECONDS, requireMinInterval } from './digests/schedule-interval.js';
import { parseSurveyKeywords } from './jobs/inbound-surveys.js';
import { concealSecrets, shown } from './secrets.js';
import { DEFAULT_STOP_WORDS } from './sms/index.js';
import { maskUrl } from './store/url.js';
import { isTimeZone } from './time-zones.js';

/**
 * The whole configuration, read once from process.env (after dotenv) by main.ts and passed down.
 * Error messages name the variable and the expected form but never repeat a secret's value, and
 * util.inspect or JSON.stringify of the config (or of any part of it) shows secrets as [redacted].
 */
export type SlackMode = 'socket' | 'http' | 'local';

export interface Config {
  readonly slack: {
    readonly mode: SlackMode;
    readonly botToken?: string;
    readonly appToken?: string;
    readonly signingSecret?: string;
    readonly apiUrl?: string;
  };
  readonly port: number;
  /** The address the HTTP server listens on: HOST, else 127.0.0.1 in local mode and every interface otherwise. */
  readonly host: string;
  readonly gateway: {
    /** Unset: the in-process simulator is used, and everything that shows the gateway says so. */
    readonly url?: string;
    readonly username: string;
    readonly password: string;
    readonly timeZone: string;
    readonly timeoutMs: number;
  };
  readonly simulator: { readonly port: number; readonly username: string; readonly password: string };
  readonly defaultCountry: CountryCode;
  readonly databaseUrl: string;
  readonly reportTimeZone: string;
  /** CURRENCY: the ISO 4217 code amounts are shown in (costs, balances, spend). */
  readonly currency: string;
  readonly adminUserIds: readonly string[];
  readonly inboundChannel?: string;
  readonly digestChannel?: string;
  readonly digestCron: string;
  readonly inboundPollSeconds: number;
  readonly sending: {
    readonly maxSegments: number;
    readonly maxRecipients: number;
    readonly confirmRecipients: number;
    readonly confirmCost?: number;
    readonly pricePerSegment: number;
    /** SUBMIT_CHUNK_SIZE: most recipients in one gateway call; a larger send becomes a campaign of chunks. */
    readonly submitChunkSize: number;
    /** SUBMIT_CHUNK_INTERVAL_MS: the pace of a campaign, the least time between two of its chunks. */
    readonly chunkIntervalMs: number;
  };
  readonly inbound: {
    readonly conversationHours: number;
    readonly stopWords: readonly string[];
    /** Inbound keyword → survey id; empty: a keyword matches a survey whose name starts with it. */
    readonly surveyKeywords: Readonly<Record<string, number>>;
  };
  readonly digests: {
    readonly alertCheckMinutes: number;
    readonly catchUpMinutes: number;
    readonly charts: boolean;
    /** DIGEST_MIN_INTERVAL_SECONDS: the shortest time between two runs of a digest or two balance alerts. */
    readonly minIntervalSeconds: number;
  };
  /** RETENTION_DAYS: message texts and phone numbers older than this are purged from the store. */
  readonly retentionDays: number;
  /** WORKFLOW_MAX_RECIPIENTS: most recipients of one Workflow Builder step send. */
  readonly workflowMaxRecipients: number;
  /** SCHEDULE_GRACE_MINUTES: a scheduled send found this late is still sent; a later one waits for its author. */
  readonly scheduleGraceMinutes: number;
  readonly logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** METRICS_PORT: GET /metrics on a listener of its own; undefined: no metrics at all. */
  readonly metricsPort?: number;
  /** METRICS_HOST: the address of that listener; loopback unless set, whatever HOST is. */
  readonly metricsHost: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const SECRET_VARIABLES = new Set([
  'SLACK_BOT_TOKEN',
  'SLACK_APP_TOKEN',
  'SLACK_SIGNING_SECRET',
  'SMS_GATEWAY_PASSWORD',
  'SIMULATOR_PASSWORD',
  'DATABASE_URL',
]);

/** Where local mode may listen: the bot calls its own workspace over loopback, which refuses other machines. */
const LOCAL_MODE_HOSTS = new Set(['localhost', '::1', '0.0.0.0', '::']);

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

function integer(min: number, max: number, fallback: number) {
  return z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
        ctx.addIssue({ code: 'custom', message: `expected a whole number from ${min} to ${max}` });
        return z.NEVER;
      }
      return Number(v);
    });
}

function decimal(expected: string) {
  return z
    .string()
    .trim()
    .transform((v, ctx) => {
      if (v === '') return undefined;
      if (!/^\d+(\.\d+)?$/.test(v)) {
        ctx.addIssue({ code: 'custom', message: `expected ${expected}` });
        return z.NEVER;
      }
      return Number(v);
    });
}

function matching(pattern: RegExp, expected: string) {
  return optionalText.refine((v) => v === undefined || pattern.test(v), { message: expected });
}

function timeZone() {
  return z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === undefined || v === '' ? 'UTC' : v))
    .refine(isTimeZone, { message: 'expected an IANA time zone such as UTC or Europe/Istanbul' });
}

const envSchema = z.object({
  SLACK_BOT_TOKEN: matching(/^xoxb-/, 'expected a bot token starting with xoxb-'),
  SLACK_APP_TOKEN: matching(/^xapp-/, 'expected an app-level token starting with xapp-'),
  SLACK_SIGNING_SECRET: matching(
    /^[0-9a-f]{16,}$/i,
    'expected the hexadecimal signing secret of the Slack app',
  ),
  SLACK_API_URL: matching(/^https?:\/\/\S+$/, 'expected an http(s) URL such as https://slack.com/api/'),
  PORT: integer(1, 65535, 3000),
  HOST: matching(
    /^(\[[0-9a-f:.]+\]|[0-9a-z.:-]+)$/i,
    'expected an address to listen on such as 127.0.0.1, 0.0.0.0, :: or localhost',
  ),
  SMS_GATEWAY_URL: matching(
    /^https?:\/\/[^\s/]+/,
    'expected an http(s) base URL such as https://sms.example.com',
  ),
  SMS_GATEWAY_USERNAME: optionalText,
  SMS_GATEWAY_PASSWORD: optionalText,
  SMS_GATEWAY_TIMEZONE: timeZone(),
  SMS_GATEWAY_TIMEOUT_MS: integer(100, 600_000, 15_000),
  SIMULATOR_PORT: integer(0, 65535, 4010),
  SIMULATOR_USERNAME: optionalText,
  SIMULATOR_PASSWORD: optionalText,
  DEFAULT_COUNTRY: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === undefined || v === '' ? 'TR' : v.toUpperCase()))
    .refine((v) => isSupportedCountry(v), {
      message: 'expected a two-letter ISO country code such as TR or DE',
    }),
  DATABASE_URL: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === undefined || v === '' ? 'sqlite:./data/smsops.db' : v))
    .refine((v) => /^sqlite:.+/.test(v) || /^postgres(ql)?:\/\/\S+$/.test(v), {
      message: 'expected sqlite:<path> or postgres://user:password@host:5432/database',
    }),
  REPORT_TIMEZONE: timeZone(),
  CURRENCY: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === undefined || v === '' ? 'TRY' : v.toUpperCase()))
    .refine((v) => Intl.supportedValuesOf('currency').includes(v), {
      message: 'expected an ISO 4217 currency code such as TRY (Turkish lira, not TL), EUR or USD',
    }),
  ADMIN_USER_IDS: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    )
    .refine((ids) => ids.every((id) => /^[UW][A-Z0-9]{2,}$/.test(id)), {
      message: 'expected comma-separated Slack user IDs such as U012AB3CD,U045EF6GH',
    }),
  INBOUND_CHANNEL: matching(/^[CGD][A-Z0-9]{2,}$/, 'expected a Slack channel ID such as C012AB3CD'),
  DIGEST_CHANNEL: matching(/^[CGD][A-Z0-9]{2,}$/, 'expected a Slack channel ID such as C012AB3CD'),
  DIGEST_CRON: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === undefined || v === '' ? '0 9 * * *' : v))
    .refine((v) => [5, 6].includes(v.split(/\s+/).length) && isValidCron(v), {
      message: 'expected a cron expression with 5 or 6 fields such as "0 9 * * *"',
    }),
  INBOUND_POLL_SECONDS: integer(1, 3600, 15),
  CONVERSATION_HOURS: integer(1, 720, 24),
  STOP_WORDS: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((w) => w.trim())
        .filter((w) => w !== ''),
    ),
  SURVEY_KEYWORDS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      try {
        return parseSurveyKeywords(v);
      } catch {
        ctx.addIssue({
          code: 'custom',
          message: 'expected KEYWORD=surveyId pairs such as ANKET=301,KATIL=302',
        });
        return z.NEVER;
      }
    }),
  ALERT_CHECK_MINUTES: integer(1, 60, 5),
  DIGEST_CATCH_UP_MINUTES: integer(0, 1440, 60),
  DIGEST_MIN_INTERVAL_SECONDS: integer(1, 604_800, DEFAULT_MIN_INTERVAL_SECONDS),
  RETENTION_DAYS: integer(1, 36_500, 180),
  WORKFLOW_MAX_RECIPIENTS: integer(1, 100_000, 10),
  SCHEDULE_GRACE_MINUTES: integer(0, 1440, 15),
  DIGEST_CHARTS: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === undefined || v === '' ? 'on' : v.toLowerCase()))
    .pipe(z.enum(['on', 'off'], { message: 'expected on or off' })),
  MAX_SEGMENTS: integer(1, 10, 6),
  MAX_RECIPIENTS: integer(1, 1_000_000, 100_000),
  SUBMIT_CHUNK_SIZE: integer(1, 100_000, 1_000),
  SUBMIT_CHUNK_INTERVAL_MS: integer(0, 3_600_000, 1_000),
  CONFIRM_RECIPIENTS: integer(0, 100_000, 50),
  CONFIRM_COST: decimal('an amount such as 25 or 12.50').optional(),
  SMS_PRICE_PER_SEGMENT: decimal('a price such as 0.05').optional(),
  METRICS_HOST: matching(
    /^(\[[0-9a-f:.]+\]|[0-9a-z.:-]+)$/i,
    'expected an address for /metrics to listen on such as 127.0.0.1 (the default), 10.0.0.5 or 0.0.0.0',
  ),
  METRICS_PORT: z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return undefined;
      if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 65535) {
        ctx.addIssue({
          code: 'custom',
          message: 'expected a port number from 1 to 65535, or unset for no metrics',
        });
        return z.NEVER;
      }
      return Number(v);
    }),
  LOG_LEVEL: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === undefined || v === '' ? 'info' : v.toLowerCase()))
    .pipe(
      z.enum(['debug', 'info', 'warn', 'error'], { message: 'expected one of debug, info, warn, error' }),
    ),
});

function describeIssue(issue: z.core.$ZodIssue, env: NodeJS.ProcessEnv): string {
  const variable = String(issue.path[0] ?? 'environment');
  const raw = env[variable];
  const shown =
    raw === undefined || SECRET_VARIABLES.has(variable) ? '' : ` (got ${JSON.stringify(raw.slice(0, 60))})`;
  return `${variable}: ${issue.message}${shown}`;
}

/** DIGEST_CRON, read in REPORT_TIMEZONE, may not run more often than DIGEST_MIN_INTERVAL_SECONDS. */
function digestCronProblem(cron: string, timeZone: string, minimumSeconds: number): string | undefined {
  try {
    requireMinInterval(compileSchedule(cron, timeZone), minimumSeconds, new Date());
    return undefined;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return `DIGEST_CRON: ${reason}; choose a slower schedule such as "0 9 * * *"`;
  }
}

function crossFieldProblems(env: NodeJS.ProcessEnv): string[] {
  const set = (name: string) => (env[name] ?? '').trim() !== '';
  const problems: string[] = [];
  if (set('SLACK_BOT_TOKEN') && !set('SLACK_APP_TOKEN') && !set('SLACK_SIGNING_SECRET')) {
    problems.push(
      'SLACK_SIGNING_SECRET: required in HTTP mode (SLACK_BOT_TOKEN set without SLACK_APP_TOKEN)',
    );
  }
  if (!set('SLACK_BOT_TOKEN') && set('SLACK_APP_TOKEN')) {
    problems.push(
      'SLACK_BOT_TOKEN: required when SLACK_APP_TOKEN is set (expected a bot token starting with xoxb-)',
    );
  }
  const host = (env.HOST ?? '')
    .trim()
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase();
  if (!set('SLACK_BOT_TOKEN') && host !== '' && !LOCAL_MODE_HOSTS.has(host) && !/^127\./.test(host)) {
    problems.push(
      'HOST: in local mode, expected this machine (127.0.0.1, ::1, localhost) or every interface (0.0.0.0, ::): the local workspace answers only this machine',
    );
  }
  if (set('SMS_GATEWAY_URL') && (!set('SMS_GATEWAY_USERNAME') || !set('SMS_GATEWAY_PASSWORD'))) {
    problems.push('SMS_GATEWAY_USERNAME and SMS_GATEWAY_PASSWORD: required when SMS_GATEWAY_URL is set');
  }
  const metricsPort = (env.METRICS_PORT ?? '').trim();
  if (metricsPort !== '' && Number(metricsPort) === Number((env.PORT ?? '').trim() || 3000)) {
    problems.push(
      'METRICS_PORT: must differ from PORT: /metrics has a listener of its own, never beside /slack/events',
    );
  }
  return problems;
}

/** Reads the configuration; throws ConfigError listing every problem at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Parsed once per process: zod would first compile a parser for the schema's 60-odd fields (new Function),
  // which costs more at start (~1.6 ms of ~6) than it could ever save on a single parse.
  const parsed = envSchema.safeParse(env, { jitless: true });
  const problems = [
    ...(parsed.success ? [] : parsed.error.issues.map((i) => describeIssue(i, env))),
    ...crossFieldProblems(env),
  ];
  if (parsed.success) {
    const d = parsed.data;
    const cron = digestCronProblem(d.DIGEST_CRON, d.REPORT_TIMEZONE, d.DIGEST_MIN_INTERVAL_SECONDS);
    if (cron) problems.push(cron);
  }
  if (problems.length > 0 || !parsed.success) throw new ConfigError(problems);
  const e = parsed.data;
  const mode: SlackMode = !e.SLACK_BOT_TOKEN ? 'local' : e.SLACK_APP_TOKEN ? 'socket' : 'http';

  const simulator = {
    port: e.SIMULATOR_PORT,
    username: e.SIMULATOR_USERNAME ?? 'demo',
    password: e.SIMULATOR_PASSWORD ?? 'demo',
  };
  const config: Config = {
    slack: {
      mode,
      botToken: e.SLACK_BOT_TOKEN,
      appToken: e.SLACK_APP_TOKEN,
      signingSecret: e.SLACK_SIGNING_SECRET,
      apiUrl: e.SLACK_API_URL,
    },
    port: e.PORT,
    // The local workspace acts as an admin and may sit in front of a real gateway: only this machine by default.
    host: e.HOST?.replace(/^\[(.*)\]$/, '$1') ?? (mode === 'local' ? '127.0.0.1' : '0.0.0.0'),
    gateway: {
      url: e.SMS_GATEWAY_URL?.replace(/\/+$/, ''),
      username: e.SMS_GATEWAY_URL ? e.SMS_GATEWAY_USERNAME! : simulator.username,
      password: e.SMS_GATEWAY_URL ? e.SMS_GATEWAY_PASSWORD! : simulator.password,
      timeZone: e.SMS_GATEWAY_TIMEZONE,
      timeoutMs: e.SMS_GATEWAY_TIMEOUT_MS,
    },
    simulator,
    defaultCountry: e.DEFAULT_COUNTRY as CountryCode,
    databaseUrl: e.DATABASE_URL,
    reportTimeZone: e.REPORT_TIMEZONE,
    currency: e.CURRENCY,
    adminUserIds: e.ADMIN_USER_IDS,
    inboundChannel: e.INBOUND_CHANNEL,
    digestChannel: e.DIGEST_CHANNEL,
    digestCron: e.DIGEST_CRON,
    inboundPollSeconds: e.INBOUND_POLL_SECONDS,
    inbound: {
      conversationHours: e.CONVERSATION_HOURS,
      stopWords: e.STOP_WORDS.length > 0 ? e.STOP_WORDS : [...DEFAULT_STOP_WORDS],
      // The simulator's surveys answer to these keywords; a real gateway's are set explicitly.
      surveyKeywords:
        Object.keys(e.SURVEY_KEYWORDS).length > 0 || e.SMS_GATEWAY_URL
          ? e.SURVEY_KEYWORDS
          : { ANKET: 301, KATIL: 302 },
    },
    digests: {
      alertCheckMinutes: e.ALERT_CHECK_MINUTES,
      catchUpMinutes: e.DIGEST_CATCH_UP_MINUTES,
      charts: e.DIGEST_CHARTS === 'on',
      minIntervalSeconds: e.DIGEST_MIN_INTERVAL_SECONDS,
    },
    retentionDays: e.RETENTION_DAYS,
    // A workflow step sends in one gateway call (no campaign card to follow it on): never more than a chunk.
    workflowMaxRecipients: Math.min(e.WORKFLOW_MAX_RECIPIENTS, e.SUBMIT_CHUNK_SIZE),
    scheduleGraceMinutes: e.SCHEDULE_GRACE_MINUTES,
    sending: {
      maxSegments: e.MAX_SEGMENTS,
      maxRecipients: e.MAX_RECIPIENTS,
      confirmRecipients: e.CONFIRM_RECIPIENTS,
      confirmCost: e.CONFIRM_COST,
      pricePerSegment: e.SMS_PRICE_PER_SEGMENT ?? 0.05,
      submitChunkSize: e.SUBMIT_CHUNK_SIZE,
      chunkIntervalMs: e.SUBMIT_CHUNK_INTERVAL_MS,
    },
    logLevel: e.LOG_LEVEL,
    metricsPort: e.METRICS_PORT,
    // Loopback, not HOST: in HTTP mode HOST is every interface, and metrics name channels and volumes.
    metricsHost: e.METRICS_HOST?.replace(/^\[(.*)\]$/, '$1') ?? '127.0.0.1',
  };
  return deepFreeze(concealConfigSecrets(config));
}

/** What inspecting or serialising the config shows: every part of it, secrets as [redacted]. */
function concealConfigSecrets(config: Config): Config {
  const { slack, gateway, simulator } = config;
  concealSecrets(slack, () => ({
    ...slack,
    botToken: shown(slack.botToken),
    appToken: shown(slack.appToken),
    signingSecret: shown(slack.signingSecret),
  }));
  concealSecrets(gateway, () => ({
    ...gateway,
    username: shown(gateway.username),
    password: shown(gateway.password),
  }));
  concealSecrets(simulator, () => ({
    ...simulator,
    username: shown(simulator.username),
    password: shown(simulator.password),
  }));
  return concealSecrets(config, () => ({ ...config, databaseUrl: maskUrl(config.databaseUrl) }));
}

/**
 * Every secret value the config holds in use: main registers them, so no log line or message can carry one.
 * (Without a real gateway, the gateway credential is the simulator's.)
 */
export function secretValuesOf(config: Config): string[] {
  return [
    config.slack.botToken,
    config.slack.appToken,
    config.slack.signingSecret,
    config.gateway.username,
    config.gateway.password,
    databasePassword(config.databaseUrl),
  ].filter((v): v is string => v !== undefined && v !== '');
}

function databasePassword(url: string): string | undefined {
  try {
    const password = new URL(url).password;
    return password === '' ? undefined : decodeURIComponent(password);
  } catch {
    return undefined;
  }
}

function deepFreeze<T extends object>(value: T): T {
  for (const child of Object.values(value)) {
    if (child && typeof child === 'object') deepFreeze(child);
  }
  return Object.freeze(value);
}
