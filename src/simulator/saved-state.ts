import { z } from 'zod';
import { DATA_CODINGS } from './types.js';

/** Bumped when the shape changes: a file of another version is read as unreadable, and the account starts fresh. */
const VERSION = 1;

const date = z.iso.datetime().transform((s) => new Date(s));
const id = z.number().int().positive();
const units = z.number().int();

const recipient = z.object({
  to: z.string(),
  text: z.string(),
  segments: z.number().int().nonnegative(),
  cost: units,
  state: z.enum(['Queued', 'Delivered', 'Undelivered', 'Cancelled']),
  finalAt: date.optional(),
});

/** The simulator's whole account and traffic as JSON (`--state`, local mode's data/simulator.json). */
export const savedSimulatorSchema = z.object({
  version: z.literal(VERSION),
  main: units,
  limit: units,
  senders: z.array(z.object({ name: z.string(), isDefault: z.boolean() })),
  batches: z.array(
    z.object({
      id,
      operation: z.enum(['Submit', 'SubmitMulti']),
      received: date,
      sender: z.string(),
      coding: z.enum(DATA_CODINGS),
      validityMinutes: z.number().int(),
      recipients: z.array(recipient),
      refunded: units,
    }),
  ),
  inbound: z.array(
    z.object({
      id,
      received: date,
      network: z.number().int(),
      msisdn: z.string(),
      recipient: z.string(),
      keyword: z.string(),
      text: z.string(),
      price: units,
      xser: z.string(),
    }),
  ),
  surveys: z.array(
    z.object({
      id,
      name: z.string(),
      keyword: z.string(),
      totalQuestions: z.number().int(),
      subscribers: z.number().int(),
      delivered: z.number().int(),
      messageId: z.number().int(),
      answers: z.array(
        z.object({ questionNo: z.number().int(), answer: z.string(), count: z.number().int() }),
      ),
    }),
  ),
  balanceLog: z.array(
    z.object({
      id,
      timestamp: date,
      type: z.enum(['Credit', 'Debit']),
      amount: units,
      balanceAfter: units,
      explanation: z.string(),
      cost: units.nullable(),
    }),
  ),
  seededStats: z.array(
    z.object({
      year: z.number().int(),
      month: z.number().int(),
      delivered: z.number().int(),
      undelivered: z.number().int(),
      count: z.number().int(),
    }),
  ),
  nextBatchId: id,
  nextInboundId: id,
  nextLogId: id,
});

export type SavedSimulatorState = z.output<typeof savedSimulatorSchema>;
/** The JSON form: dates as ISO strings. */
export type SavedSimulatorJson = z.input<typeof savedSimulatorSchema>;

export const SAVED_SIMULATOR_VERSION = VERSION;

/** Throws a one-line reason when the file is not a saved simulator state. */
export function parseSavedSimulator(raw: unknown): SavedSimulatorState {
  const parsed = savedSimulatorSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new Error(`${issue.path.join('.') || 'the file'}: ${issue.message}`);
}
