// Time zone names, checked without building an Intl.DateTimeFormat where that can be helped: the first one a
// process builds loads ICU's date-formatting data, 8 MB of resident memory for the life of the process
// (measured on Node 20), where the list of zone names costs about 2 MB and UTC nothing. A bot whose zones are
// UTC and which draws no dates never pays it.

/** The names every runtime reads as UTC, offset zero at every instant (Intl reads them in any letter case). */
export const UTC_ZONE_NAMES: readonly string[] = [
  'UTC',
  'Etc/UTC',
  'Etc/UCT',
  'UCT',
  'Etc/Universal',
  'Universal',
  'Etc/Zulu',
  'Zulu',
  'GMT',
  'Etc/GMT',
  'Etc/GMT0',
  'Etc/GMT+0',
  'Etc/GMT-0',
  'GMT0',
  'GMT+0',
  'GMT-0',
  'Etc/Greenwich',
  'Greenwich',
];
const UTC_NAMES = new Set(UTC_ZONE_NAMES.map((name) => name.toLowerCase()));

let canonical: Set<string> | undefined;

/** True for a zone whose offset is zero at every instant, known without Intl. */
export function isUtcZone(timeZone: string): boolean {
  return UTC_NAMES.has(timeZone.toLowerCase());
}

/** True when the runtime knows `timeZone` as an IANA zone (aliases and any letter case included). */
export function isTimeZone(timeZone: string): boolean {
  if (timeZone === '') return false;
  if (isUtcZone(timeZone)) return true;
  canonical ??= new Set(Intl.supportedValuesOf('timeZone'));
  if (canonical.has(timeZone)) return true;
  // Not a canonical name: an alias (US/Eastern, Asia/Calcutta) or another case, which Intl accepts too.
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}
