import { Writable } from 'node:stream';
import { createLogger, type Logger, type LoggerOptions } from '../../src/log.js';

/** One JSON log line as the app writes it. */
export type LogLine = { level: string; msg: string } & Record<string, unknown>;

/**
 * The app's real logger (redaction, secret scrubbing and all) writing into memory, at debug unless told:
 * `written` holds each write as it came, `lines` the JSON lines parsed (none when readable).
 */
export function captureLogger(options: Omit<LoggerOptions, 'destination'> = {}): {
  logger: Logger;
  lines: LogLine[];
  written: string[];
} {
  const lines: LogLine[] = [];
  const written: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      const text = String(chunk);
      written.push(text);
      if (!options.readable)
        for (const line of text.split('\n')) if (line.trim()) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createLogger({ level: 'debug', ...options, destination }), lines, written };
}
