import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChannelKind } from '../workspace/state/model.js';
import { METHODS } from '../workspace/web-api/methods/index.js';
import { METHOD_SCOPES, parseBotScopes, scopesFor } from '../workspace/web-api/scopes.js';

/**
 * @slack/web-api helpers that call Web API methods under another name: filesUploadV2 reserves an upload URL and then
 * completes the upload (node-slack-sdk, packages/web-api/src/WebClient.ts).
 */
const HELPER_METHODS: Record<string, string[]> = {
  filesUploadV2: ['files.getUploadURLExternal', 'files.completeUploadExternal'],
};

/** smsops answers in every kind of conversation: public and private channels, group DMs and DMs. */
const CONVERSATION_KINDS: ChannelKind[] = ['public', 'private', 'mpim', 'im'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory())
      return name === 'workspace' || name === 'simulator' ? [] : sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Every Web API method the bot's code calls, however the call is spread over lines. */
function calledMethods(): Set<string> {
  const methods = new Set<string>();
  for (const file of sourceFiles('src')) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\bclient\s*\.\s*([a-z]+)\s*\.\s*(\w+)\s*\(/g))
      methods.add(`${m[1]}.${m[2]}`);
    for (const [helper, called] of Object.entries(HELPER_METHODS)) {
      if (new RegExp(`\\b${helper}\\s*\\(`).test(text)) for (const method of called) methods.add(method);
    }
  }
  return methods;
}

describe('manifest.yml', () => {
  it('asks for exactly the bot scopes the code needs, in every kind of conversation', () => {
    const methods = calledMethods();
    expect([...methods]).toEqual(expect.arrayContaining(['chat.postMessage', 'conversations.info']));
    const unknown = [...methods].filter((m) => !(m in METHODS) || !(m in METHOD_SCOPES));
    expect(unknown, 'the local workspace must implement and scope-check every method the bot calls').toEqual(
      [],
    );
    const needed = new Set(['commands', ...[...methods].flatMap((m) => scopesFor(m, CONVERSATION_KINDS))]);
    // Downloading a file's url_private(_download), as the compose modal's file input needs, takes files:read.
    if (sourceFiles('src').some((f) => /\burl_private/.test(readFileSync(f, 'utf8'))))
      needed.add('files:read');
    const granted = parseBotScopes(readFileSync('manifest.yml', 'utf8'));
    expect([...granted].sort()).toEqual([...needed].sort());
  });

  it('declares the /sms command with a usage hint, interactivity and Socket Mode', () => {
    const text = readFileSync('manifest.yml', 'utf8');
    expect(text).toMatch(/- command: \/sms\n[\s\S]*usage_hint: "help \|/);
    expect(text).toMatch(/interactivity:\s*\n\s*is_enabled: true/);
    expect(text).toMatch(/socket_mode_enabled: true/);
  });
});
