// Terminal output as plain text, for the earlier-output view and anything that shows output without
// a terminal. Pure. Runs in the renderer (and in unit tests).

/** Escape sequences (CSI, OSC, two-character ones): the history shows text only. */
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f]/g;

/** Terminal output as lines of text: a carriage return rewrites its line, as on the screen. */
export function plainText(raw: string): string {
  return raw
    .replace(ESCAPES, '')
    .split('\n')
    .map((line) => {
      const parts = line.split('\r').filter((p) => p !== '');
      return parts[parts.length - 1] ?? '';
    })
    .join('\n');
}
