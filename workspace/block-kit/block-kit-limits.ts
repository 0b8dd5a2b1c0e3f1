import { checkElement } from './block-kit-elements.js';
import {
  checkMaxItems,
  checkMaxLength,
  checkOptionalText,
  checkTextObject,
  isRecord,
  Problems,
} from './block-kit-text.js';

export type Surface = 'message' | 'modal' | 'home';

/** Slack: 50 blocks in a message, 100 in a modal or Home tab. */
export const MAX_BLOCKS: Record<Surface, number> = { message: 50, modal: 100, home: 100 };

/** Block types in @slack/types; a type outside this list is what Slack refuses as unsupported. */
export const KNOWN_BLOCK_TYPES = new Set([
  'actions',
  'alert',
  'card',
  'carousel',
  'container',
  'context',
  'context_actions',
  'data_table',
  'divider',
  'file',
  'header',
  'image',
  'input',
  'markdown',
  'plan',
  'rich_text',
  'section',
  'table',
  'task_card',
  'video',
]);

type Container = 'section' | 'actions' | 'input' | 'context';

const PICKER: readonly Container[] = ['section', 'actions', 'input'];

/**
 * The blocks Slack documents each element for (docs.slack.dev/reference/block-kit/block-elements, column "Blocks";
 * the actions block's page adds rich_text_input). Elsewhere Slack refuses the element as an unsupported type, as
 * the input block's page says it does for a file_input with dispatch_action.
 */
const ELEMENT_BLOCKS: Readonly<Record<string, readonly Container[]>> = {
  button: ['section', 'actions'],
  overflow: ['section', 'actions'],
  workflow_button: ['section', 'actions'],
  image: ['section', 'context'],
  checkboxes: PICKER,
  radio_buttons: PICKER,
  datepicker: PICKER,
  timepicker: PICKER,
  datetimepicker: ['actions', 'input'],
  ...Object.fromEntries(
    ['static', 'external', 'users', 'conversations', 'channels'].flatMap((kind) => [
      [`${kind}_select`, PICKER],
      [`multi_${kind}_select`, PICKER],
    ]),
  ),
  plain_text_input: ['input'],
  email_text_input: ['input'],
  url_text_input: ['input'],
  number_input: ['input'],
  rich_text_input: ['input', 'actions'],
  file_input: ['input'],
};

/** Refuses an element in a block Slack does not take it in (an unknown element is refused by checkElement). */
function checkPlacement(element: unknown, container: Container, pointer: string, problems: Problems): void {
  if (!isRecord(element) || typeof element.type !== 'string') return;
  const allowed = ELEMENT_BLOCKS[element.type];
  if (allowed && !allowed.includes(container))
    problems.add(`${pointer}/type`, `unsupported type: ${element.type}`);
}

/** Validates a `blocks` array for a surface; returns Slack-style messages, empty when the blocks are fine. */
export function checkBlocks(blocks: unknown, surface: Surface, pointer: string): string[] {
  const problems = new Problems();
  if (!checkMaxItems(blocks, MAX_BLOCKS[surface], pointer, problems)) return problems.messages;
  const blockIds = new Set<string>();
  blocks.forEach((block, i) => {
    checkBlock(block, `${pointer}/${i}`, problems, blockIds);
    // file_input works in modals only (docs.slack.dev/reference/block-kit/block-elements/file-input-element).
    if (
      surface !== 'modal' &&
      isRecord(block) &&
      isRecord(block.element) &&
      block.element.type === 'file_input'
    )
      problems.add(`${pointer}/${i}/element/type`, 'unsupported type: file_input');
  });
  return problems.messages;
}

function checkBlock(block: unknown, pointer: string, problems: Problems, blockIds: Set<string>): void {
  if (!isRecord(block)) {
    problems.add(pointer, 'must provide an object');
    return;
  }
  const type = block.type;
  if (typeof type !== 'string' || !KNOWN_BLOCK_TYPES.has(type)) {
    problems.add(`${pointer}/type`, `unsupported block type: ${String(type)}`);
    return;
  }
  checkBlockId(block.block_id, `${pointer}/block_id`, problems, blockIds);
  BLOCK_CHECKS[type]?.(block, pointer, problems);
}

