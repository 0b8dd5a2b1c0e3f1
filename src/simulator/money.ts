/**
 * Money is kept as integer ten-thousandths so that debits, refunds and balances add up exactly
 * (0.1 + 0.2 style drift would make balance-log arithmetic untestable).
 */
export type Units = number;

const SCALE = 10_000;

export function toUnits(amount: number): Units {
  return Math.round(amount * SCALE);
}

export function fromUnits(units: Units): number {
  return units / SCALE;
}
