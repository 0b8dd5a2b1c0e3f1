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

/** Validates a `blocks` array for a surface; returns Slack-style messages, empty when the blocks are fine. */
export function checkBlocks(blocks: unknown, surface: Surface, pointer: string): string[] {
  const problems = new Problems();
  if (!checkMaxItems(blocks, MAX_BLOCKS[surface], pointer, problems)) return problems.messages;
  const blockIds = new Set<string>();
  blocks.forEach((block, i) => {
    checkBlock(block, `${pointer}/${i}`, problems, blockIds);
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
  if (block.accessory !== undefined)
    checkElement(block.accessory, `${pointer}/accessory`, problems, new Set());
};

const checkHeader: BlockCheck = (block, pointer, problems) => {
  checkTextObject(block.text, `${pointer}/text`, problems, { plainOnly: true, max: 150 });
};

const checkActions: BlockCheck = (block, pointer, problems) => {
  if (!checkMaxItems(block.elements, 25, `${pointer}/elements`, problems)) return;
  const actionIds = new Set<string>();
  block.elements.forEach((element, i) => {
    checkElement(element, `${pointer}/elements/${i}`, problems, actionIds);
  });
};

const checkContext: BlockCheck = (block, pointer, problems) => {
  if (!checkMaxItems(block.elements, 10, `${pointer}/elements`, problems)) return;
  block.elements.forEach((element, i) => {
    const at = `${pointer}/elements/${i}`;
    if (isRecord(element) && element.type === 'image') checkElement(element, at, problems, new Set());
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
  else checkElement(block.element, `${pointer}/element`, problems, new Set());
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
