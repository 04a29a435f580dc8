// Vite build of the window (renderer/), shared by `npm run build:renderer` (plain Vite, so `mori ui`
// has a page without Electron) and electron-vite's renderer part. Preact components are TSX, turned
// into calls of Preact's automatic JSX runtime by Vite's own transform: no plugin. Output in
// out/renderer/, where the web host and the Electron window load it from.
import { fileURLToPath } from 'node:url';
import type { Plugin, UserConfig } from 'vite';
import { BROWSER_API_COMMENT } from './main/web/browser-api-preload.js';

const root = fileURLToPath(new URL('./renderer', import.meta.url));
const outDir = fileURLToPath(new URL('./out/renderer', import.meta.url));

/**
 * In a browser (`mori ui`) the window's first request waits for the API's chunk (renderer/api.ts),
 * which the entry asks for only once it has run. The page names that chunk in a comment, which the
 * web host turns into a modulepreload link (main/web/static-files.ts), so a browser fetches and
 * compiles it alongside the entry; the app (file://) reads the page as built and never loads it.
 */
const nameApiChunk: Plugin = {
  name: 'mori-name-api-chunk',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler(html, ctx) {
      const chunk = Object.values(ctx.bundle ?? {}).find((c) => c.type === 'chunk' && c.facadeModuleId?.endsWith('/renderer/api.ts'));
      return chunk ? html.replace('</head>', `  ${BROWSER_API_COMMENT(`./${chunk.fileName}`)}\n  </head>`) : html;
    },
  },
};

export const rendererConfig: UserConfig = {
  root,
  plugins: [nameApiChunk],
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
