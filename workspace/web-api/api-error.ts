/**
 * A Web API refusal, thrown by state and validators and turned into `{ ok: false, error }` by the router, so
 * every layer speaks Slack's own error names.
 */
export class SlackApiError extends Error {
  readonly error: string;
  /** Slack's `response_metadata.messages`, e.g. `[ERROR] ... [json-pointer:/blocks/0/text]`. */
  readonly messages: string[];
  /** Top-level fields Slack adds to some refusals, e.g. `needed` and `provided` on missing_scope. */
  readonly fields: Record<string, string>;

  constructor(error: string, messages: string[] = [], fields: Record<string, string> = {}) {
    super(messages.length > 0 ? `${error}: ${messages.join('; ')}` : error);
    this.name = 'SlackApiError';
    this.error = error;
    this.messages = messages;
    this.fields = fields;
  }

  toBody(): Record<string, unknown> {
    const body: Record<string, unknown> = { ok: false, error: this.error, ...this.fields };
    if (this.messages.length > 0) body.response_metadata = { messages: this.messages };
    return body;
  }
}
