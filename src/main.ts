import dotenv from 'dotenv';
import { ConfigError, loadConfig } from './config.js';
import { SETUP_HELP } from './setup-help.js';

dotenv.config({ quiet: true });

function main(): number {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
  if (config.slack.mode === 'local') {
    process.stderr.write(`${SETUP_HELP}\n`);
    return 1;
  }
  process.stderr.write('The Slack app is not part of this version yet: see the open issues.\n');
  return 1;
}

process.exitCode = main();
