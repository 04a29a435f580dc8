// Fixture scripts bundled with the built modules they import (test/support/fixtures/*.mjs load them from
// out/cli), as scripts/bundle-cli.mjs bundles the CLI: a process then loads one file instead of about
// a hundred small modules, which on Node 20 (no compile cache) is most of its start. For tests that
// start such a fixture dozens or hundreds of times; the code each process runs is the same.
import path from 'node:path';
import { rolldown } from 'rolldown';
import { REPO, tempDir } from '../../testkit/mori-cli.js';

/** Bundles test/support/fixtures/<name> for each name into a temp dir; the bundled file's path by name. */
export async function bundleFixtures(names: string[]): Promise<Record<string, string>> {
  const dir = tempDir('bundled-fixtures');
  const input = Object.fromEntries(names.map((n) => [n.replace(/\.mjs$/, ''), path.join(REPO, 'test', 'support', 'fixtures', n)]));
  // Only Node's own modules stay outside: the fixtures' imports are pure JavaScript.
  const bundle = await rolldown({ input, platform: 'node', logLevel: 'warn', external: (id) => id.startsWith('node:') });
  await bundle.write({ dir, format: 'esm', entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs' });
  await bundle.close();
  return Object.fromEntries(names.map((n) => [n, path.join(dir, n)]));
}
