import type { Channel, StoredFile, User, WorkspaceIdentity } from '../state/model.js';

/** Users as users.info returns them. */
export function presentUser(user: User, identity: WorkspaceIdentity): Record<string, unknown> {
  return {
    id: user.id,
    team_id: identity.teamId,
    name: user.name,
    real_name: user.realName,
    deleted: false,
    is_admin: user.isAdmin,
    is_owner: user.isAdmin,
    is_bot: user.isBot,
    is_app_user: false,
    tz: user.tz,
    profile: {
      real_name: user.realName,
      display_name: user.name,
      ...(user.email ? { email: user.email } : {}),
      ...(user.isBot ? { bot_id: identity.botId } : {}),
    },
  };
}

/** Conversations as conversations.info/list return them, from the bot's point of view (`is_member`). */
export function presentChannel(channel: Channel, viewerId: string): Record<string, unknown> {
  if (channel.kind === 'im') {
    return {
      id: channel.id,
      created: channel.createdSec,
      is_im: true,
      is_org_shared: false,
      user: channel.imUser,
      is_user_deleted: false,
    };
  }
  return {
    id: channel.id,
    name: channel.name,
    name_normalized: channel.name,
    created: channel.createdSec,
    is_channel: channel.kind === 'public',
    is_group: channel.kind === 'private',
    is_im: false,
    is_mpim: channel.kind === 'mpim',
    is_private: channel.kind !== 'public',
    is_archived: channel.isArchived,
    is_general: channel.name === 'general',
    is_member: channel.members.has(viewerId),
    num_members: channel.members.size,
    topic: { value: channel.topic, creator: '', last_set: 0 },
    purpose: { value: channel.purpose, creator: '', last_set: 0 },
  };
}

export function fileUrl(baseUrl: string, file: StoredFile): string {
  return `${baseUrl}/files/${file.id}/${encodeURIComponent(file.name)}`;
}

/** Files as files.completeUploadExternal returns them. */
export function presentFile(file: StoredFile, baseUrl: string): Record<string, unknown> {
  return {
    id: file.id,
    created: file.createdSec,
    timestamp: file.createdSec,
    name: file.name,
    title: file.title,
    mimetype: file.mimetype,
    filetype: file.filetype,
    size: file.size,
    user: file.user,
    is_external: false,
    is_public: file.channels.some((c) => c.startsWith('C')),
    url_private: fileUrl(baseUrl, file),
    url_private_download: fileUrl(baseUrl, file),
    permalink: fileUrl(baseUrl, file),
    channels: file.channels.filter((c) => c.startsWith('C')),
    groups: file.channels.filter((c) => c.startsWith('G')),
    ims: file.channels.filter((c) => c.startsWith('D')),
    ...(file.altText ? { alt_txt: file.altText } : {}),
  };
}

/** Slack's permalink form: the ts without its dot, prefixed with p; replies point into their thread. */
export function permalink(baseUrl: string, channelId: string, ts: string, threadTs?: string): string {
  const link = `${baseUrl}/archives/${channelId}/p${ts.replace('.', '')}`;
  return threadTs && threadTs !== ts ? `${link}?thread_ts=${threadTs}&cid=${channelId}` : link;
}
