import type { SendPolicy } from '../sending/checks.js';
import type { Role } from '../store/index.js';
import type { SlackDeps } from './deps.js';

export type Need = 'viewer' | 'sender' | 'admin';

export const RANK: Record<Role, number> = { viewer: 1, sender: 2, admin: 3 };

/** ADMIN_USER_IDS are admins whatever the store says; everyone else has the role granted to them, if any. */
export async function roleOf(deps: SlackDeps, userId: string): Promise<Role | undefined> {
  if (deps.settings.adminUserIds.includes(userId)) return 'admin';
  return deps.store.permissions.getRole(userId);
}

export function satisfies(role: Role | undefined, need: Need): boolean {
  return role !== undefined && RANK[role] >= RANK[need];
}

export async function allowed(deps: SlackDeps, userId: string, need: Need): Promise<boolean> {
  return satisfies(await roleOf(deps, userId), need);
}

/**
 * Cancelling costs nothing but cannot be undone for what it stops: a batch is its sender's to cancel, or an
 * admin's; one smsops has no record of (sent elsewhere, or forgotten) only an admin's. A sender who has
 * lost the sender role may no longer cancel.
 */
export function mayCancel(role: Role | undefined, userId: string, sentBy: string | undefined): boolean {
  return satisfies(role, 'sender') && (role === 'admin' || sentBy === userId);
}

export function denialText(need: Need, role: Role | undefined): string {
  const have = role ? `your role is *${role}*` : 'you have no smsops role yet';
  const what = { viewer: 'look this up', sender: 'send or cancel SMS', admin: 'do this' }[need];
  return `:no_entry: You need the *${need}* role to ${what}; ${have}. Ask an smsops admin (\`/sms who\` lists them) to run \`/sms grant @you ${need}\`.`;
}

/** What the send path checks again at the moment of sending: the role as it is then, the limits as they are then. */
export function sendPolicyOf(deps: SlackDeps): SendPolicy {
  return {
    maySend: (userId) => allowed(deps, userId, 'sender'),
    limits: () => deps.settings.sending,
  };
}
