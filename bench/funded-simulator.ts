// The gateway simulator in a process of its own with enough credit for the campaigns a bench sends (the CLI's
// default balance pays for 25,000 messages and takes no other): `--import tsx bench/funded-simulator.ts <balance>`.
import { startSimulator } from '../src/simulator/server.js';

const balance = Number(process.argv[2]);
if (!Number.isFinite(balance) || balance <= 0) throw new Error('usage: funded-simulator.ts <balance>');
const simulator = await startSimulator({ port: 0, initialBalance: balance });
console.log(`listening on ${simulator.url}`);
process.once('SIGTERM', () => void simulator.close().then(() => process.exit(0)));
