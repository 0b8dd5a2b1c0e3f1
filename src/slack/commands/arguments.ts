import { normaliseNumber } from '../../sms/index.js';
import { UserInputError } from '../errors.js';
import { pageCount, quoted } from '../ui/admin-common.js';
import { escapeMrkdwn } from '../ui/format.js';
import { SUBCOMMANDS } from './catalogue.js';
import type { CommandContext } from './context.js';

/**
 * What the argument parsers of the admin commands (roles, opt-outs, forget, lists, templates) share: a
 * refusal names what is wrong, then the subcommand's usage and example from the catalogue.
 */

export function usageLine(subcommand: string): string {
  const info = SUBCOMMANDS.find((s) => s.name === subcommand);
  return info ? `Usage: \`/sms ${info.usage}\`, e.g. \`${info.example}\`.` : '';
}

export function usageError(subcommand: string, problem: string): UserInputError {
  return new UserInputError(`${problem} ${usageLine(subcommand)}`);
}

export function unknownAction(subcommand: string, action: string): UserInputError {
  return usageError(subcommand, `${quoted(action, 30)} is not something \`/sms ${subcommand}\` can do.`);
}

/**
 * The first `count` words (quotes group, as in parse.ts) and the raw text after them, which keeps
 * its own spacing and line breaks because message texts and number lists need them.
 */
export function splitWords(text: string, count: number): { words: string[]; rest: string } {
  const words: string[] = [];
  let index = 0;
  while (words.length < count) {
    const token = /\s*(?:"([^"]*)"|'([^']*)'|\u201C([^\u201D]*)\u201D|(\S+))/y;
    token.lastIndex = index;
    const m = token.exec(text);
    if (!m) break;
    words.push(m[1] ?? m[2] ?? m[3] ?? m[4] ?? '');
    index = token.lastIndex;
  }
  return { words, rest: text.slice(index).trim() };
}

export function parseNumber(ctx: CommandContext, typed: string, subcommand: 'optout' | 'forget'): string {
  if (!typed) throw usageError(subcommand, 'Which number?');
  const result = normaliseNumber(typed, ctx.deps.settings.defaultCountry);
  if (result.ok) return result.msisdn;
  throw new UserInputError(
    `${quoted(typed, 40)} is not a number smsops can send to: ${result.reason}. Type it as you would dial it, e.g. \`0532 123 45 67\` or \`+90 532 123 45 67\`.`,
  );
}

export function parsePage(typed: string, total: number, size: number, command: string): number {
  const text = typed.trim();
  if (text === '') return 1;
  const pages = pageCount(total, size);
  if (!/^\d{1,6}$/.test(text) || Number(text) < 1) {
    throw new UserInputError(
      `${quoted(text, 30)} is not a page number: \`${escapeMrkdwn(command)} 2\` shows page 2.`,
    );
  }
  if (Number(text) > pages) {
    throw new UserInputError(
      `There ${pages === 1 ? 'is only 1 page' : `are only ${pages} pages`}: \`${escapeMrkdwn(command)} ${pages}\` shows the last.`,
    );
  }
  return Number(text);
}
