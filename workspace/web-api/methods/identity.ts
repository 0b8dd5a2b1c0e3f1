import { SlackApiError } from '../api-error.js';
import { presentUser } from '../presenters.js';
import { type MethodHandler, requiredString } from './context.js';

const authTest: MethodHandler = (ctx) => {
  const { identity } = ctx.state;
  return {
    url: `${ctx.baseUrl}/`,
    team: identity.teamName,
    user: identity.botName,
    team_id: identity.teamId,
    user_id: identity.botUserId,
    bot_id: identity.botId,
    app_id: identity.appId,
    is_enterprise_install: false,
  };
};

const usersInfo: MethodHandler = (ctx) => {
  const user = ctx.state.directory.user(requiredString(ctx.args, 'user', 'user_not_found'));
  if (!user) throw new SlackApiError('user_not_found');
  return { user: presentUser(user, ctx.state.identity) };
};

export const identityMethods: Record<string, MethodHandler> = {
  'auth.test': authTest,
  'users.info': usersInfo,
};
