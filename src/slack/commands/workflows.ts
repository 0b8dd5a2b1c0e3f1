import { workflowsStateMessage } from '../ui/workflows.js';
import { setWorkflows, workflowsState } from '../workflow-switch.js';
import { usageError } from './arguments.js';
import { type CommandContext, reply, type SubcommandHandlers } from './context.js';

/**
 * `/sms workflows [on|off]` (admin): whether Workflow Builder steps may run. Bare, it says which; a change is
 * written to the audit log.
 */
export async function workflowsCommand(ctx: CommandContext): Promise<void> {
  const word = (ctx.args[0] ?? '').toLowerCase();
  const timeZone = ctx.deps.settings.reportTimeZone;
  if (word === '') {
    await reply(ctx, workflowsStateMessage(await workflowsState(ctx.deps), timeZone, false));
    return;
  }
  if (word !== 'on' && word !== 'off')
    throw usageError('workflows', `“${word.slice(0, 20)}” is neither on nor off.`);
  const on = word === 'on';
  await setWorkflows(ctx.deps, on, ctx.userId);
  await ctx.deps.store.audit.append({
    actor: ctx.userId,
    action: on ? 'workflows_on' : 'workflows_off',
    target: null,
    at: ctx.deps.now(),
  });
  await reply(ctx, workflowsStateMessage(await workflowsState(ctx.deps), timeZone, true));
}

export const WORKFLOW_HANDLERS = { workflows: workflowsCommand } satisfies SubcommandHandlers;
