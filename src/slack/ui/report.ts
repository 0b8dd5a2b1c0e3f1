import type { KnownBlock } from '@slack/types';
import type { MessageReport } from '../../gateway/index.js';
import { context, fields, header, section, simulatedNotice } from './blocks.js';
import { escapeMrkdwn, formatCost, formatCount, formatTime, progressBar, truncate } from './format.js';

/** A batch the gateway reports but smsops did not send (or no longer remembers). */
export function reportCard(
  report: MessageReport,
  settings: { reportTimeZone: string; simulated: boolean },
): { text: string; blocks: KnownBlock[] } {
  const pending = Math.max(0, report.count - report.deliveredCount - report.undeliveredCount);
  const blocks: KnownBlock[] = [
    ...simulatedNotice(settings.simulated),
    header(`SMS batch ${report.id}`),
    fields([
      ['State', escapeMrkdwn(report.state || '—')],
      ['Sender', escapeMrkdwn(report.sender || '—')],
      ['Recipients', formatCount(report.count)],
      ['Cost', formatCost(report.cost)],
      ['Received', formatTime(report.received, settings.reportTimeZone)],
      ['Coding', escapeMrkdwn(report.coding || '—')],
    ]),
    section(
      `\`${progressBar(report.deliveredCount, report.undeliveredCount, report.count)}\`\n:large_green_circle: ${formatCount(report.deliveredCount)} delivered   :red_circle: ${formatCount(report.undeliveredCount)} undelivered   :white_circle: ${formatCount(pending)} pending`,
    ),
  ];
  if (report.message)
    blocks.push(section(`>${escapeMrkdwn(truncate(report.message, 600)).replace(/\n/g, '\n>')}`));
  blocks.push(context('Not sent from smsops: no live card.'));
  return {
    text: `SMS batch ${report.id}: ${report.state}, ${report.deliveredCount}/${report.count} delivered`,
    blocks,
  };
}
