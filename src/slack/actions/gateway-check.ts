import { GatewayRejected } from '../../gateway/index.js';
import { cancelIfCampaignCancelled } from '../../sending/campaign.js';
import { findSendAtGateway, type GatewayCheck, matchesSend } from '../../sending/reconcile.js';
import type { OutboxRow, Role } from '../../store/index.js';
import { updateCampaignCard } from '../campaign-cards.js';
import { updateCard } from '../delivery-cards.js';
import type { SlackDeps } from '../deps.js';
import { userMessageFor } from '../errors.js';
import { allowed, denialText, type Need, roleOf, satisfies } from '../permissions.js';
import { campaignReference } from '../ui/campaign.js';
import { sendReference } from '../ui/card.js';
import { gatewayCheckMessage, parseConfirmValue } from '../ui/gateway-check.js';
import { type ActionArgs, actionValue, tellUser } from './batch.js';

/**
 * A send in state unknown is resolved from Slack, never by sending again: Check the gateway lists the
 * batches received around its time; one match may be confirmed by its sender or an admin, and with none
 * an admin may mark it not sent. Every click is checked again, since anyone in the channel can press.
 */

async function unknownSend(
  deps: SlackDeps,
  args: ActionArgs,
  outboxId: number,
): Promise<OutboxRow | undefined> {
  const row = Number.isSafeInteger(outboxId) ? await deps.store.outbox.get(outboxId) : undefined;
  if (!row) {
    await tellUser(args, ':warning: smsops has no record of this send.');
    return undefined;
  }
  if (row.state !== 'unknown' || row.messageId) {
    await tellUser(
      args,
      `:information_source: Send ${sendReference(row)} is no longer unknown: it is *${row.state}*` +
        `${row.messageId ? ` as batch ${row.messageId}` : ''}. Nothing was changed.`,
    );
    return undefined;
  }
  return row;
}

/**
 * The clicked send, when the user holds `need` and the send is still unknown, with what the gateway holds
 * for it now; undefined once the user has been told why not.
 */
async function clickedUnknownSendAtGateway(
  deps: SlackDeps,
  args: ActionArgs,
  need: Need,
): Promise<{ role: Role | undefined; row: OutboxRow; check: GatewayCheck } | undefined> {
  const role = await roleOf(deps, args.body.user.id);
  if (!satisfies(role, need)) {
    await tellUser(args, denialText(need, role));
    return undefined;
  }
  const row = await unknownSend(deps, args, Number(actionValue(args)));
  if (!row) return undefined;
  try {
    return { role, row, check: await findSendAtGateway(deps, row) };
  } catch (error) {
    await tellUser(args, userMessageFor(error));
    return undefined;
  }
}

async function refreshCard(
  deps: SlackDeps,
  args: ActionArgs,
  outboxId: number,
): Promise<OutboxRow | undefined> {
  const fresh = await deps.store.outbox.get(outboxId);
  if (fresh) {
    await updateCard(deps, args.client, fresh).catch((error: unknown) =>
      deps.logger.warn(
        { outboxId, err: error instanceof Error ? error.message : String(error) },
        'delivery card update failed',
      ),
    );
  }
  return fresh;
}

/** The send's own sender (while still a sender) or an admin. */
async function mayConfirm(deps: SlackDeps, userId: string, row: OutboxRow): Promise<boolean> {
  const role = await roleOf(deps, userId);
  return role === 'admin' || (row.slackUser === userId && (await allowed(deps, userId, 'sender')));
}

export function checkGatewayHandler(deps: SlackDeps) {
  return async function handleCheckGateway(args: ActionArgs): Promise<void> {
    await args.ack();
    const userId = args.body.user.id;
    const clicked = await clickedUnknownSendAtGateway(deps, args, 'viewer');
    if (!clicked) return;
    const { role, row, check } = clicked;
    deps.logger.info(
      { outboxId: row.id, user: userId, matches: check.matches.map((m) => m.id), listed: check.listed },
      'gateway checked for a send in state unknown',
    );
    await tellUser(
      args,
      gatewayCheckMessage(row, check, {
        reportTimeZone: deps.settings.reportTimeZone,
        simulated: deps.settings.simulated,
        isAdmin: role === 'admin',
        mayConfirm: await mayConfirm(deps, userId, row),
      }),
    );
  };
}

