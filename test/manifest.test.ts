import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STEP_GET_BALANCE, STEP_SEND_SMS } from '../src/slack/ui/workflows.js';
import type { ChannelKind } from '../workspace/state/model.js';
import { parseAppManifest } from '../workspace/web-api/app-manifest.js';
import { METHODS } from '../workspace/web-api/methods/index.js';
import { EVENT_SCOPES, METHOD_SCOPES, parseBotScopes, scopesFor } from '../workspace/web-api/scopes.js';

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

/** Every Events API event the bot listens to (`app.event('name'`). */
function listenedEvents(): Set<string> {
  const events = new Set<string>();
  for (const file of sourceFiles('src')) {
    for (const m of readFileSync(file, 'utf8').matchAll(/\bapp\s*\.\s*event\(\s*'(\w+)'/g)) events.add(m[1]!);
  }
  return events;
}

describe('manifest.yml', () => {
  it('asks for exactly the bot scopes the code needs, in every kind of conversation', () => {
    const methods = calledMethods();
    expect([...methods]).toEqual(expect.arrayContaining(['chat.postMessage', 'conversations.info']));
    const unknown = [...methods].filter((m) => !(m in METHODS) || !(m in METHOD_SCOPES));
    expect(unknown, 'the local workspace must implement and scope-check every method the bot calls').toEqual(
      [],
    );
    const events = [...listenedEvents()];
    expect(
      events.filter((e) => !(e in EVENT_SCOPES)),
      'every event listened to needs its scope rule',
    ).toEqual([]);
    const needed = new Set([
      'commands',
      ...[...methods].flatMap((m) => scopesFor(m, CONVERSATION_KINDS)),
      ...events.flatMap((e) => (EVENT_SCOPES[e] ? [EVENT_SCOPES[e]] : [])),
    ]);
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

  it('subscribes to exactly the events the code listens to', () => {
    const manifest = parseAppManifest(readFileSync('manifest.yml', 'utf8'));
    expect([...manifest.botEvents].sort()).toEqual([...listenedEvents()].sort());
  });

  it('declares the Workflow Builder steps the code runs, org-ready as Slack requires for custom steps', () => {
    const manifest = parseAppManifest(readFileSync('manifest.yml', 'utf8'));
    expect(manifest.orgDeployEnabled).toBe(true);
    expect([...manifest.functions.keys()].sort()).toEqual([STEP_GET_BALANCE, STEP_SEND_SMS].sort());
    const send = manifest.functions.get(STEP_SEND_SMS)!;
    expect(send.inputs.map((p) => [p.name, p.type, p.is_required])).toEqual([
      ['recipients', 'string', true],
      ['message', 'string', true],
      ['sender', 'string', false],
      ['user', 'slack#/types/user_id', true],
    ]);
    expect(send.outputs.map((p) => [p.name, p.type])).toEqual([
      ['message_id', 'string'],
      ['recipients', 'integer'],
    ]);
    expect(manifest.functions.get(STEP_GET_BALANCE)!.outputs.map((p) => p.name)).toEqual([
      'usable',
      'main',
      'limit',
    ]);
  });
});
