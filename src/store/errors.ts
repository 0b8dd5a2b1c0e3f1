/** Start-up cannot continue: the message is one line naming the target, password masked. */
export class StoreOpenError extends Error {
  override name = 'StoreOpenError';
}

/** The database stayed unreachable through every retry of one operation. */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
}

const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EEXIST: 'a part of the path is a file, not a folder',
  ENOSPC: 'no space left on device',
  SQLITE_CANTOPEN: 'unable to open the file (is its folder writable?)',
  SQLITE_READONLY: 'the file is read-only',
  SQLITE_NOTADB: 'the file is not a SQLite database',
  SQLITE_CORRUPT: 'the file is corrupt',
  SQLITE_BUSY: 'the database is locked by another process',
  SQLITE_FULL: 'the disk is full',
  '28P01': 'password authentication failed',
  '28000': 'authentication rejected',
  '3D000': 'the database does not exist',
  '53300': 'too many connections',
  '57P03': 'the server is starting up or shutting down',
};

/** One short line about why an operation failed, secret-free as long as `secrets` lists them. */
export function describeError(error: unknown, secrets: Array<string | undefined> = []): string {
  const err = error as { code?: unknown; message?: unknown; errors?: unknown[] } | undefined;
  const code = typeof err?.code === 'string' ? err.code : undefined;
  let text = (code && REASONS[code]) || (typeof err?.message === 'string' ? err.message : '') || '';
  // Node reports a failed connect to a name with several addresses as an AggregateError with no message.
  if (text === '' && Array.isArray(err?.errors) && err.errors.length > 0) {
    return describeError(err.errors[0], secrets);
  }
  if (text === '') text = String(error);
  text = text.replace(/\s+/g, ' ').trim();
  for (const secret of secrets) {
    if (secret) text = text.split(secret).join('***');
  }
  return text;
}
