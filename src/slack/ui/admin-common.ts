import type { KnownBlock } from '@slack/types';
import type { Role } from '../../store/index.js';
import { context, header, LIMITS, listBlocks, section } from './blocks.js';
import { escapeMrkdwn, truncate } from './format.js';

/** What every admin subcommand answers with: `text` is the notification and screen-reader fallback. */
export interface AdminMessage {
  text: string;
  blocks: KnownBlock[];
}

// Ids come from the store, which older versions or other tools may have filled: only a real-looking
// user id is rendered as a mention, anything else is shown as inert text.
const USER_ID = /^[UW][A-Z0-9]{2,}$/;

export function isUserId(text: string): boolean {
  return USER_ID.test(text);
}

export function mention(userId: string | null | undefined): string {
  if (!userId) return 'unknown';
  return isUserId(userId) ? `<@${userId}>` : escapeMrkdwn(userId);
}

export const ROLES: readonly Role[] = ['admin', 'sender', 'viewer'];

export const ROLE_ABILITIES: Record<Role, string> = {
  viewer: 'looks up balance, reports, inbox and statistics',
  sender: 'also sends and cancels SMS, and manages opt-outs, lists and templates',
  admin: 'also grants roles and reads the audit log',
};

export function article(role: Role): 'a' | 'an' {
  return role === 'admin' ? 'an' : 'a';
}

/** "a sender", "an admin", "no role". */
export function aRole(role: Role | undefined | null): string {
  return role ? `${article(role)} ${role}` : 'no role';
}

/** Text typed by someone, shown inert and short, e.g. inside an error message. */
export function quoted(text: string, max = 80): string {
  return `“${escapeMrkdwn(truncate(text.replace(/\s+/g, ' ').trim(), max))}”`;
}

/** A one-paragraph answer. */
export function notice(mrkdwn: string, text: string): AdminMessage {
  return { text, blocks: [section(mrkdwn)] };
}

export interface Page<T> {
  items: T[];
  /** 1-based. */
  page: number;
  pages: number;
  total: number;
  /** 1-based position of the first item of this page in the whole list. */
  first: number;
}

/** The page is clamped: callers that want to refuse a page beyond the end check `pageCount` first. */
export function pageOf<T>(all: readonly T[], page: number, size: number): Page<T> {
  const pages = pageCount(all.length, size);
  const current = Math.min(Math.max(1, Math.floor(page)), pages);
  const start = (current - 1) * size;
  return { items: all.slice(start, start + size), page: current, pages, total: all.length, first: start + 1 };
}

export function pageCount(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}

/** A header, the lines, and a footer, within a message's 50 blocks. */
export function listMessage(options: {
  title: string;
  intro?: string;
  lines: string[];
  empty: string;
  footer?: string[];
  text: string;
}): AdminMessage {
  const blocks: KnownBlock[] = [header(options.title)];
  if (options.intro) blocks.push(section(options.intro));
  const footer = (options.footer ?? []).filter((f) => f !== '');
  const free = LIMITS.blocksPerMessage - blocks.length - (footer.length > 0 ? 1 : 0);
  if (options.lines.length === 0) blocks.push(section(options.empty));
  else blocks.push(...listBlocks(options.lines, { maxBlocks: free }));
  if (footer.length > 0) blocks.push(context(...footer));
  return { text: options.text, blocks };
}

/** "Page 2 of 5 · next: `/sms optout list 3`". */
export function pageFooter(page: Page<unknown>, command: string): string {
  if (page.pages <= 1) return '';
  const next = page.page < page.pages ? ` · next: \`${command} ${page.page + 1}\`` : '';
  return `Page ${page.page} of ${page.pages}${next}`;
}
