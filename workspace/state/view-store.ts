import { assignBlockIds } from '../block-kit/block-ids.js';
import { SlackApiError } from '../web-api/api-error.js';
import type { Clock } from './clock.js';
import type { IdFactory } from './ids.js';
import type { Journal } from './journal.js';
import type { StateValues, View, ViewOutput, WorkspaceEventMap, WorkspaceIdentity } from './model.js';

/** Slack allows a root modal plus two pushed views. */
export const MAX_MODAL_STACK = 3;

interface Owned {
  userId: string;
  view: ViewOutput;
}

/**
 * Modal stacks and Home tabs per user. Views keep Slack's output shape (ids, hash, state), so the driver can put
 * them in payloads exactly as Slack would.
 */
export class ViewStore {
  readonly #views = new Map<string, Owned>();
  readonly #stacks = new Map<string, string[]>();
  readonly #homes = new Map<string, string>();
  readonly #identity: WorkspaceIdentity;
  readonly #ids: IdFactory;
  readonly #clock: Clock;
  readonly #journal: Journal<WorkspaceEventMap>;

  constructor(
    identity: WorkspaceIdentity,
    ids: IdFactory,
    clock: Clock,
    journal: Journal<WorkspaceEventMap>,
  ) {
    this.#identity = identity;
    this.#ids = ids;
    this.#clock = clock;
    this.#journal = journal;
  }

