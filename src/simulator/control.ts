import * as z from 'zod';
import { FAULT_KINDS, type Fault } from './faults.js';
import type { AdvanceResult, InboundInput, SimulatorState } from './state.js';
import { OPERATIONS, type OperationName } from './types.js';

/** A refusal of a /_sim/ call: answered with this HTTP status and `{ "error": message }`. */
export class ControlError extends Error {
  readonly httpStatus: number;

  constructor(httpStatus: number, message: string) {
    super(message);
    this.name = 'ControlError';
    this.httpStatus = httpStatus;
  }
}

const MAX_INBOUND_PER_CALL = 10_000;

function expected(what: string) {
  return {
    error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : `must be ${what}`),
  };
}

/** Typed by people in demos, so the usual ways of writing a number are accepted and normalised. */
const msisdn = z
  .string(expected('a string of digits'))
  .transform((s) => s.replace(/[\s\-().]/g, '').replace(/^\+/, ''))
  .refine((s) => /^\d{10,15}$/.test(s), 'must be 10-15 digits with the country code, e.g. 905321234567');

const inboundItem = z.object(
  {
    MSISDN: msisdn,
    Text: z.string(expected('a string')).refine((s) => s.trim() !== '', 'must not be empty'),
    Recipient: z.string(expected('a string')).trim().min(1, 'must not be empty').optional(),
    Keyword: z.string(expected('a string')).trim().optional(),
    Network: z
      .number(expected('a whole number'))
      .int('must be a whole number')
      .min(0, 'must be 0 or more')
      .optional(),
  },
  expected('an object with MSISDN and Text'),
);

const inboundList = z
  .array(inboundItem)
  .max(MAX_INBOUND_PER_CALL, `must hold at most ${MAX_INBOUND_PER_CALL} messages`);

const share = z
  .number(expected('a number from 0 to 1'))
  .min(0, 'must be from 0 to 1')
  .max(1, 'must be from 0 to 1');

const advanceBody = z.object({ deliver: share.default(1), share: share.default(1) }, expected('an object'));

const faultBody = z.object(
  {
    operation: z
      .string(expected('an operation name'))
      .transform((s) => OPERATIONS.find((op) => op.toLowerCase() === s.toLowerCase()))
      .refine((op) => op !== undefined, `must be one of ${OPERATIONS.join(', ')}`)
      .optional(),
    kind: z.enum(FAULT_KINDS, expected(`one of ${FAULT_KINDS.join(', ')}`)),
    code: z.number(expected('a whole number')).int('must be a whole number').optional(),
    // Bounds with their own words: the schema's message alone said "must be a whole number" of 1001.
    times: z
      .number(expected('a whole number'))
      .int('must be a whole number')
      .min(1, 'must be from 1 to 1000')
      .max(1000, 'must be from 1 to 1000')
      .default(1),
    delayMs: z
      .number(expected('a whole number'))
      .int('must be a whole number')
      .min(0, 'must be from 0 to 600000')
      .max(600_000, 'must be from 0 to 600000')
      .optional(),
    echo: z.boolean(expected('true or false')).optional(),
  },
  expected('an object'),
);

function parse<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const where = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
  throw new ControlError(400, `${where ? `${where.replace(/^\./, '')} ` : 'body '}${issue.message}`);
}

export function addInbound(state: SimulatorState, body: unknown): { ids: number[] } {
  // Decided up front: a zod union would bury the real problem under "invalid input".
  const items = Array.isArray(body) ? parse(inboundList, body) : [parse(inboundItem, body)];
  const inputs: InboundInput[] = items.map((item) => ({
    msisdn: item.MSISDN,
    text: item.Text,
    recipient: item.Recipient,
    keyword: item.Keyword === undefined || item.Keyword === '' ? undefined : item.Keyword,
    network: item.Network,
  }));
  return { ids: state.addInbound(inputs).map((m) => m.id) };
}

export function advance(state: SimulatorState, body: unknown): AdvanceResult {
  return state.advance(parse(advanceBody, body ?? {}));
}

export function parseFault(body: unknown): Fault {
  const fault = parse(faultBody, body);
  if (fault.echo && fault.kind === 'timeout') {
    throw new ControlError(400, 'echo applies to http500, notjson and status faults, not timeout');
  }
  return {
    operation: fault.operation as OperationName | undefined,
    kind: fault.kind,
    code: fault.code,
    times: fault.times,
    delayMs: fault.delayMs,
    echo: fault.echo,
  };
}
