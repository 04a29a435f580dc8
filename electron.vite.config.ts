// electron-vite build of the desktop app: the Electron main process (main/electron/index.ts, which
// bundles the supervisor), the preload, and the renderer. Output in out/{main,preload,renderer}.
import { defineConfig } from 'electron-vite';
import { rendererConfig } from './vite.renderer.config.js';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: { input: 'main/electron/index.ts', external: ['node-pty'] },
    },
  },
  preload: {
    build: { outDir: 'out/preload', rollupOptions: { input: 'preload/index.ts' } },
  },
  // The same build as `npm run build:renderer` (vite.renderer.config.ts), so both give one window.
  renderer: rendererConfig,
});
