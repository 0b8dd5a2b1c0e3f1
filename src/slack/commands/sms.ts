import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../deps.js';
import { userMessageFor } from '../errors.js';
import { denialText, roleOf, satisfies } from '../permissions.js';
import { unknownSubcommandMessage } from '../ui/help.js';
import { SUBCOMMANDS, type SubcommandName } from './catalogue.js';
import type { SubcommandHandler } from './context.js';
import { parseCommand } from './parse.js';

/** `/sms …`: acks at once, then answers through response_url or a modal, whatever the gateway does. */
export function smsCommandHandler(
  deps: SlackDeps,
  handlers: Readonly<Record<SubcommandName, SubcommandHandler>>,
) {
  return async function handleSmsCommand({
    ack,
    command,
    respond,
    client,
  }: SlackCommandMiddlewareArgs & AllMiddlewareArgs): Promise<void> {
    await ack();
    // Not awaited: Bolt holds the request, its response and its middleware chain until the listener returns,
    // ~31 KB for each command waiting on the gateway (heap snapshots of 200 held balance commands), ~10 KB once
    // the work runs on its own. run() answers its own failures.
    run(command, respond, client).catch((error: unknown) => {
      deps.logger.error({ err: error instanceof Error ? error.message : String(error) }, 'command failed');
    });
  };

  /** Everything after the ack: the role, the subcommand, and the answer or the error through response_url. */
  async function run(
    command: SlackCommandMiddlewareArgs['command'],
    respond: SlackCommandMiddlewareArgs['respond'],
    client: AllMiddlewareArgs['client'],
  ): Promise<void> {
    const parsed = parseCommand(command.text ?? '');
    const log = deps.logger.child({ user: command.user_id, channel: command.channel_id });
    const ephemeral = (text: string) => respond({ response_type: 'ephemeral', text });
    try {
      if (parsed.kind === 'unknown') {
        await respond({
          response_type: 'ephemeral',
          ...unknownSubcommandMessage(parsed.typed, parsed.suggestion),
        });
        return;
      }
      const info = SUBCOMMANDS.find((s) => s.name === parsed.name)!;
      const handler = handlers[parsed.name];
      const role = await roleOf(deps, command.user_id);
      if (info.needs !== 'anyone' && !satisfies(role, info.needs)) {
        log.info({ subcommand: parsed.name, role: role ?? 'none' }, 'command denied');
        await ephemeral(denialText(info.needs, role));
        return;
      }
      await handler({
        deps,
        client,
        userId: command.user_id,
        channelId: command.channel_id,
        triggerId: command.trigger_id,
        role,
        args: parsed.args,
        rest: parsed.rest,
        respond,
      });
    } catch (error) {
      log.warn({ err: error instanceof Error ? error.message : String(error) }, 'command failed');
      await ephemeral(userMessageFor(error)).catch(() => undefined);
    }
  }
}
