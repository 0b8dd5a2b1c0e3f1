import { readFile } from 'node:fs/promises';
import { repoFile } from '../repo-file.js';
import { parseAppManifest, type SlashCommandInfo } from '../web-api/app-manifest.js';

export type { SlashCommandInfo };

const FALLBACK: SlashCommandInfo[] = [
  {
    command: '/sms',
    description: 'Send SMS, check delivery and balance, manage inbound and digests',
    usageHint: 'help | send [numbers] [text] | status <id> | balance',
  },
];

const MANIFEST_URL = repoFile('manifest.yml', import.meta.url);

/** The app's slash commands from a manifest, so the composer shows the same usage hint Slack would. */
export function parseSlashCommands(manifest: string): SlashCommandInfo[] {
  return parseAppManifest(manifest).slashCommands;
}

/** manifest.yml's slash commands; the built-in /sms entry when it has none or cannot be read. */
export async function loadSlashCommands(): Promise<SlashCommandInfo[]> {
  try {
    const parsed = parseSlashCommands(await readFile(MANIFEST_URL, 'utf8'));
    return parsed.length > 0 ? parsed : FALLBACK;
  } catch {
    return FALLBACK;
  }
}
