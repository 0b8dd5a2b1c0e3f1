import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('gives the documented defaults with an empty environment (local mode)', () => {
    const config = loadConfig({});
    expect(config.slack.mode).toBe('local');
    expect(config.port).toBe(3000);
    expect(config.gateway.url).toBeUndefined();
    expect(config.gateway.timeoutMs).toBe(15_000);
    expect(config.gateway.timeZone).toBe('UTC');
    expect(config.defaultCountry).toBe('TR');
    expect(config.databaseUrl).toBe('sqlite:./data/smsops.db');
    expect(config.adminUserIds).toEqual([]);
    expect(config.digestCron).toBe('0 9 * * *');
    expect(config.inboundPollSeconds).toBe(15);
    expect(config.logLevel).toBe('info');
    expect(config.digests.minIntervalSeconds).toBe(900);
    expect(config.retentionDays).toBe(180);
    expect(config.inbound.stopWords).toEqual(['STOP', 'UNSUBSCRIBE', 'IPTAL', 'DUR']);
    // With the simulator, its surveys' keywords are known.
    expect(config.inbound.surveyKeywords).toEqual({ ANKET: 301, KATIL: 302 });
    // Without a real gateway the simulator's credentials are used.
    expect(config.gateway.username).toBe('demo');
  });

  it('chooses Socket Mode with an app token and HTTP mode without', () => {
    expect(loadConfig({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1' }).slack.mode).toBe('socket');
    expect(
      loadConfig({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 'abcdef0123456789' }).slack.mode,
    ).toBe('http');
  });

  it('reads every variable of the contract', () => {
    const config = loadConfig({
      SLACK_BOT_TOKEN: 'xoxb-1',
      SLACK_SIGNING_SECRET: 'abcdef0123456789',
      SLACK_API_URL: 'http://127.0.0.1:9/api/',
      PORT: '8080',
      SMS_GATEWAY_URL: 'https://sms.example.com/',
      SMS_GATEWAY_USERNAME: 'acme',
      SMS_GATEWAY_PASSWORD: 'pw',
      SMS_GATEWAY_TIMEZONE: 'Europe/Istanbul',
      SMS_GATEWAY_TIMEOUT_MS: '5000',
      DEFAULT_COUNTRY: 'de',
      DATABASE_URL: 'postgres://u:p@db:5432/smsops',
      REPORT_TIMEZONE: 'America/New_York',
      ADMIN_USER_IDS: 'U012AB3CD, W045EF6GH',
      INBOUND_CHANNEL: 'C0123',
      DIGEST_CHANNEL: 'C0456',
      DIGEST_CRON: '30 8 * * 1-5',
      INBOUND_POLL_SECONDS: '30',
      LOG_LEVEL: 'DEBUG',
      MAX_SEGMENTS: '4',
      MAX_RECIPIENTS: '500',
      CONFIRM_RECIPIENTS: '10',
      CONFIRM_COST: '12.50',
      SMS_PRICE_PER_SEGMENT: '0.031',
      SUBMIT_CHUNK_SIZE: '250',
      SUBMIT_CHUNK_INTERVAL_MS: '0',
      CONVERSATION_HOURS: '12',
      STOP_WORDS: 'STOP, BASTA',
      SURVEY_KEYWORDS: 'POLL=7',
      ALERT_CHECK_MINUTES: '10',
      DIGEST_CATCH_UP_MINUTES: '0',
      DIGEST_CHARTS: 'off',
      DIGEST_MIN_INTERVAL_SECONDS: '600',
      RETENTION_DAYS: '30',
    });
    expect(config.inbound).toEqual({
      conversationHours: 12,
      stopWords: ['STOP', 'BASTA'],
      surveyKeywords: { POLL: 7 },
    });
    expect(config.digests).toEqual({
      alertCheckMinutes: 10,
      catchUpMinutes: 0,
      charts: false,
      minIntervalSeconds: 600,
    });
    expect(config.retentionDays).toBe(30);
    expect(config.sending).toEqual({
      maxSegments: 4,
      maxRecipients: 500,
      confirmRecipients: 10,
      confirmCost: 12.5,
      pricePerSegment: 0.031,
      submitChunkSize: 250,
      chunkIntervalMs: 0,
    });
    expect(config.gateway).toMatchObject({
      url: 'https://sms.example.com',
      username: 'acme',
      timeZone: 'Europe/Istanbul',
      timeoutMs: 5000,
    });
    expect(config.port).toBe(8080);
    expect(config.defaultCountry).toBe('DE');
    expect(config.adminUserIds).toEqual(['U012AB3CD', 'W045EF6GH']);
    expect(config.reportTimeZone).toBe('America/New_York');
    expect(config.digestCron).toBe('30 8 * * 1-5');
    expect(config.logLevel).toBe('debug');
    expect(Object.isFrozen(config.gateway)).toBe(true);
  });

  it('names every bad variable at once, with the expected form', () => {
    const problems = problemsOf({
      PORT: '70000',
      SMS_GATEWAY_TIMEZONE: 'Mars/Olympus',
      DEFAULT_COUNTRY: 'XX',
      DATABASE_URL: 'mysql://x',
      ADMIN_USER_IDS: 'alice',
      DIGEST_CRON: 'every day',
      LOG_LEVEL: 'loud',
      CONFIRM_COST: 'lots',
      MAX_SEGMENTS: '11',
      SURVEY_KEYWORDS: 'ANKET',
    });
    expect(problems).toHaveLength(10);
    expect(problems.join('\n')).toMatch(
      /^SURVEY_KEYWORDS: expected KEYWORD=surveyId pairs such as ANKET=301,KATIL=302/m,
    );
    expect(problems.join('\n')).toMatch(
      /^CONFIRM_COST: expected an amount such as 25 or 12.50 \(got "lots"\)$/m,
    );
    expect(problems.join('\n')).toMatch(/^MAX_SEGMENTS: expected a whole number from 1 to 10/m);
    expect(problems.join('\n')).toMatch(/^PORT: expected a whole number from 1 to 65535 \(got "70000"\)$/m);
    expect(problems.join('\n')).toMatch(/^SMS_GATEWAY_TIMEZONE: expected an IANA time zone/m);
    expect(problems.join('\n')).toMatch(/^DEFAULT_COUNTRY: expected a two-letter ISO country code/m);
    expect(problems.join('\n')).toMatch(/^DATABASE_URL: expected sqlite:<path> or postgres:\/\//m);
    expect(problems.join('\n')).toMatch(/^ADMIN_USER_IDS: expected comma-separated Slack user IDs/m);
    expect(problems.join('\n')).toMatch(/^DIGEST_CRON: expected a cron expression with 5 or 6 fields/m);
    expect(problems.join('\n')).toMatch(/^LOG_LEVEL: expected one of debug, info, warn, error/m);
  });

  it('refuses a DIGEST_CRON that would run more often than DIGEST_MIN_INTERVAL_SECONDS, saying how often', () => {
    expect(problemsOf({ DIGEST_CRON: '* * * * * *' })).toEqual([
      'DIGEST_CRON: cron "* * * * * *" would run 1 second apart at its closest, but digests run at most once every 15 minutes (DIGEST_MIN_INTERVAL_SECONDS=900); choose a slower schedule such as "0 9 * * *"',
    ]);
    expect(problemsOf({ DIGEST_CRON: '0,1 9 * * *', REPORT_TIMEZONE: 'Europe/Istanbul' })[0]).toMatch(
      /^DIGEST_CRON: cron "0,1 9 \* \* \*" would run 1 minute apart at its closest/,
    );
    // Read in REPORT_TIMEZONE: 01:59 and 03:00 come a minute apart the day clocks skip 02:00 in Berlin.
    expect(problemsOf({ DIGEST_CRON: '0,59 1,3 * * *', REPORT_TIMEZONE: 'Europe/Berlin' })[0]).toMatch(
      /would run 1 minute apart/,
    );
    // Demos and tests may lower the minimum, and the same expression is then accepted.
    expect(loadConfig({ DIGEST_CRON: '*/10 * * * * *', DIGEST_MIN_INTERVAL_SECONDS: '10' }).digestCron).toBe(
      '*/10 * * * * *',
    );
    expect(problemsOf({ DIGEST_MIN_INTERVAL_SECONDS: '0', RETENTION_DAYS: 'forever' })).toEqual([
      'DIGEST_MIN_INTERVAL_SECONDS: expected a whole number from 1 to 604800 (got "0")',
      'RETENTION_DAYS: expected a whole number from 1 to 36500 (got "forever")',
    ]);
  });

  it('requires what each mode needs', () => {
    expect(problemsOf({ SLACK_BOT_TOKEN: 'xoxb-1' })).toEqual([
      'SLACK_SIGNING_SECRET: required in HTTP mode (SLACK_BOT_TOKEN set without SLACK_APP_TOKEN)',
    ]);
    expect(problemsOf({ SLACK_APP_TOKEN: 'xapp-1' })[0]).toMatch(/^SLACK_BOT_TOKEN: required/);
    expect(problemsOf({ SMS_GATEWAY_URL: 'https://sms.example.com' })[0]).toMatch(
      /^SMS_GATEWAY_USERNAME and SMS_GATEWAY_PASSWORD: required/,
    );
  });

  it('never repeats a secret value in an error', () => {
    const secrets = {
      SLACK_BOT_TOKEN: 'not-a-token-s3cr3t',
      SLACK_APP_TOKEN: 'also-s3cr3t-app',
      SLACK_SIGNING_SECRET: 'zz-s3cr3t-signing',
      DATABASE_URL: 'mysql://root:hunter2@db/x',
    };
    const text = problemsOf(secrets).join('\n');
    expect(text).toMatch(/SLACK_BOT_TOKEN: expected a bot token starting with xoxb-/);
    expect(text).toMatch(/DATABASE_URL: expected/);
    for (const value of Object.values(secrets)) expect(text).not.toContain(value);
    expect(text).not.toContain('hunter2');
  });

  it('shows no secret when the config, or any part of it, is inspected or serialised', () => {
    const secrets = {
      SLACK_BOT_TOKEN: 'xoxb-inspect-1a2b3c',
      SLACK_APP_TOKEN: 'xapp-inspect-4d5e6f',
      SLACK_SIGNING_SECRET: 'abcdef0123456789fedcba',
      SMS_GATEWAY_USERNAME: 'acme-inspect',
      SMS_GATEWAY_PASSWORD: 'pw-inspect-77',
    };
    const config = loadConfig({
      ...secrets,
      SMS_GATEWAY_URL: 'https://sms.example.com',
      DATABASE_URL: 'postgres://smsops:db-pw-inspect@db:5432/smsops',
    });
    const parts: unknown[] = [config, config.slack, config.gateway, config.simulator, { nested: { config } }];
    const texts = parts.flatMap((part) => [
      inspect(part, { depth: 20 }),
      JSON.stringify(part),
      JSON.stringify([part], null, 2),
    ]);
    for (const text of texts) {
      for (const value of [...Object.values(secrets), 'db-pw-inspect']) expect(text).not.toContain(value);
    }
    // The rest is still there to read, and the values themselves are still what the program uses.
    expect(inspect(config, { depth: 20 })).toContain('https://sms.example.com');
    expect(JSON.stringify(config)).toContain('postgres://smsops:***@db:5432/smsops');
    expect(JSON.parse(JSON.stringify(config.gateway))).toMatchObject({
      password: '[redacted]',
      timeoutMs: 15_000,
    });
    expect(config.gateway.password).toBe('pw-inspect-77');
    expect({ ...config.slack }.botToken).toBe('xoxb-inspect-1a2b3c');
  });

  it('listens on this machine only in local mode, on every interface otherwise, unless HOST says', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    const http = { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 'abcdef0123456789' };
    expect(loadConfig(http).host).toBe('0.0.0.0');
    expect(loadConfig({ ...http, HOST: '10.0.0.5' }).host).toBe('10.0.0.5');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '[::1]' }).host).toBe('::1');
    expect(problemsOf({ HOST: '10.0.0.5' })).toEqual([
      expect.stringMatching(/^HOST: in local mode, expected this machine/),
    ]);
    expect(problemsOf({ ...http, HOST: 'not a host!' })).toEqual([
      'HOST: expected an address to listen on such as 127.0.0.1, 0.0.0.0, :: or localhost (got "not a host!")',
    ]);
  });
});

