import { readFile } from 'node:fs/promises';
import { repoFile } from '../repo-file.js';

/** A slash command as Slack shows it in the composer's autocomplete: name, usage hint and description. */
export interface SlashCommandInfo {
  command: string;
  description: string;
  usageHint: string;
}

const FALLBACK: SlashCommandInfo[] = [
  {
    command: '/sms',
    description: 'Send SMS, check delivery and balance, manage inbound and digests',
    usageHint: 'help | send [numbers] [text] | status <id> | balance',
  },
];

const MANIFEST_URL = repoFile('manifest.yml', import.meta.url);

function unquote(value: string): string {
  const v = value.trim();
  if ((v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'"))) {
    return v.slice(1, -1).replace(/\\"/g, '"');
  }
  return v;
}

/**
 * The app's slash commands from manifest.yml, so the composer shows the same usage hint Slack would. Only the
 * flat `slash_commands` list is read; anything unexpected falls back to the built-in /sms entry.
 */
export function parseSlashCommands(manifest: string): SlashCommandInfo[] {
  const lines = manifest.split(/\r?\n/);
  const start = lines.findIndex((l) => /^\s*slash_commands:\s*$/.test(l));
  if (start < 0) return [];
  const indent = lines[start]!.search(/\S/);
  const commands: SlashCommandInfo[] = [];
  let current: Partial<SlashCommandInfo> | undefined;
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    if (line.search(/\S/) <= indent) break;
    const item = /^\s*-\s*command:\s*(.+)$/.exec(line);
    if (item) {
      current = { command: unquote(item[1]!) };
      commands.push(current as SlashCommandInfo);
      continue;
    }
    const field = /^\s*(description|usage_hint):\s*(.+)$/.exec(line);
    if (field && current) {
      if (field[1] === 'description') current.description = unquote(field[2]!);
      else current.usageHint = unquote(field[2]!);
    }
  }
  return commands
    .filter((c) => typeof c.command === 'string' && c.command.startsWith('/'))
    .map((c) => ({ command: c.command, description: c.description ?? '', usageHint: c.usageHint ?? '' }));
}

export async function loadSlashCommands(): Promise<SlashCommandInfo[]> {
  try {
    const parsed = parseSlashCommands(await readFile(MANIFEST_URL, 'utf8'));
    return parsed.length > 0 ? parsed : FALLBACK;
  } catch {
    return FALLBACK;
  }
}
