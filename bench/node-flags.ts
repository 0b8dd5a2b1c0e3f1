import { readFileSync } from 'node:fs';

/**
 * The node flags `npm start` runs the bot with, read from package.json's start script (`node <flags>
 * scripts/start.mjs`): every bench child that stands for the bot runs with the same, so a figure is what
 * production gets and a flag changed there is measured here without a second copy of it.
 */
export function startNodeFlags(): string[] {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    scripts: { start: string };
  };
  const words = pkg.scripts.start.trim().split(/\s+/);
  if (words[0] !== 'node')
    throw new Error(`package.json's start script does not run node: ${pkg.scripts.start}`);
  const flags: string[] = [];
  for (const word of words.slice(1)) {
    if (!word.startsWith('-')) break;
    flags.push(word);
  }
  return flags;
}
