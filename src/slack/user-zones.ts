import type { WebClient } from '@slack/web-api';
import type { Logger } from '../log.js';
import { isTimeZone } from '../time-zones.js';
import type { ComposeZone } from './ui/scheduled.js';

/** A person rarely moves: their zone is asked again after this long (users.info is Tier 4, 100 a minute). */
const ZONE_TTL_MS = 60 * 60_000;
/** After Slack would not say, it is asked again sooner. */
const FAILED_TTL_MS = 60_000;
const MAX_CACHED = 5_000;

function isZone(tz: unknown): tz is string {
  return typeof tz === 'string' && isTimeZone(tz);
}

/**
 * Each user's Slack time zone (users.info → user.tz, scope users:read), cached per user for an hour.
 * The datetimepicker is shown and read by Slack in that zone; smsops shows every scheduled time with it.
 * When Slack will not say (no scope, an error, no tz), REPORT_TIMEZONE stands in and the modal says so.
 */
export class UserZones {
  readonly #cache = new Map<string, { zone: ComposeZone; until: number }>();
  readonly #fallback: string;
  readonly #logger: Logger;
  readonly #now: () => Date;

  constructor(options: { fallback: string; logger: Logger; now: () => Date }) {
    this.#fallback = options.fallback;
    this.#logger = options.logger;
    this.#now = options.now;
  }

  async zoneOf(client: WebClient, userId: string): Promise<ComposeZone> {
    const now = this.#now().getTime();
    const cached = this.#cache.get(userId);
    if (cached && cached.until > now) return cached.zone;
    let zone: ComposeZone;
    let ttl = ZONE_TTL_MS;
    try {
      const info = await client.users.info({ user: userId });
      const tz = (info.user as { tz?: unknown } | undefined)?.tz;
      zone = isZone(tz) ? { timeZone: tz, fromSlack: true } : { timeZone: this.#fallback, fromSlack: false };
    } catch (error) {
      this.#logger.warn(
        { user: userId, err: (error as { data?: { error?: string } }).data?.error ?? String(error) },
        'user time zone not read from Slack; scheduled times use REPORT_TIMEZONE for this user',
      );
      zone = { timeZone: this.#fallback, fromSlack: false };
      ttl = FAILED_TTL_MS;
    }
    if (this.#cache.size >= MAX_CACHED) this.#cache.delete(this.#cache.keys().next().value as string);
    this.#cache.set(userId, { zone, until: now + ttl });
    return zone;
  }
}

/** The zone of a user, from deps' cache when there is one (there always is in a built bot). */
export function userZone(
  deps: { userZones?: UserZones; settings: { reportTimeZone: string } },
  client: WebClient,
  userId: string,
): Promise<ComposeZone> {
  if (deps.userZones) return deps.userZones.zoneOf(client, userId);
  return Promise.resolve({ timeZone: deps.settings.reportTimeZone, fromSlack: false });
}
