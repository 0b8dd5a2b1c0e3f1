import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { repoFile } from '../repo-file.js';

/** One input or output parameter of a custom step, as Slack puts it in `function_executed` (`function.input_parameters`). */
export interface FunctionParameter {
  name: string;
  type: string;
  title?: string;
  description?: string;
  is_required: boolean;
}

/** A custom step declared under `functions` in the manifest. */
export interface FunctionDefinition {
  callbackId: string;
  title: string;
  description?: string;
  inputs: FunctionParameter[];
  outputs: FunctionParameter[];
}

/** A slash command as Slack shows it in the composer's autocomplete: name, usage hint and description. */
export interface SlashCommandInfo {
  command: string;
  description: string;
  usageHint: string;
}

/**
 * What of the app's manifest the workspace honours: the bot scopes a token installed from it carries, its slash
 * commands, the events it subscribes to, its custom steps. manifest.yml is read here only, as YAML.
 */
export interface AppManifest {
  botScopes: string[];
  slashCommands: SlashCommandInfo[];
  botEvents: string[];
  orgDeployEnabled: boolean;
  functions: Map<string, FunctionDefinition>;
}

type RawParameter = { type?: unknown; title?: unknown; description?: unknown; is_required?: unknown };

/** Version 2 (`_metadata.major_version: 2`, the Deno Slack SDK's): `properties` plus a `required` list. */
interface RawParametersV2 {
  properties?: Record<string, RawParameter>;
  required?: string[];
}

/** The manifest's major version as Slack reads it: no `_metadata` is version 1. */
function majorVersionOf(doc: { _metadata?: { major_version?: unknown } }): 1 | 2 {
  const version = doc._metadata?.major_version ?? 1;
  if (version !== 1 && version !== 2)
    throw new Error(`manifest: _metadata.major_version ${version} is neither 1 nor 2`);
  return version;
}

/**
 * A function's parameters in the shape its manifest version has, and only that shape (Slack refuses the other):
 * version 1 is a flat map, name -> {type, title, description, is_required}; version 2 nests that map under
 * `properties` and lists the required names under `required`.
 */
function parameters(raw: unknown, version: 1 | 2, where: string): FunctionParameter[] {
  const map = (version === 1 ? raw : (raw as RawParametersV2 | undefined)?.properties) ?? {};
  const required = new Set(version === 2 ? ((raw as RawParametersV2 | undefined)?.required ?? []) : []);
  return Object.entries(map as Record<string, RawParameter>).map(([name, p]) => {
    if (typeof p?.type !== 'string')
      throw new Error(
        `manifest: ${where}.${name} has no type (a version ${version} manifest writes parameters ${
          version === 1 ? 'as name: {type, title, is_required}' : 'under properties, with a required list'
        })`,
      );
    return {
      name,
      type: p.type,
      ...(typeof p.title === 'string' ? { title: p.title } : {}),
      ...(typeof p.description === 'string' ? { description: p.description } : {}),
      is_required: required.has(name) || p.is_required === true,
    };
  });
}

/** The commands under features.slash_commands that name a command (`/…`); the others are left out. */
function slashCommandsOf(raw: unknown): SlashCommandInfo[] {
  if (!Array.isArray(raw)) return [];
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return raw
    .filter((c): c is Record<string, unknown> => typeof c === 'object' && c !== null)
    .filter((c) => text(c.command).startsWith('/'))
    .map((c) => ({
      command: text(c.command),
      description: text(c.description),
      usageHint: text(c.usage_hint),
    }));
}

/** Reads a manifest (YAML, as manifest.yml is written). */
export function parseAppManifest(text: string): AppManifest {
  const doc = (parse(text) ?? {}) as {
    _metadata?: { major_version?: unknown };
    oauth_config?: { scopes?: { bot?: unknown } };
    features?: { slash_commands?: unknown };
    settings?: { event_subscriptions?: { bot_events?: string[] }; org_deploy_enabled?: boolean };
    functions?: Record<
      string,
      {
        title?: string;
        description?: string;
        input_parameters?: unknown;
        output_parameters?: unknown;
      }
    >;
  };
  const version = majorVersionOf(doc);
  const functions = new Map<string, FunctionDefinition>();
  for (const [callbackId, f] of Object.entries(doc.functions ?? {})) {
    functions.set(callbackId, {
      callbackId,
      title: f.title ?? callbackId,
      ...(f.description ? { description: f.description } : {}),
      inputs: parameters(f.input_parameters, version, `functions.${callbackId}.input_parameters`),
      outputs: parameters(f.output_parameters, version, `functions.${callbackId}.output_parameters`),
    });
  }
  const scopes = doc.oauth_config?.scopes?.bot;
  return {
    botScopes: Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === 'string') : [],
    slashCommands: slashCommandsOf(doc.features?.slash_commands),
    botEvents: doc.settings?.event_subscriptions?.bot_events ?? [],
    orgDeployEnabled: doc.settings?.org_deploy_enabled === true,
    functions,
  };
}

// Found from the running module, sources or build (a path relative to this file is one level off in dist/).
const MANIFEST_URL = repoFile('manifest.yml', import.meta.url);
let cached: AppManifest | undefined;

/** This repository's manifest.yml: what an app installed from it gets. */
export function appManifest(): AppManifest {
  cached ??= parseAppManifest(readFileSync(MANIFEST_URL, 'utf8'));
  return cached;
}
