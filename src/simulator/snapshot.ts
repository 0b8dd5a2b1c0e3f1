import { batchState, countRecipients, netCost } from './batch.js';
import { fromUnits } from './money.js';
import type { SimulatorState } from './state.js';
import type { BatchState, Recipient, Sender, SurveyAnswerCount } from './types.js';

/** Plain JSON view of the account and traffic (ISO UTC timestamps, decimal money) for /_sim/state. */
export interface StateSnapshot {
  now: string;
  timeZone: string;
  balance: { main: number; limit: number };
  senders: Sender[];
  batches: Array<{
    id: number;
    operation: 'Submit' | 'SubmitMulti';
    received: string;
    sender: string;
    coding: string;
    validityMinutes: number;
    state: BatchState;
    cost: number;
    refunded: number;
    count: number;
    queued: number;
    delivered: number;
    undelivered: number;
    cancelled: number;
    recipients: Array<{
      to: string;
      text: string;
      segments: number;
      cost: number;
      state: Recipient['state'];
      finalAt: string | null;
    }>;
  }>;
  inbound: Array<{
    id: number;
    received: string;
    network: number;
    msisdn: string;
    recipient: string;
    keyword: string;
    text: string;
  }>;
  surveys: Array<{
    id: number;
    name: string;
    keyword: string;
    totalQuestions: number;
    subscribers: number;
    delivered: number;
    answered: number;
    messageId: number;
    answers: SurveyAnswerCount[];
  }>;
  balanceLog: Array<{
    id: number;
    timestamp: string;
    type: 'Credit' | 'Debit';
    amount: number;
    balanceAfter: number;
    explanation: string;
  }>;
}

export function snapshotOf(state: SimulatorState): StateSnapshot {
  const balance = state.balance();
  return {
    now: state.config.now().toISOString(),
    timeZone: state.timeZone,
    balance: { main: fromUnits(balance.main), limit: fromUnits(balance.limit) },
    senders: state.senders(),
    batches: state.batches().map((b) => ({
      id: b.id,
      operation: b.operation,
      received: b.received.toISOString(),
      sender: b.sender,
      coding: b.coding,
      validityMinutes: b.validityMinutes,
      state: batchState(b),
      cost: fromUnits(netCost(b)),
      refunded: fromUnits(b.refunded),
      ...countRecipients(b),
      recipients: b.recipients.map((r) => ({
        to: r.to,
        text: r.text,
        segments: r.segments,
        cost: fromUnits(r.cost),
        state: r.state,
        finalAt: r.finalAt?.toISOString() ?? null,
      })),
    })),
    inbound: state.receive().map((m) => ({
      id: m.id,
      received: m.received.toISOString(),
      network: m.network,
      msisdn: m.msisdn,
      recipient: m.recipient,
      keyword: m.keyword,
      text: m.text,
    })),
    surveys: state.surveys().map((s) => ({
      id: s.id,
      name: s.name,
      keyword: s.keyword,
      totalQuestions: s.totalQuestions,
      subscribers: s.subscribers,
      delivered: s.delivered,
      answered: s.answered,
      messageId: s.messageId,
      answers: s.answers,
    })),
    balanceLog: state.balanceLog().map((e) => ({
      id: e.id,
      timestamp: e.timestamp.toISOString(),
      type: e.type,
      amount: fromUnits(e.amount),
      balanceAfter: fromUnits(e.balanceAfter),
      explanation: e.explanation,
    })),
  };
}
