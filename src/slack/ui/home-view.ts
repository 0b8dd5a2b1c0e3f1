import type { KnownBlock, View } from '@slack/types';
import {
  NET_OF_REFUNDS,
  type Runway,
  SPEND_DEFINITION,
  type Spend,
  todayLabel,
} from '../../digests/spend.js';
import type { Balance, InboundMessage } from '../../gateway/index.js';
import { formatForPeople } from '../../sms/index.js';
import type { OutboxRow, Role, Subscription } from '../../store/index.js';
import { context, divider, fields, header, LIMITS, section, simulatedNotice } from './blocks.js';
import { runwayLine } from './digest-balance.js';
import { subscriptionLine } from './digest-subscriptions.js';
import {
  escapeMrkdwn,
  formatCost,
  formatCount,
  formatMoney,
  formatTime,
  progressBar,
  shownKeyword,
} from './format.js';
import { inlineText, listBlocks } from './lookup-common.js';
import { scheduledHomeBlocks } from './scheduled.js';

export const HOME_REFRESH_ACTION = 'home_refresh';

/** Each part of the dashboard is read on its own: one that fails shows why, the rest still show. */
export type Part<T> = { ok: true; value: T } | { ok: false; reason: string };

export interface HomeData {
  userId: string;
  role: Role | undefined;
  now: Date;
  timeZone: string;
  simulated: boolean;
  balance: Part<{ balance: Balance; spend: Spend | undefined; runway: Runway | undefined }>;
  today: Part<{ batches: number; recipients: number; segments: number; cost: number }>;
  /** Newest first. */
  openBatches: Part<OutboxRow[]>;
  /** Newest first. */
  inbound: Part<InboundMessage[]>;
  subscriptions: Part<Array<{ sub: Subscription; next: Date | undefined }>>;
  /** Sends waiting for their time, soonest first. */
  scheduled?: Part<OutboxRow[]>;
}

/** Rows each list shows: the whole Home stays well within Slack's 100 blocks whatever the data. */
export const HOME_LIMITS = { openBatches: 10, inbound: 5, subscriptionBlocks: 6 } as const;

function unavailable(reason: string): KnownBlock {
  return context(`:grey_question: Not available right now: ${escapeMrkdwn(reason)}`);
}

function balanceBlocks(data: HomeData): KnownBlock[] {
  const blocks: KnownBlock[] = [header('Credit')];
  if (!data.balance.ok) return [...blocks, unavailable(data.balance.reason)];
  const { balance, spend, runway } = data.balance.value;
  blocks.push(
    fields([
      ['Usable credit', `*${formatMoney(balance.usable)}*`],
      ['Main + Limit', `${formatMoney(balance.main)} + ${formatMoney(balance.limit)}`],
      ...(spend
        ? ([
            [
              `Spent ${todayLabel(data.timeZone)}, ${NET_OF_REFUNDS}`,
              spend.refundedToday > 0
                ? `${formatMoney(spend.today)} (${formatMoney(spend.refundedToday)} refunded)`
                : formatMoney(spend.today),
            ],
            ['Spent last 7 days', formatMoney(spend.day7)],
          ] as Array<[string, string]>)
        : []),
    ]),
    section(runwayLine(runway, balance.usable, data.now, data.timeZone)),
    ...(spend ? [context(SPEND_DEFINITION)] : []),
  );
  return blocks;
}

function todayBlocks(data: HomeData): KnownBlock[] {
  const blocks: KnownBlock[] = [header('Today’s sends')];
  if (!data.today.ok) return [...blocks, unavailable(data.today.reason)];
  const t = data.today.value;
  if (t.batches === 0) return [...blocks, section('Nothing sent yet today.')];
  return [
    ...blocks,
    fields([
      ['Batches', formatCount(t.batches)],
      ['Recipients', formatCount(t.recipients)],
      ['Segments', formatCount(t.segments)],
      ['Estimated cost', formatCost(t.cost)],
    ]),
  ];
}

function batchLine(row: OutboxRow, timeZone: string): string {
  const count = row.delivery.count || row.recipientCount;
  const { delivered, undelivered } = row.delivery;
  const pending = Math.max(0, count - delivered - undelivered);
  const id = row.messageId ? `\`${row.messageId}\`` : `#${row.id}`;
  return (
    `*${id}* · ${escapeMrkdwn(row.sender ?? '—')} · by <@${row.slackUser}> · ${formatTime(row.submittedAt ?? row.createdAt, timeZone)}\n` +
    `\`${progressBar(delivered, undelivered, count, 16)}\` ${formatCount(delivered)} delivered · ${formatCount(undelivered)} undelivered · ${formatCount(pending)} pending`
  );
}

