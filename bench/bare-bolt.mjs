// The baseline of the start and memory benches: a bare Bolt app, plain JavaScript run by `node` as smsops'
// build is, against the same fake Slack (SLACK_API_URL) and the same environment. It registers one `/sms`
// listener that only acks and answers GET /healthz on PORT. HTTP mode (Bolt's HTTPReceiver, /healthz as a
// custom route) unless SLACK_APP_TOKEN is set: then Socket Mode, with /healthz on a node:http server once
// the socket is connected, as smsops serves it. Started by bench/startup.ts (and by bench/uploads.ts, as the
// acks' floor); alone:
//   SLACK_BOT_TOKEN=… SLACK_SIGNING_SECRET=… SLACK_API_URL=… PORT=3000 node bench/bare-bolt.mjs
import { createServer } from 'node:http';
import bolt from '@slack/bolt';

const { App, HTTPReceiver, SocketModeReceiver, LogLevel } = bolt;
const env = process.env;
const port = Number(env.PORT ?? 3000);
const healthz = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"ok":true}');
};
const clientOptions = { slackApiUrl: env.SLACK_API_URL };
const receiver = env.SLACK_APP_TOKEN
  ? new SocketModeReceiver({
      appToken: env.SLACK_APP_TOKEN,
      logLevel: LogLevel.ERROR,
      installerOptions: { clientOptions },
    })
  : new HTTPReceiver({
      signingSecret: env.SLACK_SIGNING_SECRET,
      endpoints: '/slack/events',
      processBeforeResponse: false,
      logLevel: LogLevel.ERROR,
      customRoutes: [{ path: '/healthz', method: ['GET'], handler: healthz }],
    });
const app = new App({ token: env.SLACK_BOT_TOKEN, receiver, clientOptions, logLevel: LogLevel.ERROR });
app.command('/sms', async ({ ack }) => {
  await ack();
});
if (env.SLACK_APP_TOKEN) {
  await app.start();
  createServer((req, res) => (req.url === '/healthz' ? healthz(req, res) : res.writeHead(404).end())).listen(
    port,
    '127.0.0.1',
  );
} else {
  await app.start(port);
}
const stop = async () => {
  await app.stop();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
