// The window's bundle (DESIGN.md §13), built here from source with the build the app and `mori ui`
// use (vite.renderer.config.ts, in memory: a stale out/ cannot make it pass):
// - the sessions list paints before the terminal code loads: xterm and its addons are most of the
//   window's script; in the entry chunk they would be parsed before the first paint of every load (a
//   cold first load took ~1.1 s with them, ~0.6 s without, in the window bench). They load with the
//   first terminal shown (renderer/terminal/terminal-pool.ts);
// - what the page loads before any dynamic import (the entry and its static imports) stays within
//   INITIAL_JS_MAX_GZIP;
// - zod and the WebSocket transport (common/mori-api.ts with the protocol core) are not in the app's
//   bundle: only the browser's renderer/api.ts chunk holds them, imported by main.tsx where the
//   preload's `window.moriApi` is missing.
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { build, type Rollup } from 'vite';
import { beforeAll, describe, expect, it } from 'vitest';
import { rendererConfig } from '../../vite.renderer.config.js';
import { REPO } from '../../testkit/mori-cli.js';

/** A string only xterm's code holds: the class of its hidden input. */
const XTERM_MARK = 'xterm-helper-textarea';
/** The bound for the script a load parses before the first paint: 250 kB gzip. */
const INITIAL_JS_MAX_GZIP = 250_000;
/** Modules that only the browser's transport needs: zod, the WebSocket API, its protocol core, the `ws` package. */
const TRANSPORT_MODULES = [/[/\\]node_modules[/\\]zod[/\\]/, /[/\\]node_modules[/\\]ws[/\\]/, /[/\\]common[/\\]mori-api\.ts$/, /[/\\]common[/\\]protocol-client\.ts$/];
const BROWSER_API = path.join(REPO, 'renderer', 'api.ts');

let chunks: Rollup.OutputChunk[];
const byName = (file: string): Rollup.OutputChunk => {
  const c = chunks.find((x) => x.fileName === file);
  if (!c) throw new Error(`no chunk ${file}`);
  return c;
};
const entry = (): Rollup.OutputChunk => {
  const e = chunks.filter((c) => c.isEntry);
  expect(e).toHaveLength(1);
  return e[0] as Rollup.OutputChunk;
};

/** The chunks reached from `from` through static imports, and dynamic ones too unless told not to follow them. */
function reached(from: Rollup.OutputChunk, o: { dynamic: boolean; skip?: (c: Rollup.OutputChunk) => boolean }): Rollup.OutputChunk[] {
  const seen = new Map<string, Rollup.OutputChunk>();
  const visit = (c: Rollup.OutputChunk): void => {
    if (seen.has(c.fileName) || o.skip?.(c)) return;
    seen.set(c.fileName, c);
    for (const f of [...c.imports, ...(o.dynamic ? c.dynamicImports : [])]) if (f.endsWith('.js')) visit(byName(f));
  };
  visit(from);
  return [...seen.values()];
}

const transportIn = (cs: Rollup.OutputChunk[]): string[] => cs.flatMap((c) => Object.keys(c.modules).filter((m) => TRANSPORT_MODULES.some((re) => re.test(m))));

describe("the window's bundle", () => {
  beforeAll(async () => {
    const out = await build({ ...rendererConfig, configFile: false, logLevel: 'warn', build: { ...rendererConfig.build, write: false, emptyOutDir: false } });
    const outputs = (Array.isArray(out) ? out : [out]) as Rollup.RollupOutput[];
    chunks = outputs.flatMap((o) => o.output.filter((x): x is Rollup.OutputChunk => x.type === 'chunk'));
  }, 180_000);

  it('the entry holds no terminal code; a chunk of its own does, loaded by the terminal pool', () => {
    expect(entry().code).not.toContain(XTERM_MARK);
    const terminal = chunks.filter((c) => c.code.includes(XTERM_MARK));
    expect(terminal.map((c) => c.fileName)).toEqual([expect.stringMatching(/^assets\/session-terminal-/)]);
    expect(reached(entry(), { dynamic: false })).not.toContainEqual(terminal[0]);
  });

  it(`the script loaded before any dynamic import is at most ${INITIAL_JS_MAX_GZIP / 1000} kB gzip`, () => {
    const initial = reached(entry(), { dynamic: false });
    const gzip = initial.reduce((n, c) => n + gzipSync(c.code).length, 0);
    process.stdout.write(`window bundle: initial JS ${initial.map((c) => c.fileName).join(', ')}: ${(gzip / 1000).toFixed(1)} kB gzip\n`);
    expect(gzip).toBeGreaterThan(0);
    expect(gzip).toBeLessThanOrEqual(INITIAL_JS_MAX_GZIP);
  });

  it("zod and the WebSocket transport are in the browser's API chunk only, never in what the app loads", () => {
    const api = chunks.find((c) => c.facadeModuleId === BROWSER_API);
    expect(api, 'renderer/api.ts is a chunk of its own').toBeDefined();
    expect(entry().dynamicImports).toContain(api?.fileName);
    expect(entry().imports).not.toContain(api?.fileName);
    // The browser's API does bring them (so the check below looks for what is really there)…
    const browserOnly = reached(api as Rollup.OutputChunk, { dynamic: false });
    expect(transportIn(browserOnly).some((m) => /zod/.test(m))).toBe(true);
    expect(transportIn(browserOnly).some((m) => /mori-api\.ts$/.test(m))).toBe(true);
    // …and everything the app can load (every chunk reached from the entry but through that import) holds none of them.
    const app = reached(entry(), { dynamic: true, skip: (c) => c === api });
    expect(app.length).toBeGreaterThan(3);
    expect(transportIn(app)).toEqual([]);
  });
});
