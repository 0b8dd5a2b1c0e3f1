import { LogLevel, type Logger as SlackLogger } from '@slack/bolt';
import type { Logger } from '../log.js';

/**
 * Bolt and the Web API client log through this, so their lines share our format and redaction.
 * Errors are reduced to their message: no stack trace reaches a log line.
 */
export function boltLogger(logger: Logger): SlackLogger {
  const child = logger.child({ component: 'slack' });
  let level = LogLevel.INFO;
  const text = (parts: unknown[]) =>
    parts
      .map((p) => (p instanceof Error ? p.message : typeof p === 'string' ? p : JSON.stringify(p)))
      .join(' ')
      .slice(0, 2_000);
  return {
    debug: (...msg: unknown[]) => child.debug(text(msg)),
    info: (...msg: unknown[]) => child.info(text(msg)),
    warn: (...msg: unknown[]) => child.warn(text(msg)),
    error: (...msg: unknown[]) => child.error(text(msg)),
    setLevel: (l: LogLevel) => {
      level = l;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}
