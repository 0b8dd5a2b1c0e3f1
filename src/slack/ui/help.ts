import type { KnownBlock } from '@slack/types';
import { SUBCOMMANDS } from '../commands/catalogue.js';
import { context, header, section } from './blocks.js';
import { escapeMrkdwn } from './format.js';

export function helpBlocks(options: { unknown?: string; suggestion?: string } = {}): KnownBlock[] {
  const blocks: KnownBlock[] = [];
  if (options.unknown !== undefined) {
    const hint = options.suggestion ? ` Did you mean \`/sms ${options.suggestion}\`?` : '';
    blocks.push(
      section(`:grey_question: \`${escapeMrkdwn(options.unknown)}\` is not an /sms subcommand.${hint}`),
    );
  }
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
