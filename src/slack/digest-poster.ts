import type { WebClient } from '@slack/web-api';
import type { DigestFraming, DigestPoster, DigestReport, LowBalanceAlert } from '../digests/types.js';
import type { Logger } from '../log.js';
import { monthlyChartPng } from './charts/monthly-chart.js';
import { slackRefusalOf } from './errors.js';
import { shareFile } from './file-upload.js';
import { withRetryAfter } from './retry-after.js';
import { lowBalanceAlertMessage } from './ui/digest-alert.js';
import type { DigestMessage } from './ui/digest-common.js';
import { digestMessage } from './ui/digest-message.js';

export interface SlackDigestPosterOptions {
  client: WebClient;
  logger: Logger;
  /** PNG charts beside the text ones; off, only the text charts are posted. Default on. */
  charts?: boolean;
}

/** Scope errors: a bot installed without files:write. */
const NO_FILES = new Set(['missing_scope', 'not_allowed_token_type', 'no_permission']);

/**
 * Digests and alerts in Slack: chat.postMessage with the Block Kit of src/slack/ui/digest-*.ts and, for
 * the statistics digest, the 12-month PNG in the digest's thread (shareFile: files.getUploadURLExternal, the
 * upload, files.completeUploadExternal). A bot without files:write gets the
 * text chart only; that is logged once, not on every digest.
 */
export class SlackDigestPoster implements DigestPoster {
  readonly #client: WebClient;
  readonly #logger: Logger;
  #charts: boolean;

  constructor(options: SlackDigestPosterOptions) {
    this.#client = options.client;
    this.#logger = options.logger;
    this.#charts = options.charts ?? true;
  }

  /** False once Slack said the bot may not upload files. */
  get chartsEnabled(): boolean {
    return this.#charts;
  }

  async postDigest(channel: string, report: DigestReport, framing: DigestFraming): Promise<void> {
    const ts = await this.#post(channel, digestMessage(report, framing));
    if (report.kind === 'stats' && report.months.length > 0 && this.#charts) {
      await this.uploadPng(channel, {
        png: () => monthlyChartPng(report.months),
        filename: 'sms-sent-12-months.png',
        title: 'SMS sent per month, last 12 months',
        altText:
          'Bar chart of SMS sent per month over the last 12 months: delivered, undelivered and pending.',
        threadTs: ts,
      });
    }
  }

  async postAlert(channel: string, alert: LowBalanceAlert, framing: DigestFraming): Promise<void> {
    await this.#post(channel, lowBalanceAlertMessage(alert, framing));
  }

  /** Never throws: a chart is a bonus, the digest itself is already posted. */
  async uploadPng(
    channel: string,
    file: {
      png: () => Promise<Uint8Array>;
      filename: string;
      title: string;
      altText: string;
      threadTs?: string;
    },
  ): Promise<'uploaded' | 'skipped' | 'failed'> {
    if (!this.#charts) return 'skipped';
    try {
      await shareFile(this.#client, {
        bytes: await file.png(),
        filename: file.filename,
        title: file.title,
        altText: file.altText,
        channelId: channel,
        ...(file.threadTs ? { threadTs: file.threadTs } : {}),
      });
      return 'uploaded';
    } catch (error) {
      const code = slackRefusalOf(error);
      if (code && NO_FILES.has(code)) {
        this.#charts = false;
        this.#logger.warn(
          { code },
          'PNG charts are off: the bot token lacks the files:write scope (digests keep their text charts)',
        );
        return 'skipped';
      }
      this.#logger.warn(
        { channel, err: code ?? (error instanceof Error ? error.message : String(error)) },
        'chart upload failed',
      );
      return 'failed';
    }
  }

  /** A public channel the bot left is joined again once (channels:join) rather than losing the digest. */
  async #post(channel: string, message: DigestMessage): Promise<string> {
    const send = () =>
      withRetryAfter(() =>
        this.#client.chat.postMessage({
          channel,
          text: message.text,
          blocks: message.blocks,
          unfurl_links: false,
        }),
      );
    try {
      return (await send()).ts ?? '';
    } catch (error) {
      if (slackRefusalOf(error) !== 'not_in_channel') throw error;
      await this.#client.conversations.join({ channel });
      return (await send()).ts ?? '';
    }
  }
}
