// WCAG 2.1 contrast of two CSS colours as the browser computes them (`rgb(…)`, `rgba(…)`, or
// `color(srgb …)` from color-mix): the relative luminance of each, (L1 + 0.05) / (L2 + 0.05).
// A translucent foreground is first laid over the background.

export interface Pair {
  what: string;
  fg: string;
  bg: string;
  /** The least ratio WCAG asks of this pair. */
  min: number;
}

type Rgba = [number, number, number, number];

/** Channels 0..1 and alpha 0..1 of a computed colour. */
export function parseColor(css: string): Rgba {
  const srgb = /^color\(srgb\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)(?:\s*\/\s*([\d.]+))?\)$/.exec(css.trim());
  if (srgb) return [Number(srgb[1]), Number(srgb[2]), Number(srgb[3]), srgb[4] === undefined ? 1 : Number(srgb[4])];
  const rgb = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+))?\s*\)$/.exec(css.trim());
  if (rgb) return [Number(rgb[1]) / 255, Number(rgb[2]) / 255, Number(rgb[3]) / 255, rgb[4] === undefined ? 1 : Number(rgb[4])];
  throw new Error(`not a computed colour: ${css}`);
}

const channel = (c: number): number => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const luminance = ([r, g, b]: Rgba): number => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);

export function contrastOf(fg: string, bg: string): number {
  const back = parseColor(bg);
  const front = parseColor(fg);
  const a = front[3];
  const over: Rgba = [front[0] * a + back[0] * (1 - a), front[1] * a + back[1] * (1 - a), front[2] * a + back[2] * (1 - a), 1];
  const [hi, lo] = [luminance(over), luminance(back)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
