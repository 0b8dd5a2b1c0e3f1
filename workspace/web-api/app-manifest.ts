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

interface RawParameters {
  properties?: Record<string, { type?: string; title?: string; description?: string; is_required?: boolean }>;
  required?: string[];
}

function parameters(raw: RawParameters | undefined): FunctionParameter[] {
  const required = new Set(raw?.required ?? []);
  return Object.entries(raw?.properties ?? {}).map(([name, p]) => ({
    name,
    type: p.type ?? 'string',
    ...(p.title ? { title: p.title } : {}),
    ...(p.description ? { description: p.description } : {}),
    is_required: required.has(name) || p.is_required === true,
  }));
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
    oauth_config?: { scopes?: { bot?: unknown } };
    features?: { slash_commands?: unknown };
    settings?: { event_subscriptions?: { bot_events?: string[] }; org_deploy_enabled?: boolean };
    functions?: Record<
      string,
      {
        title?: string;
        description?: string;
        input_parameters?: RawParameters;
        output_parameters?: RawParameters;
      }
    >;
  };
  const functions = new Map<string, FunctionDefinition>();
  for (const [callbackId, f] of Object.entries(doc.functions ?? {})) {
    functions.set(callbackId, {
      callbackId,
      title: f.title ?? callbackId,
      ...(f.description ? { description: f.description } : {}),
      inputs: parameters(f.input_parameters),
      outputs: parameters(f.output_parameters),
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
