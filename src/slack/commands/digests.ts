import { buildDigest, periodOf } from '../../digests/build.js';
import { DEFAULT_DIGEST_CREATOR } from '../../digests/defaults.js';
import { memoGateway } from '../../digests/gateway-memo.js';
import { readMemory } from '../../digests/memory.js';
import { compileSchedule, InvalidScheduleError } from '../../digests/schedule.js';
import { describeCron, parseScheduleWords, SCHEDULE_EXAMPLES } from '../../digests/schedule-forms.js';
import {
  DEFAULT_MIN_INTERVAL_SECONDS,
  describeEffective,
  effectiveSchedule,
  requireMinInterval,
} from '../../digests/schedule-interval.js';
import { DIGEST_KINDS } from '../../digests/types.js';
import type { DigestKind, Subscription } from '../../store/index.js';
import { ensureBotCanPost } from '../conversation-access.js';
import { UserInputError, userMessageFor } from '../errors.js';
import { denialText, satisfies } from '../permissions.js';
import { digestMessage } from '../ui/digest-message.js';
import { subscriptionsMessage } from '../ui/digest-subscriptions.js';
import { escapeMrkdwn, formatMoney, formatTime, truncate } from '../ui/format.js';
import { userZone } from '../user-zones.js';
import { removeChannelSubscriptions, replaceChannelSubscription } from './channel-subscription.js';
import type { CommandContext, SubcommandHandlers } from './context.js';

type KindChoice = DigestKind | 'all';
const KIND_WORDS: readonly string[] = [...DIGEST_KINDS, 'all'];
const KIND_NAMES: Record<DigestKind, string> = {
  balance: 'balance',
  stats: 'statistics',
  surveys: 'surveys',
};

type DigestSub = Extract<Subscription, { kind: 'digest' }>;

function kindsOf(choice: KindChoice): DigestKind[] {
  return choice === 'all' ? [...DIGEST_KINDS] : [choice];
}

function namesOf(kinds: readonly DigestKind[]): string {
  const names = kinds.map((k) => KIND_NAMES[k]);
  return names.length > 1
    ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)} digests`
    : `${names[0]} digest`;
}

/** A kind word when there is one: `[kind] [schedule…]` reads the same with or without it. */
function takeKind(words: readonly string[]): { kind: KindChoice; rest: string[]; typed: boolean } {
  const first = words[0]?.toLowerCase();
  if (first && KIND_WORDS.includes(first))
    return { kind: first as KindChoice, rest: words.slice(1), typed: true };
  return { kind: 'all', rest: [...words], typed: false };
}

function typed(text: string): string {
  return escapeMrkdwn(truncate(text, 40));
}

/** The router checks the catalogue's role; these change what a channel receives, so they check again. */
async function requireAdmin(ctx: CommandContext): Promise<boolean> {
  if (satisfies(ctx.role, 'admin')) return true;
  await ctx.respond({ response_type: 'ephemeral', text: denialText('admin', ctx.role) });
  return false;
}

function minimumSeconds(ctx: CommandContext): number {
  return ctx.deps.settings.digestMinIntervalSeconds ?? DEFAULT_MIN_INTERVAL_SECONDS;
}

/** As the scheduler runs it: a schedule an older version stored too fast comes slowed to the minimum. */
function scheduleOf(ctx: CommandContext, sub: DigestSub, now: Date) {
  try {
    return effectiveSchedule(sub.cron, sub.timezone, minimumSeconds(ctx), now);
  } catch {
    return undefined;
  }
}

function nextRunOf(ctx: CommandContext, sub: Subscription, now: Date): Date | undefined {
  return sub.kind === 'digest' ? scheduleOf(ctx, sub, now)?.schedule.nextAfter(now) : undefined;
}

async function channelDigests(ctx: CommandContext): Promise<DigestSub[]> {
  return (await ctx.deps.store.subscriptions.listByChannel(ctx.channelId)).filter(
    (s): s is DigestSub => s.kind === 'digest',
  );
}

/** `/sms subscribe digest [balance|stats|surveys|all] [daily HH:MM | weekdays HH:MM | weekly DAY HH:MM | monthly D HH:MM | cron "EXPR"]` */
export async function subscribeDigest(ctx: CommandContext): Promise<void> {
  if (!(await requireAdmin(ctx))) return;
  const { kind, rest } = takeKind(ctx.args.slice(1));
  // "daily 09:00" means 09:00 where the person typing it is; REPORT_TIMEZONE only when Slack will not say.
  const zone = await userZone(ctx.deps, ctx.client, ctx.userId);
  const timeZone = zone.timeZone;
  let schedule: ReturnType<typeof parseScheduleWords>;
  try {
    schedule = parseScheduleWords(rest, timeZone);
    requireMinInterval(compileSchedule(schedule.cron, timeZone), minimumSeconds(ctx), ctx.deps.now());
  } catch (error) {
    if (!(error instanceof InvalidScheduleError)) throw error;
    throw new UserInputError(
      `${error.message}.\nSchedules: ${SCHEDULE_EXAMPLES.map((e) => `\`${e}\``).join(', ')}. E.g. \`/sms subscribe digest balance weekdays 09:00\`.`,
    );
  }
  // A digest is posted by the scheduler with nobody at hand: a conversation it could never post in is refused now.
  await ensureBotCanPost(ctx.client, ctx.channelId);
  const now = ctx.deps.now();
  const kinds = kindsOf(kind);
  let created = 0;
  for (const digest of kinds) {
    const result = await ctx.deps.store.subscriptions.add(
      ctx.channelId,
      { kind: 'digest', digest, cron: schedule.cron, timezone: timeZone },
      ctx.userId,
      now,
    );
    if (result.created) created++;
  }
  const next = compileSchedule(schedule.cron, timeZone).nextAfter(now);
  const when = (who: string) =>
    `${escapeMrkdwn(schedule.description)} (${escapeMrkdwn(timeZone)}, ${zone.fromSlack ? `${who} Slack time zone` : `REPORT_TIMEZONE: Slack did not give ${who} time zone`})`;
  if (created === 0) {
    await ctx.respond({
      response_type: 'ephemeral',
      text: `:information_source: This channel already gets the ${namesOf(kinds)} ${when('your')}. \`/sms subscriptions\` lists what it gets.`,
    });
    return;
  }
  await ctx.deps.store.audit.append({
    actor: ctx.userId,
    action: 'digest.subscribe',
    target: ctx.channelId,
    details: { digests: kinds, cron: schedule.cron, timezone: timeZone },
    at: now,
  });
  await ctx.respond({
    response_type: 'in_channel',
    text:
      `:newspaper: <@${ctx.userId}> subscribed this channel to the ${namesOf(kinds)}, ${when(`<@${ctx.userId}>’s`)}.` +
      (next ? ` Next: *${formatTime(next, timeZone)}*.` : '') +
      ' `/sms digest` shows one now; `/sms unsubscribe digest` stops them.',
  });
}

