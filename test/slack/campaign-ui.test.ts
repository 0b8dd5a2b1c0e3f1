import { describe, expect, it } from 'vitest';
import { campaignProgress } from '../../src/sending/campaign.js';
import { campaignCard } from '../../src/slack/ui/campaign.js';
import type { Campaign } from '../../src/store/index.js';

function campaign(over: Partial<Campaign>): Campaign {
  const at = new Date('2026-11-23T10:00:00Z');
  return {
    id: 7,
    idempotencyKey: 'k',
    slackUser: 'U1',
    actingUser: 'U1',
    channel: 'C1',
    threadTs: null,
    messageTs: null,
    sender: 'SMSOPS',
    text: 'Hello',
    recipientCount: 1_000,
    segments: 1_000,
    estimatedCost: 10,
    chunkSize: 500,
    chunkCount: 2,
    round: 0,
    cursor: 1,
    state: 'stopped',
    stopReason: null,
    nextAt: at,
    owner: null,
    leaseUntil: null,
    cancelledBy: null,
    cancelledAt: null,
    createdAt: at,
    updatedAt: at,
    redactedAt: null,
    ...over,
  };
}

describe('campaign card', () => {
  it('a stop reason as long as a gateway may answer still fits in a section Slack takes (3,000 characters)', () => {
    const c = campaign({
      stopReason: `Chunk 2 of 2 was refused by the gateway: ${'<b>error</b> & '.repeat(400)}`,
    });
    const card = campaignCard(c, campaignProgress(c, []), {
      reportTimeZone: 'Europe/Istanbul',
      simulated: false,
    });
    const texts = card.blocks.flatMap((b) => {
      const block = b as { text?: { text?: string } };
      return block.text?.text ? [block.text.text] : [];
    });
    expect(texts.some((t) => t.includes('Stopped'))).toBe(true);
    for (const t of texts) expect(t.length).toBeLessThanOrEqual(3_000);
    expect(card.text.length).toBeLessThanOrEqual(4_000);
  });
});
