import type { RepoContext } from '../context.js';
import type { Store } from '../types.js';
import { appSettingsRepo } from './app-settings.js';
import { auditRepo } from './audit.js';
import { campaignsRepo } from './campaigns.js';
import { digestMemoryRepo } from './digest-memory.js';
import { draftsRepo } from './drafts.js';
import { forgottenNumbersRepo } from './forgotten-numbers.js';
import { gatewayIdsRepo } from './gateway-ids.js';
import { inboundRepo } from './inbound.js';
import { jobRunsRepo } from './job-runs.js';
import { optOutsRepo } from './opt-outs.js';
import { outboxRepo } from './outbox.js';
import { permissionsRepo } from './permissions.js';
import { recipientListsRepo } from './recipient-lists.js';
import { reportsRepo } from './reports.js';
import { subscriptionsRepo } from './subscriptions.js';
import { templatesRepo } from './templates.js';

export type Repositories = Omit<Store, 'kind' | 'target' | 'health' | 'eraseResidue' | 'close'>;

export function repositories(ctx: RepoContext): Repositories {
  return {
    outbox: outboxRepo(ctx),
    campaigns: campaignsRepo(ctx),
    inbound: inboundRepo(ctx),
    subscriptions: subscriptionsRepo(ctx),
    jobRuns: jobRunsRepo(ctx),
    permissions: permissionsRepo(ctx),
    audit: auditRepo(ctx),
    optOuts: optOutsRepo(ctx),
    recipientLists: recipientListsRepo(ctx),
    templates: templatesRepo(ctx),
    drafts: draftsRepo(ctx),
    digestMemory: digestMemoryRepo(ctx),
    appSettings: appSettingsRepo(ctx),
    gatewayIds: gatewayIdsRepo(ctx),
    reports: reportsRepo(ctx),
    forgottenNumbers: forgottenNumbersRepo(ctx),
  };
}
