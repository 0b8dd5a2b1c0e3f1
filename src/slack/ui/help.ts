import type { KnownBlock } from '@slack/types';
import { SUBCOMMANDS, type SubcommandInfo } from '../commands/catalogue.js';
import { context, header, section } from './blocks.js';
import { escapeMrkdwn, truncate } from './format.js';

export function helpBlocks(): KnownBlock[] {
  const blocks: KnownBlock[] = [];
  blocks.push(header('smsops: /sms subcommands'));
  const groups = [...new Set(SUBCOMMANDS.map((s) => s.group))];
  for (const group of groups) {
    const lines = SUBCOMMANDS.filter((s) => s.group === group).map(
      (s) =>
        `\`/sms ${escapeMrkdwn(s.usage)}\` — ${escapeMrkdwn(s.summary)}\n      _e.g._ \`${escapeMrkdwn(s.example)}\``,
    );
    blocks.push(section(`*${group}*\n${lines.join('\n')}`));
  }
  blocks.push(
    context(
      'Roles: *viewer* looks up, *sender* also sends and cancels, *admin* also grants roles and reads the audit log.',
    ),
  );
  return blocks;
}

export function helpText(): string {
  return SUBCOMMANDS.map((s) => `/sms ${s.usage}: ${s.summary}`).join('\n');
}

function usageOf(info: SubcommandInfo): string {
  return `\`/sms ${escapeMrkdwn(info.usage)}\` — ${escapeMrkdwn(info.summary)}\n_e.g._ \`${escapeMrkdwn(info.example)}\``;
}

/**
 * A mistyped subcommand: the likely one with its usage first, the other names on one line, and `/sms help`
 * for the rest. The whole help (two and a half screens) would push the answer out of sight.
 */
export function unknownSubcommandMessage(
  typed: string,
  suggestion?: string,
): { text: string; blocks: KnownBlock[] } {
  const info = suggestion ? SUBCOMMANDS.find((s) => s.name === suggestion) : undefined;
  const what = `\`${escapeMrkdwn(truncate(typed, 40))}\` is not an /sms subcommand.`;
  const blocks: KnownBlock[] = info
    ? [section(`:grey_question: ${what} Did you mean \`/sms ${info.name}\`?\n${usageOf(info)}`)]
    : [
        section(
          `:grey_question: ${what} The subcommands are ${SUBCOMMANDS.map((s) => `\`${s.name}\``).join(', ')}.`,
        ),
      ];
  blocks.push(context(`\`/sms help\` shows what each of the ${SUBCOMMANDS.length} subcommands does.`));
  const hint = info ? ` Did you mean /sms ${info.name}?` : '';
  return { text: `Unknown subcommand ${truncate(typed, 40)}.${hint} /sms help lists them all.`, blocks };
}
