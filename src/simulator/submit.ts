import { GatewayError } from './codes.js';
import { fromUnits, type Units } from './money.js';
import { measureText, type TextMeasure } from './segments.js';
import { DATA_CODINGS, type DataCoding, type Recipient, type Sender } from './types.js';

/** A send after type checks; `where` names each field as the client wrote it, for error messages. */
export interface SubmitInput {
  operation: 'Submit' | 'SubmitMulti';
  sender?: string;
  dataCoding?: string;
  validityMinutes?: number;
  messages: Array<{ to: string; text: string; toWhere: string; textWhere: string }>;
}

export interface SubmitPlan {
  operation: 'Submit' | 'SubmitMulti';
  sender: string;
  coding: DataCoding;
  validityMinutes: number;
  recipients: Recipient[];
  cost: Units;
  segments: number;
}

export interface SubmitContext {
  senders: readonly Sender[];
  pricePerSegment: Units;
  /** Main + Limit: what may still be spent. */
  available: Units;
}

export const MAX_SEGMENTS = 10;
export const MAX_RECIPIENTS = 10_000;
const DEFAULT_VALIDITY_MINUTES = 1440;
const GATEWAY_NUMBER = /^\d{10,15}$/;

/** Checks a send the way the gateway would and prices it; throws GatewayError on the first problem. */
export function planSubmit(input: SubmitInput, context: SubmitContext): SubmitPlan {
  const coding = resolveCoding(input.dataCoding);
  const sender = resolveSender(input.sender, context.senders);
  if (input.messages.length === 0) {
    throw new GatewayError(
      'NoRecipients',
      input.operation === 'Submit'
        ? 'To is empty: give at least one recipient number'
        : 'Envelopes is empty: give at least one envelope',
    );
  }
  if (input.messages.length > MAX_RECIPIENTS) {
    throw new GatewayError(
      'TooManyRecipients',
      `Too many recipients: ${input.messages.length} in one call, at most ${MAX_RECIPIENTS}`,
    );
  }
  const measured = new Map<string, TextMeasure>();
  const recipients: Recipient[] = [];
  let segments = 0;
  for (const message of input.messages) {
    if (!GATEWAY_NUMBER.test(message.to)) {
      throw new GatewayError(
        'InvalidNumber',
        `Invalid recipient number ${JSON.stringify(message.to)} at ${message.toWhere}: ` +
          "use digits only, country code first, 10-15 digits, no '+' (e.g. 905321234567)",
      );
    }
    let measure = measured.get(message.text);
    if (!measure) {
      measure = measureMessage(message.text, message.textWhere, coding);
      measured.set(message.text, measure);
    }
    segments += measure.segments;
    recipients.push({
      to: message.to,
      text: message.text,
      segments: measure.segments,
      cost: measure.segments * context.pricePerSegment,
      state: 'Queued',
    });
  }
  const cost = segments * context.pricePerSegment;
  if (cost > context.available) {
    throw new GatewayError(
      'InsufficientCredit',
      `Insufficient credit: this send costs ${fromUnits(cost)} (${recipients.length} recipients, ${segments} segments), ` +
        `the account has ${fromUnits(context.available)} available`,
    );
  }
  const validityMinutes =
    input.validityMinutes === undefined || input.validityMinutes === 0
      ? DEFAULT_VALIDITY_MINUTES
      : input.validityMinutes;
  return { operation: input.operation, sender, coding, validityMinutes, recipients, cost, segments };
}

function resolveCoding(dataCoding: string | undefined): DataCoding {
  if (dataCoding === undefined || dataCoding === '') return 'Default';
  const coding = DATA_CODINGS.find((c) => c.toLowerCase() === dataCoding.toLowerCase());
  if (!coding) {
    throw new GatewayError(
      'InvalidDataCoding',
      `DataCoding ${JSON.stringify(dataCoding)} is not supported: use ${DATA_CODINGS.join(', ')}`,
    );
  }
  return coding;
}

/** An absent From means the default sender, as on the account's web panel. */
function resolveSender(from: string | undefined, senders: readonly Sender[]): string {
  if (from === undefined || from.trim() === '') {
    return (senders.find((s) => s.isDefault) ?? senders[0])!.name;
  }
  const sender = senders.find((s) => s.name.toLowerCase() === from.trim().toLowerCase());
  if (!sender) {
    throw new GatewayError(
      'UnknownSender',
      `Unknown sender ${JSON.stringify(from)} in Header.From: this account's senders are ${senders.map((s) => s.name).join(', ')}`,
    );
  }
  return sender.name;
}

function measureMessage(text: string, where: string, coding: DataCoding): TextMeasure {
  if (text.trim() === '') throw new GatewayError('EmptyMessage', `${where} is empty: give the text to send`);
  const measure = measureText(text, coding);
  if (measure.unrepresentable.length > 0) {
    const shown = measure.unrepresentable
      .slice(0, 5)
      .map((c) => JSON.stringify(c))
      .join(', ');
    throw new GatewayError(
      'TextNotEncodable',
      `${where} has characters that DataCoding ${coding} cannot carry (${shown}): send it with DataCoding UCS2`,
    );
  }
  if (measure.segments > MAX_SEGMENTS) {
    throw new GatewayError(
      'MessageTooLong',
      `${where} is too long: ${measure.segments} segments in ${coding}, at most ${MAX_SEGMENTS}`,
    );
  }
  return measure;
}
