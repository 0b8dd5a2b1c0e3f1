/**
 * Amounts as people read them, wherever they are shown: Slack cards, a campaign's stop reason, logs. Kept out of
 * slack/ so that sending/ can name an amount the same way without knowing Slack.
 */

/** CURRENCY (config.ts): one per process, set when the bot is built; amounts carry it wherever they are shown. */
let currency = 'TRY';
const moneyFormats = new Map<string, Intl.NumberFormat>();

export function useCurrency(code: string): void {
  currency = code;
}

function moneyFormat(maximumFractionDigits: number): Intl.NumberFormat {
  const key = `${currency}/${maximumFractionDigits}`;
  let made = moneyFormats.get(key);
  if (!made) {
    made = new Intl.NumberFormat('tr-TR', {
      style: 'currency',
      currency,
      currencyDisplay: 'narrowSymbol',
      minimumFractionDigits: 2,
      maximumFractionDigits,
    });
    moneyFormats.set(key, made);
  }
  return made;
}

/**
 * "1.087,50 ₺": Turkish digits (`.` thousands, `,` decimals) and the currency's symbol after the amount, as
 * Turkish readers write it and Excel's Turkish currency formats show it (CLDR's tr-TR puts it first: ₺1.087,50).
 */
function money(amount: number, maximumFractionDigits: number): string {
  let number = '';
  let symbol = '';
  for (const part of moneyFormat(maximumFractionDigits).formatToParts(amount)) {
    if (part.type === 'currency') symbol = part.value;
    else if (part.type !== 'literal') number += part.value;
  }
  return `${number} ${symbol}`;
}

export function formatMoney(amount: number): string {
  return money(amount, 2);
}

/** Estimates keep four decimals when below one cent, so a small send never shows as 0,00 ₺. */
export function formatCost(amount: number): string {
  return money(amount, amount > 0 && amount < 0.01 ? 4 : 2);
}