  /** views.open: a new root modal. Slack replaces whatever stack the user had. */
  open(userId: string, input: View): ViewOutput {
    for (const id of this.#stacks.get(userId) ?? []) this.#views.delete(id);
    const view = this.#create(userId, input, null, null);
    this.#stacks.set(userId, [view.id]);
    this.#journal.record('view', { action: 'opened', userId, view: structuredClone(view) });
    return view;
  }

  push(userId: string, input: View): ViewOutput {
    const stack = this.#stacks.get(userId) ?? [];
    const rootId = stack[0];
    if (!rootId) throw new SlackApiError('invalid_arguments', ['[ERROR] no modal is open to push onto']);
    if (stack.length >= MAX_MODAL_STACK) throw new SlackApiError('push_limit_reached');
    const view = this.#create(userId, input, rootId, stack.at(-1)!);
    stack.push(view.id);
    this.#journal.record('view', { action: 'pushed', userId, view: structuredClone(view) });
    return view;
  }

  /** views.update by view_id or external_id; `hash`, when given, must be the current one. */
  update(ref: { viewId?: string; externalId?: string }, input: View, hash?: string): ViewOutput {
    const owned = this.#find(ref);
    if (!owned) throw new SlackApiError('not_found');
    if (hash !== undefined && hash !== owned.view.hash) throw new SlackApiError('hash_conflict');
    const previous = owned.view;
    const next = this.#build(input, previous.id, previous.root_view_id, previous.previous_view_id);
    next.state = { values: keepValuesOfSurvivingBlocks(previous.state.values, next) };
    owned.view = next;
    this.#journal.record('view', { action: 'updated', userId: owned.userId, view: structuredClone(next) });
    return next;
  }

  /** views.publish: the user's Home tab, created on first publish. */
  publish(userId: string, input: View, hash?: string): ViewOutput {
    const currentId = this.#homes.get(userId);
    const current = currentId ? this.#views.get(currentId)?.view : undefined;
    if (hash !== undefined && current && hash !== current.hash) throw new SlackApiError('hash_conflict');
    const view = this.#build(input, current?.id ?? this.#ids.next('V'), null, null);
    if (current) view.state = { values: keepValuesOfSurvivingBlocks(current.state.values, view) };
    this.#views.set(view.id, { userId, view });
    this.#homes.set(userId, view.id);
    this.#journal.record('view', { action: 'published', userId, view: structuredClone(view) });
    return view;
  }

  get(viewId: string): ViewOutput | undefined {
    return this.#views.get(viewId)?.view;
  }

  ownerOf(viewId: string): string | undefined {
    return this.#views.get(viewId)?.userId;
  }

  /** The user's modal stack, root first. */
  stack(userId: string): ViewOutput[] {
    return (this.#stacks.get(userId) ?? []).map((id) => this.#views.get(id)!.view);
  }

  top(userId: string): ViewOutput | undefined {
    return this.stack(userId).at(-1);
  }

  home(userId: string): ViewOutput | undefined {
    const id = this.#homes.get(userId);
    return id ? this.#views.get(id)?.view : undefined;
  }

  /** What the user typed or picked: Slack keeps it on the view and sends it with submissions and actions. */
  setValues(viewId: string, values: StateValues): ViewOutput {
    const owned = this.#views.get(viewId);
    if (!owned) throw new SlackApiError('not_found');
    owned.view.state = { values: structuredClone(values) };
    return owned.view;
  }

  /** Closes the view and every view pushed above it; the view below becomes visible again. */
  close(viewId: string): ViewOutput[] {
    const userId = this.#views.get(viewId)?.userId;
    const stack = userId ? this.#stacks.get(userId) : undefined;
    const index = stack?.indexOf(viewId) ?? -1;
    if (!userId || !stack || index < 0) return [];
    const closed = stack.splice(index).map((id) => this.#views.get(id)!.view);
    for (const view of closed) {
      this.#views.delete(view.id);
      this.#journal.record('view', { action: 'closed', userId, view: structuredClone(view) });
    }
    if (stack.length === 0) this.#stacks.delete(userId);
    return closed;
  }

  /** `response_action: clear`, or closing a view with clear_on_close: the whole stack goes. */
  clear(userId: string): ViewOutput[] {
    const rootId = this.#stacks.get(userId)?.[0];
    return rootId ? this.close(rootId) : [];
  }

  /** Every open modal and Home tab, for a saved workspace: a restart closes nothing a person has open. */
  saved(): {
    views: Array<{ userId: string; view: ViewOutput }>;
    stacks: Record<string, string[]>;
    homes: Record<string, string>;
  } {
    return {
      views: [...this.#views.values()],
      stacks: Object.fromEntries(this.#stacks),
      homes: Object.fromEntries(this.#homes),
    };
  }

  restore(saved: ReturnType<ViewStore['saved']>): void {
    this.#views.clear();
    for (const owned of saved.views) this.#views.set(owned.view.id, owned);
    this.#stacks.clear();
    for (const [userId, ids] of Object.entries(saved.stacks)) {
      const open = ids.filter((id) => this.#views.has(id));
      if (open.length > 0) this.#stacks.set(userId, open);
    }
    this.#homes.clear();
    for (const [userId, id] of Object.entries(saved.homes))
      if (this.#views.has(id)) this.#homes.set(userId, id);
  }

  #find(ref: { viewId?: string; externalId?: string }): Owned | undefined {
    if (ref.viewId) return this.#views.get(ref.viewId);
    if (ref.externalId) return [...this.#views.values()].find((o) => o.view.external_id === ref.externalId);
    return undefined;
  }

  #create(userId: string, input: View, rootId: string | null, previousId: string | null): ViewOutput {
    const externalId = input.external_id;
    if (externalId && [...this.#views.values()].some((o) => o.view.external_id === externalId)) {
      throw new SlackApiError('duplicate_external_id');
    }
    const id = this.#ids.next('V');
    const view = this.#build(input, id, rootId ?? id, previousId);
    this.#views.set(id, { userId, view });
    return view;
  }

  #build(input: View, id: string, rootId: string | null, previousId: string | null): ViewOutput {
    const modal = input.type === 'modal' ? input : undefined;
    return {
      id,
      team_id: this.#identity.teamId,
      type: input.type,
      title: modal?.title ?? { type: 'plain_text', text: 'View Title' },
      close: modal?.close ?? null,
      submit: modal?.submit ?? null,
      blocks: assignBlockIds(input.blocks),
      private_metadata: input.private_metadata ?? '',
      callback_id: input.callback_id ?? '',
      external_id: input.external_id ?? '',
      state: { values: {} },
      hash: `${Math.floor(this.#clock() / 1000)}.${this.#ids.next('', 8)}`,
      clear_on_close: modal?.clear_on_close ?? false,
      notify_on_close: modal?.notify_on_close ?? false,
      root_view_id: rootId,
      previous_view_id: previousId,
      app_id: this.#identity.appId,
      app_installed_team_id: this.#identity.teamId,
      bot_id: this.#identity.botId,
    } as ViewOutput;
  }
}

/** Slack keeps typed input across views.update for inputs whose block_id and action_id are unchanged. */
function keepValuesOfSurvivingBlocks(values: StateValues, next: ViewOutput): StateValues {
  const blockIds = new Set(
    next.blocks.map((b) => b.block_id).filter((id): id is string => typeof id === 'string'),
  );
  return Object.fromEntries(Object.entries(values).filter(([blockId]) => blockIds.has(blockId)));
}
