import type { z } from 'zod';
import { parseGatewayTime } from './time.js';
import type { Operation, Schemas } from './wire.js';

/**
 * Hand-checked readers for the replies the bot gets most (Submit, SubmitMulti, GetBalance, GetBalanceLog, which
 * every `/sms balance` reads, and Cancel), in the
 * exact shape a healthy gateway sends: plain finite numbers, Status.Code 200, a string (or null, or no)
 * Description. They give what the zod schema in wire.ts gives for such a reply, member for member (unknown
 * members dropped), without zod's cost on every call. Anything else (a numeric string, a missing member, a
 * failure status, a null where a number goes) returns undefined and the caller parses with the zod schema,
 * which says precisely what is wrong. test/gateway/fast-replies.test.ts holds them equal to the schemas.
 */
type Fast<O extends Operation> = (json: unknown, timeZone: string) => z.output<Schemas[O]> | undefined;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A member the schema reads as `text`: a string, or null/absent for ''. */
function plainText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  return v === null || v === undefined ? '' : undefined;
}

/** `{ Code: 200, Description }` as the schema reads it, or undefined when not that plain shape. */
function okStatus(response: Record<string, unknown>): { Code: number; Description: string } | undefined {
  const status = response.Status;
  if (!isObject(status) || status.Code !== 200) return undefined;
  const Description = plainText(status.Description);
  return Description === undefined ? undefined : { Code: 200, Description };
}

function responseOf(json: unknown): Record<string, unknown> | undefined {
  if (!isObject(json)) return undefined;
  const response = json.Response;
  return isObject(response) ? response : undefined;
}

function messageId(json: unknown) {
  const response = responseOf(json);
  if (!response) return undefined;
  const id = response.MessageId;
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) return undefined;
  const Status = okStatus(response);
  return Status ? { Response: { MessageId: id, Status } } : undefined;
}

/** A member the schema reads as `optionalNumber`: a finite number, or null/absent for 0. */
function plainNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  return v === null || v === undefined ? 0 : undefined;
}

/** A member the schema reads as `optionalInteger`: a whole number within 2^53, or null/absent for 0. */
function plainInteger(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : undefined;
  return v === null || v === undefined ? 0 : undefined;
}

type BalanceLogItem = z.output<Schemas['GetBalanceLog']>['Response']['BalanceLogs']['items'][number];

/** One entry of a balance log, or undefined when any member is not in its plain shape (or the time unreadable). */
function balanceLogItem(v: unknown, timeZone: string): BalanceLogItem | undefined {
  if (!isObject(v)) return undefined;
  const Id = plainInteger(v.Id);
  const Type = plainText(v.Type);
  const Explanation = plainText(v.Explanation);
  const Balance = plainNumber(v.Balance);
  const CurrentBalance = plainNumber(v.CurrentBalance);
  const cost = v.Cost;
  if (
    Id === undefined ||
    Type === undefined ||
    Explanation === undefined ||
    Balance === undefined ||
    CurrentBalance === undefined ||
    !(cost === null || cost === undefined || (typeof cost === 'number' && Number.isFinite(cost)))
  ) {
    return undefined;
  }
  const time = v.Timestamp;
  let Timestamp: Date | undefined;
  if (typeof time === 'string' && time !== '') {
    Timestamp = parseGatewayTime(time, timeZone);
    if (Timestamp === undefined) return undefined;
  } else if (!(time === null || time === undefined || time === '')) return undefined;
  return { Id, Timestamp, Type, Balance, CurrentBalance, Explanation, Cost: cost ?? undefined };
}

export const FAST_REPLIES: { [O in Operation]?: Fast<O> } = {
  Submit: messageId,
  SubmitMulti: messageId,
  GetBalance: (json) => {
    const response = responseOf(json);
    if (!response || !isObject(response.Balance)) return undefined;
    const Limit = plainNumber(response.Balance.Limit);
    const Main = plainNumber(response.Balance.Main);
    if (Limit === undefined || Main === undefined) return undefined;
    const Status = okStatus(response);
    return Status ? { Response: { Balance: { Limit, Main }, Status } } : undefined;
  },
  GetBalanceLog: (json, timeZone) => {
    const response = responseOf(json);
    if (!response) return undefined;
    const logs = response.BalanceLogs;
    let items: BalanceLogItem[] = [];
    let totalCount: number | undefined;
    if (logs !== null && logs !== undefined) {
      if (!isObject(logs)) return undefined;
      const list = logs.List;
      if (list !== null && list !== undefined) {
        if (!Array.isArray(list)) return undefined;
        items = new Array(list.length);
        for (let i = 0; i < list.length; i++) {
          const item = balanceLogItem(list[i], timeZone);
          if (item === undefined) return undefined;
          items[i] = item;
        }
      }
      if (logs.TotalCount !== undefined) {
        totalCount = plainInteger(logs.TotalCount);
        if (totalCount === undefined) return undefined;
      }
    }
    const Status = okStatus(response);
    return Status ? { Response: { BalanceLogs: { items, totalCount }, Status } } : undefined;
  },
  Cancel: (json) => {
    const response = responseOf(json);
    const Status = response && okStatus(response);
    return Status ? { Response: { Status } } : undefined;
  },
};
