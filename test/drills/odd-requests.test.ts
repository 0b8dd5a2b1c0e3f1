import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slackSignature } from '../../workspace/driver/signing.js';
import { type BotProcess, type DrillWorld, SECRET, startBot, startDrillWorld, until } from './bot-process.js';

/**
 * Drill: correctly signed requests whose bodies no Slack would send (null, arrays, strings, wrong types,
 * unknown payload types) reach the real bot process. Each is answered 400 (or ignored) with one log line,
 * and the process keeps serving; so does an unhandled promise rejection inside it.
 */

const JSON_TYPE = 'application/json';
const FORM = 'application/x-www-form-urlencoded';

/** [content type, raw body, expected status]. */
const ODD: [string, string, number][] = [
  [JSON_TYPE, 'null', 400],
  [JSON_TYPE, '[]', 400],
  [JSON_TYPE, '"x"', 400],
  [JSON_TYPE, '5', 400],
  [JSON_TYPE, '{}', 400],
  [JSON_TYPE, 'not json', 400],
  [JSON_TYPE, '{"type":"nonsense"}', 400],
  [JSON_TYPE, '{"type":"url_verification"}', 400],
  [JSON_TYPE, '{"type":"event_callback","event":null}', 400],
  [JSON_TYPE, '{"type":"event_callback","event":["app_home_opened"]}', 400],
  // Well shaped enough to pass our check, yet Bolt trips over it while routing (`'channel' in "x"`).
  [JSON_TYPE, '{"type":"event_callback","event":{"type":"app_home_opened","item":"x"}}', 400],
  [JSON_TYPE, '{"type":"app_rate_limited","team_id":"T1","minute_rate_limited":1,"api_app_id":"A1"}', 200],
  [FORM, 'payload=null', 400],
  [FORM, 'payload=%5B%5D', 400],
  [FORM, 'payload=%22x%22', 400],
  [FORM, 'payload=%7B', 400],
  [FORM, 'payload=a&payload=b', 400],
  [FORM, `payload=${encodeURIComponent('{"type":"block_actions"}')}`, 400],
  [FORM, `payload=${encodeURIComponent('{"type":"view_submission","user":{"id":"U1"},"view":5}')}`, 400],
  [
    FORM,
    `payload=${encodeURIComponent('{"type":"block_actions","user":{"id":"U1"},"actions":[],"channel":null}')}`,
    400,
  ],
  [FORM, 'command=%2Fsms&command=%2Fsms&text=help&user_id=U1&channel_id=C1', 400],
  [FORM, 'command=%2Fsms', 400],
  [FORM, '', 400],
];

let fake: DrillWorld['fake'];
let sim: DrillWorld['sim'];
let world: DrillWorld;
let bot: BotProcess;

beforeAll(async () => {
  world = await startDrillWorld('odd');
  ({ fake, sim } = world);
  const planted = pathToFileURL(fileURLToPath(new URL('../support/planted-rejection.mjs', import.meta.url)));
  bot = await startBot({
    fake,
    gatewayUrl: sim.url,
    databaseUrl: world.databaseUrl,
    env: { NODE_OPTIONS: `--import=${planted.href}` },
  });
}, 40_000);
afterAll(async () => {
  await bot?.stop();
  await world.close();
});

function signedPost(contentType: string, body: string): Promise<Response> {
  const timestamp = Math.floor(Date.now() / 1000);
  return fetch(`http://127.0.0.1:${bot.port}/slack/events`, {
    method: 'POST',
    headers: {
      'content-type': contentType,
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': slackSignature(SECRET, timestamp, body),
    },
    body,
  });
}

async function stillServes(): Promise<void> {
  expect(bot.child.exitCode).toBeNull();
  const after = fake.state.journal.seq;
  const ack = await bot.sms('help');
  expect(ack.status).toBe(200);
  expect(ack.late).toBe(false);
  await fake.state.waitFor('ephemeral', (e) => e.message.text.includes('/sms send'), { after });
  expect((await bot.health()).status).toBe(200);
}

describe('odd requests against the real bot process', () => {
  it('answers each odd signed body 400 (or ignores it), logs it once, and keeps serving', async () => {
    const before = bot.output().length;
    const answers: string[] = [];
    for (const [type, body, expected] of ODD) {
      const res = await signedPost(type, body);
      answers.push(`${body} -> ${res.status}`);
      expect(res.status, `${type} ${body}`).toBe(expected);
    }
    await stillServes();
    const log = bot.output().slice(before);
    const ignored = log.split('\n').filter((line) => /ignored a (signed )?Slack request/.test(line));
    expect(ignored, answers.join('\n')).toHaveLength(ODD.filter(([, , status]) => status === 400).length);
    expect(log).toMatch(/"problem":"the body is null, not an object"/);
    expect(log).toMatch(/app_rate_limited/);
    // One line each, never a stack trace.
    expect(log).not.toMatch(/\n\s+at /);
  });

  it('an unhandled promise rejection is logged and the process keeps serving', async () => {
    const before = bot.output().length;
    bot.child.kill('SIGUSR2');
    await until('the rejection in the log', () => /unhandled rejection/.test(bot.output().slice(before)));
    expect(bot.output().slice(before)).toMatch(/planted rejection/);
    await stillServes();
  });
});
