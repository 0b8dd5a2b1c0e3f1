import { request } from 'node:http';
import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalWorkspace, Directory, SEEDED, WorkspaceState } from '../../workspace/index.js';
import { parseSlashCommands } from '../../workspace/page/manifest.js';
import { slackEscape } from '../../workspace/page/slack-text.js';
import { type LocalBot, startLocalBot } from './support.js';

/** The local workspace as the bot's HTTP server serves it: no browser needed. */
describe('local workspace on the bot’s own server', () => {
  let bot: LocalBot;
  let base: string;

  beforeAll(async () => {
    bot = await startLocalBot();
    base = bot.url.replace(/\/$/, '');
  });
  afterAll(() => bot?.close());

  /** A raw request, so the Host and Origin headers are exactly the ones given. */
  function raw(
    path: string,
    options: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ): Promise<{ status: number; type: string; body: string }> {
    return new Promise((resolve, reject) => {
      const req = request(
        `${base}${path}`,
        { method: options.method ?? 'GET', headers: options.headers },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            body += chunk;
          });
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body }),
          );
        },
      );
      req.on('error', reject);
      req.end(options.body);
    });
  }

  it('serves the page, its assets, and the Web API the bot uses, next to /healthz and /slack/events', async () => {
    const page = await raw('/');
    expect(page.status).toBe(200);
    expect(page.type).toContain('text/html');
    expect(page.body).toContain('/assets/app.js');
    for (const asset of ['app.js', 'render.js', 'emoji.js', 'styles.css']) {
      expect((await raw(`/assets/${asset}`)).status).toBe(200);
    }
    expect((await raw('/assets/../local.ts')).status).toBe(404);
    expect((await raw('/healthz')).status).toBe(200);
    // Unsigned: Bolt refuses it, as it refuses anything not signed with the secret.
    expect((await raw('/slack/events', { method: 'POST', body: 'x' })).status).toBe(401);
    expect((await raw('/nothing-here')).status).toBe(404);

    const client = new webApi.WebClient(bot.workspace.botToken, {
      slackApiUrl: bot.workspace.apiUrl,
      retryConfig: { retries: 0 },
    });
    expect(bot.workspace.apiUrl).toBe(`${base}/api/`);
    const auth = await client.auth.test();
    expect(auth).toMatchObject({ ok: true, user_id: 'U0SMSBOT', url: `${base}/` });
    const posted = await client.chat.postMessage({ channel: SEEDED.channels.general, text: 'hello' });
    const link = await client.chat.getPermalink({ channel: SEEDED.channels.general, message_ts: posted.ts! });
    expect(link.permalink).toMatch(new RegExp(`^${base}/archives/C0GENERAL/p\\d+$`));
    const redirect = await raw(new URL(link.permalink!).pathname);
    expect(redirect.status).toBe(302);
  });

  it('answers only this machine’s pages: a foreign Host, a cross-site Origin or a non-JSON POST is refused', async () => {
    const json = { 'content-type': 'application/json' };
    const body = JSON.stringify({
      user: SEEDED.users.admin,
      channel: SEEDED.channels.smsOps,
      text: '/sms help',
    });
    expect((await raw('/', { headers: { host: 'evil.example:80' } })).status).toBe(403);
    const crossSite = await raw('/_ws/command', {
      method: 'POST',
      headers: { ...json, origin: 'http://evil.example' },
      body,
    });
    expect(crossSite.status).toBe(403);
    const form = await raw('/_ws/command', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body,
    });
    expect(form.status).toBe(415);
    const ok = await raw('/_ws/command', { method: 'POST', headers: { ...json, origin: base }, body });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toMatchObject({ ok: true, status: 200 });
    const stranger = await raw('/_ws/command', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ user: 'U0NOBODY', channel: SEEDED.channels.smsOps, text: '/sms help' }),
    });
    expect(stranger.status).toBe(400);
  });

  it('refuses a form posted from another site to the Web API, even with the right token, and nothing changes', async () => {
    // The attack: a page elsewhere posts a form as the bot, or rewrites the admin's open compose modal so that
    // its Submit sends the attacker's text to the attacker's number.
    const after = bot.workspace.state.journal.seq;
    await bot.workspace.driver.slashCommand({
      command: '/sms',
      text: 'send',
      userId: SEEDED.users.admin,
      channelId: SEEDED.channels.smsOps,
    });
    const opened = await bot.workspace.state.waitForCall(
      'views.update',
      (c) => (c.args.view as { callback_id?: string }).callback_id === 'compose',
      { after },
    );
    const viewId = String(opened.args.view_id);
    const before = JSON.stringify(bot.workspace.state.views.get(viewId));
    const calls = bot.workspace.state.journal.entries('call').length;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const attacks: Record<string, string>[] = [
      { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' },
      { origin: 'http://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      // A sandboxed frame or a file:// page.
      { origin: 'null' },
    ];
    const token = `token=${encodeURIComponent(bot.workspace.botToken)}`;
    const hijack = JSON.stringify({
      type: 'modal',
      callback_id: 'compose',
      title: { type: 'plain_text', text: 'x' },
    });
    for (const headers of attacks) {
      const post = await raw('/api/chat.postMessage', {
        method: 'POST',
        headers: { ...form, ...headers },
        body: `${token}&channel=${SEEDED.channels.general}&text=pwned`,
      });
      expect(post.status).toBe(403);
      const update = await raw('/api/views.update', {
        method: 'POST',
        headers: { ...form, ...headers },
        body: `${token}&view_id=${viewId}&view=${encodeURIComponent(hijack)}`,
      });
      expect(update.status).toBe(403);
    }
    expect(JSON.stringify(bot.workspace.state.views.get(viewId))).toBe(before);
    expect(bot.workspace.state.journal.entries('call')).toHaveLength(calls);
    expect(bot.workspace.state.messages.history(SEEDED.channels.general).map((m) => m.text)).not.toContain(
      'pwned',
    );
  });

  it('refuses cross-site requests to response URLs, uploads and files too', async () => {
    const crossSite = { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' };
    const responses = bot.workspace.state.journal.entries('response').length;
    const responseUrl = bot.workspace.routes.issueResponseUrl({
      channelId: SEEDED.channels.general,
      userId: SEEDED.users.admin,
    });
    const response = await raw(new URL(responseUrl).pathname, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', ...crossSite },
      body: JSON.stringify({ text: 'pwned via response_url', response_type: 'in_channel' }),
    });
    expect(response.status).toBe(403);
    expect(bot.workspace.state.journal.entries('response')).toHaveLength(responses);

    const client = new webApi.WebClient(bot.workspace.botToken, {
      slackApiUrl: bot.workspace.apiUrl,
      retryConfig: { retries: 0 },
    });
    const upload = await client.files.getUploadURLExternal({ filename: 'a.txt', length: 5 });
    const uploadPath = new URL(upload.upload_url!).pathname;
    expect((await raw(uploadPath, { method: 'POST', headers: crossSite, body: 'pwned' })).status).toBe(403);
    // The bot's own upload (no Origin at all) works, and so does reading the file back, but not from another site.
    expect((await raw(uploadPath, { method: 'POST', body: 'hello' })).status).toBe(200);
    await client.files.completeUploadExternal({ files: [{ id: upload.file_id! }] });
    const filePath = `/files/${upload.file_id}`;
    // As in Slack, a file's url_private answers only with the bot token (the page reads files its own way):
    // without it, a redirect to the sign-in page.
    const bearer = { authorization: `Bearer ${bot.workspace.botToken}` };
    const anonymous = await raw(filePath);
    expect(anonymous.status).toBe(302);
    expect(anonymous.body).toContain(`/?redir=${encodeURIComponent(filePath)}`);
    expect((await raw(filePath, { headers: bearer })).body).toBe('hello');
    expect((await raw(filePath, { headers: { ...bearer, 'sec-fetch-site': 'cross-site' } })).status).toBe(
      403,
    );
    expect((await raw(filePath, { headers: { ...bearer, 'sec-fetch-site': 'same-origin' } })).status).toBe(
      200,
    );
    expect((await raw(filePath, { headers: { ...bearer, 'sec-fetch-site': 'none' } })).status).toBe(200);
  });

  it('answers the Web API only under this machine’s names at its port (DNS rebinding)', async () => {
    const bearer = { authorization: `Bearer ${bot.workspace.botToken}` };
    const port = new URL(base).port;
    for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1.nip.io:${port}`, '127.0.0.1:1']) {
      const res = await raw('/api/auth.test', { method: 'POST', headers: { ...bearer, host } });
      expect(res.status).toBe(403);
    }
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
      const res = await raw('/api/auth.test', { method: 'POST', headers: { ...bearer, host } });
      expect(JSON.parse(res.body)).toMatchObject({ ok: true });
    }
    // The page's own origin is no other site.
    const sameOrigin = await raw('/api/auth.test', {
      method: 'POST',
      headers: { ...bearer, origin: base, 'sec-fetch-site': 'same-origin' },
    });
    expect(JSON.parse(sameOrigin.body)).toMatchObject({ ok: true });
  });

  it('streams what happens as server-sent events, and close() ends the streams', async () => {
    const res = await fetch(`${base}/_ws/events`);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let seen = '';
    const until = async (pattern: RegExp) => {
      while (!pattern.test(seen)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${pattern}: ${seen}`);
        seen += decoder.decode(value);
      }
    };
    await until(/event: hello/);
    await bot.workspace.driver.slashCommand({
      command: '/sms',
      text: 'help',
      userId: SEEDED.users.alice,
      channelId: SEEDED.channels.general,
    });
    await until(/event: eph\ndata: .*"recipient":"U0ALICE"/);
    // A browser left open must not hold the HTTP server's close: close() ends the stream.
    await bot.workspace.close();
    await expect(
      reader.read().then(async function drain(r): Promise<boolean> {
        return r.done ? true : drain(await reader.read());
      }),
    ).resolves.toBe(true);
    expect((await raw('/_ws/events')).status).toBe(503);
  });

  it('turns typed mentions into Slack’s syntax, as Slack does before the app sees them', () => {
    const directory = new WorkspaceState().directory;
    expect(slackEscape('grant @alice sender', directory, 'command')).toBe('grant <@U0ALICE|alice> sender');
    expect(slackEscape('hi @alice in #sms-ops @here', directory, 'message')).toBe(
      'hi <@U0ALICE> in <#C0SMSOPS|sms-ops> <!here>',
    );
    expect(slackEscape('Fish & chips <b> @nobody bob@example.com', directory, 'command')).toBe(
      'Fish &amp; chips &lt;b&gt; @nobody bob@example.com',
    );
    expect(slackEscape('x', new Directory(), 'command')).toBe('x');
  });

  it('shows the usage hint of the manifest', () => {
    const commands = parseSlashCommands(`features:
  slash_commands:
    - command: /sms
      url: https://x/slack/events
      description: Send SMS
      usage_hint: "help | send [numbers] [text]"
      should_escape: true
oauth_config:
  scopes: {}
`);
    expect(commands).toEqual([
      { command: '/sms', description: 'Send SMS', usageHint: 'help | send [numbers] [text]' },
    ]);
    expect(parseSlashCommands('features: {}')).toEqual([]);
  });
});

describe('the local bot token', () => {
  it('is new and random on every run, never the well-known xoxb-local', async () => {
    const options = { signingSecret: 'x'.repeat(32), botEventsUrl: 'http://127.0.0.1:9/slack/events' };
    const [one, two] = await Promise.all([createLocalWorkspace(options), createLocalWorkspace(options)]);
    expect(one.botToken).not.toBe(two.botToken);
    for (const token of [one.botToken, two.botToken]) {
      expect(token).toMatch(/^xoxb-local-[0-9a-f]{48}$/);
    }
    await Promise.all([one.close(), two.close()]);
  });
});

describe('shutting down with a page still open', () => {
  it('does not hold the HTTP server’s close, even when the server is closed before the workspace', async () => {
    const bot = await startLocalBot();
    try {
      const res = await fetch(`${bot.url}_ws/events`);
      const reader = res.body!.getReader();
      await reader.read();
      const started = performance.now();
      await bot.http.close();
      expect(performance.now() - started).toBeLessThan(2_000);
      await expect(
        reader.read().then(async function drain(r): Promise<boolean> {
          return r.done ? true : drain(await reader.read());
        }),
      ).resolves.toBe(true);
    } finally {
      await bot.close();
    }
  });
});
