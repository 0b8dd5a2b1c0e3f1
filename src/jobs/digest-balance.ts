import type { Balance, BalanceLogEntry, Gateway } from '../gateway/index.js';
import type { DigestMemory } from './digest-memory.js';
import type { BalanceDigest, Runway, Spend } from './digest-types.js';

const DAY_MS = 86_400_000;
/** Largest debits and credits listed: enough to spot what moved the balance, short enough to read. */
export const LARGEST_ENTRIES = 3;

export interface BalanceDigestInput {
  now: Date;
  /** What "the period" of the digest is: since its previous scheduled slot. */
  period: { from: Date; to: Date };
  previous?: DigestMemory;
}

/** The gateway spells the type; amounts are always positive. */
export function directionOf(entry: BalanceLogEntry): 'credit' | 'debit' | 'other' {
  const type = entry.type.trim().toLowerCase();
  return type === 'credit' ? 'credit' : type === 'debit' ? 'debit' : 'other';
}

/** Debits only: a credit is a top-up or a refund, neither of which is spending. */
export function spendOf(entries: readonly BalanceLogEntry[], now: Date): Spend {
  const spend: Spend = { day1: 0, day7: 0, day30: 0 };
  const t = now.getTime();
  for (const e of entries) {
    if (directionOf(e) !== 'debit' || !e.timestamp || e.timestamp.getTime() > t) continue;
    const age = t - e.timestamp.getTime();
    if (age <= DAY_MS) spend.day1 += e.amount;
    if (age <= 7 * DAY_MS) spend.day7 += e.amount;
    if (age <= 30 * DAY_MS) spend.day30 += e.amount;
  }
  return spend;
}

/** The 7-day rate: recent enough to follow a change in traffic, long enough to smooth out a weekend. */
export function runwayOf(usable: number, spend: Spend): Runway {
  const perDay = spend.day7 / 7;
  if (usable <= 0) return { perDay, days: 0 };
  return { perDay, days: perDay > 0 ? usable / perDay : undefined };
}

function inPeriod(entry: BalanceLogEntry, period: { from: Date; to: Date }): boolean {
  const t = entry.timestamp?.getTime();
  return t !== undefined && t > period.from.getTime() && t <= period.to.getTime();
}

function largest(entries: readonly BalanceLogEntry[], direction: 'credit' | 'debit'): BalanceLogEntry[] {
  return entries
    .filter((e) => directionOf(e) === direction)
    .sort((a, b) => b.amount - a.amount || (b.timestamp?.getTime() ?? 0) - (a.timestamp?.getTime() ?? 0))
    .slice(0, LARGEST_ENTRIES);
}

function changeOf(
  balance: Balance,
  periodEntries: readonly BalanceLogEntry[] | undefined,
  input: BalanceDigestInput,
): BalanceDigest['change'] {
  if (input.previous?.usable !== undefined) {
    return {
      amount: balance.usable - input.previous.usable,
      since: new Date(input.previous.at),
      basis: 'previous-digest',
    };
  }
  if (!periodEntries) return undefined;
  let net = 0;
  for (const e of periodEntries) {
    if (directionOf(e) === 'credit') net += e.amount;
    if (directionOf(e) === 'debit') net -= e.amount;
  }
  return { amount: net, since: input.period.from, basis: 'balance-log' };
}

export async function buildBalanceDigest(
  gateway: Gateway,
  input: BalanceDigestInput,
): Promise<BalanceDigest> {
  const begin = new Date(Math.min(input.now.getTime() - 30 * DAY_MS, input.period.from.getTime()));
  // The log is a side note: a log that cannot be read must not hold back the balance itself.
  const log = gateway.getBalanceLog({ begin, end: input.now }).catch(() => undefined);
  const balance = await gateway.getBalance();
  const entries = await log;
  const spend = entries ? spendOf(entries, input.now) : undefined;
  const periodEntries = entries?.filter((e) => inPeriod(e, input.period));
  return {
    kind: 'balance',
    at: input.now,
    balance,
    spend,
    runway: spend ? runwayOf(balance.usable, spend) : undefined,
    change: changeOf(balance, periodEntries, input),
    period: input.period,
    largestDebits: periodEntries ? largest(periodEntries, 'debit') : [],
    largestCredits: periodEntries ? largest(periodEntries, 'credit') : [],
  };
}
