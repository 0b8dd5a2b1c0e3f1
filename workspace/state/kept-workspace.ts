import { basename, dirname, join } from 'node:path';
import { readStateFile, StateFileWriter } from '../../src/json-state-file.js';
import type { Logger } from '../../src/log.js';
import { FileBytesFolder } from './file-bytes-folder.js';
import { parseSavedWorkspace, restoreWorkspace, type SavedFile, saveWorkspace } from './saved-workspace.js';
import type { WorkspaceState } from './workspace-state.js';

export interface KeptWorkspace {
  /** Writes what changed now: the bytes of uploads under way first, then workspace.json. */
  flush(): Promise<void>;
}

/** `data/workspace.json` keeps its uploaded files' bytes in `data/workspace-files/<file id>`. */
export function fileBytesDir(statePath: string): string {
  return join(dirname(statePath), `${basename(statePath, '.json')}-files`);
}

/**
 * Takes up the saved workspace and saves it after each change a person could see. An uploaded file's bytes are
 * written once, to a file of their own; workspace.json names the file (metadata only) once they are on disk, so it
 * stays small and a save never rewrites an upload.
 */
export function keepWorkspace(state: WorkspaceState, path: string, logger: Logger): KeptWorkspace {
  const saver = new StateFileWriter({
    path,
    snapshot: () => saveWorkspace(state, (id) => folder.isStored(id)),
    logger,
  });
  let failing = false;
  const folder = new FileBytesFolder({
    dir: fileBytesDir(path),
    onStored: () => {
      failing = false;
      saver.changed();
    },
    onFailed: (id, error) => {
      if (!failing) {
        logger.warn(
          { file: id, dir: folder.dir, err: error },
          `the bytes of file ${id} could not be saved in ${basename(folder.dir)}: it is not kept across a restart`,
        );
      }
      failing = true;
    },
  });

  const saved = readStateFile(
    path,
    (raw) => parseSavedWorkspace(raw, state.identity.teamId),
    logger,
    'the local workspace starts empty',
  );
  if (saved) {
    const inline: SavedFile[] = [];
    const missing = restoreWorkspace(state, saved, (file) => {
      if (file.bytes !== undefined) {
        inline.push(file);
        return Buffer.from(file.bytes, 'base64');
      }
      const bytes = folder.read(file.id);
      // Bytes cut short or swapped by hand are as good as missing: served, they would be another file.
      return bytes && bytes.length === (file as { size?: unknown }).size ? bytes : undefined;
    });
    if (missing.length > 0) {
      logger.warn(
        { files: missing, dir: folder.dir },
        `${missing.length} uploaded file(s) named in ${basename(path)} have no bytes in ${basename(folder.dir)} (${missing.join(', ')}): they answer file_not_found, as a deleted file does`,
      );
    }
    // Removed only beside a workspace.json that was read: the bytes of one kept aside as unreadable stay with it.
    folder.sweep(new Set(state.files.all().map((f) => f.id)));
    // A workspace.json from before the bytes moved out: written out once, then the next save leaves them out.
    for (const file of inline) folder.store(file.id, state.files.get(file.id)!.bytes);
  } else {
    // No saved state, yet the bot's store may hold sends keyed on view ids of earlier runs: new ids never repeat them.
    state.ids.startAbove(state.clock());
  }

  const changed = () => saver.changed();
  state.journal.on('message', changed);
  state.journal.on('view', changed);
  state.journal.on('file', (event) => {
    // Complete (shared), its bytes are final: written once, and workspace.json names the file when they are.
    const file = state.files.get(event.file.id);
    if (file?.completed) folder.store(file.id, file.bytes);
    changed();
  });
  // Joins and opened DMs change the directory, which records nothing of its own.
  state.journal.on('call', (call) => {
    if (call.method.startsWith('conversations.') && call.status === 200) changed();
  });
  return {
    flush: async () => {
      await folder.settled();
      await saver.flush();
    },
  };
}
