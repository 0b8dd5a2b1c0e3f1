import type { App, HTTPReceiver, SocketModeReceiver, webApi } from '@slack/bolt';
import { concealSecrets, REDACTED } from '../secrets.js';

/** A Web API client logged or printed by mistake shows where it points, never its token. */
export function concealWebClient<T extends webApi.WebClient>(client: T): T {
  return concealSecrets(client, () => ({ slackApiUrl: client.slackApiUrl, token: REDACTED }));
}

/** The Bolt app, its client and its receiver hold the bot token, the signing secret or the app token. */
export function concealSlackApp(app: App, receiver: HTTPReceiver | SocketModeReceiver): void {
  concealWebClient(app.client);
  concealSecrets(receiver, () =>
    'requestListener' in receiver ? { signingSecret: REDACTED } : { appToken: REDACTED },
  );
  concealSecrets(app, () => ({ client: app.client, receiver }));
}
