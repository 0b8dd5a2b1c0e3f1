import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createLogger, type LogLevel } from '../log.js';
import { DEFAULT_SIMULATOR_PORT, startSimulator } from './server.js';

/** `npm run simulator`: the gateway simulator on its own, for demos and for pointing a bot at it. */
async function main(): Promise<void> {
  const statePath = parseStateFlag(process.argv.slice(2));
  const port = parsePort(process.env.SIMULATOR_PORT);
  const username = process.env.SIMULATOR_USERNAME || 'demo';
  const password = process.env.SIMULATOR_PASSWORD || 'demo';
  const level = (process.env.LOG_LEVEL as LogLevel | undefined) ?? 'info';
  const logger = createLogger({ level, readable: true });
  const simulator = await startSimulator({
    port,
    host: process.env.SIMULATOR_HOST || '127.0.0.1',
    username,
    password,
    timeZone: process.env.SMS_GATEWAY_TIMEZONE || 'UTC',
    logger,
    statePath,
  });
  const passwordHint = password === 'demo' ? 'demo' : '(SIMULATOR_PASSWORD)';
  console.log(`SMS gateway simulator listening on ${simulator.url}`);
  console.log(`  operations: POST ${simulator.url}/json/syncreply/<Operation>`);
  console.log(`  credentials: username ${JSON.stringify(username)}, password ${passwordHint}`);
  console.log(`  point the bot at it: SMS_GATEWAY_URL=${simulator.url}`);
  console.log(
    statePath
      ? `  state: kept in ${statePath} across restarts`
      : '  state: in memory (--state <file> keeps it across restarts)',
  );
  console.log(
    `  controls: ${simulator.url}/_sim/state (GET), /_sim/inbound, /_sim/advance, /_sim/fault, /_sim/reset (POST)`,
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping the simulator`);
    simulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

/** `--state <file>`: keep the account and traffic in that JSON file. Without it the simulator forgets on exit. */
function parseStateFlag(args: string[]): string | undefined {
  try {
    const { values } = parseArgs({ args, options: { state: { type: 'string' } }, strict: true });
    return values.state === undefined ? undefined : resolve(values.state);
  } catch (error) {
    console.error(`${(error as Error).message}: the only option is --state <file>`);
    process.exit(1);
  }
}

function parsePort(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_SIMULATOR_PORT;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    console.error(`SIMULATOR_PORT must be a port number from 0 to 65535, got ${JSON.stringify(value)}`);
    process.exit(1);
  }
  return port;
}

main().catch((error: unknown) => {
  console.error(`Simulator failed to start: ${(error as Error).message}`);
  process.exit(1);
});
