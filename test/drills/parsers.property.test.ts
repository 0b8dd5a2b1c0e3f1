import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { InvalidScheduleError } from '../../src/digests/schedule.js';
import { describeCron, parseScheduleWords, SCHEDULE_EXAMPLES } from '../../src/digests/schedule-forms.js';
import { parseSurveyKeywords } from '../../src/jobs/inbound-surveys.js';
import { parseCommand, tokenize } from '../../src/slack/commands/parse.js';
import { fromSlack } from '../../src/slack/commands/slack-text.js';
import { splitSendArguments } from '../../src/slack/compose/open.js';

/**
 * Everything a person types reaches these parsers. Whatever they type, the answer is a value or an
 * error carrying a message for them: never a TypeError, a RangeError or an endless loop.
 */

// Text as people and Slack produce it: words, digits, quotes of three kinds, Slack markup, entities,
// Turkish letters, emoji and odd whitespace.
const piece = fc.oneof(
  fc.string(),
  fc.constantFrom(
    ' ',
    '  ',
    '\t',
    '\n',
    '\u00a0',
    '"',
    "'",
    '“',
    '”',
    '&amp;',
    '&lt;',
    '&gt;',
    '<@U0ADMIN>',
    '<@U0ADMIN|ada>',
    '<#C0SMSOPS|sms-ops>',
    '<!here>',
    '<!subteam^S123|@ops>',
    '<https://example.com|x>',
    '<mailto:a@b.c|a@b.c>',
    '<tel:+905321234567|0532>',
    '<',
    '>',
    '|',
    'send',
    'status',
    'cancel',
    'help',
    '?',
    'subscribe',
    '0532 123 45 67',
    '+90',
    '(0532)',
    '1,2;3.4-5',
    'İıŞşĞğ',
    '😀',
    'cron',
    '0 9 * * 1-5',
  ),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
);
const typed = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));

describe('subcommand text', () => {
  it('parseCommand always classifies, and a subcommand keeps its rest and tokens', () => {
    fc.assert(
      fc.property(typed, (text) => {
        const parsed = parseCommand(text);
        expect(['subcommand', 'unknown']).toContain(parsed.kind);
        if (parsed.kind === 'subcommand') {
          expect(parsed.name).toBe(parsed.name.toLowerCase());
          expect(parsed.args).toEqual(tokenize(parsed.rest));
          expect(text).toContain(parsed.rest);
        }
        if (parsed.kind === 'unknown') expect(parsed.typed.trim()).not.toBe('');
        if (text.trim() === '') expect(parsed).toMatchObject({ kind: 'subcommand', name: 'help' });
      }),
      { numRuns: 2_000 },
    );
  });

  it('tokenize never invents text: each token is part of the input, and plain words survive', () => {
    fc.assert(
      fc.property(typed, (text) => {
        for (const token of tokenize(text)) expect(text).toContain(token);
      }),
      { numRuns: 2_000 },
    );
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z0-9:+.-]{1,8}$/), { maxLength: 8 }), (words) => {
        expect(tokenize(words.join('  '))).toEqual(words);
      }),
    );
  });

  it('fromSlack undoes Slack escaping of plain text and never throws', () => {
    fc.assert(
      fc.property(typed, (text) => {
        expect(typeof fromSlack(text)).toBe('string');
      }),
      { numRuns: 2_000 },
    );
    // What Slack does to typed text without markup: & < > escaped; fromSlack gives it back.
    const plain = fc.string().filter((s) => !/[<>]/.test(s));
    fc.assert(
      fc.property(plain, (text) => {
        const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
        expect(fromSlack(escaped)).toBe(text);
      }),
    );
  });

  it('splitSendArguments never throws; recipients, when found, hold a digit', () => {
    fc.assert(
      fc.property(typed, (raw) => {
        const { recipients, text } = splitSendArguments(raw);
        if (recipients !== undefined) expect(recipients).toMatch(/\d/);
        if (text !== undefined) expect(text).toBe(text.trim());
      }),
      { numRuns: 2_000 },
    );
  });

  // Found by this property: a leading run of digit-less punctuation ("- Hello") used to be dropped.
  it('splitSendArguments splits into recipients and text without losing a word', () => {
    fc.assert(
      fc.property(typed, (raw) => {
        const { recipients, text } = splitSendArguments(raw);
        const words = (s: string | undefined) => (s ?? '').split(/\s+/).filter(Boolean);
        expect([...words(recipients), ...words(text)]).toEqual(words(fromSlack(raw)));
      }),
      { numRuns: 2_000 },
    );
    expect(splitSendArguments('- Hello')).toEqual({ text: '- Hello' });
  });
});

