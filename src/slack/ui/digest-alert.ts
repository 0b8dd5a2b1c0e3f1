import type { KnownBlock } from '@slack/types';
import type { DigestFraming, LowBalanceAlert } from '../../digests/types.js';
import { context, section, simulatedNotice } from './blocks.js';
import { runwayLine } from './digest-balance.js';
import type { DigestMessage } from './digest-common.js';
import { formatMoney, formatTime } from './format.js';

export function lowBalanceAlertMessage(alert: LowBalanceAlert, framing: DigestFraming): DigestMessage {
  const { balance, threshold } = alert;
  const parts = `main ${formatMoney(balance.main)} + limit ${formatMoney(balance.limit)}`;
  const blocks: KnownBlock[] = [...simulatedNotice(framing.simulated)];
  if (alert.change === 'below') {
    blocks.push(
      section(
        `:rotating_light: *Usable credit is below ${formatMoney(threshold)}*: *${formatMoney(balance.usable)}* left (${parts}).`,
      ),
      section(runwayLine(alert.runway, balance.usable, alert.at, framing.timeZone)),
      context(
        `Checked ${formatTime(alert.at, framing.timeZone)} (${framing.timeZone}) · posted once; the next alert comes only after credit has been back above ${formatMoney(threshold)} · \`/sms alert off\` stops it`,
      ),
    );
    return {
      text: `Usable credit is below ${formatMoney(threshold)}: ${formatMoney(balance.usable)} left`,
      blocks,
    };
  }
  blocks.push(
    section(
      `:white_check_mark: *Usable credit is back above ${formatMoney(threshold)}*: *${formatMoney(balance.usable)}* (${parts}).`,
    ),
    context(
      `Checked ${formatTime(alert.at, framing.timeZone)} (${framing.timeZone}) · the alert is armed again`,
    ),
  );
  return {
    text: `Usable credit is back above ${formatMoney(threshold)}: ${formatMoney(balance.usable)}`,
    blocks,
  };
}
