import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

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

/**
 * Runs a bench file as the bot runs (`node <npm start's flags> [extra flags] --import tsx <file> --child …`)
 * and resolves with the JSON its last line of output prints.
 */
export function runBenchChild<T>(
  file: string,
  args: readonly string[],
  options: { nodeFlags?: readonly string[] } = {},
): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...startNodeFlags(), ...(options.nodeFlags ?? []), '--import', 'tsx', file, '--child', ...args],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0)
        return reject(new Error(`bench child ${basename(file)} ${args.join(' ')} exited ${code}`));
      resolve(JSON.parse(out.trim().split('\n').at(-1) ?? 'null') as T);
    });
  });
}
