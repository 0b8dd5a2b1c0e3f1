import type { SlackDeps } from './deps.js';

/** The app setting behind `/sms workflows on|off`. */
export const WORKFLOWS_SETTING = 'workflows';

/** Workflow Builder steps run only once an admin has turned them on; no setting means off. */
export async function workflowsState(deps: SlackDeps): Promise<{ on: boolean; by?: string; since?: Date }> {
  const setting = await deps.store.appSettings.get(WORKFLOWS_SETTING);
  if (!setting) return { on: false };
  return { on: setting.value === 'on', by: setting.updatedBy, since: setting.updatedAt };
}

export async function setWorkflows(deps: SlackDeps, on: boolean, by: string): Promise<void> {
  await deps.store.appSettings.set(WORKFLOWS_SETTING, on ? 'on' : 'off', by, deps.now());
}

/** The app setting behind `/sms workflows unattended on|off`. */
export const UNATTENDED_SETTING = 'workflows_unattended';

/** SMS (one per recipient) a day by steps with nobody behind them, when the admin who allows them names no other figure. */
export const DEFAULT_UNATTENDED_DAILY_CAP = 20;

/** The most SMS a day an admin may allow: an unattended step is for a few notices a day, not for bulk sends. */
export const MAX_UNATTENDED_DAILY_CAP = 1000;

/** Claims in job_runs: one per SMS (recipient) sent unattended in a day, `<UTC day>:<n>`, owned by the step run. */
export const UNATTENDED_JOB = 'workflow_unattended_send';

/**
 * Steps started by no person (a scheduled or event-triggered workflow): allowed only by an admin, who names the
 * channel that sees every such send and how many a day may go.
 */
export interface UnattendedSteps {
  channel: string;
  dailyCap: number;
  /** The admin who allowed them: the sends go out on their authority, checked at each send. */
  by: string;
  since: Date;
}

export async function unattendedSteps(deps: SlackDeps): Promise<UnattendedSteps | undefined> {
  const setting = await deps.store.appSettings.get(UNATTENDED_SETTING);
  if (!setting || setting.value === 'off') return undefined;
  try {
    const { channel, dailyCap } = JSON.parse(setting.value) as { channel?: unknown; dailyCap?: unknown };
    if (typeof channel !== 'string' || typeof dailyCap !== 'number') return undefined;
    return { channel, dailyCap, by: setting.updatedBy, since: setting.updatedAt };
  } catch {
    return undefined; // Unreadable is not allowed.
  }
}

export async function allowUnattended(
  deps: SlackDeps,
  allowance: { channel: string; dailyCap: number },
  by: string,
): Promise<void> {
  await deps.store.appSettings.set(UNATTENDED_SETTING, JSON.stringify(allowance), by, deps.now());
}

export async function forbidUnattended(deps: SlackDeps, by: string): Promise<void> {
  await deps.store.appSettings.set(UNATTENDED_SETTING, 'off', by, deps.now());
}

/**
 * Takes one of today's (UTC) unattended places per recipient for this run, all or none, atomically across
 * instances: not claimed when fewer than `recipients` are left of `dailyCap`; `taken` says how many are used. A redelivered run finds the places it
 * already holds, so Slack's retries do not count twice.
 */
export async function claimUnattendedSms(
  deps: SlackDeps,
  execution: string,
  recipients: number,
  dailyCap: number,
): Promise<{ claimed: boolean; taken: number; giveBack: () => Promise<number> }> {
  const day = deps.now().toISOString().slice(0, 10);
  const claim = await deps.store.jobRuns.claimNumbered(
    UNATTENDED_JOB,
    day,
    recipients,
    dailyCap,
    execution,
    deps.now(),
  );
  // The day of the claim, not of the give-back: a run refused just after midnight frees yesterday's places.
  return { ...claim, giveBack: () => deps.store.jobRuns.releaseNumbered(UNATTENDED_JOB, day, execution) };
}
