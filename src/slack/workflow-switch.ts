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
