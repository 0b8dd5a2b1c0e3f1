import { existsSync } from 'node:fs';

/**
 * A file of this repository (manifest.yml, the page's files), found from the module that asks whether it runs
 * from the sources (workspace/…, under tsx or vitest) or from the build (dist/…, under `npm start`): the
 * nearest folder above `from` holding both package.json and manifest.yml is the root.
 */
export function repoFile(path: string, from: string): URL {
  let dir = new URL('./', from);
  for (;;) {
    if (existsSync(new URL('package.json', dir)) && existsSync(new URL('manifest.yml', dir))) {
      return new URL(path, dir);
    }
    const parent = new URL('../', dir);
    if (parent.href === dir.href) throw new Error(`no package.json with a manifest.yml above ${from}`);
    dir = parent;
  }
}