function openBatchBlocks(data: HomeData): KnownBlock[] {
  const blocks: KnownBlock[] = [header('Open batches')];
  if (!data.openBatches.ok) return [...blocks, unavailable(data.openBatches.reason)];
  const rows = data.openBatches.value;
  if (rows.length === 0) return [...blocks, section('No batch is waiting for delivery reports.')];
  return [
    ...blocks,
    ...listBlocks(
      rows.map((r) => batchLine(r, data.timeZone)),
      { maxItems: HOME_LIMITS.openBatches, maxBlocks: 4, separator: '\n\n', moreLabel: 'open batches' },
    ),
  ];
}

function inboundBlocks(data: HomeData): KnownBlock[] {
  const blocks: KnownBlock[] = [header('Recent inbound SMS')];
  if (!data.inbound.ok) return [...blocks, unavailable(data.inbound.reason)];
  const messages = data.inbound.value;
  if (messages.length === 0) return [...blocks, section('No inbound SMS in the last 7 days.')];
  return [
    ...blocks,
    ...listBlocks(
      messages.map((m) => {
        const keyword = shownKeyword(m.keyword);
        return `*${formatForPeople(m.msisdn)}* · ${formatTime(m.received, data.timeZone)}${keyword ? ` · keyword *${inlineText(keyword, 30)}*` : ''}\n>${inlineText(m.text || '(empty)', 280)}`;
      }),
      { maxItems: HOME_LIMITS.inbound, maxBlocks: 3, separator: '\n\n', moreLabel: 'inbound SMS' },
    ),
  ];
}

function subscriptionBlocks(data: HomeData): KnownBlock[] {
  const blocks: KnownBlock[] = [header('Channel subscriptions')];
  if (!data.subscriptions.ok) return [...blocks, unavailable(data.subscriptions.reason)];
  const subs = data.subscriptions.value;
  if (subs.length === 0) {
    return [
      ...blocks,
      section('No channel has subscriptions. In a channel: `/sms subscribe digest all daily 09:00`.'),
    ];
  }
  const byChannel = new Map<string, Array<{ sub: Subscription; next: Date | undefined }>>();
  for (const s of subs) byChannel.set(s.sub.channel, [...(byChannel.get(s.sub.channel) ?? []), s]);
  const view = (next: Map<number, Date | undefined>) => ({
    timeZone: data.timeZone,
    simulated: data.simulated,
    nextRun: (sub: Subscription) => next.get(sub.id),
  });
  const next = new Map(subs.map((s) => [s.sub.id, s.next]));
  const entries = [...byChannel.entries()].map(
    ([channel, list]) =>
      `*<#${channel}>*\n${list.map((s) => subscriptionLine(s.sub, view(next))).join('\n')}`,
  );
  return [
    ...blocks,
    ...listBlocks(entries, {
      maxBlocks: HOME_LIMITS.subscriptionBlocks,
      separator: '\n\n',
      moreLabel: 'channels',
    }),
  ];
}

function roleLine(data: HomeData): string {
  const what: Record<Role, string> = {
    viewer: 'you can look things up',
    sender: 'you can look things up and send',
    admin: 'you can do everything, including roles and subscriptions',
  };
  return data.role
    ? `Your role: *${data.role}* — ${what[data.role]}.`
    : 'You have no smsops role yet. Ask an admin (`/sms who` lists them) for `/sms grant @you viewer`.';
}

/** The Home tab: everything a member with a role needs at a glance; no figures for anyone without one. */
export function homeView(data: HomeData): View {
  const top: KnownBlock[] = [
    ...simulatedNotice(data.simulated),
    section(`:wave: *smsops* · ${roleLine(data)}`, {
      accessory: {
        type: 'button',
        action_id: HOME_REFRESH_ACTION,
        text: { type: 'plain_text', text: 'Refresh', emoji: true },
      },
    }),
  ];
  if (!data.role)
    return { type: 'home', blocks: [...top, context(`Updated ${formatTime(data.now, data.timeZone)}`)] };
  const blocks: KnownBlock[] = [
    ...top,
    divider(),
    ...balanceBlocks(data),
    divider(),
    ...todayBlocks(data),
    divider(),
    ...openBatchBlocks(data),
    divider(),
    ...(data.scheduled
      ? [
          ...scheduledHomeBlocks(
            data.scheduled.ok ? data.scheduled.value : undefined,
            data.scheduled.ok ? undefined : data.scheduled.reason,
          ),
          divider(),
        ]
      : []),
    ...inboundBlocks(data),
    divider(),
    ...subscriptionBlocks(data),
    context(
      `Updated ${formatTime(data.now, data.timeZone)} (${escapeMrkdwn(data.timeZone)}) · refreshed each time you open this tab · every command: \`/sms help\``,
    ),
  ];
  return { type: 'home', blocks: blocks.slice(0, LIMITS.blocksPerView) };
}
