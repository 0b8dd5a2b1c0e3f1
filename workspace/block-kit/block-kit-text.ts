/**
 * Collects validation failures in Slack's wording: `[ERROR] <what> [json-pointer:<where>]`, the format Slack puts
 * in `response_metadata.messages` so a failing test points at the offending field.
 */
export class Problems {
  readonly messages: string[] = [];

  add(pointer: string, message: string): void {
    this.messages.push(`[ERROR] ${message} [json-pointer:${pointer}]`);
  }

  get empty(): boolean {
    return this.messages.length === 0;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Slack's limits are "less than N+1 characters"; length here is in UTF-16 units, close enough for a fake. */
export function checkMaxLength(value: unknown, max: number, pointer: string, problems: Problems): void {
  if (value === undefined) return;
  if (typeof value !== 'string') {
    problems.add(pointer, 'must provide a string');
    return;
  }
  if (value.length > max) problems.add(pointer, `must be less than ${max + 1} characters`);
}

export function checkMaxItems(
  value: unknown,
  max: number,
  pointer: string,
  problems: Problems,
): value is unknown[] {
  if (!Array.isArray(value)) {
    problems.add(pointer, 'must provide an array');
    return false;
  }
  if (value.length > max) problems.add(pointer, `no more than ${max} items allowed`);
  return true;
}

export interface TextRules {
  /** Where Slack only takes `plain_text` (button labels, headers, titles, placeholders). */
  plainOnly?: boolean;
  max: number;
}

/** A composition text object: `{ type: 'plain_text' | 'mrkdwn', text }`, with the flags each type allows. */
export function checkTextObject(value: unknown, pointer: string, problems: Problems, rules: TextRules): void {
  if (!isRecord(value)) {
    problems.add(pointer, 'must provide an object');
    return;
  }
  const { type, text } = value;
  if (type !== 'plain_text' && type !== 'mrkdwn') {
    problems.add(`${pointer}/type`, 'must be one of: plain_text, mrkdwn');
    return;
  }
  if (rules.plainOnly && type !== 'plain_text') {
    problems.add(`${pointer}/type`, `expected \`plain_text\`, got \`${type}\``);
  }
  if (typeof text !== 'string') {
    problems.add(`${pointer}/text`, 'must provide a string');
    return;
  }
  if (text.length === 0) problems.add(`${pointer}/text`, 'must be more than 0 characters');
  checkMaxLength(text, rules.max, `${pointer}/text`, problems);
  if (type === 'mrkdwn' && 'emoji' in value)
    problems.add(`${pointer}/emoji`, 'invalid additional property: emoji');
  if (type === 'plain_text' && 'verbatim' in value) {
    problems.add(`${pointer}/verbatim`, 'invalid additional property: verbatim');
  }
}

export function checkOptionalText(
  value: unknown,
  pointer: string,
  problems: Problems,
  rules: TextRules,
): void {
  if (value !== undefined) checkTextObject(value, pointer, problems, rules);
}
