// A campaign's steps in the store (claim a chunk, then move the cursor past it: two updates of the campaign's row a
// chunk, one chunk a second by default) with a 100,000-recipient plan, on SQLite, where they run on the thread that
// acks Slack. Until migration 0011 the plan lived in that row and each update rewrote it whole (~1.5 MB, its freed
// pages zeroed by secure_delete): 10-11 ms a chunk; with the plan in a table of its own, under 0.1 ms
// (docs/performance.md). No target: a figure to keep it so. Run alone with `npx tsx bench/campaign-steps.ts`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openStore } from '../src/store/index.js';
import { median, round } from './figure.js';
import { type Figure, formatFigure } from './storage.js';

const RECIPIENTS = 100_000;
const CHUNK = 1_000;
const STEPS = 100;

export async function benchCampaignSteps(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'smsops-bench-steps-'));
  try {
    const store = await openStore(`sqlite:${join(dir, 'steps.db')}`);
    try {
      const recipients = Array.from({ length: RECIPIENTS }, (_, i) => `90532${String(1_000_000 + i)}`);
      const text = 'Kampanya başladı: tüm ürünlerde %20 indirim. Çıkmak için RET yazın.';
      const { campaign } = await store.campaigns.create({
        idempotencyKey: 'bench',
        slackUser: 'U1',
        channel: 'C1',
        sender: 'ACME',
        text,
        plan: { sender: 'ACME', recipients, text },
        recipientCount: RECIPIENTS,
        segments: 1,
        chunkSize: CHUNK,
      });
      const ms: number[] = [];
      let at = Date.now();
      for (let chunk = 0; chunk < STEPS; chunk++) {
        const started = performance.now();
        const claimed = await store.campaigns.claimChunk(
          campaign.id,
          chunk,
          'bench',
          new Date(at),
          new Date(at + 60_000),
        );
        const advanced = await store.campaigns.advance(campaign.id, chunk, 'bench', new Date(at));
        ms.push(performance.now() - started);
        if (!claimed || !advanced) throw new Error(`chunk ${chunk} was not claimed and advanced`);
        at += 1;
      }
      return [
        {
          name: `campaign steps on SQLite: a chunk claimed and the cursor moved past it, ${RECIPIENTS.toLocaleString('en-US')}-recipient plan (median of ${STEPS}; on the main thread; no target)`,
          value: round(median(ms), 2),
          unit: 'ms',
        },
      ];
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const figure of await benchCampaignSteps()) console.log(formatFigure(figure));
}