/** `/sms unsubscribe digest [kind]`: every digest of the channel without a kind. */
export async function unsubscribeDigest(ctx: CommandContext): Promise<void> {
  if (!(await requireAdmin(ctx))) return;
  const word = ctx.args[1];
  const { kind, rest, typed: hasKind } = takeKind(ctx.args.slice(1));
  if ((word && !hasKind) || rest.length > 0) {
    throw new UserInputError(
      `“${typed(ctx.args.slice(1).join(' '))}” is not a digest kind: use balance, stats, surveys or all, e.g. \`/sms unsubscribe digest stats\`.`,
    );
  }
  const kinds = kindsOf(kind);
  const matching = (await channelDigests(ctx)).filter((s) => kinds.includes(s.digest));
  if (matching.length === 0) {
    throw new UserInputError(
      `This channel has no ${kind === 'all' ? 'digest' : `${KIND_NAMES[kind]} digest`}. \`/sms subscriptions\` lists what it has.`,
    );
  }
  await removeChannelSubscriptions(ctx, matching, 'digest.unsubscribe');
  const fromConfig = matching.some((s) => s.createdBy === DEFAULT_DIGEST_CREATOR)
    ? ' (The default digest returns at the next start while `DIGEST_CHANNEL` names this channel.)'
    : '';
  const removed = [...new Set(matching.map((s) => s.digest))];
  await ctx.respond({
    response_type: 'in_channel',
    text: `:wave: <@${ctx.userId}> stopped the ${namesOf(removed)} in this channel.${fromConfig}`,
  });
}

/** `/sms subscriptions`: the channel's subscriptions, digests with their next run. */
export async function subscriptionsCommand(ctx: CommandContext): Promise<void> {
  const subs = await ctx.deps.store.subscriptions.listByChannel(ctx.channelId);
  const now = ctx.deps.now();
  const message = subscriptionsMessage(subs, {
    timeZone: ctx.deps.settings.reportTimeZone,
    simulated: ctx.deps.settings.simulated,
    nextRun: (sub) => nextRunOf(ctx, sub, now),
  });
  await ctx.respond({ response_type: 'ephemeral', ...message });
}

/**
 * `/sms digest [kind]`: the digest as it would be posted now, shown only to the person asking. It compares
 * with the channel's last real digest but is not remembered, so it never changes what the next one says.
 */
