// One smsops instance's inbound relay in a process of its own (inbound-processes.test.ts): the gateway
// simulator, the fake Slack and the SQLite file belong to the test. Tells the test 'ready' after its
// first poll; SIGTERM stops it the way main.ts does.
import { GatewayClient } from '../../src/gateway/index.js';
import { InboundRelay } from '../../src/jobs/inbound-relay.js';
import { silentLogger } from '../../src/log.js';
import { createSlackInboundPoster, inboundWebClient } from '../../src/slack/inbound-poster.js';
import { openStore } from '../../src/store/index.js';

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
const store = await openStore(`sqlite:${args.db}`);
const gateway = new GatewayClient({
  baseUrl: args.simUrl,
  username: 'demo',
  password: 'demo',
  timeoutMs: 5_000,
});
const relay = new InboundRelay({
  gateway,
  store,
  poster: createSlackInboundPoster({
    client: inboundWebClient(args.botToken, { apiUrl: args.apiUrl }),
    adminUserIds: [],
    reportTimeZone: 'UTC',
    simulated: true,
    logger: silentLogger,
  }),
  logger: silentLogger,
  settings: {
    instanceId: args.instanceId,
    pollSeconds: 1,
    defaultChannel: args.channel,
    claimLeaseMs: args.leaseMs,
  },
});

// The relay's timer does not hold a process open (main.ts has its HTTP server for that); this does.
const alive = setInterval(() => undefined, 60_000);

process.on('SIGTERM', () => {
  clearInterval(alive);
  void relay
    .stop()
    .then(() => gateway.close())
    .then(() => store.close())
    .finally(() => process.exit(0));
});

relay.start();
await relay.pollOnce();
process.send!({ type: 'ready' });
