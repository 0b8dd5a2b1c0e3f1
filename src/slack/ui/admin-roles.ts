import type { Permission, Role } from '../../store/index.js';
import {
  type AdminMessage,
  aRole,
  article,
  listMessage,
  mention,
  notice,
  ROLE_ABILITIES,
  ROLES,
} from './admin-common.js';
import { formatTime, plural } from './format.js';

export function grantedMessage(userId: string, role: Role, previous: Role | undefined): AdminMessage {
  const was = `was: ${previous ?? 'no role'}`;
  return notice(
    `:white_check_mark: ${mention(userId)} is now ${article(role)} *${role}* (${was}): ${ROLE_ABILITIES[role]}.`,
    `${mention(userId)} is now ${aRole(role)} (${was})`,
  );
}

export function alreadyHasRoleMessage(grant: Permission, timeZone: string): AdminMessage {
  const since = `granted by ${mention(grant.grantedBy)} on ${formatTime(grant.grantedAt, timeZone)}`;
  return notice(
    `${mention(grant.slackUser)} is already ${article(grant.role)} *${grant.role}* (${since}); nothing changed.`,
    `${mention(grant.slackUser)} is already ${aRole(grant.role)}; nothing changed`,
  );
}

export function configuredAdminMessage(userId: string, verb: 'grant' | 'revoke'): AdminMessage {
  const change = verb === 'grant' ? 'granting a role changes nothing' : 'their role cannot be revoked here';
  return notice(
    `${mention(userId)} is an *admin* by configuration (\`ADMIN_USER_IDS\`), so ${change}. To change that, edit \`ADMIN_USER_IDS\` and restart smsops.`,
    `${mention(userId)} is an admin by configuration (ADMIN_USER_IDS); nothing changed`,
  );
}

export function revokedMessage(userId: string, previous: Role): AdminMessage {
  return notice(
    `:white_check_mark: ${mention(userId)} no longer has an smsops role (was: *${previous}*).`,
    `${mention(userId)} no longer has an smsops role (was: ${previous})`,
  );
}

export function noRoleMessage(userId: string): AdminMessage {
  return notice(
    `${mention(userId)} has no smsops role; nothing to revoke.`,
    `${mention(userId)} has no smsops role; nothing to revoke`,
  );
}

/** Everyone with a role, grouped by role; configured admins first, since no grant can take them away. */
export function whoMessage(options: {
  configuredAdmins: readonly string[];
  grants: readonly Permission[];
  timeZone: string;
}): AdminMessage {
  const configured = new Set(options.configuredAdmins);
  const lines: string[] = [];
  let people = configured.size;
  for (const role of ROLES) {
    const members: string[] = [];
    if (role === 'admin') {
      for (const id of configured) members.push(`• ${mention(id)} (from ADMIN_USER_IDS)`);
    }
    for (const grant of options.grants) {
      // A configured admin is an admin whatever the store says: listing a stored grant too would mislead.
      if (grant.role !== role || configured.has(grant.slackUser)) continue;
      people++;
      members.push(
        `• ${mention(grant.slackUser)} — granted by ${mention(grant.grantedBy)}, ${formatTime(grant.grantedAt, options.timeZone)}`,
      );
    }
    lines.push(`*${role[0]!.toUpperCase()}${role.slice(1)}s* (${members.length}): _${ROLE_ABILITIES[role]}_`);
    lines.push(...(members.length > 0 ? members : ['_nobody_']));
  }
  return listMessage({
    title: 'Who has which smsops role',
    lines,
    empty: '_Nobody has a role._',
    footer: ['Change a role: `/sms grant @user sender|admin|viewer` · remove one: `/sms revoke @user`'],
    text: `${plural(people, 'person', 'people')} with an smsops role`,
  });
}
