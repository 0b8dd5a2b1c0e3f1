import { TZDate } from '@date-fns/tz';
import type { App } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { startOfDay } from 'date-fns';
import { DEFAULT_MIN_INTERVAL_SECONDS, effectiveSchedule } from '../../digests/schedule-interval.js';
import { runwayOf, spendOf, spendWindow } from '../../digests/spend.js';
import { withoutForgottenSenders } from '../../sms/forgotten-senders.js';
import type { Subscription } from '../../store/index.js';
import { onBlockAction } from '../action-routes.js';
import type { SlackDeps } from '../deps.js';
import { userMessageFor } from '../errors.js';
import { inboxWindow, newestInbound } from '../lookup-windows.js';
import { roleOf } from '../permissions.js';
import { HOME_REFRESH_ACTION, type HomeData, homeView, type Part } from '../ui/home-view.js';

/** Recent sends looked through for open batches: older ones are final or past their validity. */
const OPEN_BATCH_SCAN = 200;
/** Scheduled sends read for the Home: ten shown, the rest counted. */
const HOME_SCHEDULED = 100;

async function part<T>(work: () => Promise<T>): Promise<Part<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    // The user-facing sentence, without the emoji it starts with.
    return { ok: false, reason: userMessageFor(error).replace(/^:[a-z_]+: /, '') };
  }
}

function nextRun(sub: Subscription, now: Date, minimumSeconds: number): Date | undefined {
  if (sub.kind !== 'digest') return undefined;
  try {
    return effectiveSchedule(sub.cron, sub.timezone, minimumSeconds, now).schedule.nextAfter(now);
  } catch {
    return undefined;
  }
}

/** Reads every part of the dashboard at once; each part fails on its own. */
export async function homeData(deps: SlackDeps, userId: string): Promise<HomeData> {
  const now = deps.now();
  const timeZone = deps.settings.reportTimeZone;
  const role = await roleOf(deps, userId);
  const base = { userId, role, now, timeZone, simulated: deps.settings.simulated };
  const skipped: Part<never> = { ok: false, reason: 'no role' };
  if (!role) {
    return {
      ...base,
      balance: skipped,
      today: skipped,
      openBatches: skipped,
      inbound: skipped,
      subscriptions: skipped,
    };
  }
  const { gateway, store } = deps;
  const scheduled = part(() => store.outbox.waitingScheduled(HOME_SCHEDULED));
  const [balance, today, openBatches, inbound, subscriptions] = await Promise.all([
    part(async () => {
      const log = gateway.getBalanceLog(spendWindow(now)).catch(() => undefined);
      const b = await gateway.getBalance();
      const entries = await log;
      const spend = entries ? spendOf(entries, now, timeZone) : undefined;
      return { balance: b, spend, runway: spend ? runwayOf(b.usable, spend) : undefined };
    }),
    part(async () => {
      const midnight = startOfDay(new TZDate(now.getTime(), timeZone));
      const rows = (await store.outbox.sentSince(new Date(midnight.getTime()))).filter(
        // A scheduled send cancelled before it went has no MessageId and cost nothing.
        (r) =>
          r.state === 'submitted' ||
          r.state === 'unknown' ||
          (r.state === 'cancelled' && r.messageId !== null),
      );
      return {
        batches: rows.length,
        recipients: rows.reduce((n, r) => n + r.recipientCount, 0),
        // A row's segments are its whole send's (every recipient's), as the gateway bills them.
        segments: rows.reduce((n, r) => n + r.segments, 0),
        cost: rows.reduce((n, r) => n + (r.estimatedCost ?? 0), 0),
      };
    }),
    part(async () =>
      (await store.outbox.recent(OPEN_BATCH_SCAN)).filter(
        (r) => r.state === 'submitted' && !r.delivery.final,
      ),
    ),
    part(async () => {
      // The gateway keeps what `/sms forget` erased from smsops: a forgotten sender's SMS are not shown.
      const received = await withoutForgottenSenders(
        await gateway.receive({ range: inboxWindow(now) }),
        store.forgottenNumbers,
        deps.settings.defaultCountry,
      );
      return newestInbound(received, received.length);
    }),
    part(async () => {
      const minimum = deps.settings.digestMinIntervalSeconds ?? DEFAULT_MIN_INTERVAL_SECONDS;
      return (await store.subscriptions.list()).map((sub) => ({ sub, next: nextRun(sub, now, minimum) }));
    }),
  ]);
  return { ...base, balance, today, openBatches, inbound, subscriptions, scheduled: await scheduled };
}

async function publish(deps: SlackDeps, client: WebClient, userId: string): Promise<void> {
  const view = homeView(await homeData(deps, userId));
  await client.views.publish({ user_id: userId, view });
}

/** The App Home dashboard: built afresh each time the tab is opened, and on its Refresh button. */
export function registerHomeEvents(app: App, deps: SlackDeps): void {
  app.event('app_home_opened', async ({ event, client }) => {
    if (event.tab !== 'home') return;
    await publish(deps, client, event.user).catch((error: unknown) => {
      deps.logger.warn(
        { user: event.user, err: error instanceof Error ? error.message : String(error) },
        'App Home not published',
      );
    });
  });
  onBlockAction(app, HOME_REFRESH_ACTION, async ({ ack, body, client }) => {
    await ack();
    await publish(deps, client, body.user.id).catch((error: unknown) => {
      deps.logger.warn(
        { user: body.user.id, err: error instanceof Error ? error.message : String(error) },
        'App Home not refreshed',
      );
    });
  });
}
