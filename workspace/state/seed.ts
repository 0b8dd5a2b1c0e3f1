import { type Directory, imIdFor } from './directory.js';
import type { User, WorkspaceIdentity } from './model.js';

export const DEFAULT_IDENTITY: WorkspaceIdentity = {
  teamId: 'T0LOCAL',
  teamDomain: 'smsops-local',
  teamName: 'SMS Ops (local)',
  appId: 'A0SMSOPS',
  botId: 'B0SMSOPS',
  botUserId: 'U0SMSBOT',
  botName: 'smsops',
};

/** Ids tests and the local UI can name without looking anything up. */
export const SEEDED = {
  users: { admin: 'U0ADMIN', alice: 'U0ALICE', bob: 'U0BOB' },
  channels: {
    general: 'C0GENERAL',
    smsOps: 'C0SMSOPS',
    alerts: 'C0ALERTS',
    /** Public, and the bot is not in it: posting gives not_in_channel until conversations.join. */
    random: 'C0RANDOM',
    /** Private, and the bot is not in it: to the bot it does not exist (channel_not_found), as in Slack. */
    finance: 'G0FINANCE',
  },
  ims: { admin: imIdFor('U0ADMIN'), alice: imIdFor('U0ALICE'), bob: imIdFor('U0BOB') },
} as const;

const HUMANS: User[] = [
  {
    id: SEEDED.users.admin,
    name: 'admin',
    realName: 'Ada Admin',
    isAdmin: true,
    isBot: false,
    tz: 'Europe/London',
  },
  {
    id: SEEDED.users.alice,
    name: 'alice',
    realName: 'Alice Archer',
    isAdmin: false,
    isBot: false,
    tz: 'Europe/Paris',
  },
  {
    id: SEEDED.users.bob,
    name: 'bob',
    realName: 'Bob Baker',
    isAdmin: false,
    isBot: false,
    tz: 'America/New_York',
  },
];

export function seedDirectory(directory: Directory, identity: WorkspaceIdentity, nowSec: number): void {
  for (const user of HUMANS)
    directory.addUser({ ...user, email: `${user.name}@${identity.teamDomain}.test` });
  directory.addUser({
    id: identity.botUserId,
    name: identity.botName,
    realName: identity.botName,
    isAdmin: false,
    isBot: true,
    tz: 'UTC',
  });
  const humans = HUMANS.map((u) => u.id);
  const withBot = [...humans, identity.botUserId];
  const { channels, users } = SEEDED;
  directory.addChannel({
    id: channels.general,
    name: 'general',
    kind: 'public',
    members: withBot,
    createdSec: nowSec,
  });
  directory.addChannel({
    id: channels.smsOps,
    name: 'sms-ops',
    kind: 'public',
    members: withBot,
    createdSec: nowSec,
    purpose: 'Send and follow SMS from here',
  });
  directory.addChannel({
    id: channels.alerts,
    name: 'alerts',
    kind: 'public',
    members: withBot,
    createdSec: nowSec,
  });
  directory.addChannel({
    id: channels.random,
    name: 'random',
    kind: 'public',
    members: humans,
    createdSec: nowSec,
  });
  directory.addChannel({
    id: channels.finance,
    name: 'finance',
    kind: 'private',
    members: [users.admin, users.alice],
    createdSec: nowSec,
  });
  for (const id of humans) directory.addIm(id, identity.botUserId, nowSec);
}
