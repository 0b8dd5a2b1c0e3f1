import { TZDate } from '@date-fns/tz';
import { batchState, countRecipients } from './batch.js';
import { GatewayError } from './codes.js';
import { toUnits, type Units } from './money.js';
import { SAVED_SIMULATOR_VERSION, type SavedSimulatorState } from './saved-state.js';
import { buildSeed, DEFAULT_INBOUND_RECIPIENT } from './seed.js';
import { planSubmit, type SubmitInput } from './submit.js';
import { answerFromText, matchSurvey } from './surveys.js';
import type {
  BalanceLogEntry,
  Batch,
  BatchState,
  InboundMessage,
  MonthlyStats,
  Recipient,
  Sender,
  Survey,
  SurveyAnswerCount,
} from './types.js';

export interface StateConfig {
  now: () => Date;
  timeZone: string;
  pricePerSegment: number;
  initialBalance: number;
  /**
   * The lowest MessageId and inbound Id to hand out (default 100001 and 500001): a client that keeps ids it was
   * given (the bot's store) never sees one twice, even from a simulator that lost its state.
   */
  firstIds?: { batch?: number; inbound?: number };
  /** Reset keeps counting ids instead of restarting them: for a simulator whose ids outlive it (a state file). */
  keepIdsOnReset?: boolean;
}

export interface TimeFilter {
  begin?: Date;
  end?: Date;
}

export interface InboundInput {
  msisdn: string;
  text: string;
  recipient?: string;
  keyword?: string;
  network?: number;
}

export interface AdvanceOptions {
  /** Share of the recipients made final that end Delivered (the rest Undelivered). */
  deliver: number;
  /** Share of each batch's pending recipients made final in this step. */
  share: number;
}

export interface AdvanceResult {
  delivered: number;
  undelivered: number;
  batches: Array<{ id: number; delivered: number; undelivered: number; pending: number; state: BatchState }>;
}

const FIRST_BATCH_ID = 100_001;
const FIRST_INBOUND_ID = 500_001;

/**
 * The gateway's account and traffic, with no HTTP in sight: every operation is a method that either
 * returns its result or throws GatewayError (reported as Response.Status by the HTTP layer).
 */
export class SimulatorState {
  readonly config: StateConfig;
  #main: Units = 0;
  #limit: Units = 0;
  #senders: Sender[] = [];
  #batches = new Map<number, Batch>();
  #inbound: InboundMessage[] = [];
  #surveys: Survey[] = [];
  #balanceLog: BalanceLogEntry[] = [];
  #seededStats: MonthlyStats[] = [];
  #nextBatchId = FIRST_BATCH_ID;
  #nextInboundId = FIRST_INBOUND_ID;
  #nextLogId = 0;

  constructor(config: StateConfig) {
    this.config = config;
    this.reset();
  }

