// The window's first script (DESIGN.md §13): the sessions list paints before the terminal code loads.
// xterm and its addons are most of the window's script; in the entry chunk they would be parsed
// before the first paint of every load (a cold first load took ~1.1 s with them, ~0.6 s without,
// in the window bench). They load with the first terminal shown (renderer/terminal-pool.ts).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildRenderer } from './window-harness.js';

const OUT = fileURLToPath(new URL('../../out/renderer/', import.meta.url));
/** A string only xterm's code holds: the class of its hidden input. */
const XTERM_MARK = 'xterm-helper-textarea';

describe("the window's entry script", () => {
  beforeAll(async () => {
    await buildRenderer();
  }, 180_000);

  it('holds no terminal code; a chunk of its own does, loaded by the terminal pool', () => {
    const html = readFileSync(path.join(OUT, 'index.html'), 'utf8');
    const entry = /<script type="module"[^>]*src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(entry).toBeDefined();
    const code = readFileSync(path.join(OUT, entry ?? ''), 'utf8');
    expect(code).not.toContain(XTERM_MARK);
    const chunks = readdirSync(path.join(OUT, 'assets')).filter((f) => f.endsWith('.js'));
    const terminal = chunks.filter((f) => readFileSync(path.join(OUT, 'assets', f), 'utf8').includes(XTERM_MARK));
    expect(terminal).toHaveLength(1);
    expect(terminal[0]).toMatch(/^session-terminal-/);
  });
});
