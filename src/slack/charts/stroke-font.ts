/**
 * A small stroke font (capitals, digits, a little punctuation) drawn as SVG paths. Charts carry their
 * own letters so a PNG looks the same on every host: slim containers and PaaS images often have no
 * fonts at all, and a renderer without one silently drops every label.
 *
 * Each glyph is a list of polylines on a 4 × 6 grid (y down, baseline at 6); the advance is 6 units.
 */
const GLYPHS: Record<string, string[]> = {
  '0': ['1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,1 1,0', '4,1 0,5'],
  '1': ['1,1 2,0 2,6', '1,6 3,6'],
  '2': ['0,1 1,0 3,0 4,1 4,2 0,6 4,6'],
  '3': ['0,0 4,0 2,2 3,2 4,3 4,5 3,6 1,6 0,5'],
  '4': ['3,6 3,0 0,4 4,4'],
  '5': ['4,0 0,0 0,2 3,2 4,3 4,5 3,6 0,6'],
  '6': ['3,0 1,0 0,1 0,5 1,6 3,6 4,5 4,4 3,3 0,3'],
  '7': ['0,0 4,0 1,6'],
  '8': ['1,0 3,0 4,1 4,2 3,3 1,3 0,2 0,1 1,0', '1,3 0,4 0,5 1,6 3,6 4,5 4,4 3,3'],
  '9': ['4,3 1,3 0,2 0,1 1,0 3,0 4,1 4,5 3,6 1,6'],
  A: ['0,6 0,2 2,0 4,2 4,6', '0,4 4,4'],
  B: ['0,3 3,3 4,2 4,1 3,0 0,0 0,6 3,6 4,5 4,4 3,3'],
  C: ['4,1 3,0 1,0 0,1 0,5 1,6 3,6 4,5'],
  D: ['0,0 3,0 4,1 4,5 3,6 0,6 0,0'],
  E: ['4,0 0,0 0,6 4,6', '0,3 3,3'],
  F: ['4,0 0,0 0,6', '0,3 3,3'],
  G: ['4,1 3,0 1,0 0,1 0,5 1,6 3,6 4,5 4,3 2,3'],
  H: ['0,0 0,6', '4,0 4,6', '0,3 4,3'],
  I: ['1,0 3,0', '2,0 2,6', '1,6 3,6'],
  J: ['4,0 4,5 3,6 1,6 0,5'],
  K: ['0,0 0,6', '4,0 0,4', '1,3 4,6'],
  L: ['0,0 0,6 4,6'],
  M: ['0,6 0,0 2,3 4,0 4,6'],
  N: ['0,6 0,0 4,6 4,0'],
  O: ['1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,1 1,0'],
  P: ['0,6 0,0 3,0 4,1 4,2 3,3 0,3'],
  Q: ['1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,1 1,0', '2,4 4,6'],
  R: ['0,6 0,0 3,0 4,1 4,2 3,3 0,3', '2,3 4,6'],
  S: ['4,1 3,0 1,0 0,1 0,2 1,3 3,3 4,4 4,5 3,6 1,6 0,5'],
  T: ['0,0 4,0', '2,0 2,6'],
  U: ['0,0 0,5 1,6 3,6 4,5 4,0'],
  V: ['0,0 2,6 4,0'],
  W: ['0,0 1,6 2,3 3,6 4,0'],
  X: ['0,0 4,6', '4,0 0,6'],
  Y: ['0,0 2,3 4,0', '2,3 2,6'],
  Z: ['0,0 4,0 0,6 4,6'],
  ' ': [],
  ',': ['2,5 2,6 1,7'],
  '.': ['2,5.6 2,6'],
  '%': ['0,6 4,0', '0,0 1,0 1,1 0,1 0,0', '3,5 4,5 4,6 3,6 3,5'],
  '-': ['1,3 3,3'],
  '+': ['0,3 4,3', '2,1 2,5'],
  ':': ['2,1.6 2,2', '2,4.6 2,5'],
  '/': ['0,6 4,0'],
  '(': ['3,0 1,2 1,4 3,6'],
  ')': ['1,0 3,2 3,4 1,6'],
  '?': ['0,1 1,0 3,0 4,1 4,2 2,3 2,4', '2,5.6 2,6'],
};

const ADVANCE = 6;
const GLYPH_WIDTH = 4;
const GLYPH_HEIGHT = 6;

/** Width in pixels of `text` at a cap height of `size`. */
export function textWidth(text: string, size: number): number {
  const n = [...text].length;
  return n === 0 ? 0 : ((n - 1) * ADVANCE + GLYPH_WIDTH) * (size / GLYPH_HEIGHT);
}

export interface TextOptions {
  /** Cap height in pixels. */
  size: number;
  color: string;
  anchor?: 'start' | 'middle' | 'end';
}

const num = (n: number) => Number(n.toFixed(2));

/** `text` (upper-cased; unknown characters as "?") as one SVG path whose baseline-left is at (x, y). */
export function svgText(text: string, x: number, y: number, options: TextOptions): string {
  const chars = [...text.toUpperCase()];
  const scale = options.size / GLYPH_HEIGHT;
  const width = textWidth(text, options.size);
  const left = options.anchor === 'middle' ? x - width / 2 : options.anchor === 'end' ? x - width : x;
  const top = y - options.size;
  const d = chars
    .flatMap((char, i) =>
      (GLYPHS[char] ?? GLYPHS['?']!).map((line) => {
        const points = line.split(' ').map((p) => {
          const [px, py] = p.split(',').map(Number) as [number, number];
          return `${num(left + (i * ADVANCE + px) * scale)} ${num(top + py * scale)}`;
        });
        return `M${points.join(' L')}`;
      }),
    )
    .join(' ');
  if (d === '') return '';
  const stroke = num(Math.max(1, options.size / 7));
  return `<path d="${d}" fill="none" stroke="${options.color}" stroke-width="${stroke}" stroke-linecap="round" stroke-linejoin="round"/>`;
}
