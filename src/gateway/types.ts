import type { UnavailableReason } from './errors.js';
/** What the rest of smsops sees of the gateway: camelCase, Dates, exact integers. */

export type DataCoding = 'Default' | 'TurkishSingleShift' | 'UCS2';

export interface TimeRange {
  begin?: Date;
  end?: Date;
}

export interface SubmitRequest {
  from: string;
  to: readonly string[];
  message: string;
  dataCoding?: DataCoding;
  /** Minutes; the gateway's default (0 or absent) is 1440. */
  validityMinutes?: number;
}

export interface SubmitMultiRequest {
  from: string;
  envelopes: readonly { to: string; message: string }[];
  dataCoding?: DataCoding;
  validityMinutes?: number;
}

export interface MessageReport {
  id: number;
  received?: Date;
  sent?: Date;
  /** Kept as the gateway spells it: only Queued is documented, others appear. */
  state: string;
  sender: string;
  cost: number;
  message: string;
  coding: string;
  deliveredCount: number;
  undeliveredCount: number;
  count: number;
}

export interface InboundMessage {
  id: number;
  received?: Date;
  network: number;
  msisdn: string;
  recipient: string;
  keyword: string;
  text: string;
  price: number;
  xser: string;
}

export interface Balance {
  main: number;
  limit: number;
  /** Main + Limit: what can still be spent. */
  usable: number;
}

export interface BalanceLogEntry {
  id: number;
  timestamp?: Date;
  type: string;
  amount: number;
  balanceAfter: number;
  explanation: string;
  cost?: number;
}

export interface Sender {
  name: string;
  isDefault: boolean;
}

export interface MonthlyStats {
  year: number;
  month: number;
  delivered: number;
  undelivered: number;
  count: number;
}

export interface Survey {
  id: number;
  name: string;
  totalQuestions: number;
  subscribers: number;
  answered: number;
  delivered: number;
  messageId: number;
}

export interface SurveyAnswer {
  surveyId: number;
  questionNo: number;
  answer: string;
  count: number;
}

export interface CallOptions {
  signal?: AbortSignal;
}

/** The gateway as the product uses it; GatewayClient implements it over HTTP. */
export interface Gateway {
  submit(request: SubmitRequest, options?: CallOptions): Promise<{ messageId: number }>;
  submitMulti(request: SubmitMultiRequest, options?: CallOptions): Promise<{ messageId: number }>;
  queryMulti(
    /** Without messageId (or 0): every batch received within range. */
    request: { messageId?: number; range?: TimeRange; pageIndex?: number; pageSize?: number },
    options?: CallOptions,
  ): Promise<{ reports: MessageReport[]; totalCount?: number }>;
  cancel(messageId: number, options?: CallOptions): Promise<void>;
  receive(
    request?: { range?: TimeRange; state?: string; recipient?: string },
    options?: CallOptions,
  ): Promise<InboundMessage[]>;
  getBalance(options?: CallOptions): Promise<Balance>;
  getBalanceLog(range?: TimeRange, options?: CallOptions): Promise<BalanceLogEntry[]>;
  getSenders(options?: CallOptions): Promise<Sender[]>;
  queryStats(options?: CallOptions): Promise<MonthlyStats[]>;
  getSurveys(options?: CallOptions): Promise<Survey[]>;
  getSurveyAnswers(surveyId: number, options?: CallOptions): Promise<SurveyAnswer[]>;
  /** Ends the calls (GatewayClient.close): `graceMs` is how long the sends in flight may still take. */
  close(options?: CloseOptions): Promise<void>;
}

export interface CloseOptions {
  graceMs?: number;
}

/** How one HTTP exchange with the gateway ended: it answered (ok or a refusal), or it did not (error). */
export type GatewayCallOutcome = 'ok' | 'rejected' | 'error';

/** What went wrong in one exchange: the gateway's refusal, or why it could not be reached or read. */
export type GatewayErrorKind = 'rejected' | UnavailableReason;

/**
 * Told of every HTTP exchange with the gateway (each attempt, retries included), so the composition can
 * count and time them without the client knowing where the figures go. Called synchronously: keep it cheap.
 */
export interface GatewayObserver {
  onCall(operation: string, outcome: GatewayCallOutcome, seconds: number, errorKind?: GatewayErrorKind): void;
}
