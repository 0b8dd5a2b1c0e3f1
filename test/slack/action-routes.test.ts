import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onBlockAction } from '../../src/slack/action-routes.js';
import { HOME_REFRESH_ACTION } from '../../src/slack/ui/home-view.js';
import type { SlackMessage } from '../../workspace/index.js';
import { channels, type Harness, startHarness, users } from '../support/slack-harness.js';

describe('block actions: one Bolt listener routes them by action_id', () => {
  let h: Harness;
  let post: SlackMessage;

  beforeAll(async () => {
    h = await startHarness();
    // A message with a link button (Slack sends its click to the app too) and a button of no handler's.
    const posted = await h.slackClient.chat.postMessage({
      channel: channels.smsOps,
      text: 'Links',
      blocks: [
        {
          type: 'actions',
          block_id: 'links',
          elements: [
            {
              type: 'button',
              action_id: 'open_docs',
              text: { type: 'plain_text', text: 'Docs' },
              url: 'https://example.com/docs',
            },
            { type: 'button', action_id: 'from_an_older_version', text: { type: 'plain_text', text: 'Old' } },
          ],
        },
      ],
    });
    post = await h.fake.state.waitForMessage((m) => m.ts === posted.ts);
  });
  afterAll(() => h.close());

  it('acks a click no handler is for at once, so Slack shows the person no error', async () => {
    for (const actionId of ['open_docs', 'from_an_older_version']) {
      const click = await h.driver.blockAction({
        userId: users.admin,
        message: post,
        actionId,
        blockId: 'links',
      });
      expect(click.status).toBe(200);
      expect(click.late).toBe(false);
      expect(click.rawBody).toBe('');
    }
  });

  it('still reaches the handler of its action_id (the App Home refresh publishes the home view)', async () => {
    await h.driver.appHomeOpened(users.admin);
    const first = await h.fake.state.waitForCall('views.publish', () => true);
    const view = (first.result as { view: Parameters<typeof h.driver.blockAction>[0]['view'] }).view;
    const after = h.fake.state.journal.seq;
    const click = await h.driver.blockAction({ userId: users.admin, view, actionId: HOME_REFRESH_ACTION });
    expect(click.status).toBe(200);
    await h.fake.state.waitForCall('views.publish', () => true, { after });
  });

  it('is the one Bolt action listener in the source: a second would see the router ack what it has no route for', () => {
    const files = readdirSync('src', { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const others = files
      .map((f) => join('src', f))
      .filter((f) => f !== join('src', 'slack', 'action-routes.ts'))
      .filter((f) => /\.action\s*\(/.test(readFileSync(f, 'utf8')));
    expect(files.length).toBeGreaterThan(100);
    expect(others).toEqual([]);
  });

  it('refuses a second handler for the same action_id when the bot is built', () => {
    const app = new App({ token: 'xoxb-test', signingSecret: 'secret', deferInitialization: true });
    onBlockAction(app, 'twice', async () => undefined);
    expect(() => onBlockAction(app, 'twice', async () => undefined)).toThrow(/twice has a handler already/);
  });
});
