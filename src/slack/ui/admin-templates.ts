import type { KnownBlock } from '@slack/types';
import type { Template } from '../../store/index.js';
import { type AdminMessage, listMessage, mention, notice } from './admin-common.js';
import { context, LIMITS, section } from './blocks.js';
import { escapeMrkdwn, formatTime, plural, truncate } from './format.js';

const n = (name: string) => escapeMrkdwn(name);

/**
 * Template text as a mrkdwn quote within one section. It is cut before escaping, so an entity is
 * never split, and cut harder when escaping made it too long (text full of `&` grows fivefold).
 */
export function quote(text: string, budget = LIMITS.sectionText - 100): string {
  let max = budget;
  for (;;) {
    const quoted = `>${escapeMrkdwn(truncate(text, max)).replace(/\n/g, '\n>')}`;
    if (quoted.length <= budget || max <= 1) return quoted;
    max = Math.floor(max * 0.8);
  }
}

function placeholderText(placeholders: readonly string[]): string {
  return placeholders.length > 0
    ? `Placeholders: ${placeholders.map((p) => `\`{{${escapeMrkdwn(p)}}}\``).join(', ')}, filled from the columns of a CSV when sending.`
    : 'No `{{placeholders}}`: every recipient gets the same text.';
}

export function templatesOverviewMessage(
  templates: ReadonlyArray<{ template: Template; placeholders: readonly string[] }>,
): AdminMessage {
  return listMessage({
    title: 'Message templates',
    lines: templates.map(({ template, placeholders }) => {
      const uses =
        placeholders.length > 0
          ? `, uses ${placeholders.map((p) => `{{${escapeMrkdwn(p)}}}`).join(' ')}`
          : '';
      const preview = escapeMrkdwn(truncate(template.content.slice(0, 200).replace(/\s+/g, ' ').trim(), 60));
      return `• *${n(template.name)}* — owner ${mention(template.owner)}${uses}\n      _${preview}_`;
    }),
    empty: '_No saved templates yet._',
    footer: [
      '`/sms templates show <name>` · `/sms templates add <name> <text>` · `/sms templates delete <name>`',
    ],
    text: `${plural(templates.length, 'message template')}`,
  });
}

export function templateCreatedMessage(template: Template, placeholders: readonly string[]): AdminMessage {
  const blocks: KnownBlock[] = [
    section(`:white_check_mark: Saved template *${n(template.name)}*:`),
    section(quote(template.content)),
    section(placeholderText(placeholders)),
    context(`See it: \`/sms templates show ${n(template.name)}\` · use it from \`/sms send\``),
  ];
  return { text: `Saved template ${n(template.name)}`, blocks };
}

export function templateShowMessage(
  template: Template,
  placeholders: readonly string[],
  timeZone: string,
): AdminMessage {
  const blocks: KnownBlock[] = [
    section(
      `*Template ${n(template.name)}* — owner ${mention(template.owner)}, updated ${formatTime(template.updatedAt, timeZone)}, ${plural([...template.content].length, 'character')}`,
    ),
    section(quote(template.content)),
    section(placeholderText(placeholders)),
  ];
  return { text: `Template ${n(template.name)}: ${escapeMrkdwn(truncate(template.content, 200))}`, blocks };
}

export function templateDeletedMessage(template: Template): AdminMessage {
  return notice(
    `:wastebasket: Deleted template *${n(template.name)}* (owner ${mention(template.owner)}).`,
    `Deleted template ${n(template.name)}`,
  );
}
