import { inspect } from 'node:util';
import { scrubSecrets } from '../secrets.js';

/**
 * Every failure of a gateway call is one of two classes, and each says whether the request may
 * have reached the gateway: a send that may have arrived is reconciled, never repeated.
 */
export abstract class GatewayError extends Error {
  abstract readonly sentMaybe: boolean;
  constructor(
    readonly operation: string,
    message: string,
  ) {
    // The client already masks its credential in upstream text; no registered secret gets through either.
    super(scrubSecrets(message));
  }

  // Errors are logged and inspected; keep that output to what the message says (no request bodies).
  [inspect.custom](): string {
    return `${this.name}: ${this.message}`;
  }

  toJSON(): Record<string, unknown> {
    return { name: this.name, operation: this.operation, message: this.message, sentMaybe: this.sentMaybe };
  }
}

/** The gateway answered and refused: Status.Code is not 200. It did not act on the request. */
export class GatewayRejected extends GatewayError {
  override readonly name = 'GatewayRejected';
  readonly sentMaybe = false;
  constructor(
    operation: string,
    readonly code: number,
    readonly description: string,
  ) {
    super(
      operation,
      `${operation} rejected by the gateway: ${description || 'no description'} (code ${code})`,
    );
  }
}

export type UnavailableReason =
  | 'refused'
  | 'dns'
  | 'connect-timeout'
  | 'timeout'
  | 'aborted'
  /** The client was closed (the bot is stopping): the call was refused, or abandoned while it waited. */
  | 'closing'
  | 'network'
  | 'http-status'
  | 'not-json'
  | 'malformed';

/** The gateway could not be reached, did not answer in time, or answered something unreadable. */
export class GatewayUnavailable extends GatewayError {
  override readonly name = 'GatewayUnavailable';
  constructor(
    operation: string,
    readonly reason: UnavailableReason,
    message: string,
    readonly sentMaybe: boolean,
    readonly httpStatus?: number,
  ) {
    super(operation, `${operation}: ${message}`);
  }
}

/** Values the gateway would accept but we must refuse before sending (e.g. a MessageId beyond 2^53). */
export class GatewayRequestInvalid extends GatewayError {
  override readonly name = 'GatewayRequestInvalid';
  readonly sentMaybe = false;
}
