/**
 * Draws docs/grafana/smsops-dashboard.png: NOT a Grafana screenshot (Grafana cannot be installed here), but
 * the shipped dashboard JSON drawn faithfully by this script. It starts the real bot through the Slack
 * harness with METRICS_PORT set, runs a scripted workload (sends through the compose modal, inbound SMS
 * relayed by the relay's own loop, gateway faults, a Slack 429), scrapes GET /metrics every second,
 * evaluates each panel's PromQL over those scrapes (test/metrics/promql.ts, Prometheus' own grammar) and
 * draws every panel where its gridPos puts it, with Debian's Chromium.
 *
 *   npx tsx test/metrics/render-dashboard.ts [seconds]   (default 75)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { launchChromium } from '../browser/support.js';
import { channels, startHarness, users } from '../support/slack-harness.js';
import { evaluate, interpolate, type Scrape } from './promql.js';
import { parseExposition } from './scrape.js';

interface Panel {
  type: string;
  title: string;
  gridPos: { h: number; w: number; x: number; y: number };
  fieldConfig?: { defaults?: { unit?: string } };
  targets?: Array<{ expr: string; legendFormat?: string }>;
}

const ROOT = join(import.meta.dirname, '..', '..');
const DASHBOARD = join(ROOT, 'docs', 'grafana', 'smsops-dashboard.json');
const OUT = join(ROOT, 'docs', 'grafana', 'smsops-dashboard.png');
const SECONDS = Number(process.argv[2] ?? 75);
const RATE_INTERVAL = '15s';
const INSTANCE = 'smsops:9464';

async function workload(h: Awaited<ReturnType<typeof startHarness>>, until: number): Promise<void> {
  let n = 0;
  const phone = (i: number) =>
    `0532 ${String(1_000_000 + i).slice(1, 4)} ${String(10 + (i % 89))} ${String(10 + (i % 83))}`;
  while (Date.now() < until) {
    n++;
    // A send of 1 to 6 recipients every other round; one in five is slow at the gateway, one in seven refused.
    if (n % 2 === 0) {
      if (n % 10 === 0) await h.control.fault({ operation: 'Submit', kind: 'timeout', delayMs: 600 });
      if (n % 14 === 0) await h.control.fault({ operation: 'Submit', kind: 'status', code: 401 });
      const count = 1 + (n % 6);
      const view = await h.openCompose('send');
      await h.submitCompose(view, {
        recipients: Array.from({ length: count }, (_, i) => phone(n * 7 + i)).join('\n'),
        text: n % 4 === 0 ? `Kampanya: ${'indirim '.repeat(25)}` : 'Your order is ready',
      });
    }
    // Inbound SMS in bursts; Slack answers one post with a 429 now and then.
    if (n % 3 === 0) {
      await h.control.inbound(
        Array.from({ length: 1 + (n % 4) }, (_, i) => ({
          MSISDN: `90555${1_000_000 + n * 10 + i}`,
          Text: `Reply ${n}.${i}`,
        })),
      );
    }
    if (n % 11 === 0) h.fake.injectFault({ method: 'chat.postMessage', status: 429, retryAfter: 1 });
    // Once, Slack fails posts for a while: inbound SMS wait, and the lag shows it.
    if (n === Math.floor(SECONDS / 2))
      h.fake.injectFault({ method: 'chat.postMessage', status: 500, times: 8 });
    if (n % 9 === 0) await h.control.fault({ operation: 'QueryMulti', kind: 'http500' });
    if (n % 4 === 0) await h.control.advance({ deliver: 0.9 });
    await sleep(1_000);
  }
}

function format(value: number, unit: string): string {
  if (!Number.isFinite(value)) return '–';
  if (unit === 'bytes')
    return value >= 1 << 30
      ? `${(value / (1 << 30)).toFixed(1)} GiB`
      : `${(value / (1 << 20)).toFixed(0)} MiB`;
  if (unit === 'percentunit') return `${(value * 100).toFixed(1)}%`;
  if (unit === 's')
    return value < 1 ? `${(value * 1000).toFixed(value < 0.01 ? 1 : 0)} ms` : `${value.toFixed(1)} s`;
  return Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(value % 1 === 0 ? 0 : 1);
}

const COLORS = [
  '#73bf69',
  '#f2cc0c',
  '#5794f2',
  '#ff9830',
  '#f2495c',
  '#b877d9',
  '#8ab8ff',
  '#ff7383',
  '#96d98d',
  '#fade2a',
];
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function legendOf(format: string | undefined, labels: Record<string, string>): string {
  if (!format) return JSON.stringify(labels);
  return format.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, l: string) => labels[l] ?? '');
}

function seriesOf(panel: Panel, history: Scrape[]): Map<string, Array<[number, number]>> {
  const series = new Map<string, Array<[number, number]>>();
  for (const target of panel.targets ?? []) {
    const expr = interpolate(target.expr, { rateInterval: RATE_INTERVAL, instance: '.*' });
    for (let at = 0; at < history.length; at++) {
      for (const s of evaluate(expr, history, at)) {
        const name = legendOf(target.legendFormat, s.labels);
        const points = series.get(name) ?? [];
        if (Number.isFinite(s.value)) points.push([history[at]!.t, s.value]);
        series.set(name, points);
      }
    }
  }
  return series;
}

function timeseriesSvg(
  series: Map<string, Array<[number, number]>>,
  unit: string,
  w: number,
  h: number,
  t0: number,
  t1: number,
): string {
  const left = 62;
  const bottom = 20;
  const plotW = w - left - 10;
  const plotH = h - bottom - 6;
  const all = [...series.values()].flat().map(([, v]) => v);
  const max = Math.max(...all, 0) * 1.1 || 1;
  const x = (t: number) => left + ((t - t0) / Math.max(1, t1 - t0)) * plotW;
  const y = (v: number) => 6 + plotH - (v / max) * plotH;
  let svg = `<svg width="${w}" height="${h}">`;
  for (let i = 0; i <= 4; i++) {
    const v = (max * i) / 4;
    svg += `<line x1="${left}" x2="${left + plotW}" y1="${y(v)}" y2="${y(v)}" stroke="#2c3235"/>`;
    svg += `<text x="${left - 6}" y="${y(v) + 4}" text-anchor="end">${esc(format(v, unit))}</text>`;
  }
  const ticks = Math.max(1, Math.min(4, Math.floor(plotW / 90)));
  for (let i = 0; i <= ticks; i++) {
    const t = t0 + ((t1 - t0) * i) / ticks;
    const label = new Date(t * 1000).toISOString().slice(11, 19);
    const anchor = i === 0 ? 'start' : i === ticks ? 'end' : 'middle';
    svg += `<text x="${x(t)}" y="${h - 4}" text-anchor="${anchor}">${label}</text>`;
  }
  [...series.values()].forEach((points, i) => {
    if (points.length === 0) return;
    const color = COLORS[i % COLORS.length];
    const d = points
      .map(([t, v], j) => `${j === 0 ? 'M' : 'L'}${x(t).toFixed(1)},${y(v).toFixed(1)}`)
      .join(' ');
    const area = `${d} L${x(points.at(-1)![0]).toFixed(1)},${y(0)} L${x(points[0]![0]).toFixed(1)},${y(0)} Z`;
    svg += `<path d="${area}" fill="${color}" fill-opacity="0.1"/><path d="${d}" fill="none" stroke="${color}" stroke-width="2"/>`;
  });
  return `${svg}</svg>`;
}

function panelHtml(panel: Panel, history: Scrape[], unitPx: { col: number; row: number }): string {
  const { x, y, w, h } = panel.gridPos;
  const style = `left:${x * unitPx.col}px;top:${y * unitPx.row}px;width:${w * unitPx.col - 8}px;height:${h * unitPx.row - 8}px`;
  if (panel.type === 'row') return `<div class="row" style="${style}">${esc(panel.title)}</div>`;
  const unit = panel.fieldConfig?.defaults?.unit ?? 'short';
  const series = seriesOf(panel, history);
  const width = w * unitPx.col - 8;
  const height = h * unitPx.row - 8;
  let body: string;
  if (panel.type === 'stat') {
    const last = [...series.values()].map((p) => p.at(-1)?.[1] ?? Number.NaN);
    body = `<div class="stat">${esc(
      format(
        last.reduce((a, b) => (Number.isNaN(a) ? b : a + b), Number.NaN),
        unit,
      ),
    )}</div>`;
  } else {
    const legend = [...series.keys()]
      .map((name, i) => `<span><i style="background:${COLORS[i % COLORS.length]}"></i>${esc(name)}</span>`)
      .join('');
    const legendRows = Math.ceil(series.size / Math.max(1, Math.floor(width / 170)));
    const chart = timeseriesSvg(
      series,
      unit,
      width - 8,
      height - 34 - legendRows * 16,
      history[0]!.t,
      history.at(-1)!.t,
    );
    body = `${chart}<div class="legend">${legend || '<span>No data</span>'}</div>`;
  }
  return `<div class="panel" style="${style}"><div class="title">${esc(panel.title)}</div>${body}</div>`;
}

async function main(): Promise<void> {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { title: string; panels: Panel[] };
  const h = await startHarness({ env: { METRICS_PORT: '9464', INBOUND_POLL_SECONDS: '2' } });
  const history: Scrape[] = [];
  try {
    await h.store.permissions.grant(users.alice, 'sender', users.admin);
    await h.store.subscriptions.add(channels.smsOps, { kind: 'inbound' }, users.admin);
    h.bot.relay.start();
    h.bot.tracker.start();
    const until = Date.now() + SECONDS * 1000;
    const scraping = (async () => {
      while (Date.now() < until + 2_000) {
        const text = await (await fetch(h.bot.metrics!.url)).text();
        const samples = parseExposition(text).map((s) => ({
          ...s,
          labels: { ...s.labels, instance: INSTANCE },
        }));
        history.push({ t: Date.now() / 1000, samples });
        await sleep(1_000);
      }
    })();
    await workload(h, until);
    await scraping;
    await h.bot.relay.stop();
    await h.bot.tracker.stop();
  } finally {
    await h.close();
  }

  const unitPx = { col: 62, row: 30 };
  const rows = Math.max(...dashboard.panels.map((p) => p.gridPos.y + p.gridPos.h));
  const html = `<!doctype html><html><head><meta charset="utf-8"><style>
    body { margin:0; background:#111217; color:#ccccdc; font:12px Inter, "DejaVu Sans", sans-serif; }
    header { padding:10px 14px; font-size:16px; display:flex; gap:16px; align-items:baseline; }
    header small { color:#8e8e8e; font-size:12px; }
    .vars { padding:0 14px 8px; color:#8e8e8e; } .vars b { color:#ccccdc; background:#22252b; padding:2px 6px; border-radius:2px; }
    .grid { position:relative; margin:0 10px; height:${rows * unitPx.row}px; }
    .panel { position:absolute; background:#181b1f; border:1px solid #2c3235; border-radius:2px; padding:4px; box-sizing:border-box; overflow:hidden; }
    .title { font-weight:500; padding:2px 4px 6px; color:#ccccdc; }
    .row { position:absolute; font-size:14px; font-weight:500; padding-top:6px; }
    svg text { fill:#8e8e8e; font-size:10px; }
    .legend { padding:0 6px; line-height:16px; } .legend span { display:inline-block; margin-right:12px; white-space:nowrap; }
    .legend i { display:inline-block; width:12px; height:3px; margin-right:4px; vertical-align:middle; }
    .stat { font-size:44px; color:#73bf69; text-align:center; padding-top:50px; }
  </style></head><body>
  <header>${esc(dashboard.title)} <small>Drawn from docs/grafana/smsops-dashboard.json by test/metrics/render-dashboard.ts (not a Grafana screenshot): ${history.length} scrapes of a real bot's /metrics, ${SECONDS} s of scripted workload, rate interval ${RATE_INTERVAL}</small></header>
  <div class="vars">Data source <b>Prometheus</b> &nbsp; Instance <b>All</b></div>
  <div class="grid">${dashboard.panels.map((p) => panelHtml(p, history, unitPx)).join('')}</div>
  </body></html>`;
  const browser = await launchChromium();
  try {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 24 * unitPx.col + 20, height: 800 });
    await page.setContent(html);
    await page.screenshot({ path: OUT, fullPage: true });
  } finally {
    await browser.close();
  }
  console.log(`${OUT}: ${history.length} scrapes, ${dashboard.panels.length} panels`);
}

await main();
