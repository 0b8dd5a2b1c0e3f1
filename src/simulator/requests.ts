import * as z from 'zod';
import { GatewayError } from './codes.js';
import type { TimeFilter } from './state.js';
import { parseGatewayTime } from './time.js';

/**
 * Type checks of the operation bodies. Unknown members are ignored (as a tolerant gateway does);
 * a member of the wrong type is a 400 whose Description names the member and what it must be.
 */

function expected(what: string) {
  return {
    error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : `must be ${what}`),
  };
}

const text = z.string(expected('a string'));
const optionalText = text.nullish().transform((s) => s ?? undefined);
const wholeNumber = z.number(expected('a whole number')).int('must be a whole number');

/** Ids are C# longs on the gateway: a client keeping them as strings beyond 2^53 is not wrong. */
const id = z
  .union([wholeNumber, z.string().regex(/^\d+$/).transform(Number)], expected('a whole number'))
  .refine((n) => n >= 0 && Number.isSafeInteger(n), 'must be a whole number from 0 to 2^53');

function timestamp(timeZone: string) {
  return z
    .string(expected('a timestamp string'))
    .nullish()
    .transform((s, ctx) => {
      if (s === null || s === undefined || s.trim() === '') return undefined;
      const date = parseGatewayTime(s, timeZone);
      if (!date) {
        ctx.addIssue({
          code: 'custom',
          message: `must be a timestamp like 2024-01-02T03:04:05.1234567, got ${JSON.stringify(s.slice(0, 40))}`,
        });
        return z.NEVER;
      }
      return date;
    });
}

function range(timeZone: string) {
  return z
    .object(
      { Begin: timestamp(timeZone), End: timestamp(timeZone) },
      expected('an object with Begin and End'),
    )
    .nullish()
    .transform((r): TimeFilter => ({ begin: r?.Begin, end: r?.End }));
}

const header = z
  .object(
    {
      From: optionalText,
      ValidityPeriod: wholeNumber
        .min(0, 'must not be negative')
        .nullish()
        .transform((n) => n ?? undefined),
    },
    expected('an object with From and ValidityPeriod'),
  )
  .nullish()
  .transform((h) => ({ From: h?.From, ValidityPeriod: h?.ValidityPeriod }));

export function requestSchemas(timeZone: string) {
  return {
    Submit: z.object({
      DataCoding: optionalText,
      Header: header,
      Message: optionalText.transform((s) => s ?? ''),
      To: z
        .array(text, expected('an array of number strings'))
        .nullish()
        .transform((a) => a ?? []),
    }),
    SubmitMulti: z.object({
      DataCoding: optionalText,
      Header: header,
      Envelopes: z
        .array(
          z.object(
            { To: text, Message: optionalText.transform((s) => s ?? '') },
            expected('an object with To and Message'),
          ),
          expected('an array of envelopes'),
        )
        .nullish()
        .transform((a) => a ?? []),
    }),
    QueryMulti: z.object({
      MessageId: id.nullish().transform((n) => n ?? 0),
      Range: range(timeZone),
      PageIndex: wholeNumber.min(0, 'must not be negative').nullish(),
      PageSize: wholeNumber.min(1, 'must be at least 1').max(1000, 'must be at most 1000').nullish(),
    }),
    Cancel: z.object({ MessageId: id }),
    Receive: z.object({
      Range: range(timeZone),
      State: optionalText,
      Recipient: optionalText,
    }),
    GetBalanceLog: z.object({ DateRange: range(timeZone) }),
    GetSurveyAnswers: z.object({ SurveyId: id }),
  };
}

export type RequestSchemas = ReturnType<typeof requestSchemas>;

/** Parses a body or throws the 400 GatewayError naming the first offending member. */
export function parseRequest<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const where = issue.path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`))
    .join('');
  throw new GatewayError('BadRequest', `Malformed request: ${where || 'body'} ${issue.message}`);
}