describe('schedules', () => {
  const scheduleWord = fc.oneof(
    fc.constantFrom(
      'daily',
      'weekdays',
      'weekly',
      'monthly',
      'cron',
      'DAILY',
      'monday',
      'mon',
      'Sun',
      'last',
      '1',
      '28',
      '29',
      '0',
      '09:00',
      '9.30',
      '24:00',
      '23:59',
      '*',
      '*/5',
      '1-5',
      'L',
      '0 9 * * 1-5',
      '60',
      '99:99',
      '',
    ),
    fc.string({ maxLength: 6 }),
  );
  const zones = fc.constantFrom('UTC', 'Europe/Istanbul', 'America/New_York', 'Not/AZone', '');

  it('parseScheduleWords gives a cron that describeCron reads, or an InvalidScheduleError with a message', () => {
    fc.assert(
      fc.property(fc.array(scheduleWord, { maxLength: 7 }), zones, (words, zone) => {
        try {
          const parsed = parseScheduleWords(words, zone);
          expect(parsed.cron.split(' ').length === 5 || parsed.cron.split(' ').length === 6).toBe(true);
          expect(parsed.description).toBe(describeCron(parsed.cron));
        } catch (error) {
          expect(error).toBeInstanceOf(InvalidScheduleError);
          expect((error as Error).message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 3_000 },
    );
  });

  it('every example parses, and its description survives a second round', () => {
    for (const example of SCHEDULE_EXAMPLES) {
      const words = tokenize(example);
      const parsed = parseScheduleWords(words, 'Europe/Istanbul');
      expect(describeCron(parsed.cron)).toBe(parsed.description);
    }
  });

  it('describeCron never throws on any text', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(typeof describeCron(text)).toBe('string');
      }),
    );
  });
});

describe('survey keywords (SURVEY_KEYWORDS)', () => {
  it('parseSurveyKeywords returns a map or throws an Error with a message naming the bad part', () => {
    const part = fc.oneof(
      fc.tuple(fc.stringMatching(/^[A-Za-zİı]{1,6}$/), fc.nat({ max: 99_999 })).map(([k, n]) => `${k}=${n}`),
      fc.string({ maxLength: 8 }),
      fc.constantFrom('=', 'A=', '=1', ' ANKET = 301 ', 'A=1=2', ''),
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 6 }), fc.constantFrom(',', ', ', ',,'), (parts, sep) => {
        const text = parts.join(sep);
        try {
          const map = parseSurveyKeywords(text);
          for (const [key, id] of Object.entries(map)) {
            expect(key).not.toMatch(/[\s=]/);
            expect(Number.isInteger(id)).toBe(true);
          }
        } catch (error) {
          expect(error).toBeInstanceOf(Error);
          expect(error).not.toBeInstanceOf(TypeError);
          expect(error).not.toBeInstanceOf(RangeError);
          expect((error as Error).message).toMatch(/^expected KEYWORD=surveyId pairs/);
        }
      }),
      { numRuns: 2_000 },
    );
    expect(parseSurveyKeywords(undefined)).toEqual({});
  });
});

describe('configuration', () => {
  const VARIABLES = [
    'SLACK_BOT_TOKEN',
    'SLACK_APP_TOKEN',
    'SLACK_SIGNING_SECRET',
    'SLACK_API_URL',
    'PORT',
    'SMS_GATEWAY_URL',
    'SMS_GATEWAY_USERNAME',
    'SMS_GATEWAY_PASSWORD',
    'SMS_GATEWAY_TIMEZONE',
    'SMS_GATEWAY_TIMEOUT_MS',
    'SIMULATOR_PORT',
    'DEFAULT_COUNTRY',
    'DATABASE_URL',
    'REPORT_TIMEZONE',
    'ADMIN_USER_IDS',
    'INBOUND_CHANNEL',
    'DIGEST_CHANNEL',
    'DIGEST_CRON',
    'INBOUND_POLL_SECONDS',
    'LOG_LEVEL',
    'MAX_SEGMENTS',
    'MAX_RECIPIENTS',
    'CONFIRM_RECIPIENTS',
    'CONFIRM_COST',
    'SMS_PRICE_PER_SEGMENT',
    'SUBMIT_CHUNK_SIZE',
    'SUBMIT_CHUNK_INTERVAL_MS',
    'CONVERSATION_HOURS',
    'STOP_WORDS',
    'SURVEY_KEYWORDS',
    'ALERT_CHECK_MINUTES',
    'DIGEST_CATCH_UP_MINUTES',
    'DIGEST_CHARTS',
  ] as const;
  const value = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom(
      '',
      ' ',
      '0',
      '-1',
      '1e3',
      '3000',
      '65536',
      'NaN',
      'Infinity',
      '0x10',
      '1.5',
      'on',
      'off',
      'xoxb-1',
      'xapp-1',
      'http://127.0.0.1:1',
      'sqlite:/tmp/x.db',
      'postgres://u:p@h/db',
      'mysql://x',
      'Europe/Istanbul',
      'Mars/Olympus',
      'TR',
      'ZZ',
      'ANKET=301',
      'ANKET',
      '0 9 * * *',
      '61 * * * *',
      'U0ADMIN,U0ALICE',
      'debug',
      'trace',
    ),
  );
  const env = fc.dictionary(fc.constantFrom(...VARIABLES), value, { maxKeys: 12 });

  it('loadConfig with arbitrary strings gives a config or a ConfigError, never another exception', () => {
    fc.assert(
      fc.property(env, (vars) => {
        try {
          loadConfig({ ...vars });
        } catch (error) {
          expect(error).toBeInstanceOf(ConfigError);
          const problems = (error as ConfigError).problems;
          expect(problems.length).toBeGreaterThan(0);
          for (const p of problems) expect(p).toMatch(/^[A-Z_]+( and [A-Z_]+)?:? /);
          // Secrets are never echoed back: their lines never quote what was given.
          for (const p of problems)
            if (/^SLACK_(BOT_TOKEN|APP_TOKEN|SIGNING_SECRET):/.test(p)) expect(p).not.toContain('(got');
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
