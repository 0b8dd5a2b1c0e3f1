import type { AllMiddlewareArgs, BlockAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { composeEstimate } from '../compose/draft.js';
import { scheduleChosen } from '../compose/schedule-input.js';
import {
  readComposeInput,
  readMetadata,
  type SlackView,
  senderOptionsOf,
  uploadedFileOf,
  viewSchema,
} from '../compose/state.js';
import { submitLabel } from '../compose/submit-label.js';
import type { ViewUpdates } from '../compose/view-updates.js';
import type { SlackDeps } from '../deps.js';
import { composeView, FIELD } from '../ui/compose.js';
import { replyingToOf } from '../ui/reply-context.js';

type ActionArgs = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;

function optionsOf(view: SlackView, blockId: string): { value: string; label: string }[] {
  const block = view.blocks.find((b) => b.block_id === blockId) as
    | { element?: { options?: { value: string; text: { text: string } }[] } }
    | undefined;
  return block?.element?.options?.map((o) => ({ value: o.value, label: o.text.text })) ?? [];
}

function sizeFromLabel(label: string): number {
  const m = /\(([\d,]+)\)$/.exec(label);
  return m ? Number(m[1]!.replace(/,/g, '')) : 0;
}

/**
 * Rebuilds the compose modal from what it shows now, changing only what the action asks. Inputs
 * keep what the user typed because their block ids stay the same.
 */
async function rebuild(
  deps: SlackDeps,
  view: SlackView,
  change: { mode?: 'same' | 'personalised'; text?: string },
) {
  const metadata = readMetadata(view);
  const input = readComposeInput(view);
  const mode = change.mode ?? metadata.mode;
  const textVersion = change.text !== undefined ? metadata.textVersion + 1 : metadata.textVersion;
  const listMembers = input.listName
    ? (await deps.store.recipientLists.get(input.listName))?.members
    : undefined;
  const file = uploadedFileOf(view);
  const estimate = composeEstimate(
    { ...input, mode, text: change.text ?? input.text, listMembers },
    deps.settings.sending,
    deps.settings.defaultCountry,
    file?.name,
  );
  const senderBlock = view.blocks.find((b) => b.block_id === FIELD.sender) as
    | { element?: { type?: string } }
    | undefined;
  const senderNames = senderOptionsOf(view);
  const defaultSender = optionsOf(view, FIELD.sender).find((o) => o.label.endsWith('(default)'))?.value;
  return composeView({
    senders: senderNames.map((name) => ({ name, isDefault: name === defaultSender })),
    sendersProblem:
      senderBlock?.element?.type === 'plain_text_input'
        ? 'Sender names could not be loaded from the gateway; type one.'
        : undefined,
    lists: optionsOf(view, FIELD.list).map((o) => ({ name: o.value, size: sizeFromLabel(o.label) })),
    templates: optionsOf(view, FIELD.template).map((o) => ({ name: o.value })),
    prefill: { text: change.text, sender: input.sender, replyingTo: replyingToOf(view.blocks) },
    estimate: estimate.line,
    submitLabel: submitLabel(deps.settings.sending, estimate, {
      scheduling: metadata.tz !== undefined && scheduleChosen(view),
      editing: metadata.editing !== undefined,
      fileAttached: file !== undefined,
    }),
    metadata: { ...metadata, mode, textVersion },
    simulated: deps.settings.simulated,
  });
}

/** The view as this action saw it, rebuilt with the change, through the view's one queue of updates. */
function update(
  deps: SlackDeps,
  updates: ViewUpdates,
  args: ActionArgs,
  change: { mode?: 'same' | 'personalised'; text?: string },
): Promise<void> {
  const view = viewSchema.parse(args.body.view);
  const actionTs = Number((args.action as { action_ts?: string }).action_ts ?? 0);
  return updates.request(view.id, {
    actionTs: Number.isFinite(actionTs) ? actionTs : 0,
    payloadHash: view.hash,
    build: () => rebuild(deps, view, change),
    client: args.client,
  });
}

/** While the user types: the estimate line follows the text, recipients, list and encoding. */
export function estimateHandler(deps: SlackDeps, updates: ViewUpdates) {
  return async function handleComposeEstimate(args: ActionArgs): Promise<void> {
    await args.ack();
    await update(deps, updates, args, {});
  };
}

export function modeHandler(deps: SlackDeps, updates: ViewUpdates) {
  return async function handleComposeMode(args: ActionArgs): Promise<void> {
    await args.ack();
    const action = args.action as { selected_option?: { value?: string } };
    const mode = action.selected_option?.value === 'personalised' ? 'personalised' : 'same';
    await update(deps, updates, args, { mode });
  };
}

export function templateHandler(deps: SlackDeps, updates: ViewUpdates) {
  return async function handleComposeTemplate(args: ActionArgs): Promise<void> {
    await args.ack();
    const name = (args.action as { selected_option?: { value?: string } }).selected_option?.value;
    const template = name ? await deps.store.templates.get(name) : undefined;
    if (!template) return;
    await update(deps, updates, args, { text: template.content });
  };
}
