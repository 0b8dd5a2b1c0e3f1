import type { FunctionDefinition } from '../web-api/app-manifest.js';
import type { Clock } from './clock.js';
import { type IdFactory, randomToken } from './ids.js';
import type { Journal } from './journal.js';
import type { WorkspaceEventMap } from './model.js';

export type ExecutionState = 'running' | 'completed' | 'failed';

/** One run of a custom step: what Slack keeps between `function_executed` and functions.complete*. */
export interface FunctionExecution {
  id: string;
  workflowExecutionId: string;
  callbackId: string;
  definition: FunctionDefinition;
  inputs: Record<string, unknown>;
  /** The event's bot_access_token: valid for this execution only. */
  token: string;
  state: ExecutionState;
  startedAt: number;
  endedAt?: number;
  outputs?: Record<string, unknown>;
  error?: string;
}

/** Custom step runs; each change goes to the journal as a `function` event, so tests and the page can wait for it. */
export class FunctionExecutions {
  readonly #byId = new Map<string, FunctionExecution>();
  readonly #byToken = new Map<string, FunctionExecution>();
  /** Messages posted with a run's token, by `channel:ts`: Slack ties interactions with them to that run. */
  readonly #posted = new Map<string, FunctionExecution>();

  constructor(
    private readonly ids: IdFactory,
    private readonly clock: Clock,
    private readonly journal: Journal<WorkspaceEventMap>,
  ) {}

  start(definition: FunctionDefinition, inputs: Record<string, unknown>): FunctionExecution {
    const execution: FunctionExecution = {
      id: this.ids.next('Fx', 10),
      workflowExecutionId: this.ids.next('Wx', 10),
      callbackId: definition.callbackId,
      definition,
      inputs,
      token: `xwfp-${randomToken(16)}`,
      state: 'running',
      startedAt: this.clock(),
    };
    this.#byId.set(execution.id, execution);
    this.#byToken.set(execution.token, execution);
    this.journal.record('function', { action: 'started', execution: { ...execution } });
    return execution;
  }

  get(id: string): FunctionExecution | undefined {
    return this.#byId.get(id);
  }

  byToken(token: string): FunctionExecution | undefined {
    return this.#byToken.get(token);
  }

  notePosted(channel: string, ts: string, execution: FunctionExecution): void {
    this.#posted.set(`${channel}:${ts}`, execution);
  }

  /** The run whose token posted this message, if one did. */
  poster(channel: string, ts: string): FunctionExecution | undefined {
    return this.#posted.get(`${channel}:${ts}`);
  }

  all(): FunctionExecution[] {
    return [...this.#byId.values()];
  }

  end(id: string, end: { outputs: Record<string, unknown> } | { error: string }): FunctionExecution {
    const execution = this.#byId.get(id)!;
    execution.state = 'outputs' in end ? 'completed' : 'failed';
    execution.endedAt = this.clock();
    if ('outputs' in end) execution.outputs = end.outputs;
    else execution.error = end.error;
    this.journal.record('function', { action: execution.state, execution: { ...execution } });
    return execution;
  }
}
