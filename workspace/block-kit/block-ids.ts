import { randomToken } from '../state/ids.js';
import type { AnyBlock } from '../state/model.js';

type Loose = Record<string, unknown>;

/**
 * Slack fills in a block_id for every block that lacks one, and an action_id for every interactive element, and
 * echoes them in interaction payloads. Doing the same keeps the driver's payloads consistent with stored messages.
 */
export function assignBlockIds(blocks: AnyBlock[]): AnyBlock[] {
  const taken = new Set(blocks.map((b) => b.block_id).filter((id): id is string => typeof id === 'string'));
  return blocks.map((block) => {
    const copy = structuredClone(block) as unknown as Loose;
    if (typeof copy.block_id !== 'string') {
      copy.block_id = freshId(taken);
      taken.add(copy.block_id as string);
    }
    for (const element of elementsOf(copy)) {
      if (typeof element.action_id !== 'string' && isInteractive(element)) element.action_id = randomToken(3);
    }
    return copy as unknown as AnyBlock;
  });
}

/** The interactive elements a block holds, wherever Block Kit puts them. */
export function elementsOf(block: Loose): Loose[] {
  const found: Loose[] = [];
  if (Array.isArray(block.elements)) found.push(...(block.elements as Loose[]));
  if (isLoose(block.accessory)) found.push(block.accessory);
  if (isLoose(block.element)) found.push(block.element);
  return found.filter(isLoose);
}

function isInteractive(element: Loose): boolean {
  return (
    typeof element.type === 'string' &&
    element.type !== 'image' &&
    !['mrkdwn', 'plain_text'].includes(element.type)
  );
}

function isLoose(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function freshId(taken: Set<string>): string {
  let id = randomToken(2);
  while (taken.has(id)) id = randomToken(2);
  return id;
}
