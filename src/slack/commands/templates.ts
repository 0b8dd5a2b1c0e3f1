import { templatePlaceholders } from '../../sms/index.js';
import { UserInputError } from '../errors.js';
import {
  templateCreatedMessage,
  templateDeletedMessage,
  templateShowMessage,
  templatesOverviewMessage,
} from '../ui/admin-templates.js';
import { splitWords, usageError } from './arguments.js';
import { type CommandContext, reply, type SubcommandHandlers } from './context.js';
import { deleteNamed, findNamed, findOrFail, namedCommand, nameTaken, parseName } from './saved-items.js';

// Longer than any SMS worth sending (a segment holds at most 160 characters), and short enough for one block.
const TEMPLATE_MAX_CHARS = 2000;

export const templatesCommand = namedCommand('templates', {
  overview: async (ctx) => {
    const templates = await ctx.deps.store.templates.list();
    await reply(
      ctx,
      templatesOverviewMessage(
        templates.map((t) => ({ template: t, placeholders: templatePlaceholders(t.content) })),
      ),
    );
  },
  add: templateAdd,
  show: templateShow,
  delete: async (ctx, rest) => {
    const template = await deleteNamed(
      ctx,
      rest,
      { subcommand: 'templates', noun: 'template', repo: ctx.deps.store.templates },
      (t) => ({ owner: t.owner, characters: [...t.content].length }),
    );
    await reply(ctx, templateDeletedMessage(template));
  },
});

async function templateAdd(ctx: CommandContext, rest: string): Promise<void> {
  const {
    words: [typedName],
    rest: content,
  } = splitWords(rest, 1);
  const name = parseName(typedName, 'template', 'templates');
  if (!content) throw usageError('templates', `What should template *${name}* say?`);
  const length = [...content].length;
  if (length > TEMPLATE_MAX_CHARS) {
    throw new UserInputError(
      `That template is ${length} characters long; keep it under ${TEMPLATE_MAX_CHARS}.`,
    );
  }
  const { store } = ctx.deps;
  const taken = await findNamed(store.templates, name);
  if (taken) throw nameTaken('template', 'templates', taken.name);
  const now = ctx.deps.now();
  const { row, created } = await store.templates.create({ name, owner: ctx.userId, content, at: now });
  if (!created) throw nameTaken('template', 'templates', row.name);
  const placeholders = templatePlaceholders(content);
  await store.audit.append({
    actor: ctx.userId,
    action: 'template_create',
    target: name,
    details: { characters: length, placeholders },
    at: now,
  });
  await reply(ctx, templateCreatedMessage(row, placeholders));
}

async function templateShow(ctx: CommandContext, rest: string): Promise<void> {
  const {
    words: [typedName],
  } = splitWords(rest, 1);
  const template = await findOrFail(ctx.deps.store.templates, typedName, 'template', 'templates');
  await reply(
    ctx,
    templateShowMessage(template, templatePlaceholders(template.content), ctx.deps.settings.reportTimeZone),
  );
}

export const TEMPLATE_HANDLERS = { templates: templatesCommand } satisfies SubcommandHandlers;
