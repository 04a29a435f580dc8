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
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}out/cli/main/lean`;
/** Pure-JavaScript packages the CLI's commands load on every run; everything else stays external. */
const INLINED = /^(zod|commander|mdast-util-[a-z-]+|micromark(-[a-z-]+)?|decode-named-character-reference|character-entities|unist-util-[a-z-]+|devlop)(\/|$)/;

const bundle = await rolldown({
  input: { mori: `${root}out/cli/main/cli/index.js` },
  platform: 'node',
  logLevel: 'warn',
  external: (id) => id.startsWith('node:') || (/^[@a-z]/.test(id) && !INLINED.test(id)),
});
rmSync(out, { recursive: true, force: true });
await bundle.write({ dir: out, format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: '[name]-[hash].cjs' });
await bundle.close();
