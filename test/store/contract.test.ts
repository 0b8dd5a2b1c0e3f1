import { describe } from 'vitest';
import { storeContract } from './contract.js';
import { pgSkipNote, postgresBackend, sqliteBackend } from './helpers.js';

if (!postgresBackend.available) {
  console.warn('PostgreSQL store tests are skipped: TEST_DATABASE_URL is unset (.ci/run sets it).');
}

describe('store contract: sqlite', () => storeContract(sqliteBackend));

describe.skipIf(!postgresBackend.available)(`store contract: postgres${pgSkipNote}`, () =>
  storeContract(postgresBackend),
);
