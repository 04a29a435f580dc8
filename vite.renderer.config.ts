// Vite build of the window (renderer/), shared by `npm run build:renderer` (plain Vite, so `mori ui`
// has a page without Electron) and electron-vite's renderer part. Preact components are TSX, turned
// into calls of Preact's automatic JSX runtime by Vite's own transform: no plugin. Output in
// out/renderer/, where the web host and the Electron window load it from.
import { fileURLToPath } from 'node:url';
import type { UserConfig } from 'vite';

const root = fileURLToPath(new URL('./renderer', import.meta.url));
const outDir = fileURLToPath(new URL('./out/renderer', import.meta.url));

export const rendererConfig: UserConfig = {
  root,
  // Relative asset URLs: the same files load from the web host's / and from Electron's file:// window.
  base: './',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir,
    emptyOutDir: true,
    // Chromium of Electron 40 and Debian's: no down-levelling needed.
    target: 'es2023',
    // electron-vite leaves the renderer unminified unless told; Vite alone minifies anyway.
    minify: true,
    // The entry holds Preact, xterm and the window (~435 kB, ~117 kB gzip); CodeMirror, the merge
    // view (the Changes tab) and, in a browser, the WebSocket transport with zod are chunks loaded
    // when needed. A static import of them would take the entry past this limit, and the build warns.
    chunkSizeWarningLimit: 600,
    rollupOptions: { input: fileURLToPath(new URL('./renderer/index.html', import.meta.url)) },
  },
};

export default rendererConfig;
