import { ensureBotCanPost } from '../conversation-access.js';
import { UNATTENDED_NEEDS_CHANNEL, unattendedStateMessage, workflowsStateMessage } from '../ui/workflows.js';
import {
  allowUnattended,
  DEFAULT_UNATTENDED_DAILY_CAP,
  forbidUnattended,
  MAX_UNATTENDED_DAILY_CAP,
  setWorkflows,
  unattendedSteps,
  workflowsState,
} from '../workflow-switch.js';
import { usageError } from './arguments.js';
import { type CommandContext, reply, type SubcommandHandlers } from './context.js';

/**
 * `/sms workflows [on|off]` (admin): whether Workflow Builder steps may run. Bare, it says which; a change is
 * written to the audit log. `/sms workflows unattended …` is about steps nobody started.
 */
export async function workflowsCommand(ctx: CommandContext): Promise<void> {
  const word = (ctx.args[0] ?? '').toLowerCase();
  const timeZone = ctx.deps.settings.reportTimeZone;
  if (word === 'unattended') return unattendedCommand(ctx);
  if (word === '') {
    await reply(ctx, workflowsStateMessage(await workflowsState(ctx.deps), timeZone, false));
    await reply(ctx, unattendedStateMessage(await unattendedSteps(ctx.deps), timeZone, false));
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

/**
 * `/sms workflows unattended on [daily cap]`, run in the channel that is to see every such send, or `… off`:
 * whether steps that no person started (scheduled or event-triggered workflows) may send. They send on the
 * authority of the admin who allows them, so that someone answers for them.
 */
async function unattendedCommand(ctx: CommandContext): Promise<void> {
  const word = (ctx.args[1] ?? '').toLowerCase();
  const timeZone = ctx.deps.settings.reportTimeZone;
  if (word === '') {
    await reply(ctx, unattendedStateMessage(await unattendedSteps(ctx.deps), timeZone, false));
    return;
  }
  if (word === 'off') {
    await forbidUnattended(ctx.deps, ctx.userId);
    await ctx.deps.store.audit.append({
      actor: ctx.userId,
      action: 'workflows_unattended_off',
      target: null,
      at: ctx.deps.now(),
    });
    await reply(ctx, unattendedStateMessage(undefined, timeZone, true));
    return;
  }
  if (word !== 'on') throw usageError('workflows', `“${word.slice(0, 20)}” is neither on nor off.`);
  const capText = ctx.args[2]?.trim();
  const dailyCap = capText === undefined ? DEFAULT_UNATTENDED_DAILY_CAP : Number(capText);
  if (!Number.isInteger(dailyCap) || dailyCap < 1 || dailyCap > MAX_UNATTENDED_DAILY_CAP) {
    throw usageError(
      'workflows',
      `“${(capText ?? '').slice(0, 20)}” is not a daily cap: a whole number of SMS (one per recipient) from 1 to ${MAX_UNATTENDED_DAILY_CAP}.`,
    );
  }
  // The channel is where every unattended send shows: one the team sees, and one the bot can post in now.
  await ensureBotCanPost(ctx.client, ctx.channelId, { channelsOnly: UNATTENDED_NEEDS_CHANNEL });
  const allowance = { channel: ctx.channelId, dailyCap };
  await allowUnattended(ctx.deps, allowance, ctx.userId);
  await ctx.deps.store.audit.append({
    actor: ctx.userId,
    action: 'workflows_unattended_on',
    target: ctx.channelId,
    details: { dailyCap },
    at: ctx.deps.now(),
  });
  await reply(ctx, unattendedStateMessage(await unattendedSteps(ctx.deps), timeZone, true));
}

export const WORKFLOW_HANDLERS = { workflows: workflowsCommand } satisfies SubcommandHandlers;
