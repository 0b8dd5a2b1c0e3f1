import { describe, expect, it } from 'vitest';
import { campaignLine, chunkCountOf } from '../../../src/slack/ui/scheduled.js';

describe('what a large send says about its chunks', () => {
  it('counts the chunks, the last one partial', () => {
    expect(chunkCountOf(8, 3)).toBe(3);
    expect(chunkCountOf(9, 3)).toBe(3);
    expect(chunkCountOf(2, 3)).toBe(1);
  });

  it('says the pace as configured', () => {
    expect(campaignLine(2500, 1000, 2000)).toContain(
      'campaign of 3 chunks of up to 1,000 recipients*, one every 2 seconds',
    );
    expect(campaignLine(2500, 1000, 1500)).toContain('one every 1,500 ms');
    expect(campaignLine(8, 3, 0)).toContain('one after another');
    expect(campaignLine(8, 3)).not.toMatch(/one every|one after another/);
  });
});
