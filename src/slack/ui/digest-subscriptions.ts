import type { KnownBlock } from '@slack/types';
import { describeCron } from '../../digests/schedule-forms.js';
import type { Subscription } from '../../store/index.js';
import { context, header, section, simulatedNotice } from './blocks.js';
import type { DigestMessage } from './digest-common.js';
import { escapeMrkdwn, formatMoney, formatTime, plural } from './format.js';
import { inlineText, LIST_BLOCK_BUDGET, listBlocks } from './lookup-common.js';

export interface SubscriptionsView {
  timeZone: string;
  simulated: boolean;
  /** The next slot of a digest subscription; undefined if its schedule does not compile. */
  nextRun: (sub: Subscription) => Date | undefined;
}

const DIGEST_TITLES = { balance: 'Balance', stats: 'Monthly statistics', surveys: 'Surveys' } as const;

/** One line per subscription, for `/sms subscriptions` and the App Home. */
export function subscriptionLine(sub: Subscription, view: SubscriptionsView): string {
  switch (sub.kind) {
    case 'digest': {
      const next = view.nextRun(sub);
      // Each schedule is read in the zone of whoever set it: the zone is always said, and the next run is in it.
      const zone = ` (${escapeMrkdwn(sub.timezone)})`;
      const when = next ? ` · next *${formatTime(next, sub.timezone)}*` : ' · :warning: schedule unreadable';
      return `:newspaper: *${DIGEST_TITLES[sub.digest]} digest* · ${escapeMrkdwn(describeCron(sub.cron))}${zone}${when}`;
    }
    case 'low_balance': {
      const state =
        sub.alertState === 'below'
          ? ' · :rotating_light: below now (alerted)'
          : sub.alertState === 'ok'
            ? ' · armed'
            : '';
      return `:bell: *Balance alert* below ${formatMoney(sub.threshold)}${state}`;
    }
    case 'report':
      return `:bar_chart: *Monthly SMS report* · last month's .xlsx on the 1st (${escapeMrkdwn(sub.timezone)}), ${sub.detail === 'full' ? 'with texts and numbers' : 'counts only'}`;
    case 'inbound': {
      const filters = [
        sub.keyword ? `keyword *${inlineText(sub.keyword, 30)}*` : '',
        sub.recipient ? `to ${inlineText(sub.recipient, 30)}` : '',
      ].filter((f) => f !== '');
      return `:incoming_envelope: *Inbound SMS*${filters.length > 0 ? ` · ${filters.join(' · ')}` : ' · all'}`;
    }
  }
}

export function subscriptionsMessage(subs: readonly Subscription[], view: SubscriptionsView): DigestMessage {
  const head: KnownBlock[] = [...simulatedNotice(view.simulated), header('This channel’s subscriptions')];
  if (subs.length === 0) {
    return {
      text: 'This channel has no subscriptions.',
      blocks: [
        ...head,
        section(
          'This channel has no subscriptions. E.g. `/sms subscribe digest all daily 09:00`, `/sms alert balance below 100`.',
        ),
      ],
    };
  }
  const blocks: KnownBlock[] = [
    ...head,
    ...listBlocks(
      subs.map((s) => subscriptionLine(s, view)),
      { maxBlocks: LIST_BLOCK_BUDGET, moreLabel: 'subscriptions' },
    ),
    context(
      `Digest times are in the time zone beside each · \`/sms unsubscribe digest [kind]\`, \`/sms alert off\` remove them · \`/sms digest [kind]\` previews a digest`,
    ),
  ];
  return { text: `This channel has ${plural(subs.length, 'subscription')}.`, blocks };
}
