import { UserInputError } from '../errors.js';
import type { CommandContext, SubcommandHandler, SubcommandHandlers } from './context.js';
import { subscribeDigest, unsubscribeDigest } from './digests.js';
import { subscribeInbound, unsubscribeInbound } from './inbound.js';
import { subscribeReport, unsubscribeReport } from './report.js';

function byKind(
  inbound: SubcommandHandler,
  digest: SubcommandHandler,
  report: SubcommandHandler,
  verb: string,
): SubcommandHandler {
  return async (ctx: CommandContext) => {
    const kind = ctx.args[0]?.toLowerCase();
    if (kind === 'inbound') return inbound(ctx);
    if (kind === 'digest') return digest(ctx);
    if (kind === 'report') return report(ctx);
    throw new UserInputError(
      `What should this channel ${verb === 'subscribe' ? 'get' : 'stop getting'}? \`/sms ${verb} inbound\` or \`/sms ${verb} digest\`, e.g. \`/sms ${verb} digest all daily 09:00\`.`,
    );
  };
}

export const SUBSCRIPTION_HANDLERS = {
  subscribe: byKind(subscribeInbound, subscribeDigest, subscribeReport, 'subscribe'),
  unsubscribe: byKind(unsubscribeInbound, unsubscribeDigest, unsubscribeReport, 'unsubscribe'),
} satisfies SubcommandHandlers;