function checkBlockId(blockId: unknown, pointer: string, problems: Problems, seen: Set<string>): void {
  if (blockId === undefined) return;
  checkMaxLength(blockId, 255, pointer, problems);
  if (typeof blockId !== 'string') return;
  if (seen.has(blockId)) problems.add(pointer, `duplicate block_id: ${blockId}`);
  seen.add(blockId);
}

type BlockCheck = (block: Record<string, unknown>, pointer: string, problems: Problems) => void;

const checkSection: BlockCheck = (block, pointer, problems) => {
  if (block.text === undefined && block.fields === undefined) {
    problems.add(pointer, 'must provide text or fields');
  }
  checkOptionalText(block.text, `${pointer}/text`, problems, { max: 3000 });
  if (block.fields !== undefined && checkMaxItems(block.fields, 10, `${pointer}/fields`, problems)) {
    block.fields.forEach((field, i) => {
      checkTextObject(field, `${pointer}/fields/${i}`, problems, { max: 2000 });
    });
  }
  if (block.accessory !== undefined) {
    checkElement(block.accessory, `${pointer}/accessory`, problems, new Set());
    checkPlacement(block.accessory, 'section', `${pointer}/accessory`, problems);
  }
};

const checkHeader: BlockCheck = (block, pointer, problems) => {
  checkTextObject(block.text, `${pointer}/text`, problems, { plainOnly: true, max: 150 });
};

const checkActions: BlockCheck = (block, pointer, problems) => {
  if (!checkMaxItems(block.elements, 25, `${pointer}/elements`, problems)) return;
  const actionIds = new Set<string>();
  block.elements.forEach((element, i) => {
    checkElement(element, `${pointer}/elements/${i}`, problems, actionIds);
    checkPlacement(element, 'actions', `${pointer}/elements/${i}`, problems);
  });
};

const checkContext: BlockCheck = (block, pointer, problems) => {
  if (!checkMaxItems(block.elements, 10, `${pointer}/elements`, problems)) return;
  block.elements.forEach((element, i) => {
    const at = `${pointer}/elements/${i}`;
    if (isRecord(element) && element.type === 'image') checkElement(element, at, problems, new Set());
    else if (isRecord(element) && typeof element.type === 'string' && element.type in ELEMENT_BLOCKS)
      checkPlacement(element, 'context', at, problems);
    else checkTextObject(element, at, problems, { max: 3000 });
  });
};

const checkImageBlock: BlockCheck = (block, pointer, problems) => {
  if (block.image_url === undefined && block.slack_file === undefined) {
    problems.add(pointer, 'must provide image_url or slack_file');
  }
  checkMaxLength(block.image_url, 3000, `${pointer}/image_url`, problems);
  if (typeof block.alt_text !== 'string') problems.add(`${pointer}/alt_text`, 'must provide a string');
  checkMaxLength(block.alt_text, 2000, `${pointer}/alt_text`, problems);
  checkOptionalText(block.title, `${pointer}/title`, problems, { plainOnly: true, max: 2000 });
};

const checkInput: BlockCheck = (block, pointer, problems) => {
  checkTextObject(block.label, `${pointer}/label`, problems, { plainOnly: true, max: 2000 });
  checkOptionalText(block.hint, `${pointer}/hint`, problems, { plainOnly: true, max: 2000 });
  if (block.element === undefined) problems.add(`${pointer}/element`, 'must provide an object');
  else {
    checkElement(block.element, `${pointer}/element`, problems, new Set());
    checkPlacement(block.element, 'input', `${pointer}/element`, problems);
    // docs.slack.dev/reference/block-kit/blocks/input-block: dispatch_action with a file_input is an unsupported type.
    if (block.dispatch_action === true && isRecord(block.element) && block.element.type === 'file_input')
      problems.add(`${pointer}/element/type`, 'unsupported type: file_input');
  }
};

const checkMarkdown: BlockCheck = (block, pointer, problems) => {
  if (typeof block.text !== 'string') problems.add(`${pointer}/text`, 'must provide a string');
  checkMaxLength(block.text, 12_000, `${pointer}/text`, problems);
};

const BLOCK_CHECKS: Record<string, BlockCheck> = {
  section: checkSection,
  header: checkHeader,
  actions: checkActions,
  context: checkContext,
  image: checkImageBlock,
  input: checkInput,
  markdown: checkMarkdown,
};
