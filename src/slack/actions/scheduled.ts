import type { App } from '@slack/bolt';
import { cancelScheduledSend, requestOfScheduled, scheduleOf } from '../../sending/scheduled.js';
import { campaignKeyOfClaim, startedCampaignOf } from '../../sending/scheduled-campaign.js';
import type { OutboxRow } from '../../store/index.js';
import { onBlockAction } from '../action-routes.js';
import { openCompose } from '../compose/open.js';
import { updateCard } from '../delivery-cards.js';
import type { SlackDeps } from '../deps.js';
import { userMessageFor } from '../errors.js';
import { mayCancel, roleOf } from '../permissions.js';
import { sendAndShow } from '../send-flow.js';
import { LIMITS } from '../ui/blocks.js';
import { campaignReference } from '../ui/campaign.js';
import { escapeMrkdwn, formatNumber, plural } from '../ui/format.js';
import { SCHEDULED_ACTIONS } from '../ui/scheduled.js';
import { refusalText } from '../ui/send-checks.js';
import { type ActionArgs, actionValue, tellUser } from './batch.js';

const WAITING = new Set(['scheduled', 'held']);

/**
 * The row of the card's button, if the clicker may act on it: its author (still a sender) or an admin,
 * checked on every click because anyone in the channel can press a button.
 */
async function rowFor(deps: SlackDeps, args: ActionArgs, what: string): Promise<OutboxRow | undefined> {
  const id = Number(actionValue(args));
  const row = Number.isSafeInteger(id) && id > 0 ? await deps.store.outbox.get(id) : undefined;
  if (!row) {
    await tellUser(args, ':warning: This card belongs to a send smsops no longer knows.');
    return undefined;
  }
  const userId = args.body.user.id;
  if (!mayCancel(await roleOf(deps, userId), userId, row.slackUser)) {
    await tellUser(
      args,
      `:no_entry: Only the author of this scheduled send (<@${row.slackUser}>) or an admin may ${what} it.`,
    );
    return undefined;
  }
  if (!WAITING.has(row.state)) {
    await updateCard(deps, args.client, row).catch(() => undefined);
    await tellUser(
      args,
      ':information_source: This send is no longer waiting: it has gone or was cancelled. Its card says what happened.',
    );
    return undefined;
  }
  // Held after a stop while it was starting as a campaign, which its slow instance did start after all.
  const campaign = await startedCampaignOf(deps.store, row);
  if (campaign) {
    await deps.store.outbox.closeAsCampaign(row.id, row.slackUser, deps.now());
    const closed = (await deps.store.outbox.get(row.id)) ?? row;
    await updateCard(deps, args.client, closed).catch(() => undefined);
    await tellUser(
      args,
      `:information_source: This send already went as campaign ${campaignReference(campaign)}: its campaign card follows it, and can cancel what is not sent yet.`,
    );
    return undefined;
  }
  return row;
}

export function sendNowHandler(deps: SlackDeps) {
  return async function handleScheduledSendNow(args: ActionArgs): Promise<void> {
    await args.ack();
    try {
      const row = await rowFor(deps, args, 'send');
      if (!row) return;
      const outcome = await sendAndShow(deps, args.client, requestOfScheduled(row, { sendNow: true }));
      if (outcome.kind === 'duplicate') {
        await tellUser(args, ':information_source: It is already on its way: it was sent once, not twice.');
      } else if (outcome.kind === 'refused') {
        await tellUser(args, refusalText(outcome.refusal, await roleOf(deps, row.slackUser)));
      }
    } catch (error) {
      deps.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'scheduled send now failed',
      );
      await tellUser(args, userMessageFor(error)).catch(() => undefined);
    }
  };
}

export function cancelHandler(deps: SlackDeps) {
  return async function handleScheduledCancel(args: ActionArgs): Promise<void> {
    await args.ack();
    try {
      const row = await rowFor(deps, args, 'cancel');
      if (!row) return;
      const userId = args.body.user.id;
      const cancelled = await cancelScheduledSend(deps, row.id, userId);
      const fresh = (await deps.store.outbox.get(row.id)) ?? row;
      await updateCard(deps, args.client, fresh).catch(() => undefined);
      await tellUser(
        args,
        cancelled
          ? ':no_entry_sign: Scheduled send cancelled: it will not be sent, and nothing was charged.'
          : ':information_source: Too late to cancel: it has just gone. Its card says what happened.',
      );
    } catch (error) {
      await tellUser(args, userMessageFor(error)).catch(() => undefined);
    }
  };
}

/** Reopens the compose modal as it was, with the time; saving it updates the same scheduled send. */
export function editHandler(deps: SlackDeps) {
  return async function handleScheduledEdit(args: ActionArgs): Promise<void> {
    await args.ack();
    try {
      const row = await rowFor(deps, args, 'edit');
      if (!row) return;
      if (campaignKeyOfClaim(row) !== undefined) {
        // Held after a stop while it was starting as a campaign: only that campaign may ever go, as it was.
        await tellUser(
          args,
          ':information_source: smsops stopped while this send was starting as a campaign, so it can no longer be edited: send it now as it is, or cancel it.',
        );
        return;
      }
      const input = scheduleOf(row)?.input ?? {};
      const text = (key: string) => (typeof input[key] === 'string' ? (input[key] as string) : undefined);
      const mode = text('mode') === 'personalised' ? 'personalised' : 'same';
      const fileName = text('fileName');
      const recipients = row.recipients.map(formatNumber).join('\n');
      if (fileName && (mode === 'personalised' || recipients.length > LIMITS.textInput)) {
        // Opened without it, the modal would show a personalised send without its table, or refuse the numbers
        // as too many for a field; a few numbers from a file are reopened as typed ones.
        await tellUser(
          args,
          `:information_source: This scheduled send was made from “${escapeMrkdwn(fileName)}” (${plural(row.recipientCount, 'recipient')}), which the compose modal cannot reopen, so it cannot be edited in place. Send it now as it is, or cancel it and schedule it again with the file (\`/sms send\`, “…or a file of numbers”).`,
        );
        return;
      }
      const payload = row.payload as { threadTs?: string | null } | null;
      await openCompose(
        deps,
        args.client,
        (args.body as { trigger_id: string }).trigger_id,
        {
          channel: row.channel ?? row.slackUser,
          ...(payload?.threadTs ? { threadTs: payload.threadTs } : {}),
          editing: row.id,
          ...(row.dueAt ? { scheduleAt: Math.floor(row.dueAt.getTime() / 1000) } : {}),
        },
        {
          mode,
          recipients,
          csv: text('csvText'),
          text: text('text') ?? row.text,
          sender: row.sender ?? undefined,
        },
        args.body.user.id,
      );
    } catch (error) {
      await tellUser(args, userMessageFor(error)).catch(() => undefined);
    }
  };
}

export function registerScheduledActions(app: App, deps: SlackDeps): void {
  onBlockAction(app, SCHEDULED_ACTIONS.sendNow, sendNowHandler(deps));
  onBlockAction(app, SCHEDULED_ACTIONS.edit, editHandler(deps));
  onBlockAction(app, SCHEDULED_ACTIONS.cancel, cancelHandler(deps));
}
