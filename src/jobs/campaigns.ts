import type { Logger } from '../log.js';
import { type ChunkRunDeps, type ChunkStep, runNextChunk } from '../sending/campaign.js';
import type { SendDeps, SendPlan } from '../sending/send.js';
import type { Campaign } from '../store/index.js';
import { JobLoop, type JobObserver } from './loop.js';

/** What the runner tells the Slack side: this campaign's card should show its latest state. */
export interface CampaignReporter {
  changed(campaignId: number): Promise<void>;
}

export interface CampaignRunnerOptions {
  send: SendDeps;
  /** Names this instance in its claims (the same across a restart on the same host and port). */
  owner: string;
  /** How long a claim on a chunk holds without renewal: the send lease. */
  leaseMs: number;
  /** SUBMIT_CHUNK_INTERVAL_MS. */
  paceMs: number;
  reporter: CampaignReporter;
  logger: Logger;
  /** How long one pass may keep submitting before it lets the loop breathe (and see a stop). */
  passBudgetMs?: number;
  /** Told of every pass (the metrics, when METRICS_PORT is set). */
  jobObserver?: JobObserver;
}

/** Plans kept in memory between chunks: a 100,000-recipient plan is read from the store once, not per chunk. */
const PLANS_KEPT = 4;

/**
 * Drives running campaigns: each pass takes the campaigns that are due and that this instance may claim, and
 * submits their chunks in order at the configured pace (see runNextChunk for the rules). Several instances on
 * one database each claim chunk by chunk, so exactly one submits a given chunk; after a restart, or when
 * another instance dies, the campaign is taken up where it stopped.
 */
export class CampaignRunner {
  readonly #o: CampaignRunnerOptions;
  readonly #loop: JobLoop;
  /** Plans by campaign, with the redaction time they were read at: a number forgotten since is re-read. */
  readonly #plans = new Map<number, { plan: SendPlan; redactedAt: number }>();
  #started = false;
  #pass: Promise<number> | undefined;
  #again = false;
  #workLeft = false;

  constructor(options: CampaignRunnerOptions) {
    this.#o = options;
    const idleMs = Math.min(1_000, Math.max(50, options.paceMs));
    this.#loop = new JobLoop({
      name: 'campaign runner pass',
      logger: options.logger,
      run: () => this.tick(),
      nextDelayMs: () => (this.#workLeft ? 0 : idleMs),
      fallbackDelayMs: 1_000,
      observer: options.jobObserver,
    });
  }

  start(): void {
    this.#started = true;
    this.#loop.start();
  }

  /** Waits for the chunk in flight; the claim of a campaign not finished is given back by its lease. */
  async stop(): Promise<void> {
    this.#started = false;
    await this.#loop.stop();
    await this.#pass;
  }

  /** Look at campaigns now (after a start, Send the rest, a chunk found unknown); only once started. */
  kick(): void {
    if (!this.#started) return;
    if (this.#pass) {
      this.#again = true;
      return;
    }
    void this.tick().catch((error: unknown) =>
      this.#o.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'campaign pass failed',
      ),
    );
  }

  /**
   * One pass: every due campaign this instance may claim, chunk after chunk while they are due. Tests drive it
   * with `maxChunks` to stop between chunks. Returns how many chunks moved.
   */
  async tick(options: { maxChunks?: number } = {}): Promise<number> {
    while (this.#pass) await this.#pass.catch(() => undefined);
    const pass = this.#run(options.maxChunks ?? Number.POSITIVE_INFINITY);
    this.#pass = pass;
    try {
      return await pass;
    } finally {
      this.#pass = undefined;
      if (this.#again && this.#started) {
        this.#again = false;
        this.kick();
      }
    }
  }

  async #run(maxChunks: number): Promise<number> {
    const { send } = this.#o;
    const deadline = Date.now() + (this.#o.passBudgetMs ?? 2_000);
    const due = await send.store.campaigns.due(send.now(), this.#o.owner, 20);
    let moved = 0;
    this.#workLeft = false;
    for (const campaign of due) {
      for (;;) {
        if (moved >= maxChunks || this.#loop.stopping) return moved;
        if (Date.now() > deadline) {
          this.#workLeft = true;
          return moved;
        }
        let step: ChunkStep;
        try {
          step = await runNextChunk(this.#deps(), campaign.id);
        } catch (error) {
          this.#o.logger.warn(
            { campaignId: campaign.id, err: error instanceof Error ? error.message : String(error) },
            'campaign chunk not run; tried again at the next pass',
          );
          break;
        }
        if (step.kind !== 'idle') await this.#report(campaign.id);
        if (step.kind !== 'advanced') {
          if (step.kind === 'stopped' || step.kind === 'done') this.#plans.delete(campaign.id);
          break;
        }
        moved++;
      }
    }
    return moved;
  }

  #deps(): ChunkRunDeps {
    return {
      ...this.#o.send,
      owner: this.#o.owner,
      leaseMs: this.#o.leaseMs,
      paceMs: this.#o.paceMs,
      planOf: (campaign) => this.#planOf(campaign),
    };
  }

  async #planOf(campaign: Campaign): Promise<SendPlan | undefined> {
    const redactedAt = campaign.redactedAt?.getTime() ?? 0;
    const kept = this.#plans.get(campaign.id);
    if (kept && kept.redactedAt === redactedAt) return kept.plan;
    const plan = (await this.#o.send.store.campaigns.plan(campaign.id)) as SendPlan | undefined;
    if (!plan) return undefined;
    this.#plans.delete(campaign.id);
    if (this.#plans.size >= PLANS_KEPT) this.#plans.delete(this.#plans.keys().next().value!);
    this.#plans.set(campaign.id, { plan, redactedAt });
    return plan;
  }

  async #report(campaignId: number): Promise<void> {
    await this.#o.reporter
      .changed(campaignId)
      .catch((error: unknown) =>
        this.#o.logger.warn(
          { campaignId, err: error instanceof Error ? error.message : String(error) },
          'campaign card not updated',
        ),
      );
  }
}
