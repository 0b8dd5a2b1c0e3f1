import { z } from 'zod';
import type { Channel, SlackMessage, StoredFile, ViewOutput } from './model.js';
import type { WorkspaceState } from './workspace-state.js';

/** Bumped when the shape changes: a file of another version is read as unreadable, and the workspace starts fresh. */
const VERSION = 1;

const user = z.object({
  id: z.string(),
  name: z.string(),
  realName: z.string(),
  isAdmin: z.boolean(),
  isBot: z.boolean(),
  tz: z.string(),
  email: z.string().optional(),
});

const channel = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(['public', 'private', 'mpim', 'im']),
  members: z.array(z.string()),
  imUser: z.string().optional(),
  createdSec: z.number(),
  isArchived: z.boolean(),
  topic: z.string(),
  purpose: z.string(),
});

// Messages and views are kept in the shape the Web API returned them; only what finding them needs is checked.
const message = z.looseObject({ type: z.literal('message'), channel: z.string(), ts: z.string() });
const view = z.looseObject({ id: z.string() });

const file = z.looseObject({
  id: z.string(),
  name: z.string(),
  channels: z.array(z.string()),
  /**
   * The file's bytes, base64, in files saved before the bytes moved to a file of their own beside workspace.json
   * (FileBytesFolder); read once and written out there.
   */
  bytes: z.base64().optional(),
});

export type SavedFile = z.output<typeof file>;

/** What a restart of local mode keeps of the workspace: people, channels, messages and threads, files, views. */
const savedWorkspaceSchema = z.object({
  version: z.literal(VERSION),
  teamId: z.string(),
  ids: z.record(z.string(), z.number().int().nonnegative()),
  users: z.array(user),
  channels: z.array(channel),
  messages: z.array(message),
  files: z.array(file),
  views: z.object({
    views: z.array(z.object({ userId: z.string(), view })),
    stacks: z.record(z.string(), z.array(z.string())),
    homes: z.record(z.string(), z.string()),
  }),
});

export type SavedWorkspace = z.output<typeof savedWorkspaceSchema>;

/** Throws a one-line reason when the file is not a saved workspace (of this team). */
export function parseSavedWorkspace(raw: unknown, teamId: string): SavedWorkspace {
  const parsed = savedWorkspaceSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${issue.path.join('.') || 'the file'}: ${issue.message}`);
  }
  if (parsed.data.teamId !== teamId) throw new Error(`it is team ${parsed.data.teamId}'s, not ${teamId}'s`);
  return parsed.data;
}

/**
 * The workspace as JSON. The journal (API calls, events) is not kept: it is what happened in this run. Files are
 * named with their metadata only, and only once `hasBytesStored` says their bytes are whole on disk.
 */
export function saveWorkspace(
  state: WorkspaceState,
  hasBytesStored: (id: string) => boolean,
): SavedWorkspace {
  return {
    version: VERSION,
    teamId: state.identity.teamId,
    ids: state.ids.counters(),
    users: state.directory.users(),
    channels: state.directory.channels().map((c) => ({ ...c, members: [...c.members] })),
    messages: state.messages.all() as unknown as SavedWorkspace['messages'],
    files: state.files
      .all()
      .filter((f) => f.completed && hasBytesStored(f.id))
      .map(({ bytes: _bytes, ...metadata }) => metadata),
    views: state.views.saved() as unknown as SavedWorkspace['views'],
  };
}

/**
 * Takes up a saved workspace; each file's bytes come from `bytesOf`. A file whose bytes are missing is left out, so
 * it answers as a file deleted in Slack does (file_not_found). Returns the ids of those left out.
 */
export function restoreWorkspace(
  state: WorkspaceState,
  saved: SavedWorkspace,
  bytesOf: (file: SavedFile) => Buffer | undefined,
): string[] {
  state.ids.restore(saved.ids);
  state.directory.restore(saved.users, saved.channels as unknown as Channel[]);
  state.messages.restore(saved.messages as unknown as SlackMessage[]);
  const files: StoredFile[] = [];
  const missing: string[] = [];
  for (const file of saved.files) {
    const bytes = bytesOf(file);
    if (bytes) files.push({ ...(file as unknown as StoredFile), bytes });
    else missing.push(file.id);
  }
  state.files.restore(files);
  state.views.restore(
    saved.views as unknown as {
      views: Array<{ userId: string; view: ViewOutput }>;
      stacks: Record<string, string[]>;
      homes: Record<string, string>;
    },
  );
  return missing;
}
