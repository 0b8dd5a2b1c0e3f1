import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { MonthlyStats } from '../../gateway/index.js';
import { svgText, textWidth } from './stroke-font.js';

/**
 * The 12-month trend as a PNG: an SVG drawn here, rasterised by resvg (its WebAssembly build, which ships
 * inside the npm package: nothing is downloaded or compiled at install time, on any platform).
 */

const W = 960;
const H = 480;
const PLOT = { left: 78, right: W - 24, top: 84, bottom: H - 70 };
const COLORS = {
  delivered: '#2eb67d',
  undelivered: '#e01e5a',
  pending: '#b8b8b8',
  text: '#1d1c1d',
  muted: '#616061',
  grid: '#e8e8e8',
};
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** 12,345 → "12.3K": axis and bar labels must fit above a bar a sixtieth of the width. */
export function compactNumber(n: number): string {
  const abs = Math.abs(n);
  const fmt = (v: number, unit: string) => `${v >= 100 ? Math.round(v) : Number(v.toFixed(1))}${unit}`;
  if (abs >= 1e9) return fmt(n / 1e9, 'B');
  if (abs >= 1e6) return fmt(n / 1e6, 'M');
  if (abs >= 1e4) return fmt(n / 1e3, 'K');
  return String(Math.round(n));
}

/** A round step giving about four grid lines. */
function niceStep(max: number): number {
  if (max <= 0) return 1;
  const raw = max / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const unit = [1, 2, 2.5, 5, 10].find((u) => u * power >= raw) ?? 10;
  return Math.max(1, unit * power);
}

const rect = (x: number, y: number, w: number, h: number, fill: string) =>
  h > 0 && w > 0
    ? `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${w.toFixed(1)}" height="${h.toFixed(1)}" fill="${fill}"/>`
    : '';

/** Stacked bars per month: delivered, undelivered, and still pending (sent minus both). */
export function monthlyChartSvg(months: readonly MonthlyStats[], title = 'SMS sent per month'): string {
  const max = Math.max(0, ...months.map((m) => m.count));
  const step = niceStep(max);
  const top = Math.max(step, Math.ceil(max / step) * step);
  const plotH = PLOT.bottom - PLOT.top;
  const y = (v: number) => PLOT.bottom - (v / top) * plotH;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">`,
    `<rect width="${W}" height="${H}" fill="#ffffff"/>`,
    svgText(title, PLOT.left, 38, { size: 18, color: COLORS.text }),
  ];
  let lx = PLOT.right;
  for (const [label, color] of [
    ['PENDING', COLORS.pending],
    ['UNDELIVERED', COLORS.undelivered],
    ['DELIVERED', COLORS.delivered],
  ] as const) {
    lx -= textWidth(label, 11);
    parts.push(svgText(label, lx, 62, { size: 11, color: COLORS.muted }), rect(lx - 18, 51, 12, 12, color));
    lx -= 36;
  }
  for (let v = 0; v <= top; v += step) {
    parts.push(
      `<line x1="${PLOT.left}" x2="${PLOT.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="${COLORS.grid}" stroke-width="1"/>`,
      svgText(compactNumber(v), PLOT.left - 10, y(v) + 5, { size: 10, color: COLORS.muted, anchor: 'end' }),
    );
  }
  const slot = (PLOT.right - PLOT.left) / Math.max(1, months.length);
  const barW = Math.min(48, slot * 0.62);
  months.forEach((m, i) => {
    const x = PLOT.left + i * slot + (slot - barW) / 2;
    const cx = x + barW / 2;
    const delivered = Math.max(0, m.delivered);
    const undelivered = Math.max(0, m.undelivered);
    const pending = Math.max(0, m.count - delivered - undelivered);
    let base = 0;
    for (const [value, color] of [
      [delivered, COLORS.delivered],
      [undelivered, COLORS.undelivered],
      [pending, COLORS.pending],
    ] as const) {
      parts.push(rect(x, y(base + value), barW, y(base) - y(base + value), color));
      base += value;
    }
    if (m.count > 0) {
      parts.push(
        svgText(compactNumber(m.count), cx, y(m.count) - 7, {
          size: 10,
          color: COLORS.text,
          anchor: 'middle',
        }),
      );
    }
    parts.push(
      svgText(MONTHS[m.month - 1] ?? '?', cx, PLOT.bottom + 22, {
        size: 11,
        color: COLORS.text,
        anchor: 'middle',
      }),
      svgText(String(m.year % 100).padStart(2, '0'), cx, PLOT.bottom + 40, {
        size: 9,
        color: COLORS.muted,
        anchor: 'middle',
      }),
    );
  });
  parts.push(
    `<line x1="${PLOT.left}" x2="${PLOT.right}" y1="${PLOT.bottom}" y2="${PLOT.bottom}" stroke="${COLORS.muted}" stroke-width="1"/>`,
    '</svg>',
  );
  return parts.filter((p) => p !== '').join('\n');
}

type ResvgModule = typeof import('@resvg/resvg-wasm');
let ready: Promise<ResvgModule> | undefined;

/**
 * The renderer is imported, and its WebAssembly compiled, once per process on the first chart: a bot that
 * never draws one (DIGEST_CHARTS=off, or before the first stats digest) never loads it.
 */
function initialised(): Promise<ResvgModule> {
  ready ??= (async () => {
    const resvg = await import('@resvg/resvg-wasm');
    await resvg.initWasm(
      await readFile(createRequire(import.meta.url).resolve('@resvg/resvg-wasm/index_bg.wasm')),
    );
    return resvg;
  })();
  return ready;
}

/** Rasterises an SVG; `width` is the PNG's width in pixels (twice the drawing's for sharp text on Retina screens). */
export async function svgToPng(svg: string, width = W * 2): Promise<Uint8Array> {
  const { Resvg } = await initialised();
  const resvg = new Resvg(svg, { fitTo: { mode: 'width', value: width }, background: '#ffffff' });
  try {
    const image = resvg.render();
    try {
      return image.asPng();
    } finally {
      image.free();
    }
  } finally {
    resvg.free();
  }
}

export async function monthlyChartPng(months: readonly MonthlyStats[]): Promise<Uint8Array> {
  return svgToPng(monthlyChartSvg(months));
}
