import { maskNumber } from '../../sms/index.js';
import { forgottenMessage } from '../ui/admin-forget.js';
import { parseNumber } from './arguments.js';
import { type CommandContext, reply, type SubcommandHandlers } from './context.js';
import { fromSlack } from './slack-text.js';

/**
 * `/sms forget <number>` (admin): a person asked to be forgotten (KVKK, GDPR). The number goes from every
 * send (recipients, personalised envelopes, and the text of a send to it alone), its inbound conversation
 * threads, the drafts awaiting confirmation and the saved lists. Its opt-out stays: forgetting someone must
 * not start texting them again. The audit entry names the number by its last digits only.
 */
export async function forgetCommand(ctx: CommandContext): Promise<void> {
  const msisdn = parseNumber(ctx, fromSlack(ctx.rest).trim(), 'forget');
  const { store } = ctx.deps;
  const now = ctx.deps.now();
  const sends = await store.outbox.forgetNumber(msisdn, now);
  const threads = await store.inbound.forgetNumber(msisdn);
  const drafts = await store.drafts.forgetNumber(msisdn);
  // Campaign plans hold every number a campaign sends to; a campaign still running no longer sends to this one.
  const campaigns = await store.campaigns.forgetNumber(msisdn, now);
  const lists = await store.recipientLists.removeMember(msisdn, now);
  // As a keyed hash: what the gateway still lists from this number (its Receive list) is left out of what we show.
  await store.forgottenNumbers.add(msisdn, now);
  const optedOut = await store.optOuts.has(msisdn);
  // Out of the file and its WAL too: a copy of the database taken after this must not hold the number.
  const erased = await store.eraseResidue();
  await store.audit.append({
    actor: ctx.userId,
    action: 'forget',
    target: maskNumber(msisdn),
    details: {
      sends: sends.sends,
      texts: sends.texts,
      campaigns,
      threads,
      drafts,
      lists: lists.length,
      optedOut,
    },
    at: now,
  });
  ctx.deps.logger.info(
    { user: ctx.userId, sends: sends.sends, campaigns, threads, drafts, lists: lists.length, erased },
    'a number was forgotten on request',
  );
  await reply(ctx, forgottenMessage(msisdn, { ...sends, threads, drafts, lists, optedOut }));
}

export const FORGET_HANDLERS = { forget: forgetCommand } satisfies SubcommandHandlers;
