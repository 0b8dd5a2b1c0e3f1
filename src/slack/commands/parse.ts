import { closest, distance } from 'fastest-levenshtein';
import { isSubcommandName, SUBCOMMAND_NAMES, type SubcommandName } from './catalogue.js';

export type ParsedCommand =
  | { kind: 'subcommand'; name: SubcommandName; args: string[]; rest: string }
  | { kind: 'unknown'; typed: string; suggestion?: string };

/**
 * Splits `/sms` text into a subcommand and its arguments. Quotes group words ("cron \"0 9 * * *\"");
 * `rest` keeps the raw text after the subcommand, because message texts keep their own spacing.
 */
export function parseCommand(text: string): ParsedCommand {
  const trimmed = text.trim();
  if (trimmed === '') return { kind: 'subcommand', name: 'help', args: [], rest: '' };
  const match = /^(\S+)\s*([\s\S]*)$/.exec(trimmed)!;
  const name = match[1]!.toLowerCase();
  const rest = match[2] ?? '';
  if (name === '?') return { kind: 'subcommand', name: 'help', args: [], rest: '' };
  if (!isSubcommandName(name)) {
    const candidate = closest(name, [...SUBCOMMAND_NAMES]);
    const close = distance(name, candidate) <= Math.max(2, Math.floor(candidate.length / 3));
    return { kind: 'unknown', typed: match[1]!, suggestion: close ? candidate : undefined };
  }
  return { kind: 'subcommand', name, args: tokenize(rest), rest };
}

export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  const pattern = /"([^"]*)"|'([^']*)'|\u201C([^\u201D]*)\u201D|(\S+)/g;
  for (const m of text.matchAll(pattern)) tokens.push(m[1] ?? m[2] ?? m[3] ?? m[4] ?? '');
  return tokens;
}
