import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
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

/**
 * Every Events API event the bot listens to: `app.event('name'`, and `function_executed` for a custom step
 * (`app.function(`), which is how Slack runs one (Bolt routes that event to app.function's listeners).
 */
function listenedEvents(): Set<string> {
  const events = new Set<string>();
  for (const file of sourceFiles('src')) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\bapp\s*\.\s*event\(\s*'(\w+)'/g)) events.add(m[1]!);
    if (/\bapp\s*\.\s*function\(/.test(text)) events.add('function_executed');
  }
  return events;
}

/**
 * Slack's published schema for version 1 manifests, as Slack's own tooling reads it: `_note` is a comment, `regex`
 * (on background_color) a pattern. It is kept beside the repository in shared/ (see
 * test/data/slack-manifest-schema/README.md for where it comes from and why it is not committed here).
 */
const SCHEMA_PATH = join(
  import.meta.dirname,
  '..',
  '..',
  'shared',
  'slack-manifest-schema',
  'manifest.schema.1.0.0.json',
);
const schemaAtHand = existsSync(SCHEMA_PATH);

function slackManifestSchemaV1() {
  const ajv = new Ajv({ allErrors: true, strictTypes: false });
  addFormats.default(ajv);
  ajv.addVocabulary(['_note']);
  ajv.addKeyword({
    keyword: 'regex',
    type: 'string',
    schemaType: 'string',
    validate: (pattern: string, value: string) => new RegExp(pattern).test(value),
  });
  const schema = JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as object;
  return ajv.compile(schema);
}

/** What the schema finds wrong with a manifest: one line per error, empty when Slack would take it. */
function schemaErrors(manifest: unknown): string[] {
  const validate = slackManifestSchemaV1();
  if (validate(manifest)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}

describe('manifest.yml', () => {
  it('is a version 1 manifest: flat function parameters, function_executed subscribed, steps run by the app', () => {
    const manifest = parse(readFileSync('manifest.yml', 'utf8')) as {
      _metadata?: { major_version?: number };
      functions: Record<
        string,
        { input_parameters: Record<string, unknown>; output_parameters: Record<string, unknown> }
      >;
      settings: { function_runtime?: string; event_subscriptions?: { bot_events?: string[] } };
    };
    expect(manifest._metadata?.major_version).toBe(1);
    for (const fn of Object.values(manifest.functions)) {
      for (const parameters of [fn.input_parameters, fn.output_parameters]) {
        // Version 2's `properties` + `required` form is refused by a version 1 manifest.
        expect(Object.keys(parameters)).not.toContain('properties');
        for (const parameter of Object.values(parameters)) expect(parameter).toHaveProperty('type');
      }
    }
    expect(manifest.settings.function_runtime).toBe('remote');
    expect(manifest.settings.event_subscriptions?.bot_events).toContain('function_executed');
  });

  it.skipIf(!schemaAtHand)(
    `is accepted by Slack’s published schema for version 1${schemaAtHand ? '' : ` (skipped: ${SCHEMA_PATH} is not there)`}`,
    () => {
      expect(schemaErrors(parse(readFileSync('manifest.yml', 'utf8')))).toEqual([]);
    },
  );

  it.skipIf(!schemaAtHand)(
    'the schema check refuses what Slack refuses: version 2 parameters in a version 1 manifest, a bad colour',
    () => {
      const manifest = parse(readFileSync('manifest.yml', 'utf8')) as {
        functions: Record<string, { output_parameters: unknown }>;
        display_information: { background_color?: string };
      };
      const nested = structuredClone(manifest);
      nested.functions.get_sms_balance!.output_parameters = {
        properties: { usable: { type: 'number' } },
        required: ['usable'],
      };
      expect(schemaErrors(nested)).toEqual(
        expect.arrayContaining([
          "/functions/get_sms_balance/output_parameters/properties must have required property 'type'",
        ]),
      );
      const colour = structuredClone(manifest);
      colour.display_information.background_color = 'navy';
      expect(schemaErrors(colour)).toHaveLength(1);
    },
  );

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

  it('declares the Workflow Builder steps the code runs, org-ready and run by the app as Slack requires', () => {
    const text = readFileSync('manifest.yml', 'utf8');
    const manifest = parseAppManifest(text);
    expect(manifest.orgDeployEnabled).toBe(true);
    expect(manifest.botEvents).toContain('function_executed');
    expect((parse(text) as { settings: { function_runtime?: string } }).settings.function_runtime).toBe(
      'remote',
    );
    expect([...manifest.functions.keys()].sort()).toEqual([STEP_GET_BALANCE, STEP_SEND_SMS].sort());
    const send = manifest.functions.get(STEP_SEND_SMS)!;
    expect(send.inputs.map((p) => [p.name, p.type, p.is_required])).toEqual([
      ['recipients', 'string', true],
      ['message', 'string', true],
      ['sender', 'string', false],
      // Slack fills it with the person who started the workflow; a user_id input would be whatever the author typed.
      ['interactivity', 'slack#/types/interactivity', false],
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

describe('the local workspace reads function parameters in the shape of the manifest’s version', () => {
  const withParameters = (metadata: string, parameters: string) =>
    `${metadata}functions:\n  step:\n    title: Step\n    description: A step\n    input_parameters:\n${parameters}    output_parameters: {}\n`;

  it('version 1 (no _metadata): a flat map, name -> {type, is_required}', () => {
    const manifest = parseAppManifest(
      withParameters(
        '',
        '      to:\n        type: string\n        is_required: true\n      note:\n        type: string\n',
      ),
    );
    expect(manifest.functions.get('step')!.inputs.map((p) => [p.name, p.is_required])).toEqual([
      ['to', true],
      ['note', false],
    ]);
  });

  it('version 2: properties and a required list; the other shape is refused, not read as no parameters', () => {
    const v2 = parseAppManifest(
      withParameters(
        '_metadata:\n  major_version: 2\n',
        '      properties:\n        to:\n          type: string\n      required: [to]\n',
      ),
    );
    expect(v2.functions.get('step')!.inputs.map((p) => [p.name, p.is_required])).toEqual([['to', true]]);
    expect(() =>
      parseAppManifest(withParameters('', '      properties:\n        to:\n          type: string\n')),
    ).toThrow('functions.step.input_parameters.properties has no type');
  });
});
