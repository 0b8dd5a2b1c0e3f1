import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(ts|js)$/.test(name) && !name.endsWith('.d.ts'))
    .map((name) => join(dir, name));
}

/** Every module specifier a file names, with how it is loaded. */
function importsOf(file: string): { spec: string; kind: 'static' | 'type' | 'dynamic' }[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const found: { spec: string; kind: 'static' | 'type' | 'dynamic' }[] = [];
  for (const m of text.matchAll(/^\s*(import|export)(\s+type)?\b[^'"]*?from\s+'([^']+)'/gm)) {
    found.push({ spec: m[3]!, kind: m[2] ? 'type' : 'static' });
  }
  for (const m of text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)) found.push({ spec: m[1]!, kind: 'dynamic' });
  return found;
}

const resolved = (file: string, spec: string) => relative(ROOT, join(ROOT, file, '..', spec));

describe('the Slack stand-in is a tool beside the product', () => {
  it('lives outside src/, and the product loads it only when local mode asks, through its one entry', () => {
    expect(sources('src').filter((f) => f.startsWith(join('src', 'workspace')))).toEqual([]);
    const uses = sources('src').flatMap((file) =>
      importsOf(file)
        .filter(({ spec }) => spec.startsWith('.') && resolved(file, spec).startsWith('workspace'))
        .map(({ spec, kind }) => ({ file, target: resolved(file, spec), kind })),
    );
    expect(uses.filter((u) => u.kind === 'static')).toEqual([]);
    expect(uses.filter((u) => u.kind === 'dynamic')).toEqual([
      { file: join('src', 'bot.ts'), target: join('workspace', 'index.js'), kind: 'dynamic' },
    ]);
  });

  it('uses of the product are few and named: logging, secrets, same-site checks, state files, the simulator’s operations', () => {
    const used = new Set(
      sources('workspace').flatMap((file) =>
        importsOf(file)
          .map(({ spec }) => (spec.startsWith('.') ? resolved(file, spec) : ''))
          .filter((target) => target.startsWith('src')),
      ),
    );
    expect([...used].sort()).toEqual(
      [
        'src/http/same-site.js',
        'src/json-state-file.js',
        'src/log.js',
        'src/secrets.js',
        'src/simulator/types.js',
      ].map((p) => join(...p.split('/'))),
    );
  });
});

describe('metrics are kept apart and loaded only when asked for', () => {
  it('prom-client is imported in src/metrics/ alone', () => {
    const users = sources('src').filter((file) => importsOf(file).some(({ spec }) => spec === 'prom-client'));
    expect(users.length).toBeGreaterThan(0);
    expect(users.filter((f) => !f.startsWith(join('src', 'metrics')))).toEqual([]);
  });

  it('the parts that feed them know only their own observer interfaces, and bot.ts loads src/metrics/ only when METRICS_PORT is set', () => {
    const uses = sources('src').flatMap((file) =>
      importsOf(file)
        .filter(({ spec }) => spec.startsWith('.') && resolved(file, spec).startsWith(join('src', 'metrics')))
        .filter(() => !file.startsWith(join('src', 'metrics')))
        .map(({ kind }) => ({ file, kind })),
    );
    expect(uses.filter((u) => u.kind !== 'type')).toEqual([{ file: join('src', 'bot.ts'), kind: 'dynamic' }]);
    expect(uses.filter((u) => u.kind === 'type').map((u) => u.file)).toEqual([join('src', 'bot.ts')]);
  });
});
