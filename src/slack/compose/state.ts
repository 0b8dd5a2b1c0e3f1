import * as z from 'zod';
import { type ComposeMetadata, FIELD } from '../ui/compose.js';
import type { ComposeInput, EncodingChoice } from './draft.js';

/** The parts of a Slack view we read, checked at the boundary. */
const stateValue = z
  .object({
    type: z.string().optional(),
    value: z.string().nullish(),
    selected_option: z.object({ value: z.string() }).nullish(),
  })
  .passthrough();

export const viewSchema = z
  .object({
    id: z.string(),
    hash: z.string().optional(),
    root_view_id: z.string().nullish(),
    callback_id: z.string().optional(),
    submit: z.object({ text: z.string() }).passthrough().nullish(),
    private_metadata: z.string().optional(),
    blocks: z
      .array(z.object({ type: z.string(), block_id: z.string().optional() }).passthrough())
      .default([]),
    state: z
      .object({ values: z.record(z.string(), z.record(z.string(), stateValue)) })
      .default({ values: {} }),
  })
  .passthrough();

export type SlackView = z.infer<typeof viewSchema>;

const metadataSchema = z.object({
  channel: z.string(),
  threadTs: z.string().optional(),
  mode: z.enum(['same', 'personalised']).default('same'),
  textVersion: z.number().int().min(0).default(0),
  tz: z.string().optional(),
  tzFromSlack: z.boolean().optional(),
  editing: z.number().int().positive().optional(),
  scheduleAt: z.number().int().positive().optional(),
});

export function readMetadata(view: SlackView): ComposeMetadata {
  const parsed = metadataSchema.safeParse(JSON.parse(view.private_metadata || '{}'));
  if (!parsed.success) throw new Error('compose view metadata is unreadable');
  return parsed.data;
}

/** Values by block id prefix: the text block's id carries a version. */
function stateValueOf(view: SlackView, blockPrefix: string): string | undefined {
  for (const [blockId, actions] of Object.entries(view.state.values)) {
    if (blockId !== blockPrefix && !blockId.startsWith(`${blockPrefix}_`)) continue;
    for (const action of Object.values(actions)) {
      return action.selected_option?.value ?? action.value ?? undefined;
    }
  }
  return undefined;
}

/** The block id in the view for a field: errors must name the block exactly. */
export function blockIdOf(view: SlackView, field: string): string {
  return (
    view.blocks.find((b) => b.block_id === field || b.block_id?.startsWith(`${field}_`))?.block_id ?? field
  );
}

export function senderOptionsOf(view: SlackView): string[] {
  const block = view.blocks.find((b) => b.block_id === FIELD.sender) as
    | { element?: { options?: { value: string }[] } }
    | undefined;
  return block?.element?.options?.map((o) => o.value) ?? [];
}

export function readComposeInput(view: SlackView): Omit<ComposeInput, 'listMembers'> {
  const metadata = readMetadata(view);
  const encoding = (stateValueOf(view, FIELD.encoding) ?? 'auto') as EncodingChoice;
  return {
    sender: stateValueOf(view, FIELD.sender),
    senderOptions: senderOptionsOf(view),
    mode: (stateValueOf(view, FIELD.mode) as ComposeInput['mode'] | undefined) ?? metadata.mode,
    recipientsText: stateValueOf(view, FIELD.recipients) ?? '',
    listName: stateValueOf(view, FIELD.list),
    csvText: stateValueOf(view, FIELD.csv) ?? '',
    text: stateValueOf(view, FIELD.text) ?? '',
    encoding: ['auto', 'GSM7', 'TurkishSingleShift', 'UCS2'].includes(encoding) ? encoding : 'auto',
    validity: stateValueOf(view, FIELD.validity),
  };
}

/** A file as Slack puts it in a file_input's state: what the bot needs to fetch it. */
const slackFileSchema = z
  .object({
    id: z.string(),
    name: z.string().default('file'),
    size: z.number().optional(),
    url_private: z.string().optional(),
    url_private_download: z.string().optional(),
  })
  .passthrough();

export type SlackFile = z.infer<typeof slackFileSchema>;

/** The file uploaded in the compose modal's file input, if any (max_files is 1). */
export function uploadedFileOf(view: SlackView): SlackFile | undefined {
  const action = view.state.values[FIELD.file]?.[FIELD.file] as { files?: unknown } | undefined;
  const files = z.array(slackFileSchema).safeParse(action?.files ?? []);
  return files.success ? files.data[0] : undefined;
}
