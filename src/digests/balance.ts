import type { Balance, BalanceLogEntry, Gateway } from '../gateway/index.js';
import type { DigestMemory } from './memory.js';
import { directionOf, runwayOf, spendOf, spendWindow } from './spend.js';
import type { BalanceDigest } from './types.js';

/** Largest debits and credits listed: enough to spot what moved the balance, short enough to read. */
export const LARGEST_ENTRIES = 3;

export interface BalanceDigestInput {
  now: Date;
  /** REPORT_TIMEZONE: where "today" begins. */
  timeZone: string;
  /** What "the period" of the digest is: since its previous scheduled slot. */
  period: { from: Date; to: Date };
  previous?: DigestMemory;
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
  const begin = new Date(Math.min(spendWindow(input.now).begin.getTime(), input.period.from.getTime()));
  // The log is a side note: a log that cannot be read must not hold back the balance itself.
  const log = gateway.getBalanceLog({ begin, end: input.now }).catch(() => undefined);
  const balance = await gateway.getBalance();
  const entries = await log;
  const spend = entries ? spendOf(entries, input.now, input.timeZone) : undefined;
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
