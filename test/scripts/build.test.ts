import { spawn } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeFlags } from '../../bench/node-flags.js';
import { build, builtSignature, ensureBuilt, isStale, ROOT, sourceSignature } from '../../scripts/build.mjs';
import { startFakeSlack } from '../../workspace/index.js';
import { closedPort } from '../support/raw-server.js';
import { startTestSimulator } from '../support/simulator.js';

describe('the staleness check of `npm start` (scripts/build.mjs)', () => {
  let root: string;
  let dist: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'smsops-build-'));
    dist = join(root, 'dist');
    mkdirSync(join(root, 'src'));
    mkdirSync(join(root, 'workspace'));
    writeFileSync(join(root, 'src', 'main.ts'), 'export const a = 1;\n');
    writeFileSync(join(root, 'workspace', 'index.ts'), 'export const b = 2;\n');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const stamp = () => {
    mkdirSync(dist, { recursive: true });
    writeFileSync(join(dist, '.build-stamp.json'), JSON.stringify({ signature: sourceSignature(root) }));
  };

  it('finds no build stale until one is stamped with the sources it was made from', () => {
    rmSync(dist, { recursive: true, force: true });
    expect(builtSignature(dist)).toBeUndefined();
    expect(isStale({ root, dist })).toBe(true);
    stamp();
    expect(isStale({ root, dist })).toBe(false);
  });

  it('finds the build stale when a source is edited, added or removed, even with an older time', () => {
    stamp();
    writeFileSync(join(root, 'src', 'main.ts'), 'export const a = 12;\n');
    expect(isStale({ root, dist })).toBe(true);

    stamp();
    // A checkout can give a file an older modification time than the build's: still a change.
    utimesSync(join(root, 'src', 'main.ts'), new Date('2020-01-01'), new Date('2020-01-01'));
    expect(isStale({ root, dist })).toBe(true);

    stamp();
    writeFileSync(join(root, 'workspace', 'new.ts'), 'export {};\n');
    expect(isStale({ root, dist })).toBe(true);

    stamp();
    rmSync(join(root, 'workspace', 'new.ts'));
    expect(isStale({ root, dist })).toBe(true);
  });
});

/**
 * Spawns node with `args` (cwd: the repository), waits for a healthy /healthz, runs `whileUp`, then stops it with
 * SIGTERM and expects exit 0; resolves with what it wrote. A process that exits or never answers fails the test.
 */
