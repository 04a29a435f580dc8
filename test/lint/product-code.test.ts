// main/ holds only product code: every file in it is reachable by imports from an entry point (the
// `mori` command, or the Electron layer that electron-vite bundles). A test fake or a dead module
// placed in main/ is caught here; fakes live in test/support/fakes/.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../testkit/mori-cli.js';

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = path.join(dir, e);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Files reachable from `entries` through relative static and dynamic imports. */
function reachable(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...entries];
  for (let f = stack.pop(); f !== undefined; f = stack.pop()) {
    if (seen.has(f)) continue;
    seen.add(f);
    let text: string;
    try {
      text = readFileSync(f, 'utf8');
    } catch {
      continue;
    }
    for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*)['"](\.[^'"]+)['"]/g)) {
      stack.push(path.resolve(path.dirname(f), (m[1] ?? '').replace(/\.js$/, '.ts')));
    }
  }
  return seen;
}

describe('main/', () => {
  it('holds no module that only tests import', () => {
    const main = tsFiles(path.join(REPO, 'main'));
    const entries = [path.join(REPO, 'main/cli/index.ts'), ...main.filter((f) => f.includes(`${path.sep}main${path.sep}electron${path.sep}`))];
    const seen = reachable(entries);
    const orphans = main.map((f) => path.relative(REPO, f)).filter((f) => !seen.has(path.join(REPO, f)));
    expect(orphans).toEqual([]);
  });
});
