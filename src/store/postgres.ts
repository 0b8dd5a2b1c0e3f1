import {
  type DatabaseIntrospector,
  Kysely,
  PostgresDialect,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from 'kysely';
import pg from 'pg';
import type { Resilience } from './resilience.js';
import type { Database } from './schema.js';

const INT8_OID = 20;

// Every int8 the store reads is a count, an id or epoch milliseconds, all far below 2^53;
// the one 64-bit value that needs every bit (the gateway MessageId) is kept as text.
const getTypeParser = ((oid: number, format?: 'text' | 'binary') =>
  oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser;

export interface PgSetup {
  connectionString: string;
  /** Where every unqualified table lives; checked by isValidSchemaName. */
  schema?: string;
  applicationName: string;
  poolSize: number;
  resilience: Resilience;
}

export const isValidSchemaName = (name: string): boolean => /^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(name);

/**
 * The schema goes in the connection's startup options rather than a `set search_path` after connecting:
 * a connection that died during such a follow-up statement would never be returned to the pool.
 */
function withSearchPath(connectionString: string, schema: string | undefined) {
  if (!schema) return { connectionString, options: undefined };
  const own = `-c search_path="${schema}"`;
  const url = new URL(connectionString);
  const theirs = url.searchParams.get('options');
  if (theirs === null) return { connectionString, options: own };
  // Options in the URL would replace ours wholesale, so both move into the explicit setting.
  url.searchParams.delete('options');
  return { connectionString: url.toString(), options: `${theirs} ${own}` };
}

export function createPool(setup: PgSetup): pg.Pool {
  const pool = new pg.Pool({
    ...withSearchPath(setup.connectionString, setup.schema),
    max: setup.poolSize,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    application_name: setup.applicationName,
    types: { getTypeParser },
  });
  // Without these listeners a server restart or pg_terminate_backend would kill the process: pg emits
  // 'error' on idle clients (through the pool) and on clients between queries (on the client itself).
  pool.on('error', (error) => setup.resilience.noteFailure(error));
  pool.on('connect', (client) => {
    client.on('error', (error) => setup.resilience.noteFailure(error));
  });
  return pool;
}

/**
 * Kysely's Migrator asks the introspector whether its bookkeeping tables exist. The stock one reads
 * every column of every table in the database through functions that fail if some other schema is
 * dropped meanwhile (parallel test runs do exactly that), so this one looks only at the store's schema.
 */
class StoreSchemaIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<SchemaMetadata>`select nspname as name from pg_catalog.pg_namespace`.execute(
      this.db,
    );
    return rows;
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; schema: string }>`
      select c.relname as name, n.nspname as schema
      from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and n.nspname = current_schema()`.execute(this.db);
    return rows.map((row) => ({ ...row, isView: false, columns: [] }));
  }

  async getMetadata() {
    return { tables: await this.getTables() };
  }
}

class StorePostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new StoreSchemaIntrospector(db);
  }
}

export function postgresKysely(pool: pg.Pool): Kysely<Database> {
  return new Kysely<Database>({ dialect: new StorePostgresDialect({ pool }) });
}
