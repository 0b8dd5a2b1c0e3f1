import { assignBlockIds } from '../block-kit/block-ids.js';
import { compareTs, type TsClock } from './clock.js';
import type { Journal } from './journal.js';
import type { EphemeralMessage, SlackMessage, WorkspaceEventMap } from './model.js';

export type NewMessage = Omit<SlackMessage, 'type' | 'ts' | 'reply_count' | 'latest_reply'>;
export type NewEphemeral = Omit<EphemeralMessage, 'type' | 'ts' | 'is_ephemeral'>;
export type MessagePatch = Pick<SlackMessage, 'text' | 'blocks' | 'attachments' | 'metadata' | 'files'>;

/** Channel messages with their threads, and ephemerals kept per channel and recipient. */
export class MessageStore {
  readonly #byChannel = new Map<string, SlackMessage[]>();
  readonly #ephemerals: EphemeralMessage[] = [];
  readonly #journal: Journal<WorkspaceEventMap>;
  readonly #ts: TsClock;

  constructor(journal: Journal<WorkspaceEventMap>, ts: TsClock) {
    this.#journal = journal;
    this.#ts = ts;
  }

  post(input: NewMessage): SlackMessage {
    const message: SlackMessage = { type: 'message', ...withBlockIds(input), ts: this.#ts.next() };
    const list = this.#byChannel.get(message.channel) ?? [];
    list.push(message);
    this.#byChannel.set(message.channel, list);
    if (message.thread_ts) this.#noteReply(message);
    this.#journal.record('message', { action: 'posted', message: structuredClone(message) });
    return message;
  }

  find(channel: string, ts: string): SlackMessage | undefined {
    return this.#byChannel.get(channel)?.find((m) => m.ts === ts);
  }

  update(
    channel: string,
    ts: string,
    patch: Partial<MessagePatch>,
    editor: string,
  ): SlackMessage | undefined {
    const message = this.find(channel, ts);
    if (!message) return undefined;
    for (const [key, value] of Object.entries(withBlockIds(patch))) {
      if (value === undefined) continue;
      (message as unknown as Record<string, unknown>)[key] = value;
    }
    message.edited = { user: editor, ts: this.#ts.next() };
    this.#journal.record('message', { action: 'updated', message: structuredClone(message) });
    return message;
  }

  /** A response_url's replace_original: the new content replaces the old entirely, blocks and all. */
  replace(
    channel: string,
    ts: string,
    content: Partial<MessagePatch>,
    editor: string,
  ): SlackMessage | undefined {
    const message = this.find(channel, ts);
    if (!message) return undefined;
    delete message.blocks;
    delete message.attachments;
    return this.update(channel, ts, { text: '', ...content }, editor);
  }

  delete(channel: string, ts: string): SlackMessage | undefined {
    const list = this.#byChannel.get(channel);
    const index = list?.findIndex((m) => m.ts === ts) ?? -1;
    if (!list || index < 0) return undefined;
    const [removed] = list.splice(index, 1);
    this.#journal.record('message', { action: 'deleted', message: structuredClone(removed!) });
    return removed;
  }

  /** Top-level messages, oldest first, as a channel shows them; replies whose parent is unknown stay hidden, as in Slack. */
  history(channel: string): SlackMessage[] {
    return (this.#byChannel.get(channel) ?? []).filter((m) => !m.thread_ts || m.thread_ts === m.ts);
  }

  /** The parent followed by its replies, oldest first. */
  thread(channel: string, threadTs: string): SlackMessage[] {
    return (this.#byChannel.get(channel) ?? []).filter((m) => m.ts === threadTs || m.thread_ts === threadTs);
  }

  /** Every channel message, all channels, in posting order. */
  all(): SlackMessage[] {
    return [...this.#byChannel.values()].flat().sort((a, b) => compareTs(a.ts, b.ts));
  }

  /**
   * Takes up saved channel messages (threads included), in posting order. Ephemerals are not kept: Slack loses
   * them on a reload too.
   */
  restore(messages: SlackMessage[]): void {
    this.#byChannel.clear();
    for (const message of messages) {
      const list = this.#byChannel.get(message.channel) ?? [];
      list.push(message);
      this.#byChannel.set(message.channel, list);
      this.#ts.after(message.ts);
      if (message.edited) this.#ts.after(message.edited.ts);
    }
  }

  postEphemeral(input: NewEphemeral): EphemeralMessage {
    const message: EphemeralMessage = {
      type: 'message',
      ...withBlockIds(input),
      ts: this.#ts.next(),
      is_ephemeral: true,
    };
    this.#ephemerals.push(message);
    this.#journal.record('ephemeral', { action: 'posted', message: structuredClone(message) });
    return message;
  }

  ephemerals(filter: { channel?: string; recipient?: string } = {}): EphemeralMessage[] {
    return this.#ephemerals.filter(
      (m) =>
        (filter.channel === undefined || m.channel === filter.channel) &&
        (filter.recipient === undefined || m.recipient === filter.recipient),
    );
  }

  findEphemeral(channel: string, ts: string): EphemeralMessage | undefined {
    return this.#ephemerals.find((m) => m.channel === channel && m.ts === ts);
  }

  /** Only a response_url can touch an ephemeral after it is sent; the Web API cannot. */
  replaceEphemeral(channel: string, ts: string, patch: Partial<MessagePatch>): EphemeralMessage | undefined {
    const message = this.findEphemeral(channel, ts);
    if (!message) return undefined;
    delete message.blocks;
    delete message.attachments;
    Object.assign(message, { text: '' }, withBlockIds(patch));
    this.#journal.record('ephemeral', { action: 'updated', message: structuredClone(message) });
    return message;
  }

  deleteEphemeral(channel: string, ts: string): EphemeralMessage | undefined {
    const index = this.#ephemerals.findIndex((m) => m.channel === channel && m.ts === ts);
    if (index < 0) return undefined;
    const [removed] = this.#ephemerals.splice(index, 1);
    this.#journal.record('ephemeral', { action: 'deleted', message: structuredClone(removed!) });
    return removed;
  }

  #noteReply(reply: SlackMessage): void {
    const parent = this.find(reply.channel, reply.thread_ts!);
    if (!parent || parent.ts === reply.ts) return;
    parent.thread_ts = parent.ts;
    parent.reply_count = (parent.reply_count ?? 0) + 1;
    parent.latest_reply = reply.ts;
  }
}

function withBlockIds<T extends { blocks?: SlackMessage['blocks'] }>(input: T): T {
  return input.blocks ? { ...input, blocks: assignBlockIds(input.blocks) } : input;
}
