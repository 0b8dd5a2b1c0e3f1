import { resolve } from 'node:path';
import { StoreOpenError } from './errors.js';

export type DatabaseTarget =
  | { kind: 'sqlite'; path: string; masked: string }
  | { kind: 'postgres'; connectionString: string; masked: string; password?: string };

/** The URL as an operator wrote it, with any password replaced by ***. Works on malformed URLs too. */
export function maskUrl(url: string): string {
  return url
    .replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@?#]*):[^@/?#]*@/i, '$1:***@')
    .replace(/([?&]password=)[^&#]*/gi, '$1***');
}

export function parseDatabaseUrl(url: string): DatabaseTarget {
  const trimmed = url.trim();
  const masked = maskUrl(trimmed);
  if (trimmed === '') {
    throw new StoreOpenError('cannot open database: DATABASE_URL is empty');
  }
  if (/^sqlite:/i.test(trimmed)) {
    return { kind: 'sqlite', path: sqlitePath(trimmed.slice('sqlite:'.length), masked), masked };
  }
  if (/^postgres(ql)?:\/\//i.test(trimmed)) {
    let password: string | undefined;
    try {
      password = decodeURIComponent(new URL(trimmed).password) || undefined;
    } catch {
      throw new StoreOpenError(`cannot open database ${masked}: DATABASE_URL is not a valid URL`);
    }
    return { kind: 'postgres', connectionString: trimmed, masked, password };
  }
  throw new StoreOpenError(
    `cannot open database ${masked}: unsupported DATABASE_URL (expected sqlite:<path> or postgres://…)`,
  );
}

// Accepts sqlite:./rel.db, sqlite:/abs.db, sqlite:///abs.db, sqlite://rel.db and sqlite::memory:.
function sqlitePath(rest: string, masked: string): string {
  const withoutQuery = rest.replace(/[?#].*$/, '');
  const path = withoutQuery.startsWith('//') ? withoutQuery.slice(2) : withoutQuery;
  if (path === '') {
    throw new StoreOpenError(`cannot open database ${masked}: no file path after sqlite:`);
  }
  return path === ':memory:' ? path : resolve(path);
}
