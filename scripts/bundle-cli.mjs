// Bundles the compiled CLI (out/cli/main/cli/index.js, from tsc) into out/cli/main/lean/: one entry
// plus a chunk per command, with zod, commander and the markdown parser inlined. A command then loads
// a handful of files instead of about a hundred small modules, which on Node 20 (no compile cache)
// is most of `mori ls`'s time beyond Node's own start (DESIGN.md §10). Packages with native parts or
// their own optional requires stay external and load from node_modules as before.
//
// The bundle is CommonJS (.cjs): Node loads it faster than ES modules (no module graph to link), and
// only CommonJS lets bin/code-cache.js hand V8 the code it compiled on an earlier run.
//
// The output sits two folders below out/cli like every compiled module, so the two paths the code
// takes from its own location still hold: the daemon's entry (main/daemon-client/daemon-process.ts)
// and the built renderer (main/web/web-host.ts).
import { rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}out/cli/main/lean`;
/** Pure-JavaScript packages the CLI's commands load on every run; everything else stays external. */
const INLINED = /^(zod|commander|mdast-util-[a-z-]+|micromark(-[a-z-]+)?|decode-named-character-reference|character-entities|unist-util-[a-z-]+|devlop)(\/|$)/;

/**
 * Commander requires node:child_process when it loads, for subcommands that are programs of their
 * own, which Mori has none of; loading it costs every command a few ms (`mori ls` never starts a
 * process). Its one use, spawn, now loads it when called.
 */
const COMMANDER_CHILD_PROCESS = "const childProcess = require('node:child_process');";
const lazyChildProcess = {
  name: 'commander-lazy-child-process',
  transform(code, id) {
    if (!/commander[\\/]lib[\\/]command\.js$/.test(id)) return null;
    if (!code.includes(COMMANDER_CHILD_PROCESS)) throw new Error(`${id}: commander no longer requires node:child_process as bundle-cli.mjs expects; review the lazy load`);
    return code.replace(COMMANDER_CHILD_PROCESS, "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };");
  },
};

const bundle = await rolldown({
  input: { mori: `${root}out/cli/main/cli/index.js` },
  platform: 'node',
  logLevel: 'warn',
  external: (id) => id.startsWith('node:') || (/^[@a-z]/.test(id) && !INLINED.test(id)),
  plugins: [lazyChildProcess],
});
rmSync(out, { recursive: true, force: true });
await bundle.write({ dir: out, format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: '[name]-[hash].cjs' });
await bundle.close();
// Node looks for the package.json nearest a module on every require it resolves; one here ends that
// walk at the bundle's own folder instead of four folders up.
writeFileSync(`${out}/package.json`, '{ "type": "commonjs" }\n');
