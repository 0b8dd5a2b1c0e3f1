import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The Web API methods smsops calls, and the bot scope each needs (none for views.* and auth.test). */
const SCOPE_OF: Record<string, string | null> = {
  'auth.test': null,
  'chat.postMessage': 'chat:write',
  'chat.update': 'chat:write',
  'chat.postEphemeral': 'chat:write',
  'chat.delete': 'chat:write',
  'chat.getPermalink': null,
  'conversations.join': 'channels:join',
  'conversations.info': 'channels:read',
  'users.info': 'users:read',
  'views.open': null,
  'views.update': null,
  'views.push': null,
  'views.publish': null,
  'files.getUploadURLExternal': 'files:write',
  'files.completeUploadExternal': 'files:write',
  filesUploadV2: 'files:write',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory())
      return name === 'workspace' || name === 'simulator' ? [] : sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

function calledMethods(): Set<string> {
  const methods = new Set<string>();
  for (const file of sourceFiles('src')) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\bclient\.(chat|views|conversations|files|users|auth)\.(\w+)\(/g))
      methods.add(`${m[1]}.${m[2]}`);
    for (const m of text.matchAll(/\b(filesUploadV2)\(/g)) methods.add(m[1]!);
  }
  return methods;
}

function manifestScopes(): Set<string> {
  const text = readFileSync('manifest.yml', 'utf8');
  const block = /scopes:\s*\n\s*bot:\s*\n((?:[ \t]*(?:#[^\n]*|-\s*\S+)[ \t]*\n)+)/.exec(text);
  if (!block) throw new Error('manifest.yml has no oauth_config.scopes.bot list');
  return new Set([...block[1]!.matchAll(/^\s*-\s*(\S+)/gm)].map((m) => m[1]!));
}

describe('manifest.yml', () => {
  it('asks for exactly the bot scopes the code needs', () => {
    const methods = calledMethods();
    expect(methods.size).toBeGreaterThan(3);
    const unknown = [...methods].filter((m) => !(m in SCOPE_OF));
    expect(unknown, 'add these methods and their scope to SCOPE_OF').toEqual([]);
    const needed = new Set([
      'commands',
      ...[...methods].map((m) => SCOPE_OF[m]).filter((s): s is string => s !== null),
    ]);
    expect([...manifestScopes()].sort()).toEqual([...needed].sort());
  });

  it('declares the /sms command with a usage hint, interactivity and Socket Mode', () => {
    const text = readFileSync('manifest.yml', 'utf8');
    expect(text).toMatch(/- command: \/sms\n[\s\S]*usage_hint: "help \|/);
    expect(text).toMatch(/interactivity:\s*\n\s*is_enabled: true/);
    expect(text).toMatch(/socket_mode_enabled: true/);
  });
});
