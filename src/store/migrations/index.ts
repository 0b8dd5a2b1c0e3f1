import type { Migration, MigrationProvider } from 'kysely';
import type { StoreKind } from '../types.js';
import * as initial from './0001_initial.js';
import * as drafts from './0002_drafts.js';
import * as redaction from './0003_redaction.js';
import * as sendLeases from './0004_send_leases.js';
import * as digestMemory from './0005_digest_memory.js';
import * as campaigns from './0006_campaigns.js';
import * as scheduledSends from './0007_scheduled_sends.js';
import * as workflows from './0008_workflows.js';
import * as forgottenNumbers from './0009_forgotten_numbers.js';
import * as draftNumbers from './0010_draft_numbers.js';
import * as campaignPlans from './0011_campaign_plans.js';

// Migrations never drop: there are no `down` steps, and none drops a table or column or deletes a row (0011 moves
// the campaigns' plans to a table of their own, emptying the old column).
// A new migration is a new file with the next number, appended to this list.
export function migrationProvider(kind: StoreKind): MigrationProvider {
  const migrations: Record<string, Migration> = {
    '0001_initial': { up: (db) => initial.up(db, kind) },
    '0002_drafts': { up: (db) => drafts.up(db) },
    '0003_redaction': { up: (db) => redaction.up(db) },
    '0004_send_leases': { up: (db) => sendLeases.up(db) },
    '0005_digest_memory': { up: (db) => digestMemory.up(db) },
    '0006_campaigns': { up: (db) => campaigns.up(db, kind) },
    '0007_scheduled_sends': { up: (db) => scheduledSends.up(db) },
    '0008_workflows': { up: (db) => workflows.up(db) },
    '0009_forgotten_numbers': { up: (db) => forgottenNumbers.up(db) },
    '0010_draft_numbers': { up: (db) => draftNumbers.up(db) },
    '0011_campaign_plans': { up: (db) => campaignPlans.up(db) },
  };
  return { getMigrations: async () => migrations };
}

export const MIGRATION_TABLE = 'smsops_migration';
export const MIGRATION_LOCK_TABLE = 'smsops_migration_lock';
