import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkspaceEventKind } from '../../workspace/index.js';
import {
  type BotProcess,
  type DrillWorld,
  SECRET,
  sendThroughModal,
  startBot,
  startDrillWorld,
  until,
  users,
} from './bot-process.js';

/**
 * Drill: the gateway answers its errors by quoting our request, Credential and all, as ServiceStack error bodies
 * often do. The running bot passes none of it on: no log line, no Slack message or modal, no /healthz body
 * carries the gateway username or password, the bot token or the signing secret.
 */

const USERNAME = 'acmeDrillOps';
const PASSWORD = 'PwDrill7zQx91';
const BOT_TOKEN = 'xoxb-drill-5f0c2a9e7b41d3';
const SECRETS = [USERNAME, PASSWORD, BOT_TOKEN, SECRET];

let fake: DrillWorld['fake'];
let sim: DrillWorld['sim'];
let control: DrillWorld['control'];
let world: DrillWorld;
let bot: BotProcess;

beforeAll(async () => {
  world = await startDrillWorld('secrets', {
    slack: { botToken: BOT_TOKEN },
    simulator: { username: USERNAME, password: PASSWORD },
  });
  ({ fake, sim, control } = world);
  bot = await startBot({
    fake,
    gatewayUrl: sim.url,
    databaseUrl: world.databaseUrl,
    env: { SMS_GATEWAY_USERNAME: USERNAME, SMS_GATEWAY_PASSWORD: PASSWORD, LOG_LEVEL: 'debug' },
  });
}, 40_000);
afterAll(async () => {
  await bot?.crash();
  await world.close();
});

/** Everything the fake Slack saw: every Web API call, response_url post, message, ephemeral and view. */
function everythingSlackSaw(): string {
  const kinds: WorkspaceEventKind[] = ['call', 'message', 'ephemeral', 'view', 'file', 'response'];
  return JSON.stringify(kinds.map((kind) => fake.state.journal.entries(kind)));
}

function expectNoSecretIn(text: string): void {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
}

describe('a gateway whose error replies quote the request, credential included', () => {
  it('quotes it for real: the simulator echoes the Credential (the drill would prove nothing otherwise)', async () => {
    await control.fault({ operation: 'GetBalance', kind: 'status', echo: true });
    const res = await fetch(`${sim.url}/json/syncreply/GetBalance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Credential: { Username: USERNAME, Password: PASSWORD } }),
    });
    const text = await res.text();
    expect(text).toContain(PASSWORD);
    expect(text).toContain(USERNAME);
  });

  it('/healthz gives a reason code, with neither the upstream text nor the gateway URL', async () => {
    // The next GetSenders is refused: /healthz shows it once its background probe has taken that refusal.
    await control.fault({ operation: 'GetSenders', kind: 'status', echo: true });
    const health = await until('/healthz degraded', async () => {
      const h = await bot.health();
      return h.body.degraded === true ? h : undefined;
    });
    expect(health.body).toMatchObject({ ok: true, degraded: true, gateway: { reachable: false } });
    expect((health.body.gateway as { reason?: string }).reason).toBe('rejected');
    const text = JSON.stringify(health.body);
    expectNoSecretIn(text);
    expect(text).not.toContain(sim.url);
    expect(text).not.toMatch(/https?:\/\//);
  }, 30_000);

  it('/sms balance tells the user the gateway refused, without what it quoted', async () => {
    await control.fault({ operation: 'GetBalance', kind: 'status', echo: true, times: 2 });
    const after = fake.state.journal.seq;
    await bot.sms('balance');
    const answer = await fake.state.waitFor(
      'ephemeral',
      (e) => e.message.recipient === users.admin && /refused/.test(JSON.stringify(e.message)),
      { after, timeoutMs: 15_000 },
    );
    expect(JSON.stringify(answer.message)).toMatch(/Simulated fault/);
    expectNoSecretIn(JSON.stringify(answer.message));
  }, 30_000);

  it('a refused send shows the refusal in the modal, without what it quoted', async () => {
    await control.fault({ operation: 'Submit', kind: 'status', code: 421, echo: true });
    const after = fake.state.journal.seq;
    await sendThroughModal(bot, fake, 'Refused with an echo');
    const update = await fake.state.waitForCall(
      'views.update',
      (c) => /The gateway refused the send/.test(JSON.stringify(c.args.view)),
      { after, timeoutMs: 15_000 },
    );
    expect(JSON.stringify(update.args.view)).toMatch(/code 421/);
    expectNoSecretIn(JSON.stringify(update.args.view));
  }, 30_000);

  it('a send answered by an HTTP 500 that quotes the request ends unknown, its reason scrubbed', async () => {
    await control.fault({ operation: 'Submit', kind: 'http500', echo: true });
    const after = fake.state.journal.seq;
    await sendThroughModal(bot, fake, 'Unknown with an echo');
    await fake.state.waitForCall('views.update', (c) => /State unknown/.test(JSON.stringify(c.args.view)), {
      after,
      timeoutMs: 15_000,
    });
    // The line that says why the state is unknown is written, with what the gateway quoted masked.
    await until('the unknown send logged', () =>
      bot
        .output()
        .split('\n')
        .some((line) => /SMS batch state unknown/.test(line) && /HTTP 500.*\[redacted\]/.test(line)),
    );
  }, 30_000);

  it('inbound polls answered with quoting 500s are logged as failures, scrubbed', async () => {
    // Reads are retried: enough faults for every attempt of one poll.
    await control.fault({ operation: 'Receive', kind: 'http500', echo: true, times: 4 });
    await until('a failed inbound poll logged', () =>
      bot
        .output()
        .split('\n')
        .some((line) => /"level":"(warn|error)"/.test(line) && /HTTP 500/.test(line)),
    );
  }, 30_000);

  it('and after all that, no log line and nothing Slack saw carries a secret', () => {
    expectNoSecretIn(bot.output());
    expectNoSecretIn(everythingSlackSaw());
    // What the gateway quoted was logged, masked: the check above looked at lines that had something to hide.
    expect(bot.output()).toMatch(/\[redacted\]/);
  });
});
