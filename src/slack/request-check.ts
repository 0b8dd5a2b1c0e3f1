import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { HTTPModuleFunctions, verifySlackRequest } from '@slack/bolt';
import type { BufferedRequest } from '../http/slack-gate.js';
import type { Logger } from '../log.js';
import { throttledCounter } from '../log-throttle.js';
import type { ReplayGuard } from './replay-guard.js';
import { checkSlackBody } from './request-shape.js';

type Refusal = 'bad_signature' | 'replayed';

function answer(res: ServerResponse, status: number, body?: Record<string, unknown>): void {
  if (body === undefined) {
    res.writeHead(status).end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}

function header(req: IncomingMessage, name: string): string {
  const value = req.headers[name];
  return typeof value === 'string' ? value : '';
}

/**
 * In front of Bolt's listener: the signature (Bolt checks it again; it is cheap), then one run per signed
 * request, then a body Bolt can route. What fails is answered here and never reaches a listener.
 * Expects the body already read by the server's gate (src/http/slack-gate.ts).
 */
export function checkedSlackListener(
  bolt: RequestListener,
  options: { signingSecret: string; replay: ReplayGuard; logger: Logger },
): RequestListener {
  const { logger, replay } = options;
  // Bad signatures and replays can be sent at will: counted, one line per reason every 10 s.
  const refusals = throttledCounter<Refusal>(10_000, (reason, count) =>
    logger.warn({ reason, count }, 'refused Slack requests'),
  );
  return (req, res) => {
    const rawBody = (req as Partial<BufferedRequest>).rawBody;
    if (!Buffer.isBuffer(rawBody)) {
      logger.error('a Slack request reached the app without passing the HTTP gate');
      answer(res, 500, { ok: false, error: 'internal_error' });
      return;
    }
    const signature = header(req, 'x-slack-signature');
    const timestamp = Number(header(req, 'x-slack-request-timestamp'));
    try {
      verifySlackRequest({
        signingSecret: options.signingSecret,
        body: rawBody.toString(),
        headers: { 'x-slack-signature': signature, 'x-slack-request-timestamp': timestamp },
      });
    } catch {
      refusals.note('bad_signature');
      answer(res, 401, { ok: false, error: 'bad_signature' });
      return;
    }
    if (!replay.firstDelivery(timestamp, signature)) {
      // It ran when it first came; a 200 keeps a sender from trying a third time.
      refusals.note('replayed');
      answer(res, 200);
      return;
    }
    let body: unknown;
    try {
      body = HTTPModuleFunctions.parseHTTPRequestBody(req as BufferedRequest);
    } catch {
      const form = header(req, 'content-type') === 'application/x-www-form-urlencoded';
      return malformed(res, form ? 'payload: not JSON' : 'the body: not JSON');
    }
    const check = checkSlackBody(body);
    if (!check.ok) return malformed(res, check.problem);
    if (check.kind === 'rate_limited') {
      logger.warn('Slack reports that it is dropping events sent to this app (app_rate_limited)');
      answer(res, 200);
      return;
    }
    bolt(req, res);
  };

  function malformed(res: ServerResponse, problem: string): void {
    logger.warn({ problem }, 'ignored a signed Slack request Bolt cannot route');
    answer(res, 400, { ok: false, error: 'malformed_request', problem });
  }
}
