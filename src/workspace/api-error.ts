/**
 * A Web API refusal, thrown by state and validators and turned into `{ ok: false, error }` by the router, so
 * every layer speaks Slack's own error names.
 */
export class SlackApiError extends Error {
  readonly error: string;
  /** Slack's `response_metadata.messages`, e.g. `[ERROR] ... [json-pointer:/blocks/0/text]`. */
  readonly messages: string[];

  constructor(error: string, messages: string[] = []) {
    super(messages.length > 0 ? `${error}: ${messages.join('; ')}` : error);
    this.name = 'SlackApiError';
    this.error = error;
    this.messages = messages;
  }

  toBody(): Record<string, unknown> {
    const body: Record<string, unknown> = { ok: false, error: this.error };
    if (this.messages.length > 0) body.response_metadata = { messages: this.messages };
    return body;
  }
}
