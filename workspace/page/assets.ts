import { readdir, readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname } from 'node:path';
import { repoFile } from '../repo-file.js';

const UI_DIR = repoFile('workspace/page/ui/', import.meta.url);

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export interface Asset {
  type: string;
  body: Buffer;
}

/** The page's files (plain HTML, CSS and JavaScript: no build step), read once when the workspace starts. */
export async function loadAssets(): Promise<Map<string, Asset>> {
  const assets = new Map<string, Asset>();
  for (const name of await readdir(UI_DIR)) {
    const type = TYPES[extname(name)];
    if (!type) continue;
    assets.set(name, { type, body: await readFile(new URL(name, UI_DIR)) });
  }
  return assets;
}

export function sendAsset(res: ServerResponse, asset: Asset, head: boolean): void {
  res.writeHead(200, {
    'content-type': asset.type,
    'content-length': asset.body.length,
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    'content-security-policy':
      "default-src 'self'; img-src 'self' data: http: https:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
  });
  res.end(head ? undefined : asset.body);
}
