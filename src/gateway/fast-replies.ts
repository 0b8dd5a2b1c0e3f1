import type { z } from 'zod';
import type { Operation, Schemas } from './wire.js';

/**
 * Hand-checked readers for the replies the bot gets most (Submit, SubmitMulti, GetBalance, Cancel), in the
 * exact shape a healthy gateway sends: plain finite numbers, Status.Code 200, a string (or null, or no)
 * Description. They give what the zod schema in wire.ts gives for such a reply, member for member (unknown
 * members dropped), without zod's cost on every call. Anything else (a numeric string, a missing member, a
 * failure status, a null where a number goes) returns undefined and the caller parses with the zod schema,
 * which says precisely what is wrong. test/gateway/fast-replies.test.ts holds them equal to the schemas.
 */
type Fast<O extends Operation> = (json: unknown) => z.output<Schemas[O]> | undefined;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** `{ Code: 200, Description }` as the schema reads it, or undefined when not that plain shape. */
function okStatus(response: Record<string, unknown>): { Code: number; Description: string } | undefined {
  const status = response.Status;
  if (!isObject(status) || status.Code !== 200) return undefined;
  const d = status.Description;
  if (typeof d === 'string') return { Code: 200, Description: d };
  if (d === null || d === undefined) return { Code: 200, Description: '' };
  return undefined;
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
  Cancel: (json) => {
    const response = responseOf(json);
    const Status = response && okStatus(response);
    return Status ? { Response: { Status } } : undefined;
  },
};
