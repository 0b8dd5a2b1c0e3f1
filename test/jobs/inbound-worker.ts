// One smsops instance's inbound relay in a process of its own (inbound-processes.test.ts): the gateway
// simulator, the fake Slack and the SQLite file belong to the test. Tells the test 'ready' after its
// first poll; SIGTERM stops it the way main.ts does. Its HTTP server holds the process open, as main's does.
import { startTestBot } from '../support/bot.js';
import { SIGNING_SECRET } from '../support/slack-harness.js';

interface WorkerArgs {
  simUrl: string;
  apiUrl: string;
  botToken: string;
  db: string;
  instanceId: string;
  channel: string;
  leaseMs: number;
}

const args = JSON.parse(process.argv[2]!) as WorkerArgs;
// The bot as production builds it (startTestBot → buildBot), with only its relay running, on the test's
// simulator, Slack and file.
const { bot, close } = await startTestBot(
  {
    SLACK_BOT_TOKEN: args.botToken,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: args.apiUrl,
    SMS_GATEWAY_URL: args.simUrl,
    SMS_GATEWAY_USERNAME: 'demo',
    SMS_GATEWAY_PASSWORD: 'demo',
    SMS_GATEWAY_TIMEOUT_MS: '5000',
    REPORT_TIMEZONE: 'UTC',
    DATABASE_URL: `sqlite:${args.db}`,
    INBOUND_CHANNEL: args.channel,
    INBOUND_POLL_SECONDS: '1',
  },
  { instanceId: args.instanceId, relay: { claimLeaseMs: args.leaseMs } },
);

process.on('SIGTERM', () => {
  void close().finally(() => process.exit(0));
});

bot.relay.start();
await bot.relay.pollOnce();
process.send!({ type: 'ready' });