export function confirmMatchHandler(deps: SlackDeps) {
  return async function handleConfirmMatch(args: ActionArgs): Promise<void> {
    await args.ack();
    const userId = args.body.user.id;
    const choice = parseConfirmValue(actionValue(args));
    if (!choice) return;
    const row = await unknownSend(deps, args, choice.outboxId);
    if (!row) return;
    if (!(await mayConfirm(deps, userId, row))) {
      await tellUser(
        args,
        `:no_entry: Only <@${row.slackUser}>, who made send ${sendReference(row)}, or an admin may confirm it.`,
      );
      return;
    }
    // The button's batch is read again from the gateway and matched again: a value is never taken on trust.
    let report: Awaited<ReturnType<typeof deps.gateway.queryMulti>>['reports'][number] | undefined;
    try {
      report = (await deps.gateway.queryMulti({ messageId: choice.messageId })).reports[0];
    } catch (error) {
      if (!(error instanceof GatewayRejected && error.code === 404)) {
        await tellUser(args, userMessageFor(error));
        return;
      }
    }
    const other = await deps.store.outbox.getByMessageId(String(choice.messageId));
    if (!report || !matchesSend(row, report) || (other && other.id !== row.id)) {
      await tellUser(
        args,
        `:warning: Batch ${choice.messageId} does not match send ${sendReference(row)}` +
          `${other && other.id !== row.id ? ' (it is already recorded on another send)' : ''}. Nothing was changed.`,
      );
      return;
    }
    const note = `Found at the gateway with Check the gateway and confirmed in Slack as batch ${report.id}.`;
    if (!(await deps.store.outbox.resolveSubmitted(row.id, String(report.id), { note, at: deps.now() }))) {
      const now = await deps.store.outbox.get(row.id);
      await tellUser(
        args,
        `:information_source: Send ${sendReference(row)} changed meanwhile: it is *${now?.state ?? 'gone'}*` +
          `${now?.messageId ? ` as batch ${now.messageId}` : ''}. Nothing was changed.`,
      );
      return;
    }
    await deps.store.audit.append({
      actor: userId,
      action: 'send resolved',
      target: String(report.id),
      details: { outboxId: row.id, reference: sendReference(row), how: 'confirmed from the gateway' },
      at: deps.now(),
    });
    deps.logger.info(
      { outboxId: row.id, messageId: report.id, user: userId },
      'send in state unknown confirmed as a gateway batch; it is tracked now',
    );
    // A chunk of a campaign cancelled meanwhile: Cancel could not reach it without its MessageId; it can now.
    const ofCancelled = await cancelIfCampaignCancelled(deps, row.id).catch((error: unknown) => {
      deps.logger.warn(
        { outboxId: row.id, err: error instanceof Error ? error.message : String(error) },
        'chunk of a cancelled campaign not cancelled',
      );
      return undefined;
    });
    await refreshCard(deps, args, row.id);
    deps.nudgeTracker(row.id);
    if (row.campaignId !== null) {
      await updateCampaignCard(deps, args.client, row.campaignId).catch((error: unknown) =>
        deps.logger.warn(
          { campaignId: row.campaignId, err: error instanceof Error ? error.message : String(error) },
          'campaign card not updated',
        ),
      );
    }
    if (ofCancelled) {
      const campaign = campaignReference(ofCancelled.campaign);
      await tellUser(
        args,
        ofCancelled.cancelled
          ? `:no_entry_sign: Send ${sendReference(row)} is batch *${report.id}*, a chunk of campaign ${campaign}, which was cancelled: it is cancelled at the gateway now, which stops what it has not sent yet. What it sent before the cancel has gone; its card shows what was delivered.`
          : `:warning: Send ${sendReference(row)} is batch *${report.id}*, a chunk of campaign ${campaign}, which was cancelled, but the gateway did not answer the cancel: press *Cancel* on the campaign card to try again.`,
      );
      return;
    }
    await tellUser(
      args,
      `:white_check_mark: Send ${sendReference(row)} is batch *${report.id}*: its card shows it and delivery is tracked. Nothing was sent.`,
    );
  };
}

export function markNotSentHandler(deps: SlackDeps) {
  return async function handleMarkNotSent(args: ActionArgs): Promise<void> {
    await args.ack();
    const userId = args.body.user.id;
    // Asked again at the click: a batch the gateway filed late must not be declared unsent.
    const clicked = await clickedUnknownSendAtGateway(deps, args, 'admin');
    if (!clicked) return;
    const { row, check } = clicked;
    if (check.matches.length > 0) {
      await tellUser(
        args,
        `:warning: The gateway now has ${check.matches.length === 1 ? 'a matching batch' : 'matching batches'} ` +
          `(${check.matches.map((m) => m.id).join(', ')}): send ${sendReference(row)} is not marked not sent. Use *Check the gateway* again.`,
      );
      return;
    }
    const reason = 'marked not sent by an admin: the gateway had no matching batch';
    if (!(await deps.store.outbox.resolveNotSent(row.id, reason, deps.now()))) {
      await tellUser(
        args,
        `:information_source: Send ${sendReference(row)} changed meanwhile. Nothing was changed.`,
      );
      return;
    }
    await deps.store.audit.append({
      actor: userId,
      action: 'send marked not sent',
      target: sendReference(row),
      details: { outboxId: row.id, listed: check.listed, how: 'no matching batch at the gateway' },
      at: deps.now(),
    });
    deps.logger.info({ outboxId: row.id, user: userId }, 'send in state unknown marked not sent');
    await refreshCard(deps, args, row.id);
    await tellUser(
      args,
      `:ballot_box_with_check: Send ${sendReference(row)} is recorded as not sent. Nothing was sent; send anew with \`/sms send\` if it is still needed.`,
    );
  };
}
