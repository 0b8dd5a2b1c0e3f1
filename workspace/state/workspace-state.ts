import { type Clock, systemClock, TsClock } from './clock.js';
import { Directory } from './directory.js';
import { FileStore } from './file-store.js';
import { FunctionExecutions } from './functions.js';
import { IdFactory } from './ids.js';
import { Journal, type WaitOptions } from './journal.js';
import { MessageStore } from './message-store.js';
import type {
  ApiCall,
  SlackMessage,
  WorkspaceEventKind,
  WorkspaceEventMap,
  WorkspaceIdentity,
} from './model.js';
import { ResponseUrlRegistry } from './response-urls.js';
import { DEFAULT_IDENTITY, seedDirectory } from './seed.js';
import { TriggerRegistry } from './triggers.js';
import { ViewStore } from './view-store.js';

export interface WorkspaceStateOptions {
  identity?: Partial<WorkspaceIdentity>;
  clock?: Clock;
  /** Start with the seeded users and channels (default). */
  seed?: boolean;
}

/**
 * The whole fake workspace, independent of HTTP: the Web API router, the signed-request driver and (later) the
 * local web UI all read and change this one object.
 */
export class WorkspaceState {
  readonly identity: WorkspaceIdentity;
  readonly clock: Clock;
  readonly ids = new IdFactory();
  readonly journal: Journal<WorkspaceEventMap>;
  readonly directory = new Directory();
  readonly messages: MessageStore;
  readonly views: ViewStore;
  readonly files: FileStore;
  readonly triggers: TriggerRegistry;
  readonly responseUrls: ResponseUrlRegistry;
  readonly functions: FunctionExecutions;

  constructor(options: WorkspaceStateOptions = {}) {
    this.identity = { ...DEFAULT_IDENTITY, ...options.identity };
    this.clock = options.clock ?? systemClock;
    this.journal = new Journal(this.clock);
    this.messages = new MessageStore(this.journal, new TsClock(this.clock));
    this.views = new ViewStore(this.identity, this.ids, this.clock, this.journal);
    this.files = new FileStore(this.ids, this.clock, this.journal);
    this.triggers = new TriggerRegistry(this.clock);
    this.responseUrls = new ResponseUrlRegistry(this.clock);
    this.functions = new FunctionExecutions(this.ids, this.clock, this.journal);
    if (options.seed !== false) seedDirectory(this.directory, this.identity, Math.floor(this.clock() / 1000));
  }

  /** Web API calls in arrival order, optionally only one method's. */
  calls(method?: string): ApiCall[] {
    const all = this.journal.values('call');
    return method === undefined ? all : all.filter((c) => c.method === method);
  }

  /** How many answers were HTTP 429, from the rate limiter or an injected fault. */
  get ratelimitedCount(): number {
    return this.calls().filter((c) => c.status === 429).length;
  }

  waitFor<K extends WorkspaceEventKind>(
    kind: K,
    predicate?: (value: WorkspaceEventMap[K]) => boolean,
    options?: WaitOptions,
  ): Promise<WorkspaceEventMap[K]> {
    return this.journal.waitFor(kind, predicate, options);
  }

  /** Resolves with the first call of `method` (that matches) that answered — successful or not. */
  waitForCall(method: string, predicate: (call: ApiCall) => boolean = () => true, options?: WaitOptions) {
    return this.waitFor('call', (c) => c.method === method && predicate(c), options);
  }

  /** Resolves when a channel message matching the predicate is posted or edited into that shape. */
  async waitForMessage(
    predicate: (message: SlackMessage) => boolean,
    options?: WaitOptions,
  ): Promise<SlackMessage> {
    const event = await this.waitFor(
      'message',
      (e) => e.action !== 'deleted' && predicate(e.message),
      options,
    );
    return event.message;
  }
}
