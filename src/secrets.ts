import { inspect } from 'node:util';

/**
 * Secrets by value. Path-based redaction only masks a field called `password`; an upstream error text that
 * quotes our request (ServiceStack error bodies do) carries the password inside ordinary prose. So every
 * secret this process holds is registered here once, and every log line, error text, Slack text and health
 * report is passed through scrubSecrets() before it leaves.
 */

export const REDACTED = '[redacted]';

/**
 * Shorter values are ordinary words and numbers ("ok", "42"): masking them would garble every line while
 * hiding nothing. Credential fields quoted by an upstream are masked by name whatever their length
 * (scrubCredentialFields).
 */
const MIN_SECRET_LENGTH = 4;

const known = new Set<string>();
let pattern: RegExp | undefined;

/**
 * The forms a secret takes in the text around it: as is, in a URL or form, and inside a JSON string up to three
 * levels deep (a request body quoted in an error reply, logged as a JSON line).
 */
function spellingsOf(secret: string): string[] {
  const spellings = [secret, encodeURIComponent(secret), encodeURIComponent(secret).replace(/%20/g, '+')];
  let escaped = secret;
  for (let level = 0; level < 3; level++) {
    escaped = JSON.stringify(escaped).slice(1, -1);
    spellings.push(escaped);
  }
  return spellings;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function compile(secrets: Iterable<string>): RegExp | undefined {
  const spellings = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    for (const spelling of spellingsOf(secret)) spellings.add(spelling);
  }
  if (spellings.size === 0) return undefined;
  // Longest first, so a secret that contains another is masked whole.
  const alternatives = [...spellings].sort((a, b) => b.length - a.length).map(escapeRegExp);
  return new RegExp(alternatives.join('|'), 'g');
}

/** Makes these values secrets for the rest of the process: scrubSecrets() masks them from then on. */
export function registerSecret(...values: ReadonlyArray<string | undefined>): void {
  let added = false;
  for (const value of values) {
    if (value === undefined || value.length < MIN_SECRET_LENGTH || known.has(value)) continue;
    known.add(value);
    added = true;
  }
  if (added) pattern = compile(known);
}

/** The text with every registered secret (and `extra` ones) replaced by [redacted], in any of its spellings. */
export function scrubSecrets(text: string, extra: ReadonlyArray<string | undefined> = []): string {
  const extras = extra.filter((v): v is string => v !== undefined && !known.has(v));
  const regex = extras.length > 0 ? compile([...known, ...extras]) : pattern;
  if (!regex || text === '') return text;
  regex.lastIndex = 0;
  return text.replace(regex, REDACTED);
}

/**
 * A field named like a credential and its value: a quoted value ends at a quote escaped as often as the one
 * that opened it (JSON inside a JSON string has `\\"`), or at the end of the text; a bare value at a separator.
 */
const CREDENTIAL_FIELD =
  /((?:\\*")?(?:password|passwd|pwd|username|user_?name|secret|token|authorization)(?:\\*")?\s*[:=]\s*)(?:(\\*)"[\s\S]*?(?:(?<!\\)\2"|$)|[^\s"',;&}\]]+)/gi;

/**
 * For text written by someone else (an upstream error): masks the value of any field named like a credential,
 * as JSON (`"Password":"…"`, escaped or not) or as `password=…`, so even a secret shorter than the
 * registered minimum never comes through. Then masks the registered secrets.
 */
export function scrubUpstreamText(text: string, extra: ReadonlyArray<string | undefined> = []): string {
  return scrubSecrets(
    text.replace(CREDENTIAL_FIELD, (_match, key: string) => `${key}${REDACTED}`),
    extra,
  );
}

/**
 * Makes `util.inspect` and `JSON.stringify` of `target` show `summary()` instead of its own fields, so an
 * object holding a token or password can be logged or printed by mistake without giving it away. The
 * properties are non-enumerable: spreading or comparing the object is unchanged.
 */
export function concealSecrets<T extends object>(target: T, summary: () => Record<string, unknown>): T {
  const name = target.constructor?.name && target.constructor !== Object ? `${target.constructor.name} ` : '';
  Object.defineProperty(target, 'toJSON', {
    value: () => summary(),
    enumerable: false,
    configurable: true,
    writable: true,
  });
  Object.defineProperty(target, inspect.custom, {
    value: (_depth: number, options: object, show: typeof inspect = inspect) =>
      `${name}${show(summary(), options)}`,
    enumerable: false,
    configurable: true,
    writable: true,
  });
  return target;
}

/** `[redacted]` for a secret that is set, undefined for one that is not: what summaries show. */
export function shown(secret: string | undefined): string | undefined {
  return secret === undefined || secret === '' ? secret : REDACTED;
}
