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
    return { kind: 'unknown', typed: match[1]!, suggestion: likelySubcommand(name) };
  }
  return { kind: 'subcommand', name, args: tokenize(rest), rest };
}

/** Two letters typed the wrong way round are one slip, not the two edits Levenshtein counts. */
function swapsTwoLetters(typed: string, name: string): boolean {
  if (typed.length !== name.length) return false;
  const differ = [...typed].flatMap((c, i) => (c === name[i] ? [] : [i]));
  return (
    differ.length === 2 &&
    differ[1] === differ[0]! + 1 &&
    typed[differ[0]!] === name[differ[1]!] &&
    typed[differ[1]!] === name[differ[0]!]
  );
}

function likelySubcommand(typed: string): SubcommandName | undefined {
  const swapped = SUBCOMMAND_NAMES.find((name) => swapsTwoLetters(typed, name));
  if (swapped) return swapped;
  const candidate = closest(typed, [...SUBCOMMAND_NAMES]) as SubcommandName;
  return distance(typed, candidate) <= Math.max(2, Math.floor(candidate.length / 3)) ? candidate : undefined;
}

export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  const pattern = /"([^"]*)"|'([^']*)'|\u201C([^\u201D]*)\u201D|(\S+)/g;
  for (const m of text.matchAll(pattern)) tokens.push(m[1] ?? m[2] ?? m[3] ?? m[4] ?? '');
  return tokens;
}
