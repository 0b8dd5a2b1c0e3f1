import { type CountryCode, msisdnOf } from './numbers.js';

/** Which of these numbers (gateway form) were forgotten with `/sms forget`: the store's forgottenNumbers. */
export interface ForgottenNumbers {
  forgottenAmong(msisdns: readonly string[]): Promise<Set<string>>;
}

/**
 * The inbound SMS that are not from a forgotten number. The gateway keeps its Receive list whatever smsops
 * forgets, so whatever reads it for people to see passes it through here. A sender number is brought to the
 * gateway form (as `/sms forget` stores it) before it is looked up.
 */
export async function withoutForgottenSenders<T extends { msisdn: string }>(
  messages: readonly T[],
  forgotten: ForgottenNumbers,
  defaultCountry: CountryCode,
): Promise<T[]> {
  const formOf = (m: T) => msisdnOf(m.msisdn, defaultCountry) ?? m.msisdn;
  const found = await forgotten.forgottenAmong(messages.map(formOf));
  return found.size === 0 ? [...messages] : messages.filter((m) => !found.has(formOf(m)));
}