  /** Back to the seeded account, with history anchored on the current clock. */
  reset(): void {
    const price = toUnits(this.config.pricePerSegment);
    this.#main = toUnits(this.config.initialBalance);
    this.#limit = 0;
    const seed = buildSeed({
      now: this.config.now(),
      timeZone: this.config.timeZone,
      pricePerSegment: price,
      balance: this.#main,
    });
    this.#senders = seed.senders;
    this.#balanceLog = seed.balanceLog;
    this.#seededStats = seed.monthlyStats;
    this.#surveys = seed.surveys;
    this.#batches = new Map();
    this.#inbound = [];
    const keep = this.config.keepIdsOnReset === true;
    this.#nextBatchId = Math.max(
      keep ? this.#nextBatchId : FIRST_BATCH_ID,
      this.config.firstIds?.batch ?? FIRST_BATCH_ID,
    );
    this.#nextInboundId = Math.max(
      keep ? this.#nextInboundId : FIRST_INBOUND_ID,
      this.config.firstIds?.inbound ?? FIRST_INBOUND_ID,
    );
    this.#nextLogId = (this.#balanceLog.at(-1)?.id ?? 0) + 1;
  }

  /** Everything a restart must keep, for a state file (faults and call counts are not state). */
  saved(): SavedSimulatorState {
    return {
      version: SAVED_SIMULATOR_VERSION,
      main: this.#main,
      limit: this.#limit,
      senders: this.#senders,
      batches: [...this.#batches.values()],
      inbound: this.#inbound,
      surveys: this.#surveys,
      balanceLog: this.#balanceLog,
      seededStats: this.#seededStats,
      nextBatchId: this.#nextBatchId,
      nextInboundId: this.#nextInboundId,
      nextLogId: this.#nextLogId,
    };
  }

  /** Takes up a saved state; ids go on from the saved ones, never below `firstIds`. */
  restore(saved: SavedSimulatorState): void {
    this.#main = saved.main;
    this.#limit = saved.limit;
    this.#senders = saved.senders;
    this.#batches = new Map(saved.batches.map((b) => [b.id, b]));
    this.#inbound = saved.inbound;
    this.#surveys = saved.surveys;
    this.#balanceLog = saved.balanceLog;
    this.#seededStats = saved.seededStats;
    // Ids above every saved one, whatever the counters say: a hand-edited file cannot make one repeat.
    const highest = (ids: number[]) => ids.reduce((a, b) => Math.max(a, b), 0) + 1;
    this.#nextBatchId = Math.max(
      saved.nextBatchId,
      highest(saved.batches.map((b) => b.id)),
      this.config.firstIds?.batch ?? 0,
    );
    this.#nextInboundId = Math.max(
      saved.nextInboundId,
      highest(saved.inbound.map((m) => m.id)),
      this.config.firstIds?.inbound ?? 0,
    );
    this.#nextLogId = Math.max(saved.nextLogId, highest(saved.balanceLog.map((e) => e.id)));
  }

  get timeZone(): string {
    return this.config.timeZone;
  }

  senders(): Sender[] {
    return this.#senders.map((s) => ({ ...s }));
  }

  balance(): { main: Units; limit: Units } {
    return { main: this.#main, limit: this.#limit };
  }

  submit(input: SubmitInput): Batch {
    const plan = planSubmit(input, {
      senders: this.#senders,
      pricePerSegment: toUnits(this.config.pricePerSegment),
      available: this.#main + this.#limit,
    });
    const batch: Batch = {
      id: this.#nextBatchId++,
      operation: plan.operation,
      received: this.config.now(),
      sender: plan.sender,
      coding: plan.coding,
      validityMinutes: plan.validityMinutes,
      recipients: plan.recipients,
      refunded: 0,
    };
    this.#batches.set(batch.id, batch);
    this.#main -= plan.cost;
    this.#log(
      'Debit',
      plan.cost,
      `SMS batch ${batch.id}: ${plan.recipients.length} recipients, ${plan.segments} segments, sender ${plan.sender}`,
    );
    return batch;
  }

  batch(id: number): Batch {
    const batch = this.#batches.get(id);
    if (!batch) throw new GatewayError('NotFound', `Unknown MessageId ${id}: no batch with this id`);
    return batch;
  }

  batches(filter: TimeFilter = {}): Batch[] {
    return [...this.#batches.values()].filter((b) => within(b.received, filter));
  }

  cancel(id: number): { cancelled: number; refund: Units } {
    const batch = this.batch(id);
    const pending = batch.recipients.filter((r) => r.state === 'Queued');
    if (pending.length === 0) {
      throw new GatewayError(
        'AlreadyFinal',
        `Batch ${id} cannot be cancelled: all ${batch.recipients.length} recipients are final already (${batchState(batch)})`,
      );
    }
    const at = this.config.now();
    let refund = 0;
    for (const r of pending) {
      r.state = 'Cancelled';
      r.finalAt = at;
      refund += r.cost;
    }
    batch.refunded += refund;
    this.#main += refund;
    this.#log(
      'Credit',
      refund,
      `Refund for cancelled messages of batch ${id} (${pending.length} recipients)`,
    );
    return { cancelled: pending.length, refund };
  }

  receive(filter: TimeFilter & { recipient?: string } = {}): InboundMessage[] {
    const recipient = filter.recipient?.trim().toLowerCase();
    return this.#inbound
      .filter((m) => within(m.received, filter))
      .filter((m) => !recipient || m.recipient.toLowerCase() === recipient)
      .sort((a, b) => a.received.getTime() - b.received.getTime() || a.id - b.id);
  }

  addInbound(inputs: InboundInput[]): InboundMessage[] {
    const received = this.config.now();
    return inputs.map((input) => {
      const text = input.text.trim();
      const message: InboundMessage = {
        id: this.#nextInboundId++,
        received,
        network: input.network ?? networkOf(input.msisdn),
        msisdn: input.msisdn,
        recipient: input.recipient ?? DEFAULT_INBOUND_RECIPIENT,
        keyword: input.keyword ?? (text.split(/\s+/)[0] ?? '').toUpperCase(),
        text: input.text,
        price: 0,
        xser: '',
      };
      this.#inbound.push(message);
      const survey = matchSurvey(this.#surveys, message.keyword, text);
      if (survey) this.#recordAnswer(survey, answerFromText(survey.keyword, text));
      return message;
    });
  }

  balanceLog(filter: TimeFilter = {}): BalanceLogEntry[] {
    return this.#balanceLog
      .filter((e) => within(e.timestamp, filter))
      .sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime() || a.id - b.id);
  }

  /** The current month and the eleven before it, oldest first; months with no traffic are zeros. */
  monthlyStats(): MonthlyStats[] {
    const local = new TZDate(this.config.now().getTime(), this.config.timeZone);
    const months: MonthlyStats[] = [];
    for (let back = 11; back >= 0; back--) {
      const first = new TZDate(local.getFullYear(), local.getMonth() - back, 1, this.config.timeZone);
      const year = first.getFullYear();
      const month = first.getMonth() + 1;
      const seeded = this.#seededStats.find((s) => s.year === year && s.month === month);
      months.push(seeded ? { ...seeded } : { year, month, delivered: 0, undelivered: 0, count: 0 });
    }
    for (const batch of this.#batches.values()) {
      const at = new TZDate(batch.received.getTime(), this.config.timeZone);
      const entry = months.find((m) => m.year === at.getFullYear() && m.month === at.getMonth() + 1);
      if (!entry) continue;
      const counts = countRecipients(batch);
      entry.delivered += counts.delivered;
      entry.undelivered += counts.undelivered;
      entry.count += counts.count;
    }
    return months;
  }

  surveys(): Array<Survey & { answered: number }> {
    return this.#surveys.map((s) => ({
      ...s,
      answers: s.answers.map((a) => ({ ...a })),
      answered: answered(s),
    }));
  }

  surveyAnswers(id: number): SurveyAnswerCount[] {
    const survey = this.#surveys.find((s) => s.id === id);
    if (!survey) throw new GatewayError('NotFound', `Unknown SurveyId ${id}: no survey with this id`);
    return [...survey.answers]
      .sort((a, b) => a.questionNo - b.questionNo || a.answer.localeCompare(b.answer))
      .map((a) => ({ ...a }));
  }

  /**
   * Moves pending recipients to final states in submission order, so a test can predict exactly
   * which recipients end Delivered: the first round(share × pending) become final, and of those the
   * first round(deliver × that) are Delivered.
   */
  advance(options: AdvanceOptions): AdvanceResult {
    const at = this.config.now();
    const result: AdvanceResult = { delivered: 0, undelivered: 0, batches: [] };
    for (const batch of this.#batches.values()) {
      const pending = batch.recipients.filter((r) => r.state === 'Queued');
      const moving = Math.round(options.share * pending.length);
      if (moving === 0) continue;
      const delivering = Math.round(options.deliver * moving);
      pending.slice(0, moving).forEach((r: Recipient, i) => {
        r.state = i < delivering ? 'Delivered' : 'Undelivered';
        r.finalAt = at;
      });
      result.delivered += delivering;
      result.undelivered += moving - delivering;
      result.batches.push({
        id: batch.id,
        delivered: delivering,
        undelivered: moving - delivering,
        pending: pending.length - moving,
        state: batchState(batch),
      });
    }
    return result;
  }

  #log(type: 'Credit' | 'Debit', amount: Units, explanation: string): void {
    this.#balanceLog.push({
      id: this.#nextLogId++,
      timestamp: this.config.now(),
      type,
      amount,
      balanceAfter: this.#main,
      explanation,
      cost: type === 'Debit' ? amount : null,
    });
  }

  #recordAnswer(survey: Survey, answer: string): void {
    if (answer === '') return;
    const existing = survey.answers.find((a) => a.questionNo === 1 && a.answer === answer);
    if (existing) existing.count++;
    else survey.answers.push({ questionNo: 1, answer, count: 1 });
  }
}

function within(at: Date, filter: TimeFilter): boolean {
  const t = at.getTime();
  return (
    (filter.begin === undefined || t >= filter.begin.getTime()) &&
    (filter.end === undefined || t <= filter.end.getTime())
  );
}

function answered(survey: Survey): number {
  return survey.answers.filter((a) => a.questionNo === 1).reduce((sum, a) => sum + a.count, 0);
}

/** Turkish mobile prefixes to the operator numbers the gateway reports; anything else is 0. */
function networkOf(msisdn: string): number {
  if (/^90(53)/.test(msisdn)) return 1;
  if (/^90(54)/.test(msisdn)) return 2;
  if (/^90(50|55)/.test(msisdn)) return 3;
  return 0;
}
