// One smsops instance's inbound relay in a process of its own (inbound-processes.test.ts): the gateway
// simulator, the fake Slack and the SQLite file belong to the test. Tells the test 'ready' after its
// first poll; SIGTERM stops it the way main.ts does. Its HTTP server holds the process open, as main's does.
import { buildBot } from '../../src/bot.js';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
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
// The bot as production builds it, with only its relay running, on the test's simulator, Slack and file.
const config = loadConfig({
  SLACK_BOT_TOKEN: args.botToken,
  SLACK_SIGNING_SECRET: SIGNING_SECRET,
  SLACK_API_URL: args.apiUrl,
  SMS_GATEWAY_URL: args.simUrl,
  SMS_GATEWAY_USERNAME: 'demo',
  SMS_GATEWAY_PASSWORD: 'demo',
  DATABASE_URL: `sqlite:${args.db}`,
  INBOUND_CHANNEL: args.channel,
  INBOUND_POLL_SECONDS: '1',
});
const bot = await buildBot(
  { ...config, port: 0 },
  {
    logger: silentLogger,
    host: '127.0.0.1',
    startJobs: false,
    instanceId: args.instanceId,
    relay: { claimLeaseMs: args.leaseMs },
  },
);
await bot.start();

process.on('SIGTERM', () => {
  void bot.stop().finally(() => process.exit(0));
});

bot.relay.start();
await bot.relay.pollOnce();
process.send!({ type: 'ready' });
