import { checkView } from '../../block-kit/view-limits.js';
import { SlackApiError } from '../api-error.js';
import { type MethodContext, type MethodHandler, optionalString, requiredString } from './context.js';

/** views.open and views.push take a trigger_id, or an interactivity_pointer, which Slack treats alike. */
function spendTrigger(ctx: MethodContext): string {
  const trigger = optionalString(ctx.args, 'trigger_id') ?? optionalString(ctx.args, 'interactivity_pointer');
  if (!trigger) throw new SlackApiError('invalid_arguments', ['[ERROR] missing required field: trigger_id']);
  return ctx.state.triggers.exchange(trigger);
}

const open: MethodHandler = (ctx) => {
  const view = checkView(ctx.args.view, 'modal');
  const userId = spendTrigger(ctx);
  return { view: ctx.state.views.open(userId, view) };
};

const push: MethodHandler = (ctx) => {
  const view = checkView(ctx.args.view, 'modal');
  const userId = spendTrigger(ctx);
  return { view: ctx.state.views.push(userId, view) };
};

const update: MethodHandler = (ctx) => {
  const viewId = optionalString(ctx.args, 'view_id');
  const externalId = optionalString(ctx.args, 'external_id');
  if (!viewId && !externalId) {
    throw new SlackApiError('invalid_arguments', ['[ERROR] missing required field: view_id or external_id']);
  }
  const view = checkView(ctx.args.view, 'any');
  const hash = optionalString(ctx.args, 'hash');
  return {
    view: ctx.state.views.update(
      { ...(viewId ? { viewId } : {}), ...(externalId ? { externalId } : {}) },
      view,
      hash,
    ),
  };
};

const publish: MethodHandler = (ctx) => {
  const userId = requiredString(ctx.args, 'user_id', 'user_not_found');
  if (!ctx.state.directory.user(userId)) throw new SlackApiError('user_not_found');
  const view = checkView(ctx.args.view, 'home');
  return { view: ctx.state.views.publish(userId, view, optionalString(ctx.args, 'hash')) };
};

export const viewMethods: Record<string, MethodHandler> = {
  'views.open': open,
  'views.push': push,
  'views.update': update,
  'views.publish': publish,
};
