import * as z from 'zod';

/**
 * The envelopes Slack sends to /slack/events, checked far enough that Bolt can route them without
 * tripping: Bolt reads `body.ssl_check`, `body.event.channel`, `body.user.team_id`, `body.view.…` before any
 * listener runs, so a signed `null`, an array or a string would otherwise throw inside it.
 */
export type SlackBodyCheck =
  | { ok: true; kind: 'ssl_check' | 'url_verification' | 'event' | 'command' | 'interaction' }
  | { ok: true; kind: 'rate_limited' }
  | { ok: false; problem: string };

const object = z.looseObject({});
const user = z.looseObject({ id: z.string() });

const slashCommand = z
  .object({
    command: z.string().regex(/^\//, 'a slash command starts with /'),
    text: z.string(),
    user_id: z.string(),
    channel_id: z.string(),
  })
  // Slack sends every field of a command once, as text; a repeated field arrives as an array.
  .catchall(z.string());

const interactions = {
  block_actions: z.looseObject({ user, actions: z.array(object) }),
  block_suggestion: z.looseObject({ user, action_id: z.string() }),
  view_submission: z.looseObject({ user, view: z.looseObject({ id: z.string(), state: object }) }),
  view_closed: z.looseObject({ user, view: z.looseObject({ id: z.string() }) }),
  shortcut: z.looseObject({ user, callback_id: z.string() }),
  message_action: z.looseObject({ user, callback_id: z.string() }),
} as const;

const envelopes = {
  url_verification: z.looseObject({ challenge: z.string() }),
  event_callback: z.looseObject({ event: z.looseObject({ type: z.string() }) }),
} as const;

function described(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

function firstProblem(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const field = issue.path.length > 0 ? issue.path.join('.') : 'the body';
  return `${field}: ${issue.message}`;
}

function checked(
  schema: z.ZodType,
  body: unknown,
  kind: Extract<SlackBodyCheck, { ok: true }>['kind'],
): SlackBodyCheck {
  const result = schema.safeParse(body);
  return result.success ? { ok: true, kind } : { ok: false, problem: firstProblem(result.error) };
}

/** Whether a verified, parsed body is one Slack sends; if not, which field is wrong and why. */
export function checkSlackBody(body: unknown): SlackBodyCheck {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, problem: `the body is ${described(body)}, not an object` };
  }
  const record = body as Record<string, unknown>;
  if (record.ssl_check === '1') return { ok: true, kind: 'ssl_check' };
  if ('command' in record) return checked(slashCommand, body, 'command');
  const type = record.type;
  if (typeof type !== 'string') {
    return { ok: false, problem: 'type: neither a payload type nor a slash command' };
  }
  if (type === 'url_verification') return checked(envelopes.url_verification, body, 'url_verification');
  if (type === 'event_callback') return checked(envelopes.event_callback, body, 'event');
  if (type === 'app_rate_limited') return { ok: true, kind: 'rate_limited' };
  if (Object.hasOwn(interactions, type)) {
    return checked(interactions[type as keyof typeof interactions], body, 'interaction');
  }
  return { ok: false, problem: `type: unknown payload type ${JSON.stringify(type.slice(0, 40))}` };
}