export async function digestCommand(ctx: CommandContext): Promise<void> {
  const { kind, rest } = takeKind(ctx.args);
  if (rest.length > 0) {
    throw new UserInputError(
      `“${typed(rest.join(' '))}” is not a digest kind: use balance, stats, surveys or all, e.g. \`/sms digest balance\`.`,
    );
  }
  const now = ctx.deps.now();
  const timeZone = ctx.deps.settings.reportTimeZone;
  const subs = await channelDigests(ctx);
  const gateway = memoGateway(ctx.deps.gateway);
  for (const digest of kindsOf(kind)) {
    const sub = subs.find((s) => s.digest === digest);
    const effective = sub ? scheduleOf(ctx, sub, now) : undefined;
    const schedule = effective?.schedule;
    try {
      const report = await buildDigest(gateway, {
        kind: digest,
        now,
        timeZone,
        period: periodOf(schedule, now),
        previous: sub ? await readMemory(ctx.deps.store, sub.id) : undefined,
      });
      const message = digestMessage(report, {
        timeZone,
        simulated: ctx.deps.settings.simulated,
        preview: true,
        schedule: sub
          ? `this channel gets it ${effective ? describeEffective(describeCron(sub.cron), effective, minimumSeconds(ctx)) : describeCron(sub.cron)}`
          : undefined,
        nextRun: schedule?.nextAfter(now),
      });
      await ctx.respond({ response_type: 'ephemeral', ...message });
    } catch (error) {
      ctx.deps.logger.warn(
        { digest, err: error instanceof Error ? error.message : String(error) },
        'digest preview failed',
      );
      await ctx.respond({
        response_type: 'ephemeral',
        text: `The ${KIND_NAMES[digest]} digest could not be built. ${userMessageFor(error)}`,
      });
    }
  }
}

/** `/sms alert balance below N`, `/sms alert off`, `/sms alert` (what is set). */
export async function alertCommand(ctx: CommandContext): Promise<void> {
  if (!(await requireAdmin(ctx))) return;
  const words = ctx.args.map((w) => w.toLowerCase());
  const existing = (await ctx.deps.store.subscriptions.listByChannel(ctx.channelId)).filter(
    (s) => s.kind === 'low_balance',
  );
  if (words.length === 0) {
    const current = existing[0];
    await ctx.respond({
      response_type: 'ephemeral',
      text: current
        ? `:bell: This channel is alerted when usable credit falls below *${formatMoney(current.threshold)}*. \`/sms alert off\` stops it.`
        : 'This channel has no balance alert. E.g. `/sms alert balance below 100`.',
    });
    return;
  }
  if (words.length === 1 && words[0] === 'off') {
    if (existing.length === 0) throw new UserInputError('This channel has no balance alert to turn off.');
    for (const sub of existing) await ctx.deps.store.subscriptions.remove(sub.id);
    await ctx.deps.store.audit.append({
      actor: ctx.userId,
      action: 'alert.off',
      target: ctx.channelId,
      at: ctx.deps.now(),
    });
    await ctx.respond({
      response_type: 'in_channel',
      text: `:no_bell: <@${ctx.userId}> turned off the balance alert in this channel.`,
    });
    return;
  }
  const threshold = parseThreshold(words);
  // One alert per channel: a new threshold replaces the old one, and starts with a fresh state.
  await replaceChannelSubscription(
    ctx,
    existing,
    { kind: 'low_balance', threshold },
    { action: 'alert.set', details: { threshold } },
  );
  const usable = await ctx.deps.gateway.getBalance().then(
    (b) => b.usable,
    () => undefined,
  );
  const now =
    usable === undefined
      ? ''
      : usable < threshold
        ? ` Usable credit is *${formatMoney(usable)}* now, already below: the alert comes with the next check.`
        : ` Usable credit is ${formatMoney(usable)} now.`;
  await ctx.respond({
    response_type: 'in_channel',
    text: `:bell: <@${ctx.userId}> set a balance alert: this channel hears once when usable credit falls below *${formatMoney(threshold)}*, and again only after it has been back above.${now}`,
  });
}

function parseThreshold(words: readonly string[]): number {
  const example = 'e.g. `/sms alert balance below 100` (or `/sms alert off`)';
  const rest = words[0] === 'balance' ? words.slice(1) : [...words];
  const amount = rest[0] === 'below' || rest[0] === '<' ? rest[1] : undefined;
  if (amount === undefined || rest.length !== 2) {
    throw new UserInputError(`Set an alert as \`/sms alert balance below N\`, ${example}.`);
  }
  const text = amount.replace(/,/g, '');
  const n = /^\d+(\.\d{1,2})?$/.test(text) ? Number(text) : Number.NaN;
  if (!(n > 0) || !Number.isFinite(n)) {
    throw new UserInputError(
      `“${typed(amount)}” is not an amount I can use: give a positive number, ${example}.`,
    );
  }
  return n;
}

/** subscriptions, digest, alert. */
export const DIGEST_HANDLERS = {
  subscriptions: subscriptionsCommand,
  digest: digestCommand,
  alert: alertCommand,
} satisfies SubcommandHandlers;
