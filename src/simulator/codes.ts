/**
 * Status codes the simulator puts in `Response.Status.Code`. The real gateway does not publish
 * its codes (gateway-notes.md), so these are the simulator's own; clients must treat any code
 * other than 200 as a failure and keep the Description. README.md renders this table.
 */
export const STATUS_CODES = {
  OK: { code: 200, meaning: 'Success: the request was accepted (for a send: accepted, not delivered).' },
  BadRequest: {
    code: 400,
    meaning:
      'Malformed request: body not JSON or not an object, a field of the wrong type, a required field missing, an unparsable timestamp, an unsupported Receive State.',
  },
  AuthFailed: {
    code: 401,
    meaning: 'Authentication failed: Credential missing, or wrong Username/Password.',
  },
  InsufficientCredit: { code: 402, meaning: 'The send costs more than Balance.Main + Balance.Limit.' },
  NotFound: {
    code: 404,
    meaning:
      'Unknown MessageId (QueryMulti, Cancel) or SurveyId (GetSurveyAnswers); also an unknown operation path (with HTTP 404).',
  },
  MethodNotAllowed: {
    code: 405,
    meaning: 'An operation path called with a method other than POST (with HTTP 405).',
  },
  AlreadyFinal: { code: 409, meaning: 'Cancel of a batch whose recipients are all final already.' },
  BodyTooLarge: { code: 413, meaning: 'Request body larger than 5 MB (with HTTP 413).' },
  UnknownSender: { code: 421, meaning: 'Header.From is not one of the sender names GetSenders returns.' },
  InvalidNumber: {
    code: 422,
    meaning: "A recipient is not in gateway form: digits only, country code first, 10-15 digits, no '+'.",
  },
  NoRecipients: { code: 423, meaning: 'Submit with an empty To, or SubmitMulti with no Envelopes.' },
  EmptyMessage: { code: 424, meaning: 'The message text is empty or only white space.' },
  MessageTooLong: { code: 425, meaning: 'The text needs more than 10 segments in its coding.' },
  InvalidDataCoding: { code: 426, meaning: 'DataCoding is not Default, TurkishSingleShift or UCS2.' },
  TextNotEncodable: {
    code: 427,
    meaning: 'The text has characters the requested DataCoding cannot carry (send it as UCS2 instead).',
  },
  TooManyRecipients: { code: 428, meaning: 'More than 10,000 recipients in one call.' },
  SimulatedFault: {
    code: 500,
    meaning:
      'Default code of an injected `status` fault (`POST /_sim/fault`); also an unexpected simulator error.',
  },
} as const;

export type StatusName = keyof typeof STATUS_CODES;

/** A refusal the gateway reports in `Response.Status` rather than by throwing at the caller. */
export class GatewayError extends Error {
  readonly code: number;

  constructor(name: StatusName, description: string) {
    super(description);
    this.name = 'GatewayError';
    this.code = STATUS_CODES[name].code;
  }
}