describe('CURRENCY', () => {
  it('defaults to TRY, takes any ISO 4217 code in either case, and refuses anything else', () => {
    expect(loadConfig({}).currency).toBe('TRY');
    expect(loadConfig({ CURRENCY: ' eur ' }).currency).toBe('EUR');
    expect(problemsOf({ CURRENCY: 'TL' })).toEqual([
      'CURRENCY: expected an ISO 4217 currency code such as TRY (Turkish lira, not TL), EUR or USD (got "TL")',
    ]);
  });
});

describe('METRICS_PORT', () => {
  it('is off when unset, a port when set, and refused beside PORT or out of range', () => {
    expect(loadConfig({}).metricsPort).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '' }).metricsPort).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '9464' }).metricsPort).toBe(9464);
    expect(problemsOf({ METRICS_PORT: '3000' })).toEqual([
      'METRICS_PORT: must differ from PORT: /metrics has a listener of its own, never beside /slack/events',
    ]);
    expect(problemsOf({ PORT: '8080', METRICS_PORT: '8080' })).toHaveLength(1);
    expect(problemsOf({ METRICS_PORT: 'yes' })).toEqual([
      'METRICS_PORT: expected a port number from 1 to 65535, or unset for no metrics (got "yes")',
    ]);
    expect(problemsOf({ METRICS_PORT: '0' })).toHaveLength(1);
  });
});

describe('WORKFLOW_MAX_RECIPIENTS', () => {
  it('is never more than SUBMIT_CHUNK_SIZE: a workflow step sends in one gateway call', () => {
    expect(loadConfig({ WORKFLOW_MAX_RECIPIENTS: '1000' }).workflowMaxRecipients).toBe(1000);
    expect(loadConfig({ WORKFLOW_MAX_RECIPIENTS: '5000' }).workflowMaxRecipients).toBe(1000);
    expect(loadConfig({ SUBMIT_CHUNK_SIZE: '3' }).workflowMaxRecipients).toBe(3);
  });
});
