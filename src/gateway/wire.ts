import * as z from 'zod';
import { parseGatewayTime } from './time.js';

/**
 * zod schemas of the gateway's replies, written as a tolerant reader: unknown members are dropped,
 * numbers may arrive as numeric strings, unknown enum values stay strings, and a missing optional
 * member becomes a neutral default. Only what the product cannot do without is required.
 */

const NUMERIC = /^\s*-?\d+(\.\d+)?\s*$/;

const numeric = z.union([
  z.number().finite(),
  z
    .string()
    .regex(NUMERIC, 'expected a number')
    .transform((s) => Number(s)),
]);

/** Ids are 64-bit on the gateway; the raw reply is checked for precision before parsing (see client). */
const integer = numeric.refine((n) => Number.isSafeInteger(n), 'expected a whole number within 2^53');

const text = z
  .string()
  .nullish()
  .transform((s) => s ?? '');
const optionalNumber = numeric.nullish().transform((n) => n ?? 0);
const optionalInteger = integer.nullish().transform((n) => n ?? 0);

export function timestamp(timeZone: string) {
  return z
    .string()
    .nullish()
    .transform((s, ctx) => {
      if (s === null || s === undefined || s === '') return undefined;
      const date = parseGatewayTime(s, timeZone);
      if (!date) {
        ctx.addIssue({
          code: 'custom',
          message: `expected a timestamp like 2024-01-02T03:04:05.1234567, got ${JSON.stringify(s.slice(0, 40))}`,
        });
        return z.NEVER;
      }
      return date;
    });
}

const status = z.object({ Code: integer, Description: text });

/** Every reply: `{ Response: { ...members, Status } }`. */
export function envelope<T extends z.ZodRawShape>(members: T) {
  return z.object({ Response: z.object({ ...members, Status: status }) });
}

export const statusOnly = z.object({ Response: z.object({ Status: status }) });

function list<T extends z.ZodType>(item: T) {
  return z
    .object({ List: z.array(item).nullish(), TotalCount: optionalInteger.optional() })
    .nullish()
    .transform((l) => ({ items: (l?.List ?? []) as z.output<T>[], totalCount: l?.TotalCount }));
}

export function schemas(timeZone: string) {
  const time = timestamp(timeZone);
  return {
    Submit: envelope({ MessageId: integer }),
    SubmitMulti: envelope({ MessageId: integer }),
    QueryMulti: envelope({
      Report: list(
        z.object({
          Id: optionalInteger,
          Received: time,
          Sent: time,
          State: text,
          Sender: text,
          Cost: optionalNumber,
          Message: text,
          Coding: text,
          DeliveredCount: optionalInteger,
          UndeliveredCount: optionalInteger,
          Count: optionalInteger,
        }),
      ),
    }),
    Cancel: statusOnly,
    Receive: envelope({
      Message: list(
        z.object({
          Id: integer,
          Received: time,
          Network: optionalInteger,
          MSISDN: text,
          Recipient: text,
          Keyword: text,
          Text: text,
          Price: optionalNumber,
          Xser: text,
        }),
      ),
    }),
    GetBalance: envelope({ Balance: z.object({ Limit: optionalNumber, Main: optionalNumber }) }),
    GetBalanceLog: envelope({
      BalanceLogs: list(
        z.object({
          Id: optionalInteger,
          Timestamp: time,
          Type: text,
          Balance: optionalNumber,
          CurrentBalance: optionalNumber,
          Explanation: text,
          Cost: numeric.nullish().transform((n) => n ?? undefined),
        }),
      ),
    }),
    GetSenders: envelope({
      Senders: z
        .array(
          z.object({
            Value: text,
            Default: z
              .boolean()
              .nullish()
              .transform((b) => b === true),
          }),
        )
        .nullish()
        .transform((s) => s ?? []),
    }),
    QueryStats: envelope({
      Report: list(
        z.object({
          Year: integer,
          Month: integer,
          Delivered: optionalInteger,
          Undelivered: optionalInteger,
          Count: optionalInteger,
        }),
      ),
    }),
    GetSurveys: envelope({
      SurveyDetail: list(
        z.object({
          Id: integer,
          Name: text,
          TotalQuestion: optionalInteger,
          Subscriber: optionalInteger,
          Answered: optionalInteger,
          Delivered: optionalInteger,
          MessageId: optionalInteger,
        }),
      ),
    }),
    GetSurveyAnswers: envelope({
      AnswerDetail: list(
        z.object({
          SurveyId: optionalInteger,
          QuestionNo: optionalInteger,
          Answer: text,
          Count: optionalInteger,
        }),
      ),
    }),
  } as const;
}

export type Schemas = ReturnType<typeof schemas>;
export type Operation = keyof Schemas;

/** The fields of the raw reply text that carry 64-bit ids: checked before JSON.parse rounds them. */
export const ID_FIELDS = /"(MessageId|Id|SurveyId)"\s*:\s*"?(-?\d{16,})/g;

export function describeZodError(error: z.ZodError): string {
  const first = error.issues[0];
  if (!first) return 'malformed reply';
  const where = first.path.length > 0 ? first.path.join('.') : 'reply';
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : '';
  return `malformed reply at ${where}: ${first.message}${more}`;
}
