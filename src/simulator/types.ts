import type { Units } from './money.js';

export const OPERATIONS = [
  'Submit',
  'SubmitMulti',
  'QueryMulti',
  'Cancel',
  'Receive',
  'GetBalance',
  'GetBalanceLog',
  'GetSenders',
  'QueryStats',
  'GetSurveys',
  'GetSurveyAnswers',
] as const;
export type OperationName = (typeof OPERATIONS)[number];

export const DATA_CODINGS = ['Default', 'TurkishSingleShift', 'UCS2'] as const;
export type DataCoding = (typeof DATA_CODINGS)[number];

/** One recipient's state. Only `Queued` is in the spec; the rest is the simulator's spelling. */
export type RecipientState = 'Queued' | 'Delivered' | 'Undelivered' | 'Cancelled';

/**
 * A batch's state as QueryMulti reports it: `Queued` while no recipient is final, `Sending` while
 * some are, then one of the final values once every recipient is final.
 */
export type BatchState =
  | 'Queued'
  | 'Sending'
  | 'Delivered'
  | 'Undelivered'
  | 'PartiallyDelivered'
  | 'Cancelled';

export interface Recipient {
  to: string;
  text: string;
  segments: number;
  cost: Units;
  state: RecipientState;
  finalAt?: Date;
}

export interface Batch {
  id: number;
  operation: 'Submit' | 'SubmitMulti';
  received: Date;
  sender: string;
  coding: DataCoding;
  validityMinutes: number;
  recipients: Recipient[];
  refunded: Units;
}

export interface InboundMessage {
  id: number;
  received: Date;
  network: number;
  msisdn: string;
  recipient: string;
  keyword: string;
  text: string;
  price: Units;
  xser: string;
}

export interface BalanceLogEntry {
  id: number;
  timestamp: Date;
  type: 'Credit' | 'Debit';
  /** Always positive; `type` says which way it moved the balance. */
  amount: Units;
  balanceAfter: Units;
  explanation: string;
  cost: Units | null;
}

export interface SurveyAnswerCount {
  questionNo: number;
  answer: string;
  count: number;
}

export interface Survey {
  id: number;
  name: string;
  keyword: string;
  totalQuestions: number;
  subscribers: number;
  delivered: number;
  messageId: number;
  answers: SurveyAnswerCount[];
}

export interface MonthlyStats {
  year: number;
  month: number;
  delivered: number;
  undelivered: number;
  count: number;
}

export interface Sender {
  name: string;
  isDefault: boolean;
}
