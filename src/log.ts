import { createRequire } from 'node:module';
import { pino } from 'pino';
import type prettyStream from 'pino-pretty';
import { scrubSecrets } from './secrets.js';

/** pino-pretty (and its colour and date libraries) is loaded only when a readable log is asked for. */
function loadPretty(): typeof prettyStream {
  return createRequire(import.meta.url)('pino-pretty') as typeof prettyStream;
}

export type Logger = pino.Logger;
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

// Any field with one of these names is masked wherever it sits, so a secret passed by mistake
// (a config object, a request body, an error with a credential) never reaches a log line. Secret values
// registered with secrets.ts are masked wherever they appear, field name or not.
const REDACTED_PATHS = [
  'password',
  'Password',
  'token',
  'secret',
  '*.password',
  '*.Password',
  '*.token',
  '*.secret',
  '*.Credential',
  'Credential',
  '*.*.Password',
  'headers.authorization',
  '*.headers.authorization',
];

function errorFields(value: unknown): unknown {
  if (!(value instanceof Error)) return value;
  const code = (value as { code?: unknown }).code;
  return { type: value.name, message: value.message, ...(code === undefined ? {} : { code }) };
}

export interface LoggerOptions {
  level?: LogLevel;
  /** Human-readable lines (local mode, a terminal); otherwise one JSON object per line. */
  readable?: boolean;
  destination?: NodeJS.WritableStream;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const base: pino.LoggerOptions = {
    level: options.level ?? 'info',
    base: undefined,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    // An error is logged as what it says, never with its stack trace.
    serializers: { err: errorFields, error: errorFields },
    // Paths only catch a field named like a secret; an upstream error text can carry one inside its prose.
    // Every finished line is scrubbed of the secret values this process holds (see secrets.ts).
    hooks: { streamWrite: (line) => scrubSecrets(line) },
  };
  if (options.readable) {
    const stream = loadPretty()({
      sync: true,
      colorize: process.stdout.isTTY === true,
      translateTime: 'HH:MM:ss',
      ignore: 'pid,hostname',
      destination: options.destination ?? process.stdout,
    });
    return pino(base, stream);
  }
  return pino(base, (options.destination ?? process.stdout) as pino.DestinationStream);
}

/** A logger that drops everything: the default for library code and tests that do not look at logs. */
export const silentLogger: Logger = pino({ level: 'silent' });
