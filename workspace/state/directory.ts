import type { Channel, ChannelKind, User } from './model.js';

export interface NewChannel {
  id: string;
  name: string;
  /** `im` here is a DM between people, which the bot cannot see; the bot's own DMs come from addIm. */
  kind: ChannelKind;
  members: string[];
  createdSec: number;
  topic?: string;
  purpose?: string;
}

/** Users and conversations, and who is a member of what: the part of Slack that decides who may post where. */
export class Directory {
  readonly #users = new Map<string, User>();
  readonly #channels = new Map<string, Channel>();

  addUser(user: User): User {
    this.#users.set(user.id, { ...user });
    return this.user(user.id)!;
  }

  user(id: string): User | undefined {
    return this.#users.get(id);
  }

  users(): User[] {
    return [...this.#users.values()];
  }

  addChannel(input: NewChannel): Channel {
    const channel: Channel = {
      id: input.id,
      name: input.name,
      kind: input.kind,
      members: new Set(input.members),
      createdSec: input.createdSec,
      isArchived: false,
      topic: input.topic ?? '',
      purpose: input.purpose ?? '',
    };
    this.#channels.set(channel.id, channel);
    return channel;
  }

  /** The bot↔user IM; Slack ids them D…, derived here from the user id so tests can name them up front. */
  addIm(userId: string, botUserId: string, createdSec: number): Channel {
    const channel: Channel = {
      id: imIdFor(userId),
      name: userId,
      kind: 'im',
      members: new Set([userId, botUserId]),
      imUser: userId,
      createdSec,
      isArchived: false,
      topic: '',
      purpose: '',
    };
    this.#channels.set(channel.id, channel);
    return channel;
  }

  channel(id: string): Channel | undefined {
    return this.#channels.get(id);
  }

  channels(): Channel[] {
    return [...this.#channels.values()];
  }

  /**
   * What Slack accepts as a `channel` argument: a conversation id, a user id (meaning the IM with that user), or a
   * channel name with or without `#`.
   */
  resolve(ref: string): Channel | undefined {
    const byId = this.#channels.get(ref);
    if (byId) return byId;
    if (this.#users.has(ref)) return this.#channels.get(imIdFor(ref));
    const name = ref.startsWith('#') ? ref.slice(1) : ref;
    return this.channels().find((c) => c.kind !== 'im' && c.name === name);
  }

  /** Takes up saved users and conversations (the seeded ones with what changed since: joins, opened DMs). */
  restore(users: User[], channels: Channel[]): void {
    this.#users.clear();
    for (const user of users) this.#users.set(user.id, { ...user });
    this.#channels.clear();
    for (const channel of channels)
      this.#channels.set(channel.id, { ...channel, members: new Set(channel.members) });
  }

  isMember(channelId: string, userId: string): boolean {
    return this.#channels.get(channelId)?.members.has(userId) ?? false;
  }

  join(channelId: string, userId: string): void {
    this.#channels.get(channelId)?.members.add(userId);
  }

  leave(channelId: string, userId: string): void {
    this.#channels.get(channelId)?.members.delete(userId);
  }
}

export function imIdFor(userId: string): string {
  return `D${userId.slice(1)}`;
}
