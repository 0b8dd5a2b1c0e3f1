import { createHash, timingSafeEqual } from 'node:crypto';
import { GatewayError } from './codes.js';

export interface Credentials {
  username: string;
  password: string;
}

/** Checks `Credential` in a parsed body; throws 400 for a malformed one and 401 for a wrong one. */
export function authenticate(body: Record<string, unknown>, expected: Credentials): void {
  const credential = body.Credential;
  if (credential === undefined || credential === null) {
    throw new GatewayError(
      'AuthFailed',
      'Authentication failed: Credential is missing from the request body',
    );
  }
  if (typeof credential !== 'object' || Array.isArray(credential)) {
    throw new GatewayError(
      'BadRequest',
      'Malformed request: Credential must be an object with Username and Password',
    );
  }
  const { Username, Password } = credential as Record<string, unknown>;
  if (typeof Username !== 'string' || typeof Password !== 'string') {
    throw new GatewayError(
      'BadRequest',
      'Malformed request: Credential.Username and Credential.Password must be strings',
    );
  }
  // Both compared every time, in constant time, so a wrong name and a wrong password look alike.
  const userOk = sameText(Username, expected.username);
  const passwordOk = sameText(Password, expected.password);
  if (!userOk || !passwordOk) {
    throw new GatewayError('AuthFailed', 'Authentication failed: wrong Username or Password');
  }
}

function sameText(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}