async function runUntilHealthy(
  args: string[],
  env: Record<string, string>,
  whileUp?: (base: string) => Promise<void>,
): Promise<string> {
  const port = await closedPort();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  try {
    const deadline = Date.now() + 25_000;
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`)
        .then((r) => r.status === 200)
        .catch(() => false);
      if (ok) break;
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`never healthy:\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    await whileUp?.(`http://127.0.0.1:${port}`);
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
  return output;
}

/**
 * Spawns the built bot as `npm start` runs it, with the module recorder; resolves with what it loaded once it
 * was healthy and stopped, and what became of the bundle's code cache.
 */
async function loadedBy(
  dist: string,
  env: Record<string, string>,
  whileUp?: (base: string) => Promise<void>,
): Promise<{ loaded: string[]; cache: string | undefined }> {
  const file = join(dist, `loaded-${process.hrtime.bigint()}.txt`);
  // With npm start's node flags: Node refuses to start with a V8 flag it does not know, and the cache is theirs.
  const output = await runUntilHealthy(
    [
      ...startNodeFlags(),
      '--import',
      './test/support/loaded-modules.mjs',
      './test/support/run-build.mjs',
      dist,
    ],
    { LOADED_MODULES_FILE: file, ...env },
    whileUp,
  );
  return {
    loaded: readFileSync(file, 'utf8').split('\n'),
    cache: /bundle cache: (\w+)/.exec(output)?.[1],
  };
}

describe('the build `npm start` runs', () => {
  // A build of its own beside dist/ (ignored by git), so the test never races a developer's `npm start`.
  const dist = join(ROOT, `dist.test-${process.pid}`);
  let chunks: { workspace: string; simulator: string };
  const dataDir = mkdtempSync(join(tmpdir(), 'smsops-build-run-'));
  beforeAll(async () => {
    await build({ dist });
    const meta = JSON.parse(readFileSync(join(dist, 'meta.json'), 'utf8')) as {
      outputs: Record<string, { inputs: Record<string, unknown> }>;
    };
    const holding = (input: string) => {
      const out = Object.entries(meta.outputs).find(([o, v]) => !o.endsWith('.map') && input in v.inputs);
      if (!out) throw new Error(`no output holds ${input}`);
      return out[0].split('/').at(-1)!;
    };
    chunks = { workspace: holding('workspace/index.ts'), simulator: holding('src/simulator/server.ts') };
  }, 60_000);
  afterAll(() => {
    rmSync(dist, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is current after a build, so the next start does not compile again', async () => {
    expect(isStale({ dist })).toBe(false);
    expect(await ensureBuilt({ dist })).toBe(false);
  });

  it('puts the local workspace and the simulator in bundles of their own, not in main.cjs', () => {
    expect(chunks).toEqual({ workspace: 'workspace.cjs', simulator: 'simulator.cjs' });
  });

  it('makes the reading thread of uploaded files a bundle of its own, which reads a file in a worker thread', async () => {
    const meta = JSON.parse(readFileSync(join(dist, 'meta.json'), 'utf8')) as {
      outputs: Record<string, { inputs: Record<string, unknown> }>;
    };
    const reader = Object.entries(meta.outputs).find(([o]) => o.endsWith('/table-reader.cjs'));
    expect(reader && 'src/tables/worker/thread-main.ts' in reader[1].inputs).toBe(true);
    const thread = new Worker(join(dist, 'table-reader.cjs'));
    try {
      const bytes = new Uint8Array(Buffer.from('Telefon\n05321234567\n'));
      // The long lists come first, a chunk each time more is asked for (src/tables/worker/wire.ts).
      const answer = new Promise((resolve) =>
        thread.on('message', (message: { type: string }) => {
          if (message.type === 'chunk') thread.postMessage({ type: 'more' });
          else resolve(message);
        }),
      );
      thread.postMessage({
        type: 'read',
        filename: 'a.csv',
        bytes,
        request: { purpose: 'recipients', country: 'TR' },
      });
      expect(await answer).toMatchObject({
        type: 'done',
        reading: { purpose: 'recipients', meta: { kind: 'csv' } },
      });
    } finally {
      await thread.terminate();
    }
  });

  it('keeps the file readers (iconv-lite, Papa Parse) and undici out of main.cjs, and every bundle ASCII', () => {
    const meta = JSON.parse(readFileSync(join(dist, 'meta.json'), 'utf8')) as {
      outputs: Record<string, { inputs: Record<string, unknown> }>;
    };
    const main = Object.entries(meta.outputs).find(([o]) => o.endsWith('/main.cjs'))![1];
    const inMain = Object.keys(main.inputs);
    expect(inMain.filter((i) => /node_modules\/(iconv-lite|papaparse)\//.test(i))).toEqual([]);
    // The gateway client's Pool is Bolt's own undici (its Socket Mode client loads it at start), not a copy.
    expect(inMain.filter((i) => i.includes('node_modules/undici/'))).toEqual([]);
    // No import() in a bundle: a script from V8's code cache cannot run one (scripts/build.mjs, lazyRequires).
    for (const file of readdirSync(dist).filter((f) => f.endsWith('.cjs'))) {
      expect({ file, imports: readFileSync(join(dist, file), 'latin1').match(/\bimport\("/g) }).toEqual({
        file,
        imports: null,
      });
    }
    // One non-ASCII character makes V8 hold a whole file's source as a two-byte string: twice the memory.
    // (scripts/bundle.mjs reads them as latin1 for that reason.)
    for (const file of readdirSync(dist).filter((f) => f.endsWith('.cjs'))) {
      expect({ file, ascii: readFileSync(join(dist, file)).every((byte) => byte < 0x80) }).toEqual({
        file,
        ascii: true,
      });
    }
  });

  it('in HTTP mode with a real gateway loads neither the workspace, the simulator, pg, pino-pretty, the chart renderer, exceljs, prom-client nor ICU formatting data', async () => {
    const fake = await startFakeSlack();
    const { sim } = await startTestSimulator();
    try {
      const env = {
        SLACK_BOT_TOKEN: fake.botToken,
        SLACK_SIGNING_SECRET: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
        SLACK_API_URL: fake.apiUrl,
        SMS_GATEWAY_URL: sim.url,
        SMS_GATEWAY_USERNAME: 'demo',
        SMS_GATEWAY_PASSWORD: 'demo',
        DATABASE_URL: `sqlite:${join(dataDir, 'http.db')}`,
      };
      // The first start after a build compiles and leaves the code cache; the next one runs from it.
      expect((await loadedBy(dist, env)).cache).toBe('missing');
      expect(readdirSync(dist).filter((f) => /^main\.cjs\.[0-9a-f]{16}\.v8cache$/.test(f))).toHaveLength(1);
      const { loaded, cache } = await loadedBy(dist, env);
      expect(cache).toBe('used');
      // The recorder works: Bolt and the database driver were seen.
      expect(loaded.some((f) => f.includes('node_modules/@slack/bolt/'))).toBe(true);
      expect(loaded.some((f) => f.includes('node_modules/better-sqlite3/'))).toBe(true);
      const never = [
        chunks.workspace,
        chunks.simulator,
        'node_modules/pino-pretty/',
        'node_modules/@resvg/resvg-wasm/',
        'node_modules/pg/',
        // Loaded on first use only: a spreadsheet read, or METRICS_PORT set.
        'node_modules/exceljs/',
        'node_modules/prom-client/',
      ];
      for (const name of never) expect(loaded.filter((f) => f.includes(name))).toEqual([]);
      // Zones left at UTC and nothing shown yet: ICU's formatting data (8 MB) is never loaded.
      expect(loaded.filter((f) => f.startsWith('intl:'))).toEqual([]);
      // One undici: the gateway client's Pool is the copy Bolt loads (seen as an ES import and in require's cache).
      const undici = loaded.filter((f) => /node_modules\/undici\/index\.js$/.test(f));
      expect(new Set(undici.map((f) => f.replace(/^file:\/\//, ''))).size).toBe(1);
    } finally {
      await sim.close();
      await fake.close();
    }
  }, 60_000);

  it('runs as a program, `node dist/main.cjs`, through a symlinked release folder too', async () => {
    const link = join(dataDir, 'current');
    symlinkSync(dist, link);
    // Before, the entry check compared the symlinked path with the real one: nothing ran, and it exited 0.
    await runUntilHealthy([join(link, 'main.cjs')], { DATABASE_URL: `sqlite:${join(dataDir, 'link.db')}` });
  }, 60_000);

  it('in local mode loads the workspace, the simulator and readable logs', async () => {
    // The workspace's page and its first call, which reads manifest.yml from the repository (found from dist/).
    const page: Record<string, unknown> = {};
    const { loaded } = await loadedBy(
      dist,
      { DATABASE_URL: `sqlite:${join(dataDir, 'local.db')}` },
      async (base) => {
        page.status = (await fetch(`${base}/`)).status;
        const boot = await fetch(`${base}/_ws/bootstrap`, { headers: { 'sec-fetch-site': 'same-origin' } });
        const body = (await boot.json()) as { me?: unknown; app?: { name?: unknown } };
        page.bootstrap = { status: boot.status, me: body.me, app: body.app?.name };
      },
    );
    expect(page).toEqual({ status: 200, bootstrap: { status: 200, me: 'U0ADMIN', app: 'smsops' } });
    for (const name of [chunks.workspace, chunks.simulator, 'node_modules/pino-pretty/']) {
      expect(loaded.some((f) => f.includes(name))).toBe(true);
    }
    expect(loaded.filter((f) => f.includes('node_modules/pg/'))).toEqual([]);
  }, 60_000);
});
